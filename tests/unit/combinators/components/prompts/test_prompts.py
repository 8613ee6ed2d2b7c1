"""Prompt runnables: facts probed on langchain-core 1.8.3, values, safety, running."""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import Callable
from typing import Any

import attrs
import cloudpickle  # type: ignore[import-untyped]
import pytest

from combinators.components.models.fakes import GenericFakeChatModel, Script
from combinators.components.messages.message_classes import AIMessage, HumanMessage, SystemMessage
from combinators.components.prompts.prompt_values import ChatPromptValue, StringPromptValue
from combinators.prompts import (
    AIMessagePromptTemplate,
    BaseMessagePromptTemplate,
    ChatPromptTemplate,
    HumanMessagePromptTemplate,
    MessagesPlaceholder,
    PromptTemplate,
    SystemMessagePromptTemplate,
)
from effects.errors import InputError
from tests.message_ids import RUN_ID

DUMPS: tuple[Callable[[object], bytes], ...] = (pickle.dumps, getattr(cloudpickle, "dumps"))

# -- PromptTemplate --------------------------------------------------------------------------


def test_a_prompt_template_formats_a_mapping_into_a_string_prompt_value() -> None:
    prompt = PromptTemplate.from_template("Tell me a joke about {topic}")
    assert prompt.invoke({"topic": "cats"}) == StringPromptValue("Tell me a joke about cats")
    assert prompt.input_variables == ("topic",)


def test_input_variables_are_sorted() -> None:
    assert PromptTemplate.from_template("{b} and {a}").input_variables == ("a", "b")


def test_a_single_variable_template_accepts_a_bare_value() -> None:
    prompt = PromptTemplate.from_template("Tell me a joke about {topic}")
    assert prompt.invoke("cats").text == "Tell me a joke about cats"
    assert prompt.invoke(3).text == "Tell me a joke about 3"  # type: ignore[arg-type]  # the runtime wraps any value


def test_a_template_with_several_variables_needs_a_mapping() -> None:
    with pytest.raises(
        InputError, match=r"^Expected mapping type as input to PromptTemplate. Received <class 'str'>.$"
    ):
        PromptTemplate.from_template("{b} and {a}").invoke("x")


def test_a_missing_variable_raises_the_peers_key_error() -> None:
    with pytest.raises(KeyError) as raised:
        PromptTemplate.from_template("{b} and {a}").invoke({"a": 1})
    message = raised.value.args[0]
    assert message.startswith(
        "Input to PromptTemplate is missing variables {'b'}.  Expected: ['a', 'b'] Received: ['a']\n"
        "Note: if you intended {b} to be part of the string and not a variable, please escape it "
        "with double curly braces like: '{{b}}'."
    )


def test_partial_fills_variables_and_removes_them_from_the_inputs() -> None:
    prompt = PromptTemplate.from_template("{b} and {a}")
    partial = prompt.partial(a="A")
    assert partial.input_variables == ("b",)
    assert partial.invoke({"b": 1}).text == "1 and A"
    assert partial.invoke(1).text == "1 and A"  # type: ignore[arg-type]  # now a single variable
    assert prompt.input_variables == ("a", "b")  # the original is unchanged


def test_partial_variables_may_be_callables_called_at_each_format() -> None:
    calls: list[int] = []

    def today() -> str:
        calls.append(1)
        return f"day {len(calls)}"

    prompt = PromptTemplate.from_template("{day}: {q}", partial_variables={"day": today})
    assert prompt.input_variables == ("q",)
    assert [prompt.invoke("a").text, prompt.invoke("b").text] == ["day 1: a", "day 2: b"]
    assert prompt.invoke({"q": "c", "day": "now"}).text == "now: c"  # an override is not even called
    assert len(calls) == 2


def test_mustache_templates_read_top_level_names() -> None:
    prompt = PromptTemplate.from_template("{{#items}}{{name}}{{/items}} {{person.name}}", template_format="mustache")
    assert prompt.input_variables == ("items", "person")
    assert prompt.invoke({"items": [{"name": "x"}], "person": {"name": "P"}}).text == "x P"


