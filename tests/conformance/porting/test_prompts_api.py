"""Issue 13, missing API in prompts: constructors with keywords, files, examples, message
templates, message-likes, ``+``, list-like chat prompts, async formatting, multipart."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path

import pytest

from combinators.messages import AIMessage, ChatMessage, HumanMessage, SystemMessage
from combinators.prompt_values import ChatPromptValue, StringPromptValue
from combinators.prompts import (
    AIMessagePromptTemplate,
    ChatMessagePromptTemplate,
    ChatPromptTemplate,
    HumanMessagePromptTemplate,
    MessagesPlaceholder,
    PromptTemplate,
    SystemMessagePromptTemplate,
)

# -- constructors with the peer's keywords ----------------------------------------------------


def test_prompt_template_takes_the_peers_keywords() -> None:
    prompt = PromptTemplate(
        template="{greeting}, {name}!", input_variables=["name"], partial_variables={"greeting": "Hi"}
    )
    assert prompt.format(name="Ann") == "Hi, Ann!"
    mustache = PromptTemplate(template="{{a}}", input_variables=["a"], template_format="mustache")
    assert mustache.format(a=1) == "1"


def test_declared_variables_that_do_not_match_are_an_error_naming_them_when_validated() -> None:
    with pytest.raises(ValueError, match=r"missing \{'b'\}"):
        PromptTemplate(template="{a} {b}", input_variables=["a"], validate_template=True)
    with pytest.raises(ValueError, match=r"extra \{'c'\}"):
        PromptTemplate(template="{a}", input_variables=["a", "c"], validate_template=True)
    with pytest.raises(ValueError, match=r"missing \{'b'\}"):
        ChatPromptTemplate(messages=[("human", "{a}{b}")], input_variables=["a"], validate_template=True)
    with pytest.raises(ValueError, match=r"extra \{'z'\}"):
        ChatPromptTemplate(messages=[("human", "{a}")], input_variables=["a", "z"], validate_template=True)


def test_declared_variables_are_not_checked_by_default_and_the_templates_win() -> None:
    # The peer's default (validate_template=False): the declared names are replaced by
    # those the template reads, compared here as the peer's tests compare them, with lists.
    assert PromptTemplate(template="{a}", input_variables=["x"]).input_variables == ["a"]
    assert PromptTemplate(template="{b}{a}", input_variables=[]).input_variables == ["a", "b"]
    assert ChatPromptTemplate(messages=[("human", "{a}")], input_variables=["a", "z"]).input_variables == ["a"]
    assert ChatPromptTemplate(messages=[("human", "hi")], input_variables=["q"]).input_variables == []


def test_chat_prompt_takes_the_peers_keywords_and_optional_variables_may_be_declared() -> None:
    chat = ChatPromptTemplate(
        messages=[("placeholder", "{history}"), ("human", "{q}")], input_variables=["q", "history"]
    )
    assert chat.input_variables == ("q",)
    assert ChatPromptTemplate(messages=[("human", "{q}")], input_variables=["q"]).format(q="x") == "Human: x"


def test_jinja2_mismatches_warn_as_the_peer_does() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        PromptTemplate(
            template="{{ a }} {{ b }}", input_variables=["a"], template_format="jinja2", validate_template=True
        )
        PromptTemplate(template="{{ a }}", input_variables=["a", "c"], template_format="jinja2", validate_template=True)
        PromptTemplate(template="{{ a }}", input_variables=["z"], template_format="jinja2")  # not validated: no warning
    assert [str(w.message) for w in caught] == ["Missing variables: {'b'}", "Extra variables: {'c'}"]
    assert all(w.category is UserWarning for w in caught)


def test_from_file_and_from_examples(tmp_path: Path) -> None:
    path = tmp_path / "joke.txt"
    path.write_text("Tell me a joke about {topic}\n", encoding="utf-8")
    assert PromptTemplate.from_file(path).format(topic="owls") == "Tell me a joke about owls\n"
    assert PromptTemplate.from_file(str(path), ["topic"]).input_variables == ("topic",)
    few = PromptTemplate.from_examples(["1+1=2", "2+2=4"], "{q}=", ["q"], example_separator="\n", prefix="Sums:")
    assert few.template == "Sums:\n1+1=2\n2+2=4\n{q}="
    assert PromptTemplate.from_examples(["e"], "{q}", ["q"]).format(q="x") == "\n\ne\n\nx"  # empty prefix kept


# -- message templates -----------------------------------------------------------------------------


def test_message_prompt_templates_from_templates_and_files(tmp_path: Path) -> None:
    path = tmp_path / "system.txt"
    path.write_text("You are {persona}.", encoding="utf-8")
    assert SystemMessagePromptTemplate.from_template_file(path, ["persona"]).format(persona="kind") == SystemMessage(
        "You are kind."
    )
    assert HumanMessagePromptTemplate.from_template_file(path).format(persona="x") == HumanMessage("You are x.")
    assert AIMessagePromptTemplate.from_template("{n}", "f-string").format(n=3) == AIMessage("3")
    critic = ChatMessagePromptTemplate.from_template("{verdict}", role="critic")
    assert critic.format(verdict="good") == ChatMessage("good", role="critic")
    assert critic == ChatMessagePromptTemplate("{verdict}", role="critic")
    assert ChatPromptTemplate([critic]).format(verdict="ok") == "critic: ok"


def test_message_likes_classes_dicts_and_placeholders() -> None:
    chat = ChatPromptTemplate.from_messages(
        [
            (SystemMessage, "Be {style}."),
            ("placeholder", "{history}"),
            {"role": "user", "content": "{q}"},
            (AIMessage, "Sure:"),
        ]
    )
    assert chat.format_messages(style="brief", q="hi") == [
        SystemMessage("Be brief."),
        HumanMessage("hi"),
        AIMessage("Sure:"),
    ]
    with_history = chat.format_messages(style="b", q="q", history=[("ai", "earlier")])
    assert with_history[1] == AIMessage("earlier")
    with pytest.raises(ValueError, match="exact keys 'role' and 'content'"):
        ChatPromptTemplate.from_messages([{"role": "user", "content": "x", "name": "bob"}])
    with pytest.raises(ValueError, match="Unexpected message type: chat"):
        ChatPromptTemplate.from_messages([(ChatMessage, "x")])
    required = ChatPromptTemplate.from_messages([("placeholder", ("{h}", False))])
    assert required.input_variables == ("h",) and required.messages[0] == MessagesPlaceholder("h")


# -- + on prompts, list-like chat prompts ----------------------------------------------------------


def test_adding_string_prompts() -> None:
    assert (PromptTemplate.from_template("{a}") + PromptTemplate.from_template(" {b}")).template == "{a} {b}"
    assert (PromptTemplate.from_template("{a}") + " and {b}").input_variables == ("a", "b")
    with pytest.raises(ValueError, match="different formats"):
        PromptTemplate.from_template("{{a}}", template_format="mustache") + PromptTemplate.from_template("{b}")
    with pytest.raises(TypeError):
        PromptTemplate.from_template("{a}") + 3  # type: ignore[operator]


def test_adding_chat_prompts_parts_messages_and_strings() -> None:
    system = ChatPromptTemplate.from_messages([("system", "{a}")])
    both = system + ChatPromptTemplate.from_messages([("human", "{b}")])
    assert both.format_messages(a=1, b=2) == [SystemMessage("1"), HumanMessage("2")]
    assert (system + HumanMessage("x")).format_messages(a=1)[1] == HumanMessage("x")
    assert (system + "hi {c}").format_messages(a=1, c=2)[1] == HumanMessage("hi 2")
    assert (system + [("ai", "{d}")]).input_variables == ("a", "d")
    assert (system + ("ai", "{d}")).format_messages(a=1, d=2)[1] == AIMessage("2")
    assert (system + HumanMessagePromptTemplate.from_template("{z}")).input_variables == ("a", "z")
    with pytest.raises(TypeError):
        system + 3  # type: ignore[operator]


def test_chat_prompts_append_extend_index_slice_and_len() -> None:
    chat = ChatPromptTemplate.from_messages([("system", "{a}"), ("human", "{b}"), ("ai", "{c}")])
    assert len(chat) == 3
    assert chat[1] == HumanMessagePromptTemplate("{b}")
    assert chat[1:].input_variables == ("b", "c") and isinstance(chat[1:], ChatPromptTemplate)
    longer = chat.append(("human", "{d}")).extend([("ai", "x"), HumanMessage("h")])
    assert len(longer) == 6 and len(chat) == 3  # a value: the original is unchanged
    assert longer.input_variables == ("a", "b", "c", "d")


def test_partial_and_async_formatting() -> None:
    chat = ChatPromptTemplate.from_messages([("system", "{a}"), ("human", "{b}")]).partial(a="A")
    assert chat.input_variables == ("b",)

    async def formats() -> tuple[object, ...]:
        return (
            await chat.aformat_messages(b=1),
            await chat.aformat_prompt(b=1),
            await chat.aformat(b=1),
            await PromptTemplate.from_template("{x}").aformat_prompt(x=2),
            await PromptTemplate.from_template("{x}").aformat(x=2),
        )

    assert asyncio.run(formats()) == (
        [SystemMessage("A"), HumanMessage("1")],
        ChatPromptValue([SystemMessage("A"), HumanMessage("1")]),
        "System: A\nHuman: 1",
        StringPromptValue("2"),
        "2",
    )


# -- multipart content -----------------------------------------------------------------------------


def test_multipart_templates_format_into_list_content() -> None:
    chat = ChatPromptTemplate.from_messages(
        [
            ("system", [{"type": "text", "text": "You describe {kind}."}]),
            (
                "human",
                [
                    "Describe this {kind}:",
                    {"type": "image_url", "image_url": "{url}"},
                    {"image_url": {"url": "data:image/png;base64,{data}", "detail": "low"}},
                    {"text": "in {n} words"},
                ],
            ),
        ]
    )
    assert chat.input_variables == ("data", "kind", "n", "url")
    messages = chat.format_messages(kind="images", url="https://x.test/a.png", data="AAA", n=5)
    assert messages[0] == SystemMessage([{"type": "text", "text": "You describe images."}])
    assert messages[1].content == (
        {"type": "text", "text": "Describe this images:"},
        {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAA", "detail": "low"}},
        {"type": "text", "text": "in 5 words"},
    )
    assert messages[1].text == "Describe this images:in 5 words"
    with pytest.raises(KeyError, match="missing variables"):
        chat.format_messages(kind="x")
    assert hash(chat) == hash(ChatPromptTemplate(chat.messages))


def test_prompts_publish_their_variables_as_input_schema() -> None:
    assert PromptTemplate.from_template("{topic}").input_schema() == {
        "title": "PromptInput",
        "type": "object",
        "properties": {"topic": {"title": "Topic", "type": "string"}},
        "required": ["topic"],
    }
    tool = PromptTemplate.from_template("Tell me about {topic}").as_tool(name="p", description="d")
    assert tool.invoke({"topic": "owls"}) == StringPromptValue("Tell me about owls")
