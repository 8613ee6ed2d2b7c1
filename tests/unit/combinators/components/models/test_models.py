"""Chat models, LLMs and the scripted fakes: inputs, stop, streaming, events, delays."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import attrs
import pytest

from combinators import RunnableLambda
from combinators.language_models import (
    LLM,
    FakeListChatModel,
    FakeListLLM,
    FakeStreamingListLLM,
    GenericFakeChatModel,
    Script,
    SimpleChatModel,
)
from combinators.messages import AIMessage, AIMessageChunk, HumanMessage, SystemMessage
from combinators.prompt_values import ChatPromptValue
from combinators.components.messages.message_classes import Message
from effects import FakeClock, use_clock
from combinators import InputError
from tests.message_ids import RUN_ID


@attrs.frozen
class Parrot(SimpleChatModel):
    def _call(self, messages: list[Message], stop: list[str] | None = None) -> str:
        text = " | ".join(f"{m.type}:{m.text}" for m in messages)
        return text if not stop else f"{text} (stop={stop})"


@attrs.frozen
class TokenParrot(SimpleChatModel):
    def _call(self, messages: list[Message], stop: list[str] | None = None) -> str:
        return messages[-1].text

    def _call_stream(self, messages: list[Message], stop: list[str] | None = None) -> Iterator[str]:
        yield from messages[-1].text


def test_inputs_may_be_text_messages_tuples_dicts_or_prompt_values() -> None:
    model = Parrot()
    assert model.invoke("hi").text == "human:hi"
    assert model.invoke([("system", "be brief"), ("human", "hi")]).text == "system:be brief | human:hi"
    assert model.invoke([{"role": "user", "content": "yo"}]).text == "human:yo"
    assert model.invoke(ChatPromptValue([SystemMessage("s"), HumanMessage("h")])).text == "system:s | human:h"
    with pytest.raises(InputError, match="Parrot expects a str, messages or a prompt value, got int"):
        model.invoke(3)  # type: ignore[arg-type]


def test_stop_reaches_the_model_from_invoke_and_with_kwargs() -> None:
    assert Parrot().invoke("x", stop=["\n"]).text == "human:x (stop=['\\n'])"
    assert Parrot().with_kwargs(stop=["END"]).invoke("x").text == "human:x (stop=['END'])"


def test_a_model_without_a_token_stream_yields_one_message() -> None:
    chunks = list(Parrot().stream("hi"))
    assert chunks == [AIMessage("human:hi", id=RUN_ID)]
    assert [c.text for c in TokenParrot().stream("abc")] == ["a", "b", "c"]


def events(runnable: Any, value: Any) -> list[dict[str, Any]]:
    async def main() -> list[dict[str, Any]]:
        return [dict(e) async for e in runnable.astream_events(value)]

    return asyncio.run(main())


def test_chat_model_events_inside_a_chain() -> None:
    chain = RunnableLambda(str.strip) | TokenParrot()
    seen = events(chain, " ab ")
    start = next(e for e in seen if e["event"] == "on_chat_model_start")
    assert start["name"] == "TokenParrot"
    assert start["data"] == {"input": {"messages": [[HumanMessage("ab")]]}}
    streamed = [e["data"]["chunk"] for e in seen if e["event"] == "on_chat_model_stream"]
    message_id = f"lc_run--{start['run_id']}"  # made from the run's id, as the peer's
    assert streamed == [AIMessageChunk("a", id=message_id), AIMessageChunk("b", id=message_id)]
    end = next(e for e in seen if e["event"] == "on_chat_model_end")
    assert end["data"]["output"] == AIMessageChunk("ab", id=message_id)
    assert end["data"]["input"] == {"messages": [[HumanMessage("ab")]]}


def test_a_non_streaming_model_shows_no_stream_events() -> None:
    seen = events(RunnableLambda(str.strip) | Parrot(), "x")
    assert not [e for e in seen if e["event"] == "on_chat_model_stream"]
    assert [e["event"] for e in seen if e["name"] == "Parrot"] == ["on_chat_model_start", "on_chat_model_end"]


@attrs.frozen
class Upper(LLM):
    def _call(self, prompt: str, stop: list[str] | None = None) -> str:
        return prompt.upper()


def test_llm_takes_text_and_reports_llm_events() -> None:
    assert Upper().invoke("abc") == "ABC"
    assert Upper().invoke([("human", "hi")]) == "HUMAN: HI"
    seen = events(RunnableLambda(str.strip) | Upper(), " q ")
    start = next(e for e in seen if e["event"] == "on_llm_start")
    assert start["data"] == {"input": {"prompts": ["q"]}}
    end = next(e for e in seen if e["event"] == "on_llm_end")
    assert end["data"]["output"]["generations"][0][0]["text"] == "Q"


def test_generic_fake_follows_its_script_and_streams_words() -> None:
    model = GenericFakeChatModel(Script(["one two", AIMessage("three"), ValueError("down")]))
    assert [c.text for c in model.stream("a")] == ["one", " ", "two"]
    assert model.invoke("b") == AIMessage("three", id=RUN_ID)
    with pytest.raises(ValueError, match="down"):
        model.invoke("c")
    with pytest.raises(IndexError, match="exhausted"):
        model.invoke("d")


def test_fakes_honour_stop_sequences() -> None:
    model = GenericFakeChatModel(Script(["alpha STOP beta"]))
    assert model.invoke("x", stop=["STOP"]).text == "alpha "


def test_token_delays_go_through_the_injected_clock() -> None:
    clock = FakeClock()
    model = GenericFakeChatModel(Script(["a b c"]), token_delay=0.25)
    with use_clock(clock):
        assert "".join(c.text for c in model.stream("x")) == "a b c"
    assert clock.sleeps == [0.25] * 5
    model2 = GenericFakeChatModel(Script(["d e"]), token_delay=0.5)
    clock2 = FakeClock()
    with use_clock(clock2):
        assert asyncio.run(_astream_text(model2)) == "d e"
    assert clock2.sleeps == [0.5] * 3


async def _astream_text(model: GenericFakeChatModel) -> str:
    return "".join([c.text async for c in model.astream("x")])


def test_fake_list_chat_model_cycles_and_can_fail_mid_stream() -> None:
    model = FakeListChatModel(("ab", "cd"))
    assert [model.invoke("x").text for _ in range(3)] == ["ab", "cd", "ab"]
    broken = FakeListChatModel(("hello",), error_on_chunk_number=2)
    got: list[str] = []
    with pytest.raises(RuntimeError, match="scripted failure at chunk 2"):
        for chunk in broken.stream("x"):
            got.append(chunk.text)
    assert got == ["h", "e"]


def test_fake_list_llm_and_equality_ignores_the_script_position() -> None:
    llm = FakeListLLM(("x", "y"))
    assert llm.invoke("a") == "x"
    assert llm == FakeListLLM(("x", "y"))
    assert repr(llm) == "FakeListLLM(responses=('x', 'y'))"


# -- a text model's own async stream -------------------------------------------------------------


def test_a_fake_streaming_llm_sleeps_without_holding_the_event_loop() -> None:
    from blockbuster import blockbuster_ctx

    llm = FakeStreamingListLLM(responses=["abc"], sleep=0.001)

    async def main() -> list[str]:
        with blockbuster_ctx():  # a time.sleep on the loop would raise BlockingError
            return [token async for token in (RunnableLambda(lambda x: x) | llm).astream("q")]

    assert asyncio.run(main()) == ["a", "b", "c"]


def test_an_llm_with_only_an_async_stream_streams_it_and_invokes_its_generate() -> None:
    @attrs.frozen
    class Echo(LLM):
        def _call(self, prompt: str, stop: list[str] | None = None) -> str:
            return prompt

        async def _astream(self, prompt: str, stop: list[str] | None = None, **kwargs: Any) -> AsyncIterator[str]:
            for word in prompt.split():
                yield word.upper()

    async def main() -> list[str]:
        return [token async for token in Echo().astream("a b")]

    assert asyncio.run(main()) == ["A", "B"]
    assert list(Echo().stream("a b")) == ["a b"]  # sync: its _call, whole
    assert Echo().streams


def test_generic_fake_streams_additional_kwargs_as_the_peers_and_they_add_up_to_the_reply() -> None:
    call = {"name": "move", "arguments": '{"a": 1, "b": 2}'}
    model = GenericFakeChatModel(messages=iter([AIMessage("", additional_kwargs={"function_call": call, "x": 1})]))
    chunks = list(model.stream("go"))
    assert [c.additional_kwargs for c in chunks] == [
        {"function_call": {"name": "move"}},
        {"function_call": {"arguments": '{"a": 1'}},
        {"function_call": {"arguments": ","}},
        {"function_call": {"arguments": ' "b": 2}'}},
        {"x": 1},
        {},
    ]
    assert [c.chunk_position for c in chunks] == [None] * 5 + ["last"]
    assert len({c.id for c in chunks}) == 1
    total = chunks[0]
    for chunk in chunks[1:]:
        total = total + chunk
    assert total.additional_kwargs == {"function_call": call, "x": 1}
    worded = GenericFakeChatModel(messages=iter([AIMessage("a b", additional_kwargs={"k": "v"})]))
    assert [(c.text, c.additional_kwargs) for c in worded.stream("go")] == [
        ("a", {}),
        (" ", {}),
        ("b", {}),
        ("", {"k": "v"}),
        ("", {}),
    ]


def test_a_nested_llms_v2_token_events_carry_generation_chunks() -> None:
    # As the peer's: inside a chain, v2 shows an LLM's tokens as GenerationChunk (its token
    # callbacks'), v1 and the root's stream show the text.
    from combinators.outputs import GenerationChunk

    chain = RunnableLambda(str.strip) | FakeStreamingListLLM(["ab"])

    def tokens(runnable: Any, version: str) -> list[object]:
        shown = runnable.stream_events(" q ", version=version)
        return [e["data"]["chunk"] for e in shown if e["event"] == "on_llm_stream"]

    assert tokens(chain, "v2") == [GenerationChunk(text="a"), GenerationChunk(text="b")]
    assert tokens(chain, "v1") == ["a", "b"]
    assert tokens(FakeStreamingListLLM(["ab"]), "v2") == ["a", "b"]
    assert list(chain.stream(" q ")) == ["a", "b"]
    assert GenerationChunk("a") + GenerationChunk("b", generation_info={"k": 1}) == GenerationChunk(
        "ab", generation_info={"k": 1}
    )
    assert GenerationChunk("x").text == "x"


def test_the_default_provider_is_the_peers_class_name_rule() -> None:
    # langchain-core 1.8.3: a chat model's class name less a leading or trailing "Chat", an
    # LLM's less a trailing "LLM", lower-cased (FakeListLLM -> "fakelist").
    from combinators.components.models.model_params import default_provider
    from combinators.language_models import FakeListChatModel, FakeListLLM

    class ChatLocal: ...

    class LocalChat: ...

    assert [default_provider(m) for m in (ChatLocal(), LocalChat(), FakeListLLM(responses=["a"]))] == [
        "local",
        "local",
        "fakelist",
    ]
    assert default_provider(FakeListChatModel(responses=["a"])) == "fakelistchatmodel"
    starts = [e for e in FakeListLLM(responses=["a"]).stream_events("x") if e["event"] == "on_llm_start"]
    assert starts[0]["metadata"]["ls_provider"] == "fakelist"


def test_the_list_fakes_pickle_with_their_place_in_the_script() -> None:
    # A copy (another process, a Dask worker) carries the replies and the position, not the lock.
    import pickle

    from combinators.language_models import FakeListChatModel, FakeListLLM

    for model in (FakeListLLM(responses=["a", "b"]), FakeListChatModel(responses=["a", "b"])):
        first = model.invoke("x")
        copy = pickle.loads(pickle.dumps(model))
        assert copy == model
        replies = [first, copy.invoke("x"), copy.invoke("x")]  # the copy goes on, and cycles
        assert [getattr(r, "content", r) for r in replies] == ["a", "b", "a"]