def test_jinja2_templates_are_sandboxed_and_opt_in() -> None:
    prompt = PromptTemplate.from_template("{{ a }}-{{ b.c }}", template_format="jinja2")
    assert prompt.input_variables == ("a", "b")
    assert prompt.invoke({"a": 1, "b": {"c": 2}}).text == "1-2"


@pytest.mark.parametrize("source", ["{x.attr}", "{x[0]}", "{x!r}", "{x:>10}", "{}"])
def test_unsafe_placeholders_fail_when_the_prompt_is_built(source: str) -> None:
    with pytest.raises(ValueError, match="a placeholder must be a bare identifier"):
        PromptTemplate.from_template(source)


def test_values_are_inserted_once_and_never_formatted_again() -> None:
    prompt = ChatPromptTemplate.from_messages([("system", "{rules}"), ("human", "{q}")])
    value = prompt.invoke({"rules": "{q} {q.__class__}", "q": "{rules}"})
    assert value.to_messages() == [SystemMessage("{q} {q.__class__}"), HumanMessage("{rules}")]
    assert PromptTemplate.from_template("{a}").invoke({"a": "{a}{{b}}"}).text == "{a}{{b}}"


def test_format_and_format_prompt() -> None:
    prompt = PromptTemplate.from_template("Hi {name}")
    assert prompt.format(name="Bo") == "Hi Bo"
    assert prompt.format_prompt(name="Bo") == StringPromptValue("Hi Bo")


def test_prompt_templates_are_frozen_values_with_constructor_reprs() -> None:
    prompt = PromptTemplate.from_template("Hi {name}")
    assert repr(prompt) == "PromptTemplate('Hi {name}')"
    assert repr(PromptTemplate("{{x}}", template_format="mustache", partial_variables={"x": 1})) == (
        "PromptTemplate('{{x}}', template_format='mustache', partial_variables={'x': 1})"
    )
    assert prompt == PromptTemplate("Hi {name}") and hash(prompt) == hash(PromptTemplate("Hi {name}"))
    assert prompt != PromptTemplate("Hi {name}", partial_variables={"name": "x"})
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        prompt.template = "other"  # type: ignore[misc]


def test_prompt_templates_survive_pickling() -> None:
    prompt = PromptTemplate.from_template("{greeting}, {name}", partial_variables={"greeting": "Hi"})
    for dumps in DUMPS:
        copy = pickle.loads(dumps(prompt))
        assert copy == prompt
        assert copy.invoke("Bo").text == "Hi, Bo"


def test_a_prompt_is_a_prompt_run_that_takes_its_whole_input() -> None:
    prompt = PromptTemplate.from_template("Hi {name}")
    assert (prompt.run_type, prompt.name, prompt.input_known_at_start) == ("prompt", "PromptTemplate", True)
    assert list(prompt.stream({"name": "Bo"})) == [StringPromptValue("Hi Bo")]
    assert prompt.batch([{"name": "a"}, {"name": "b"}]) == [StringPromptValue("Hi a"), StringPromptValue("Hi b")]


async def test_prompt_events_show_the_input_at_start_and_the_value_at_end() -> None:
    prompt = PromptTemplate.from_template("Hi {name}")
    events = [e async for e in prompt.astream_events({"name": "Bo"})]
    assert events[0]["event"] == "on_prompt_start"
    assert events[0]["data"] == {"input": {"name": "Bo"}}
    assert events[-1]["event"] == "on_prompt_end"
    assert events[-1]["data"] == {"output": StringPromptValue("Hi Bo")}
    assert await prompt.ainvoke({"name": "Bo"}) == StringPromptValue("Hi Bo")


def test_a_prompt_pipes_into_a_chat_model() -> None:
    chain = PromptTemplate.from_template("Tell me about {topic}") | GenericFakeChatModel(Script(["cats purr"]))
    assert chain.invoke({"topic": "cats"}) == AIMessage("cats purr", id=RUN_ID)


# -- message templates and placeholders -------------------------------------------------------


