"""Issue 13: the fake models ported tests rely on, with the peer's constructor keywords."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from tests.message_ids import RUN_ID

from combinators.language_models import (
    FakeListChatModel,
    FakeListLLM,
    FakeListLLMError,
    FakeMessagesListChatModel,
    FakeStreamingListLLM,
    GenericFakeChatModel,
    ParrotFakeChatModel,
)
from combinators.messages import AIMessage, AIMessageChunk, HumanMessage
from combinators.output_parsers import StrOutputParser


def test_fake_streaming_list_llm_streams_characters_and_cycles() -> None:
    llm = FakeStreamingListLLM(responses=["hello", "world"])
    assert list(llm.stream("x")) == ["h", "e", "l", "l", "o"]
    assert llm.invoke("x") == "world"
    assert list(llm.stream("x")) == list("hello")

    async def run() -> list[str]:
        return [c async for c in FakeStreamingListLLM(responses=["ab"]).astream("x")]

    assert asyncio.run(run()) == ["a", "b"]
    with pytest.raises(FakeListLLMError, match="chunk 1"):
        list(FakeStreamingListLLM(responses=["abc"], error_on_chunk_number=1).stream("x"))
    assert llm._llm_type == "fake-list"


def test_fake_list_models_take_the_peers_start_index() -> None:
    llm = FakeListLLM(responses=["a", "b", "c"], i=1)
    assert [llm.invoke("x") for _ in range(3)] == ["b", "c", "a"]
    chat = FakeListChatModel(responses=["ab", "c"], i=1, sleep=None)
    assert [chat.invoke("x").text for _ in range(2)] == ["c", "ab"]
    assert (llm._llm_type, chat._llm_type) == ("fake-list", "fake-list-chat-model")


def test_parrot_repeats_the_last_message() -> None:
    parrot = ParrotFakeChatModel()
    assert parrot.invoke([HumanMessage("hi"), HumanMessage("there")]) == AIMessage("there", id=RUN_ID)
    assert (parrot | StrOutputParser()).invoke("yo") == "yo"
    assert parrot._llm_type == "parrot-fake-chat-model"


def test_fake_messages_list_answers_with_whole_messages() -> None:
    model = FakeMessagesListChatModel(responses=[AIMessage("one"), AIMessage("two", id="x")])
    assert [model.invoke("a"), model.invoke("b"), model.invoke("c")] == [
        AIMessage("one", id=RUN_ID),
        AIMessage("two", id="x"),
        AIMessage("one", id=RUN_ID),
    ]
    assert list(FakeMessagesListChatModel(responses=[AIMessage("a b")]).stream("x")) == [AIMessage("a b", id=RUN_ID)]
    assert model._llm_type == "fake-messages-list-chat-model"


def test_generic_fake_chat_model_takes_the_peers_messages_iterator() -> None:
    model = GenericFakeChatModel(messages=iter([AIMessage("hi there"), "plain"]))
    assert [c.text for c in model.stream("x")] == ["hi", " ", "there"]
    assert model.invoke("y") == AIMessage("plain", id=RUN_ID)
    with pytest.raises(IndexError, match="exhausted"):
        model.invoke("z")
    endless = GenericFakeChatModel(messages=itertools.cycle(["a"]))
    assert [endless.invoke("q").text for _ in range(3)] == ["a", "a", "a"]
    assert list(GenericFakeChatModel(messages=iter(["x"])).stream("q"))[-1] == AIMessageChunk(
        "x", chunk_position="last", id=RUN_ID
    )
    with pytest.raises(TypeError, match="one of them"):
        GenericFakeChatModel()


def test_a_start_past_the_end_raises_index_error_at_the_first_call() -> None:
    # The peer's fallback tests use FakeListLLM(responses=["foo"], i=1) as a failing primary.
    with pytest.raises(IndexError):
        FakeListLLM(responses=["foo"], i=1).invoke("x")
    with pytest.raises(IndexError):
        FakeListChatModel(responses=["foo"], i=1).invoke("x")
    fallback = FakeListLLM(responses=["foo"], i=1).with_fallbacks([FakeListLLM(responses=["bar"])])
    assert fallback.invoke("x") == "bar"


def test_cycling_still_wraps_after_the_last_response() -> None:
    llm = FakeListLLM(responses=["a", "b"], i=1)
    assert [llm.invoke("x") for _ in range(4)] == ["b", "a", "b", "a"]


def test_generic_fake_chat_model_is_configurable_by_the_peer_s_field_name() -> None:
    from combinators import ConfigurableField

    model = GenericFakeChatModel(messages=iter(["first"])).configurable_fields(
        messages=ConfigurableField(id="messages", name="Messages")
    )
    assert model.invoke("x").content == "first"
    configured = model.with_config(configurable={"messages": iter(["second"])})
    assert configured.invoke("x").content == "second"
