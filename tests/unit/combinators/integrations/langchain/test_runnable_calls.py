"""from_langchain's calls go to the object's own: batch and abatch through its batch (one
call for every item, max_concurrency handed to LangChain), a streamed input into its
transform, and cancellation and time limits reaching it (no task left running)."""

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import LLM
from langchain_core.outputs import Generation, LLMResult
from langchain_core.runnables import RunnableGenerator as TheirGenerator
from langchain_core.runnables import RunnableLambda as TheirLambda
from langchain_core.runnables import RunnableParallel as TheirParallel

from combinators import RunnableGenerator, RunnableLambda
from effects import RunEnded, RunStarted
from effects.errors import StepTimeout as OurTimeout

from combinators.integrations.langchain import from_langchain


class CountingLLM(LLM):
    """A text model that answers every prompt of a call in one request, and counts requests."""

    requests: list[list[str]] = []

    @property
    def _llm_type(self) -> str:
        return "counting"

    def _call(self, prompt: str, stop: list[str] | None = None, run_manager: Any = None, **kwargs: Any) -> str:
        raise AssertionError("one prompt at a time: the batch was not the object's own")

    def _generate(
        self,
        prompts: list[str],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> LLMResult:
        self.requests.append(list(prompts))
        return LLMResult(generations=[[Generation(text=p.upper())] for p in prompts])

    async def _agenerate(
        self,
        prompts: list[str],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> LLMResult:
        return self._generate(prompts)


def test_batch_is_the_objects_own_one_request_for_every_prompt() -> None:
    model = CountingLLM(requests=[])
    wrapped = from_langchain(model, str, str)
    assert wrapped.batch(["a", "b", "c"]) == ["A", "B", "C"]
    assert model.requests == [["a", "b", "c"]]


def test_max_concurrency_is_handed_to_langchain_with_its_per_batch_meaning() -> None:
    # A LangChain text model sends at most max_concurrency prompts per request.
    model = CountingLLM(requests=[])
    assert from_langchain(model, str, str).batch(["a", "b", "c"], {"max_concurrency": 2}) == ["A", "B", "C"]
    assert model.requests == [["a", "b"], ["c"]]

    async_model = CountingLLM(requests=[])
    wrapped = from_langchain(async_model, str, str)
    assert asyncio.run(wrapped.abatch(["x", "y"])) == ["X", "Y"]
    assert async_model.requests == [["x", "y"]]


def test_each_item_of_a_native_batch_is_a_run_of_its_own_with_its_inner_runs() -> None:
    seen: list[tuple[object, bool, list[tuple[str, str]]]] = []

    def ended(run: Any) -> None:
        inner = [(child.name, child.run_type) for child in run.child_runs]
        seen.append((run.outputs, run.parent_run_id is None, inner))

    model = CountingLLM(requests=[])
    wrapped = from_langchain(model, str, str).with_listeners(on_end=ended)
    assert wrapped.batch(["a", "b"]) == ["A", "B"]
    assert model.requests == [["a", "b"]]  # bound with listeners, still one request
    assert sorted(seen, key=repr) == [
        ({"output": "A"}, True, [("CountingLLM", "llm")]),
        ({"output": "B"}, True, [("CountingLLM", "llm")]),
    ]


def test_batch_errors_are_per_item_and_the_first_is_raised() -> None:
    def check(text: str) -> str:
        if text == "bad":
            raise ValueError(text)
        return text

    wrapped = from_langchain(TheirLambda(check), str, str)
    outcomes = wrapped.batch(["ok", "bad"], return_exceptions=True)
    assert outcomes[0] == "ok" and isinstance(outcomes[1], ValueError)
    with pytest.raises(ValueError, match="bad"):
        wrapped.batch(["ok", "bad"])
    failed = asyncio.run(wrapped.abatch(["bad", "ok"], return_exceptions=True))
    assert isinstance(failed[0], ValueError) and failed[1] == "ok"


def _upper_chunks(chunks: Iterator[str]) -> Iterator[str]:
    for chunk in chunks:
        yield chunk.upper()


async def _aupper_chunks(chunks: AsyncIterator[str]) -> AsyncIterator[str]:
    async for chunk in chunks:
        yield chunk.upper()


def test_a_streamed_input_flows_into_the_objects_transform_chunk_by_chunk() -> None:
    pulled: list[str] = []

    def source(_: object) -> Iterator[str]:
        for word in ["fog ", "over ", "bay"]:
            pulled.append(word)
            yield word

    inner = from_langchain(TheirGenerator(_upper_chunks, _aupper_chunks), str, str)
    chain = RunnableGenerator(source) | inner
    out: list[tuple[str, int]] = []
    for chunk in chain.stream(None):
        out.append((chunk, len(pulled)))
    # Each chunk comes out before the next one is read: the input was not added up first.
    assert out == [("FOG ", 1), ("OVER ", 2), ("BAY", 3)]

    async def collect() -> list[str]:
        return [chunk async for chunk in (RunnableGenerator(source) | inner).astream(None)]

    assert asyncio.run(collect()) == ["FOG ", "OVER ", "BAY"]


def test_a_streamed_input_reports_its_input_at_the_end_as_langchain_does() -> None:
    inner = from_langchain(TheirGenerator(_upper_chunks, _aupper_chunks, name="shout"), str, str)
    chain = RunnableLambda(lambda text: text) | inner
    effects = list(chain.stream_effects("hi"))
    shout = [e for e in effects if e.run.name == "shout" and len(e.run.parent_ids) == 2]
    assert isinstance(shout[0], RunStarted) and isinstance(shout[-1], RunEnded)
    assert shout[-1].input == "hi" and shout[-1].output == "HI"


async def _sleep_forever(text: str) -> str:
    await asyncio.sleep(30)
    return text


def _left_running(before: set[asyncio.Task[Any]]) -> set[asyncio.Task[Any]]:
    return {t for t in asyncio.all_tasks() - before if not t.done() and t is not asyncio.current_task()}


def test_a_time_limit_cancels_the_objects_work_and_leaves_no_task_running() -> None:
    cancelled: list[str] = []

    async def slow(text: str) -> str:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.append(text)
            raise
        return text

    theirs = TheirParallel(a=TheirLambda(_sleep_forever), b=TheirLambda(lambda t: t, afunc=slow))
    wrapped = from_langchain(theirs, str, dict).with_timeout(0.2)
    # Streamed, a sequence (LangChain's own RunnableParallel leaves its branches' tasks
    # running when its stream is cancelled, as its own astream does: not ours to end).
    streamed = from_langchain(TheirLambda(str.strip) | TheirLambda(lambda t: t, afunc=slow), str, str)

    async def main() -> set[asyncio.Task[Any]]:
        before = set(asyncio.all_tasks())
        started = time.monotonic()
        with pytest.raises(OurTimeout):
            await wrapped.ainvoke("x")
        with pytest.raises(OurTimeout):
            async for _ in streamed.with_timeout(0.2).astream(" y "):
                pass
        with pytest.raises(OurTimeout):
            await wrapped.abatch(["z"])
        assert time.monotonic() - started < 5
        await asyncio.sleep(0)
        return _left_running(before)

    assert asyncio.run(main()) == set()
    assert sorted(cancelled) == ["x", "y", "z"]


def test_cancelling_the_caller_cancels_the_objects_tasks() -> None:
    cancelled: list[str] = []

    async def slow(text: str) -> str:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.append(text)
            raise
        return text

    theirs = TheirParallel(a=TheirLambda(lambda t: t, afunc=slow), b=TheirLambda(lambda t: t, afunc=slow))
    wrapped = from_langchain(theirs, str, dict)

    async def main() -> set[asyncio.Task[Any]]:
        before = set(asyncio.all_tasks())
        call = asyncio.ensure_future(wrapped.ainvoke("x"))
        await asyncio.sleep(0.1)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        await asyncio.sleep(0)
        return _left_running(before)

    assert asyncio.run(main()) == set()
    assert cancelled == ["x", "x"]


def test_a_sync_time_limit_is_checked_before_the_object_starts() -> None:
    def busy(text: str) -> str:
        time.sleep(0.3)
        return text

    wrapped = from_langchain(TheirLambda(busy), str, str)
    calls: list[str] = []
    spy = from_langchain(TheirLambda(lambda text: calls.append(text) or text), str, str)
    with pytest.raises(OurTimeout):
        (RunnableLambda(busy) | spy).with_timeout(0.1).invoke("x")
    assert calls == []
    assert (RunnableLambda(busy) | wrapped).with_timeout(5).invoke("y") == "y"