def test_message_prompt_templates_format_into_messages() -> None:
    human = HumanMessagePromptTemplate.from_template("Hi {name}")
    assert human.input_variables == ("name",)
    assert human.format(name="Bo") == HumanMessage("Hi Bo")
    assert SystemMessagePromptTemplate.from_template("{x}").format_messages(x=1) == [SystemMessage("1")]
    assert AIMessagePromptTemplate.from_template("{{x}}", template_format="mustache").format(x=2) == AIMessage("2")
    assert repr(human) == "HumanMessagePromptTemplate('Hi {name}')"
    assert human == HumanMessagePromptTemplate("Hi {name}") and hash(human) == hash(
        HumanMessagePromptTemplate("Hi {name}")
    )
    with pytest.raises(TypeError, match="BaseMessagePromptTemplate is abstract"):
        BaseMessagePromptTemplate("x")


def test_a_messages_placeholder_formats_message_likes() -> None:
    placeholder = MessagesPlaceholder("history")
    assert placeholder.input_variables == ("history",)
    assert placeholder.format_messages(history=[("human", "h"), AIMessage("a")]) == [HumanMessage("h"), AIMessage("a")]
    assert MessagesPlaceholder("h", n_messages=1).format_messages(h=["a", "b"]) == [HumanMessage("b")]
    assert repr(MessagesPlaceholder("h", optional=True)) == "MessagesPlaceholder('h', optional=True)"


def test_an_optional_placeholder_defaults_to_no_messages() -> None:
    placeholder = MessagesPlaceholder("history", optional=True)
    assert placeholder.input_variables == ()
    assert placeholder.optional_variables == ("history",)
    assert placeholder.format_messages() == []


def test_a_placeholder_value_must_be_a_list_of_messages() -> None:
    with pytest.raises(
        ValueError, match="^variable history should be a list of base messages, got 'str' of type <class 'str'>$"
    ):
        MessagesPlaceholder("history").format_messages(history="str")


# -- ChatPromptTemplate ---------------------------------------------------------------------------


def chat() -> ChatPromptTemplate:
    return ChatPromptTemplate.from_messages(
        [
            ("system", "You are {persona}."),
            ("placeholder", "{history}"),
            ("human", "{q}"),
            ("ai", "ok"),
            HumanMessage("fixed {x}"),
        ]
    )


def test_chat_prompt_variables_as_the_peer_shows_them() -> None:
    prompt = chat()
    assert prompt.input_variables == ("persona", "q")
    assert prompt.optional_variables == ("history",)


def test_a_chat_prompt_formats_messages_and_keeps_message_objects_as_they_are() -> None:
    value = chat().invoke({"persona": "P", "q": "Q"})
    assert isinstance(value, ChatPromptValue)
    assert value.to_messages() == [
        SystemMessage("You are P."),
        HumanMessage("Q"),
        AIMessage("ok"),
        HumanMessage("fixed {x}"),
    ]
    assert value.to_string() == "System: You are P.\nHuman: Q\nAI: ok\nHuman: fixed {x}"


def test_a_placeholder_inserts_the_history_where_it_stands() -> None:
    value = chat().invoke({"persona": "P", "q": "Q", "history": [("human", "h1"), ("ai", "a1")]})
    assert value.to_messages() == [
        SystemMessage("You are P."),
        HumanMessage("h1"),
        AIMessage("a1"),
        HumanMessage("Q"),
        AIMessage("ok"),
        HumanMessage("fixed {x}"),
    ]


@pytest.mark.parametrize(
    ("role", "kind"),
    [
        ("system", SystemMessage),
        ("human", HumanMessage),
        ("user", HumanMessage),
        ("ai", AIMessage),
        ("assistant", AIMessage),
    ],
)
def test_every_role_of_the_peer(role: str, kind: type[Any]) -> None:
    assert ChatPromptTemplate.from_messages([(role, "{x}")]).invoke({"x": 1}).to_messages() == [kind("1")]


def test_a_missing_placeholder_variable_raises_the_peers_key_error() -> None:
    prompt = ChatPromptTemplate.from_messages([MessagesPlaceholder("history"), ("human", "{q}")])
    assert prompt.input_variables == ("history", "q")
    with pytest.raises(
        KeyError,
        match=r"Input to ChatPromptTemplate is missing variables \{'history'\}.  Expected: \['history', 'q'\] Received: \['q'\]",
    ):
        prompt.invoke({"q": 1})


