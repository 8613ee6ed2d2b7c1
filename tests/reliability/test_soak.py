"""A bounded soak: 2,000 ``astream_events`` calls on chains that fail at random, read to
the end, stopped early or cancelled, in one event loop. Nothing may pile up: no task
left, no exception left unretrieved, no async generator left for the loop, and the
number of live run objects (counted with ``gc``) does not grow from the first
quarter of the calls to the last."""

from __future__ import annotations

import asyncio
import gc
import random
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from typing import Any

from combinators import Runnable, RunnableGenerator, RunnableLambda, RunnableParallel, RunnablePassthrough
from effects._runtime.limiter import Lease
from effects._runtime.scope import RunScope
from effects._runtime.streaming import StreamWatch
from effects.effect_values import RunEnded, RunFailed, RunInfo, RunStarted, RunStreamed
from tests.reliability.leftovers import Leftovers

CALLS = 2_000
RUN_OBJECTS = (RunScope, StreamWatch, RunInfo, RunStarted, RunStreamed, RunEnded, RunFailed, Lease)


class Flake:
    """Fails on a seeded share of calls (the seed makes the soak the same every time)."""

    def __init__(self, rate: float, seed: int) -> None:
        self.rate = rate
        self.random = random.Random(seed)

    def __call__(self, x: Any) -> Any:
        if self.random.random() < self.rate:
            raise ValueError("random failure")
        return x


def words(text: Any) -> Iterator[str]:
    yield from str(text).split() or ["-"]


async def aspell(chunks: AsyncIterator[Any]) -> AsyncIterator[str]:
    async for chunk in chunks:
        for char in str(chunk):
            await asyncio.sleep(0)
            yield char


async def nested(x: Any, config: Any) -> list[Any]:
    return await RunnableLambda(Flake(0.1, 7)).abatch([x, x], config)


def chains() -> list[Runnable[Any, Any]]:
    flake = RunnableLambda(Flake(0.2, 1))
    return [
        flake | RunnableLambda(words),
        RunnableParallel(a=flake, b=RunnableLambda(words)) | RunnableLambda(str),
        (flake | RunnableGenerator(aspell)).with_retry(stop_after_attempt=2, wait_exponential_jitter=False),
        RunnableLambda(Flake(0.5, 2)).with_fallbacks([RunnableLambda(words)]),
        RunnableLambda(nested).with_config(max_concurrency=1) | RunnableLambda(str),
        RunnableLambda(lambda x: {"text": x})
        | RunnablePassthrough.assign(words=RunnableLambda(words), checked=RunnableLambda(Flake(0.2, 4))),
        RunnableLambda(lambda x: [x, x]) | RunnableLambda(Flake(0.2, 3)).each(),
    ]


def live_run_objects(earlier: set[int]) -> int:
    """Run objects alive now that were not alive before the soak (other tests' threads
    may hold their own)."""
    gc.collect()
    return sum(1 for thing in gc.get_objects() if isinstance(thing, RUN_OBJECTS) and id(thing) not in earlier)


async def one_call(chain: Runnable[Any, Any], picker: random.Random, leftovers: Leftovers) -> None:
    mode = picker.choice(["all", "stop", "cancel"])
    stop = picker.randint(0, 12)
    source = chain.astream_events("to be or not", version=picker.choice(["v1", "v2"]))
    if mode == "cancel":

        async def read() -> None:
            async for _ in source:
                pass

        task = asyncio.ensure_future(read())
        for _ in range(stop):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        leftovers.abandon(source)
        return
    seen = 0
    try:
        async for _ in source:
            seen += 1
            if mode == "stop" and seen >= stop:
                break
    except ValueError:  # the random failures: anything else fails the test
        pass
    await source.aclose()  # type: ignore[attr-defined]


def test_two_thousand_watched_calls_leave_nothing_behind() -> None:
    pool = chains()
    picker = random.Random(2024)
    counts: Counter[str] = Counter()

    with Leftovers(settle=True) as leftovers:
        earlier = {id(thing) for thing in gc.get_objects() if isinstance(thing, RUN_OBJECTS)}

        async def soak() -> None:
            for number in range(1, CALLS + 1):
                await one_call(picker.choice(pool), picker, leftovers)
                if number == CALLS // 4:
                    counts["first quarter"] = live_run_objects(earlier)
            counts["end"] = live_run_objects(earlier)

        leftovers.run(soak)

    assert leftovers.problems() == []
    assert counts["end"] <= counts["first quarter"], counts
