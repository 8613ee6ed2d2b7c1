"""to_langchain(ours): our chain as a real langchain-core Runnable inside an LCEL chain.
Its handler calls, astream_events and astream_log equal those of the same chain built
from langchain-core's own parts (as a tree; sync and async; failures and cancellation)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from langchain_core.messages import AIMessageChunk as TheirAIMessageChunk
from langchain_core.messages import HumanMessage as TheirHumanMessage
from langchain_core.runnables import Runnable as TheirRunnable
from langchain_core.runnables import RunnableLambda as TheirLambda

from combinators import RunnableLambda
from combinators.integrations.langchain import ToLangChain, to_langchain
from combinators.language_models import FakeListChatModel
from tests.unit.combinators.integrations.langchain.recording import Recorder, tree
from tests.unit.combinators.integrations.langchain.test_handlers import _boom, ours, theirs


def _absolute(number: int) -> int:
    return abs(number)


def _pre(given: dict[str, str]) -> dict[str, str]:
    return given


def both(last: Any = None) -> tuple[TheirRunnable[Any, Any], TheirRunnable[Any, Any]]:
    """The same chain inside an LCEL chain: ours through to_langchain, theirs as is (bound,
    so LangChain does not flatten it into the outer sequence)."""
    mine = ours() if last is None else ours(last)
    peer = theirs() if last is None else theirs(last)
    return (
        TheirLambda(_pre, name="pre") | to_langchain(mine.with_config(tags=["inner"])),
        TheirLambda(_pre, name="pre") | peer.with_config(tags=["inner"]),
    )


def config(handler: object) -> Any:
    return {"callbacks": [handler], "tags": ["T"], "metadata": {"m": 1}}


def test_to_langchain_is_a_langchain_runnable_and_converts_values() -> None:
    wrapped = to_langchain(FakeListChatModel(responses=["ok"]))
    assert isinstance(wrapped, ToLangChain) and isinstance(wrapped, TheirRunnable)
    assert wrapped.get_name() == "FakeListChatModel"
    answer = wrapped.invoke([TheirHumanMessage("hi")])  # type: ignore[list-item]  # their message, converted
    assert type(answer).__module__.startswith("langchain_core") and answer.content == "ok"
    assert all(isinstance(c, TheirAIMessageChunk) for c in wrapped.stream("hi"))
    assert to_langchain(RunnableLambda(_absolute)).batch([-1, -2], return_exceptions=True) == [1, 2]


def test_invoke_inside_an_lcel_chain_tells_handlers_what_langchain_tells_them() -> None:
    mine, peer = both()
    got, expected = Recorder(), Recorder()
    assert mine.invoke({"q": "hi"}, config(got)) == peer.invoke({"q": "hi"}, config(expected)) == "ab!"
    assert tree(got.calls) == tree(expected.calls)
    assert ("RunnableSequence", "RunnableSequence", "FakeListChatModel") in tree(got.calls)


def test_stream_and_batch_inside_an_lcel_chain() -> None:
    mine, peer = both()
    got, expected = Recorder(), Recorder()
    assert list(mine.stream({"q": "hi"}, config(got))) == list(peer.stream({"q": "hi"}, config(expected)))
    assert tree(got.calls) == tree(expected.calls)
    got, expected = Recorder(), Recorder()
    assert mine.batch([{"q": "a"}], config(got)) == peer.batch([{"q": "a"}], config(expected))
    assert tree(got.calls) == tree(expected.calls)


async def test_async_calls_inside_an_lcel_chain() -> None:
    mine, peer = both()
    got, expected = Recorder(), Recorder()
    assert await mine.ainvoke({"q": "hi"}, config(got)) == await peer.ainvoke({"q": "hi"}, config(expected))
    assert tree(got.calls) == tree(expected.calls)
    got, expected = Recorder(), Recorder()
    chunks = [c async for c in mine.astream({"q": "hi"}, config(got))]
    assert chunks == [c async for c in peer.astream({"q": "hi"}, config(expected))]
    assert tree(got.calls) == tree(expected.calls)


def test_a_failure_inside_an_lcel_chain() -> None:
    mine, peer = both(_boom)
    got, expected = Recorder(), Recorder()
    with pytest.raises(ValueError, match="boom"):
        mine.invoke({"q": "hi"}, config(got))
    with pytest.raises(ValueError, match="boom"):
        peer.invoke({"q": "hi"}, config(expected))
    assert tree(got.calls) == tree(expected.calls)
    assert tree(got.calls)[("RunnableSequence", "RunnableSequence")][-1][:2] == ("error", "ValueError")


async def test_cancellation_inside_an_lcel_chain() -> None:
    started = asyncio.Event()

    async def forever(text: str) -> str:
        started.set()
        await asyncio.sleep(3600)
        return text

    async def cancelled(chain: TheirRunnable[Any, Any], handler: Recorder) -> None:
        started.clear()
        task = asyncio.ensure_future(chain.ainvoke({"q": "hi"}, config(handler)))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    mine, peer = both(forever)
    got, expected = Recorder(), Recorder()
    await cancelled(mine, got)
    await cancelled(peer, expected)
    assert tree(got.calls) == tree(expected.calls)
    assert tree(got.calls)[("RunnableSequence",)][-1][:2] == ("error", "CancelledError")


def test_the_configs_run_id_and_name_are_our_root_runs() -> None:
    recorder = Recorder()
    run_id = uuid.uuid4()
    to_langchain(RunnableLambda(_absolute)).invoke(-1, {"callbacks": [recorder], "run_id": run_id, "run_name": "named"})
    start = recorder.calls[0]
    assert start[2]["run_id"] == run_id and start[2]["name"] == "named"


def _event_shape(event: Any) -> tuple[object, ...]:
    chunk = event["data"].get("chunk")
    if isinstance(chunk, TheirAIMessageChunk):
        chunk = chunk.content  # ids are made of run ids; LangChain's fake marks its last chunk
    return (event["event"], event["name"], tuple(event["tags"]), chunk, event["data"].get("output") is not None)


async def test_astream_events_equal_langchains_own() -> None:
    mine, peer = both()
    got = [_event_shape(e) async for e in mine.astream_events({"q": "hi"}, version="v2")]
    expected = [_event_shape(e) async for e in peer.astream_events({"q": "hi"}, version="v2")]
    assert got == expected
    assert ("on_chat_model_stream", "FakeListChatModel", ("seq:step:2", "inner"), "a", False) in got


async def test_astream_log_equals_langchains_own() -> None:
    mine, peer = both()

    async def final(chain: TheirRunnable[Any, Any]) -> dict[str, Any]:
        state: Any = None
        async for patch in chain.astream_log({"q": "hi"}):
            state = patch if state is None else state + patch
        return dict(state.state)

    with pytest.warns(Warning):  # LangChain deprecates astream_log
        got, expected = await final(mine), await final(peer)
    assert got["final_output"] == expected["final_output"] == "ab!"
    assert sorted(got["logs"]) == sorted(expected["logs"])
    for name in got["logs"]:
        for key in ("name", "type", "tags", "final_output", "streamed_output"):
            mine_value, peer_value = got["logs"][name][key], expected["logs"][name][key]
            if key in ("final_output", "streamed_output") and name == "FakeListChatModel":
                continue  # message ids are made of run ids
            assert mine_value == peer_value, (name, key)
