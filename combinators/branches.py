"""Running several children on the same input: the shared machinery of parallel maps.

Sync branches run on the shared pool (the caller's thread takes part); async
branches run under a task group, so one failure cancels the others and nothing
is left running when the error propagates.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any, Final

from combinators.runnable import Runnable
from effects.entry import gather_structured
from effects.executor import run_indexed
from effects.runtime import Scope
from effects.streams import closing

Branch = tuple[Runnable[Any, Any], str]
"""A child and its step tag (``map:key:K``)."""


def invoke_branches(scope: Scope, branches: Sequence[Branch], input: object) -> list[Any]:
    """Every branch's output, in branch order."""

    def work(i: int) -> Any:
        step, tag = branches[i]
        return scope.invoke(step, input, tag)

    return run_indexed(work, len(branches), limit=None)


async def ainvoke_branches(scope: Scope, branches: Sequence[Branch], input: object) -> list[Any]:
    """Async ``invoke_branches`` (structured: a failure cancels the siblings)."""
    results: list[Any] = [None] * len(branches)

    async def one(i: int) -> None:
        step, tag = branches[i]
        results[i] = await scope.ainvoke(step, input, tag)

    if len(branches) == 1:
        await one(0)
    else:
        await gather_structured([one(i) for i in range(len(branches))])
    return results


def stream_branches(
    scope: Scope, branches: Sequence[Branch], inputs: Iterator[Any]
) -> Iterator[tuple[int, Any]]:
    """``(branch index, chunk)`` pairs; sync branches stream one after another over a tee."""
    copies = itertools.tee(inputs, len(branches))
    for i, ((step, tag), copy) in enumerate(zip(branches, copies, strict=True)):
        for chunk in scope.stream(step, copy, tag):
            yield i, chunk


_DONE: Final = object()


async def astream_branches(
    scope: Scope, branches: Sequence[Branch], inputs: AsyncIterator[Any]
) -> AsyncIterator[tuple[int, Any]]:
    """``(branch index, chunk)`` pairs, interleaved as the branches produce them.

    One pump task copies the input to a queue per branch; each branch runs in a
    task of its own. Leaving early or failing cancels and awaits all of them.
    """
    feeds: list[asyncio.Queue[Any]] = [asyncio.Queue() for _ in branches]
    out: asyncio.Queue[tuple[int, Any, BaseException | None]] = asyncio.Queue()

    async def pump() -> None:
        async with closing(inputs) as stream:
            async for item in stream:
                for feed in feeds:
                    feed.put_nowait(item)
        for feed in feeds:
            feed.put_nowait(_DONE)

    async def read(feed: asyncio.Queue[Any]) -> AsyncIterator[Any]:
        while (item := await feed.get()) is not _DONE:
            yield item

    async def run(i: int) -> None:
        step, tag = branches[i]
        try:
            async with closing(scope.astream(step, read(feeds[i]), tag)) as stream:
                async for chunk in stream:
                    out.put_nowait((i, chunk, None))
        except BaseException as error:
            out.put_nowait((i, _DONE, error))
            raise
        out.put_nowait((i, _DONE, None))

    tasks = [asyncio.ensure_future(pump())]
    tasks += [asyncio.ensure_future(run(i)) for i in range(len(branches))]
    try:
        remaining = len(branches)
        while remaining:
            i, chunk, error = await out.get()
            if error is not None:
                raise error
            if chunk is _DONE:
                remaining -= 1
            else:
                yield i, chunk
        await tasks[0]
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
