"""RunnableWithMessageHistory: the peer's input and output shapes, sessions from the config, events, streams."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from combinators import ConfigurableError, ConfigurableField, ConfigurableFieldSpec, InputError, RunnableLambda
from combinators.language_models import GenericFakeChatModel, Script
from combinators.messages import AIMessage, HumanMessage, Message
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate, MessagesPlaceholder
from combinators.chat_history import (
    InMemoryChatHistory,
    InMemoryHistoryStore,
    RunnableWithMessageHistory,
    SQLiteHistoryStore,
)

ANN = {"configurable": {"session_id": "ann"}}


def seen_and_reply(messages: list[Message]) -> AIMessage:
    return AIMessage(f"saw {len(messages)}: " + " / ".join(m.text for m in messages))


def test_a_two_turn_conversation_over_messages() -> None:
    store = InMemoryHistoryStore()
    chat = RunnableWithMessageHistory(RunnableLambda(seen_and_reply), store)
    assert chat.invoke("hello", ANN).text == "saw 1: hello"
    assert chat.invoke([HumanMessage("second")], ANN).text == "saw 3: hello / saw 1: hello / second"
    assert [(m.type, m.text) for m in store("ann").get_messages()] == [
        ("human", "hello"),
        ("ai", "saw 1: hello"),
        ("human", "second"),
        ("ai", "saw 3: hello / saw 1: hello / second"),
    ]
    assert chat.invoke("other", {"configurable": {"session_id": "bob"}}).text == "saw 1: other"


def prompt_chain() -> Any:
    prompt = ChatPromptTemplate.from_messages(
        [("system", "be brief"), MessagesPlaceholder("history"), ("human", "{question}")]
    )
    model = GenericFakeChatModel(Script(["first answer", "second answer"]))
    return prompt | model | StrOutputParser()


def test_dict_inputs_with_a_history_key_and_a_str_output() -> None:
    store = InMemoryHistoryStore()
    chat = RunnableWithMessageHistory(
        prompt_chain(), store, input_messages_key="question", history_messages_key="history"
    )
    assert chat.invoke({"question": "q1"}, ANN) == "first answer"
    assert chat.invoke({"question": "q2"}, ANN) == "second answer"
    assert [(m.type, m.text) for m in store("ann").get_messages()] == [
        ("human", "q1"), ("ai", "first answer"), ("human", "q2"), ("ai", "second answer"),
    ]  # fmt: skip


def test_the_history_is_put_before_the_input_messages_under_the_input_key() -> None:
    seen: list[Any] = []

    def record(value: dict[str, Any]) -> dict[str, Any]:
        seen.append(value)
        return {"answer": "yes", "extra": 1}

    store = InMemoryHistoryStore()
    chat = RunnableWithMessageHistory(
        RunnableLambda(record), store, input_messages_key="q", output_messages_key="answer"
    )
    assert chat.invoke({"q": "one", "n": 1}, ANN) == {"answer": "yes", "extra": 1}
    chat.invoke({"q": "two", "n": 2}, ANN)
    assert seen[1] == {"q": [HumanMessage("one"), AIMessage("yes"), HumanMessage("two")], "n": 2}
    assert [m.text for m in store("ann").get_messages()] == ["one", "yes", "two", "yes"]


def test_several_output_messages_are_stored_with_the_input() -> None:
    store = InMemoryHistoryStore()

    def two(messages: list[Message]) -> list[AIMessage]:
        return [AIMessage("a1"), AIMessage("a2")]

    RunnableWithMessageHistory(RunnableLambda(two), store).invoke(HumanMessage("m"), ANN)
    assert [m.text for m in store("ann").get_messages()] == ["m", "a1", "a2"]


def test_a_missing_session_id_names_the_key_and_stores_nothing() -> None:
    store = InMemoryHistoryStore()
    chat = RunnableWithMessageHistory(RunnableLambda(seen_and_reply), store)
    with pytest.raises(
        ConfigurableError,
        match=r"missing 'session_id'; call it with config=\{'configurable': \{'session_id': \.\.\.\}\}",
    ):
        chat.invoke("hi")
    with pytest.raises(ConfigurableError, match="has no configurable id 'sesion_id'; its ids are: 'session_id'"):
        chat.invoke("hi", {"configurable": {"sesion_id": "ann"}})
    with pytest.raises(ConfigurableError, match="takes str, got 7"):
        chat.invoke("hi", {"configurable": {"session_id": 7}})
    assert store.sessions() == []


def test_custom_session_keys_reach_the_factory() -> None:
    histories: dict[tuple[str, str], InMemoryChatHistory] = {}

    def history(user_id: str, conversation_id: str) -> InMemoryChatHistory:
        return histories.setdefault((user_id, conversation_id), InMemoryChatHistory())

    chat = RunnableWithMessageHistory(
        RunnableLambda(seen_and_reply),
        history,
        history_factory_config=[
            ConfigurableFieldSpec(id="user_id", annotation=str),
            ConfigurableFieldSpec(id="conversation_id", annotation=str),
        ],
    )
    chat.invoke("hi", {"configurable": {"user_id": "u", "conversation_id": "c"}})
    assert list(histories) == [("u", "c")] and len(histories["u", "c"].get_messages()) == 2
    with pytest.raises(ConfigurableError, match="missing 'conversation_id'"):
        chat.invoke("hi", {"configurable": {"user_id": "u"}})
    schema = chat.config_schema()["properties"]["configurable"]["properties"]
    assert set(schema) == {"user_id", "conversation_id"}


def test_events_of_a_turn() -> None:
    chat = RunnableWithMessageHistory(RunnableLambda(seen_and_reply), InMemoryHistoryStore())

    async def events() -> list[tuple[str, str, int]]:
        return [(e["event"], e["name"], len(e["parent_ids"])) async for e in chat.astream_events("hi", ANN)]

    assert asyncio.run(events()) == [
        ("on_chain_start", "RunnableWithMessageHistory", 0),
        ("on_chain_start", "load_history", 1),
        ("on_chain_end", "load_history", 1),
        ("on_chain_start", "seen_and_reply", 1),
        ("on_chain_stream", "seen_and_reply", 1),
        ("on_chain_stream", "RunnableWithMessageHistory", 0),
        ("on_chain_end", "seen_and_reply", 1),
        ("on_chain_start", "save_history", 1),
        ("on_chain_end", "save_history", 1),
        ("on_chain_end", "RunnableWithMessageHistory", 0),
    ]


def words(messages: list[Message]) -> Iterator[str]:
    for word in ["one", " two", " three"]:
        yield word


def test_a_stream_stores_its_turn_only_when_it_finishes() -> None:
    store = InMemoryHistoryStore()
    chat = RunnableWithMessageHistory(RunnableLambda(words), store)
    with closing(chat.stream("early", ANN)) as chunks:
        assert next(chunks) == "one"
    assert store("ann").get_messages() == []
    assert "".join(chat.stream("full", ANN)) == "one two three"
    assert [m.text for m in store("ann").get_messages()] == ["full", "one two three"]

    async def astream() -> str:
        return "".join([c async for c in chat.astream("async", ANN)])

    assert asyncio.run(astream()) == "one two three"
    assert len(store("ann").get_messages()) == 4


def test_a_failing_turn_stores_nothing() -> None:
    def broken(messages: list[Message]) -> str:
        raise RuntimeError("model down")

    store = InMemoryHistoryStore()
    with pytest.raises(RuntimeError):
        RunnableWithMessageHistory(RunnableLambda(broken), store).invoke("hi", ANN)
    assert store("ann").get_messages() == []


def test_wrong_shapes_are_input_errors() -> None:
    chat = RunnableWithMessageHistory(RunnableLambda(seen_and_reply), InMemoryHistoryStore(), input_messages_key="q")
    with pytest.raises(InputError, match="expects a dict input, got str"):
        chat.invoke("not a dict", ANN)
    with pytest.raises(InputError, match="expects input as a str, a message or a list of messages, got int"):
        RunnableWithMessageHistory(RunnableLambda(seen_and_reply), InMemoryHistoryStore()).invoke(3, ANN)


def test_a_conversation_on_sqlite_with_a_configurable_model_async(tmp_path: Path) -> None:
    store = SQLiteHistoryStore(tmp_path / "chat.db")
    model = GenericFakeChatModel(Script(["from the default"], cycle=True)).configurable_alternatives(
        ConfigurableField(id="llm"), default_key="default", other=GenericFakeChatModel(Script(["other"], cycle=True))
    )
    chat = RunnableWithMessageHistory(model | StrOutputParser(), store)
    both = {"configurable": {"session_id": "ann", "llm": "other"}}

    async def talk() -> list[str]:
        return [await chat.ainvoke("one", ANN), await chat.ainvoke("two", both)]

    assert asyncio.run(talk()) == ["from the default", "other"]
    assert [m.text for m in store("ann").get_messages()] == ["one", "from the default", "two", "other"]
    assert store.sessions() == ["ann"]