def test_a_single_variable_chat_prompt_accepts_a_bare_value() -> None:
    prompt = ChatPromptTemplate.from_messages([("human", "{q}"), MessagesPlaceholder("h", optional=True)])
    assert prompt.invoke("bare").to_messages() == [HumanMessage("bare")]
    with pytest.raises(InputError, match="Expected mapping type as input to ChatPromptTemplate"):
        chat().invoke("bare")


def test_bad_message_likes_are_rejected_when_the_prompt_is_built() -> None:
    with pytest.raises(
        ValueError,
        match=r"^Unexpected message type: robot. Use one of 'human', 'user', 'ai', 'assistant', 'system' or 'placeholder'.$",
    ):
        ChatPromptTemplate.from_messages([("robot", "{q}")])
    with pytest.raises(
        ValueError,
        match="^Invalid placeholder template: history. Expected a variable name surrounded by curly braces.$",
    ):
        ChatPromptTemplate.from_messages([("placeholder", "history")])
    with pytest.raises(TypeError, match="cannot make a message template from a int"):
        ChatPromptTemplate.from_messages([3])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="a placeholder must be a bare identifier"):
        ChatPromptTemplate.from_messages([("human", "{a.b}")])


def test_strings_and_dicts_are_human_and_role_templates() -> None:
    prompt = ChatPromptTemplate.from_messages(["{a}", {"role": "system", "content": "{b}"}])
    assert prompt.invoke({"a": 1, "b": 2}).to_messages() == [HumanMessage("1"), SystemMessage("2")]


def test_chat_template_format_applies_to_every_template() -> None:
    prompt = ChatPromptTemplate.from_messages([("human", "{{q}} {x}")], template_format="mustache")
    assert prompt.input_variables == ("q",)
    assert prompt.invoke({"q": "<b>"}).to_messages() == [HumanMessage("&lt;b&gt; {x}")]


def test_chat_partial_and_from_template() -> None:
    prompt = chat().partial(persona="a poet")
    assert prompt.input_variables == ("q",)
    assert prompt.invoke("Q").to_messages()[0] == SystemMessage("You are a poet.")
    assert ChatPromptTemplate.from_template("Hi {n}").invoke("Bo").to_messages() == [HumanMessage("Hi Bo")]


def test_chat_format_helpers() -> None:
    prompt = ChatPromptTemplate.from_messages([("system", "s"), ("human", "{q}")])
    assert prompt.format_messages(q="x") == [SystemMessage("s"), HumanMessage("x")]
    assert prompt.format_prompt(q="x") == ChatPromptValue([SystemMessage("s"), HumanMessage("x")])
    assert prompt.format(q="x") == "System: s\nHuman: x"


def test_chat_prompts_are_values() -> None:
    a, b = chat(), chat()
    assert a == b and hash(a) == hash(b)
    assert a != a.partial(q="x")
    assert repr(ChatPromptTemplate.from_messages([("human", "{q}"), MessagesPlaceholder("h")])) == (
        "ChatPromptTemplate([HumanMessagePromptTemplate('{q}'), MessagesPlaceholder('h')])"
    )
    for dumps in DUMPS:
        assert pickle.loads(dumps(a)) == a
    assert (a.run_type, a.name) == ("prompt", "ChatPromptTemplate")


def test_a_chat_prompt_streams_its_value_and_pipes_into_a_model() -> None:
    prompt = ChatPromptTemplate.from_messages([("system", "Be {style}."), ("human", "{q}")])
    assert list(prompt.stream({"style": "brief", "q": "hi"})) == [
        ChatPromptValue([SystemMessage("Be brief."), HumanMessage("hi")])
    ]
    chain = prompt | GenericFakeChatModel(Script(["hello there"]))
    assert [c.text for c in chain.stream({"style": "brief", "q": "hi"})] == ["hello", " ", "there"]


