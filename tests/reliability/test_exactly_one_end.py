"""Every started run gets exactly one ended or failed effect: on success, on error,
when the consumer stops early, and when the caller is cancelled."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from combinators import Runnable, RunnableGenerator, RunnableLambda, RunnableParallel
from effects._runtime import calls as entry
from effects._runtime.entry import entry_scope
from effects.config import RunConfig
from effects.effect_values import Effect, RunEnded, RunFailed, RunStarted


class Recorder:
    def __init__(self) -> None:
        self.effects: list[Effect] = []

    def emit(self, effect: Effect) -> None:
        self.effects.append(effect)

    def check(self) -> dict[str, int]:
        starts = {e.run.run_id for e in self.effects if isinstance(e, RunStarted)}
        closes: dict[Any, int] = {}
        for e in self.effects:
            if isinstance(e, RunEnded | RunFailed):
                closes[e.run.run_id] = closes.get(e.run.run_id, 0) + 1
        assert set(closes) == starts, "every started run is closed, nothing else is"
        assert all(count == 1 for count in closes.values()), "closed exactly once"
        return {
            "ended": sum(isinstance(e, RunEnded) for e in self.effects),
            "failed": sum(isinstance(e, RunFailed) for e in self.effects),
        }


async def endless(_: AsyncIterator[object]) -> AsyncIterator[int]:
    i = 0
    while True:
        yield i
        i += 1
        await asyncio.sleep(0)


def chain_of(depth: int) -> Runnable[Any, Any]:
    chain: Any = RunnableGenerator(endless)
    for _ in range(depth):
        chain = chain | RunnableGenerator(_double)
    return chain


async def _double(chunks: AsyncIterator[int]) -> AsyncIterator[int]:
    async for c in chunks:
        yield c * 2


@settings(max_examples=20)
@given(st.integers(min_value=0, max_value=4), st.integers(min_value=1, max_value=20))
def test_consumer_stopping_early_closes_every_run_once(depth: int, taken: int) -> None:
    recorder = Recorder()

    async def main() -> None:
        stream = entry.astream(chain_of(depth), None, None, {}, observers=(recorder,))
        count = 0
        async for _ in stream:
            count += 1
            if count == taken:
                break
        await stream.aclose()  # type: ignore[attr-defined]

    asyncio.run(main())
    counts = recorder.check()
    assert counts["failed"] >= 1  # closed early: the runs end as failed (GeneratorExit)


@settings(max_examples=20)
@given(st.integers(min_value=1, max_value=5))
def test_cancelled_caller_closes_every_run_once(width: int) -> None:
    recorder = Recorder()

    async def slow(x: int) -> int:
        await asyncio.sleep(10)
        return x

    # abs inline (not on a worker thread): the branches must be running when the caller
    # is cancelled 10 ms in, whatever the machine's load.
    chain = RunnableLambda(abs, in_thread=False) | RunnableParallel(
        {f"k{i}": RunnableLambda(slow) for i in range(width)}
    )

    async def invoked() -> None:
        # The scope a public ainvoke starts in, with the recorder as its observer.
        scope = entry_scope(RunConfig(tags=("x",)), (recorder,), owner=chain.name)
        task = asyncio.ensure_future(scope.ainvoke(chain, -1, None, {}))
        await asyncio.sleep(0.01)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass

    asyncio.run(invoked())
    invoked_counts = recorder.check()
    # the root, the parallel map and every branch were running: each ends as failed
    assert invoked_counts == {"ended": 1, "failed": 2 + width}
    stream_recorder = Recorder()

    async def observed() -> None:
        stream = entry.astream(chain, -1, None, {}, observers=(stream_recorder,))
        task = asyncio.ensure_future(_drain(stream))
        await asyncio.sleep(0.01)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass

    asyncio.run(observed())
    counts = stream_recorder.check()
    assert counts["failed"] >= 1 + width


async def _drain(stream: AsyncIterator[Any]) -> None:
    async for _ in stream:
        pass


def test_errors_and_successes_close_once_in_sync_streams_too() -> None:
    def boom(chunks: Iterator[int]) -> Iterator[int]:
        for c in chunks:
            if c == 2:
                raise ValueError("two")
            yield c

    def count(_: Iterator[object]) -> Iterator[int]:
        yield from range(5)

    recorder = Recorder()
    chain = RunnableGenerator(count) | RunnableGenerator(boom)
    try:
        for _ in entry.stream(chain, None, None, {}, observers=(recorder,)):
            pass
    except ValueError:
        pass
    counts = recorder.check()
    assert counts["failed"] >= 2
