"""LangChain's constructor keywords on every kind of component: ``name=``, ``tags=``,
``metadata=`` (the effect ``with_config`` has on the component's own run), ``verbose=``
(accepted, no effect) and ``callbacks=`` (as ``with_config(callbacks=...)``); handlers are
not part of a component's value, and ``dumps`` leaves them out."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langchain_core.runnables import RunnableLambda as TheirLambda

from combinators import Runnable, RunnableLambda
from combinators.chat_history import InMemoryChatHistory, RunnableWithMessageHistory
from combinators.integrations.langchain import from_langchain
from combinators.components.retrieval.documents import BaseRetriever, Document
from combinators.agents import AgentExecutor, AgentResult, agent_loop, create_tool_calling_agent
from combinators.language_models import (
    BaseChatModel,
    FakeListChatModel,
    FakeListLLM,
    GenericFakeChatModel,
    ScriptedChatModel,
)
from combinators.load import dumps, loads
from combinators.messages import AIMessage
from combinators.output_parsers import JsonOutputParser, StrOutputParser
from combinators.prompts import ChatPromptTemplate, HumanMessagePromptTemplate, MessagesPlaceholder, PromptTemplate
from combinators.tools import BaseTool
from effects.guards import is_dict, is_list
from tests.unit.combinators.integrations.langchain.recording import Recorder


class Shout(BaseTool):
    """Shouts the text."""

    def _run(self, text: str) -> str:
        return text.upper()


class Shelf(BaseRetriever):
    """Every document whose text holds the query."""

    def _get_relevant_documents(self, query: str, *, run_manager: Any = None) -> list[Document]:
        return [doc for doc in (Document("red apple"), Document("green pear")) if query in doc.page_content]


def _prompt(**kw: Any) -> Any:
    return PromptTemplate.from_template("Hi {who}", **kw)


def _chat_prompt(**kw: Any) -> Any:
    return ChatPromptTemplate([("human", "Hi {who}")], **kw)


def _chat_model(**kw: Any) -> Any:
    return FakeListChatModel(responses=["ok"], **kw)


def _generic_chat_model(**kw: Any) -> Any:
    return GenericFakeChatModel(messages=iter(["ok"]), **kw)


def _llm(**kw: Any) -> Any:
    return FakeListLLM(responses=["ok"], **kw)


def _parser(**kw: Any) -> Any:
    return StrOutputParser(**kw)


def _json_parser(**kw: Any) -> Any:
    return JsonOutputParser(**kw)


def _retriever(**kw: Any) -> Any:
    return Shelf(**kw)


def _tool(**kw: Any) -> Any:
    return Shout(**kw)


def _agent_loop(**kw: Any) -> Any:
    return agent_loop(FakeListChatModel(responses=["Done."]), [], **kw)


def _agent_executor(**kw: Any) -> Any:
    prompt = ChatPromptTemplate.from_messages([("human", "{input}"), MessagesPlaceholder("agent_scratchpad")])
    agent = create_tool_calling_agent(FakeListChatModel(responses=["Done."]), [], prompt)
    return AgentExecutor(agent=agent, tools=[], **kw)


def _fresh_history() -> InMemoryChatHistory:
    return InMemoryChatHistory()


def _reply(messages: Any) -> str:
    return f"{len(messages)} messages"


_REPLY = RunnableLambda(_reply)


def _with_history(**kw: Any) -> Any:
    return RunnableWithMessageHistory(_REPLY, _fresh_history, history_factory_config=[], **kw)


_THEIR_UPPER = TheirLambda(str.upper)


def _from_langchain(**kw: Any) -> Any:
    return from_langchain(_THEIR_UPPER, str, str, **kw)


# kind -> (how to build one with the keywords, an input it takes)
KINDS: dict[str, tuple[Callable[..., Any], object]] = {
    "prompt": (_prompt, {"who": "Ann"}),
    "chat_prompt": (_chat_prompt, {"who": "Ann"}),
    "chat_model": (_chat_model, "hi"),
    "generic_chat_model": (_generic_chat_model, "hi"),
    "llm": (_llm, "hi"),
    "parser": (_parser, "text"),
    "json_parser": (_json_parser, '{"a": 1}'),
    "retriever": (_retriever, "apple"),
    "tool": (_tool, {"text": "a"}),
    "agent_loop": (_agent_loop, "hi"),
    "agent_executor": (_agent_executor, {"input": "hi"}),
    "with_history": (_with_history, "hi"),
    "from_langchain": (_from_langchain, "hi"),
}
# A tool's name is its own field (its run name already); from_langchain's wrapper is named
# after the object it wraps unless given a name.
NAMED = [kind for kind in KINDS if kind not in ("tool", "from_langchain")]
UNHASHABLE = ("generic_chat_model", "from_langchain")  # a fresh script each build; LangChain's lambda


def _value(value: object) -> object:
    """A value as compared: a message's content, an agent's output (message ids are per run)."""
    if isinstance(value, AgentResult):
        return value.output
    if is_dict(value):
        return {key: _value(item) for key, item in value.items()}
    if is_list(value):
        return [_value(item) for item in value]
    return getattr(value, "content", value)


def _own_start(component: Runnable[Any, Any], input: object) -> Any:
    return next(iter(component.stream_events(input)))


@pytest.mark.parametrize("kind", NAMED)
def test_name_is_the_run_name(kind: str) -> None:
    build, input = KINDS[kind]
    component = build(name="mine")
    assert component.name == "mine"
    assert _own_start(component, input)["name"] == "mine"
    assert build().name == type(component).__name__
    assert build(name="mine") != build(name="other")


@pytest.mark.parametrize("kind", list(KINDS))
def test_tags_and_metadata_are_the_runs(kind: str) -> None:
    build, input = KINDS[kind]
    component = build(tags=["t1", "t2"], metadata={"k": 1})
    assert component.tags == ("t1", "t2")
    assert dict(component.metadata) == {"k": 1}
    start = _own_start(component, input)
    assert start["tags"] == ["t1", "t2"]
    assert start["metadata"]["k"] == 1
    assert build().step_binding is None  # unset: the run is what it was


@pytest.mark.parametrize("kind", list(KINDS))
def test_verbose_is_accepted_and_changes_nothing(kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    build, input = KINDS[kind]
    component = build(verbose=True)
    assert component.verbose is True
    assert component.step_binding is None
    assert _own_start(component, input)["event"] == _own_start(build(), input)["event"]
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("kind", list(KINDS))
def test_callbacks_are_told_like_with_config_callbacks(kind: str) -> None:
    build, input = KINDS[kind]
    given, configured = Recorder(), Recorder()
    ours, theirs = build(callbacks=[given]).invoke(input), build().with_config(callbacks=[configured]).invoke(input)
    assert _value(ours) == _value(theirs)  # messages' ids differ
    assert [call[0] for call in given.calls] == [call[0] for call in configured.calls]
    assert len(given.calls) >= 2
    assert given.calls[0][0].endswith("_start")


@pytest.mark.parametrize("kind", list(KINDS))
def test_callbacks_are_not_part_of_the_value(kind: str) -> None:
    build, _ = KINDS[kind]
    if kind == "generic_chat_model":
        return  # each build makes a fresh script: two builds are never equal
    assert build(callbacks=[Recorder()]) == build()
    if kind not in UNHASHABLE:
        assert hash(build(callbacks=[Recorder()])) == hash(build())


@pytest.mark.parametrize("kind", ["prompt", "chat_prompt", "parser"])
def test_dumps_leaves_handlers_out_and_keeps_the_other_fields(kind: str) -> None:
    build, input = KINDS[kind]
    component = build(name="n", tags=["t"], metadata={"k": 1}, callbacks=[Recorder()])
    text = dumps(component)
    assert "callbacks" not in text and "Recorder" not in text
    allowed: list[type] = [type(component), HumanMessagePromptTemplate]
    loaded: Any = loads(text, allowed=allowed)
    assert loaded == component
    assert loaded.callbacks is None
    assert _own_start(loaded, input)["tags"] == ["t"]
    # Unset, nothing is written: data of components without the keywords is unchanged.
    plain = dumps(build())
    assert all(f'"{key}"' not in plain for key in ("name", "tags", "metadata", "verbose"))


def test_pickled_components_keep_their_keywords() -> None:
    parser = StrOutputParser(name="n", tags=["t"], metadata={"k": 1})
    copy = pickle.loads(pickle.dumps(parser))
    assert copy == parser
    start = _own_start(copy, "x")
    assert (start["name"], start["tags"], start["metadata"]) == ("n", ["t"], {"k": 1})


def test_components_stay_frozen() -> None:
    parser = StrOutputParser(tags=["t"])
    with pytest.raises(AttributeError):
        parser.tags = ("u",)  # type: ignore[misc]


def test_a_bad_handler_is_refused_when_built() -> None:
    with pytest.raises(TypeError, match="LangChain callback handlers"):
        StrOutputParser(callbacks=[object()])


def _strip(event: Any) -> tuple[object, ...]:
    # Message ids are per run; the rest of an event must be the same, but for a retriever's
    # ls_retriever_name, which LangChain derives from the component's name (its name field),
    # never from with_config's run_name.
    data = {key: _value(value) for key, value in event["data"].items()}
    metadata = {key: value for key, value in event["metadata"].items() if key != "ls_retriever_name"}
    return (event["event"], event["name"], event["tags"], metadata, data)


names = st.none() | st.text(st.characters(codec="ascii", categories=["L"]), min_size=1, max_size=8)
tags = st.lists(st.sampled_from(["a", "b", "c"]), max_size=3)
metadata = st.dictionaries(st.sampled_from(["x", "y"]), st.integers(-3, 3), max_size=2)


@settings(max_examples=25, deadline=None)
@given(kind=st.sampled_from(NAMED), name=names, tags=tags, metadata=metadata)
def test_constructor_keywords_equal_with_config_in_the_events(
    kind: str, name: str | None, tags: list[str], metadata: dict[str, int]
) -> None:
    build, input = KINDS[kind]
    given_: Runnable[Any, Any] = build(name=name, tags=tags, metadata=metadata)
    config: dict[str, Any] = {"tags": tags, "metadata": metadata} | ({"run_name": name} if name else {})
    configured: Runnable[Any, Any] = build().with_config(config)
    ours = [_strip(e) for e in given_.stream_events(input)]
    theirs = [_strip(e) for e in configured.stream_events(input)]
    assert ours == theirs


def test_an_agent_executor_takes_the_keywords() -> None:
    model = ScriptedChatModel(["Done.", "Done."])
    prompt = ChatPromptTemplate.from_messages([("human", "{input}"), MessagesPlaceholder("agent_scratchpad")])
    recorder = Recorder()
    agent = create_tool_calling_agent(model, [], prompt)
    executor = AgentExecutor(agent=agent, tools=[], name="helper", tags=["a"], metadata={"k": 1}, callbacks=[recorder])
    start = _own_start(executor, {"input": "hi"})
    assert (start["name"], start["tags"], start["metadata"]) == ("helper", ["a"], {"k": 1})
    assert executor.invoke({"input": "hi"})["output"] == "Done."
    assert recorder.calls[0][0] == "on_chain_start"
    assert executor == AgentExecutor(agent=agent, tools=[], name="helper", tags=["a"], metadata={"k": 1})


def test_from_langchains_wrapper_is_named_after_the_object_unless_given_a_name() -> None:
    assert _from_langchain().name == "upper" == _THEIR_UPPER.get_name()
    assert _from_langchain(name="shout").name == "shout"
    assert _own_start(_from_langchain(name="shout"), "hi")["name"] == "shout"


def test_a_splitter_of_langchains_takes_the_keywords() -> None:
    from langchain_text_splitters import CharacterTextSplitter

    from combinators.integrations.langchain.shortcuts import SplitDocuments

    split = SplitDocuments(
        CharacterTextSplitter(separator=" ", chunk_size=4, chunk_overlap=0), name="split", tags=["t"]
    )
    start = _own_start(split, [Document("a b c d e f")])
    assert (start["name"], start["tags"]) == ("split", ["t"])
    assert SplitDocuments(split.splitter).name == "CharacterTextSplitter"


class Named(BaseChatModel):
    """A model of the user's declaring its own ``name`` field, as LangChain users may."""

    name: str = "mine"  # pyright: ignore[reportIncompatibleMethodOverride]  (a field over a property, as on BaseTool)

    def _generate(self, messages: list[Any], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return AIMessage("x")


def test_a_subclass_field_called_name_takes_the_keyword() -> None:
    assert Named().name == "mine"
    assert Named(name="other").name == "other"
    assert _own_start(Named(name="other", tags=["t"]), "hi")["name"] == "other"
    assert Named(tags=["t"]).step_binding is not None