def test_async_chat_prompt() -> None:
    prompt = ChatPromptTemplate.from_messages([("human", "{q}")])
    assert asyncio.run(prompt.ainvoke({"q": "x"})) == ChatPromptValue([HumanMessage("x")])


# -- what a prompt hands out compares with the peer's lists ----------------------------------------


def test_input_variables_and_messages_equal_the_peers_lists_and_stay_tuples() -> None:
    prompt = PromptTemplate.from_template("{b} {a}")
    assert prompt.input_variables == ["a", "b"] and ["a", "b"] == prompt.input_variables  # noqa: SIM300 (the reflected ==)
    assert prompt.input_variables != ["b", "a"]
    assert isinstance(prompt.input_variables, tuple) and prompt.input_variables == ("a", "b")
    chat = ChatPromptTemplate.from_messages([("placeholder", "{h}"), ("human", "{q}")])
    assert (chat.input_variables, chat.optional_variables) == (["q"], ["h"])
    assert ChatPromptTemplate.from_template("hi {x}").messages == [HumanMessagePromptTemplate.from_template("hi {x}")]
    assert MessagesPlaceholder("h", optional=True).input_variables == []
    assert hash(chat) == hash(ChatPromptTemplate.from_messages([("placeholder", "{h}"), ("human", "{q}")]))


def test_declared_input_variables_are_checked_only_when_validate_template_is_true() -> None:
    assert PromptTemplate(template="{a}", input_variables=["x"]).input_variables == ["a"]
    with pytest.raises(ValueError, match=r"^Invalid prompt schema; check for mismatched or missing input parameters"):
        PromptTemplate(template="{a}", input_variables=["x"], validate_template=True)
    assert ChatPromptTemplate(messages=[("human", "{a}")], input_variables=[]).input_variables == ["a"]
    with pytest.raises(ValueError, match=r"^Got mismatched input_variables"):
        ChatPromptTemplate(messages=[("human", "{a}")], input_variables=[], validate_template=True)


def test_jinja2_refuses_dict_content_blocks_other_than_text_and_images() -> None:
    block = {"type": "image", "source_type": "base64", "data": "{{ data }}"}
    with pytest.raises(ValueError, match=r"^jinja2 is unsafe and is not supported for templates expressed as dicts"):
        ChatPromptTemplate.from_messages([("human", [block])], template_format="jinja2")
    text_and_image = [{"type": "text", "text": "{{ q }}"}, {"type": "image_url", "image_url": "{{ u }}"}]
    jinja = ChatPromptTemplate.from_messages([("human", text_and_image)], template_format="jinja2")
    assert jinja.input_variables == ["q", "u"]
    assert ChatPromptTemplate.from_messages([("human", [block])], template_format="mustache").input_variables == [
        "data"
    ]


def test_an_image_block_with_a_path_is_refused_when_formatted() -> None:
    prompt = ChatPromptTemplate.from_messages([("human", [{"type": "image_url", "image_url": {"path": "{file}"}}])])
    with pytest.raises(ValueError, match=r"^Loading images from 'path' has been removed as of 0.3.15"):
        prompt.format_messages(file="/etc/passwd")


def test_a_prompt_as_the_peers_dict() -> None:
    prompt = PromptTemplate.from_template("{b} {a}", partial_variables={"b": "x"})
    as_dict = prompt.asdict()
    assert (
        as_dict["_type"] == "prompt"
        and as_dict["input_variables"] == ["a"]
        and type(as_dict["input_variables"]) is list
    )
    assert (as_dict["template"], as_dict["partial_variables"]) == ("{b} {a}", {"b": "x"})
    with pytest.warns(DeprecationWarning, match="asdict"):
        assert prompt.dict() == as_dict


def test_a_bad_template_validated_against_declared_variables_starts_with_the_peers_words() -> None:
    with pytest.raises(
        ValueError,
        match=r"^Invalid prompt schema; check for mismatched or missing input parameters from \[''\]\. invalid placeholder",
    ):
        PromptTemplate(input_variables=[""], template="{}", validate_template=True)
    with pytest.raises(ValueError, match=r"^invalid placeholder \{\}"):  # not validated: our words alone
        PromptTemplate(input_variables=[""], template="{}")
