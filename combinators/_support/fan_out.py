"""Running several children on the same input: the shared machinery of parallel maps.

Sync branches run on the shared pool (the caller's thread takes part); async
branches run under a task group, so one failure cancels the others and nothing
is left running when the error propagates.
"""

from __future__ import annotations

# asyncio is imported where it is used: `import combinators` stays cheap for sync code.

import itertools
from collections.abc import AsyncIterator, Generator, Iterator, Sequence
from typing import TypeVar

from combinators.runnable.composing import Runnable
from combinators._support.tee import AsyncTee
from effects.authoring import Scope, aclose_all, gather_structured, run_indexed

In = TypeVar("In")
T = TypeVar("T")

TaggedBranch = tuple[Runnable[In, object], str]
"""A child taking ``In`` and its step tag (``map:key:K``)."""


def invoke_branches(scope: Scope, branches: Sequence[TaggedBranch[In]], input: In) -> list[object]:
    """Every branch's output, in branch order."""

    def work(i: int) -> object:
        step, tag = branches[i]
        return scope.invoke(step, input, tag)

    return run_indexed(work, len(branches), limit=None)


async def ainvoke_branches(scope: Scope, branches: Sequence[TaggedBranch[In]], input: In) -> list[object]:
    """Async ``invoke_branches`` (structured: a failure cancels the siblings)."""
    results: list[object] = [None] * len(branches)

    async def one(i: int) -> None:
        step, tag = branches[i]
        results[i] = await scope.ainvoke(step, input, tag)

    if len(branches) == 1:
        await one(0)
    else:
        await gather_structured([one(i) for i in range(len(branches))])
    return results


def stream_branches(
    scope: Scope, branches: Sequence[TaggedBranch[In]], inputs: Iterator[In]
) -> Iterator[tuple[int, object]]:
    """``(branch index, chunk)`` pairs; sync branches take turns on the caller's thread,
    one chunk each per round over a tee (no thread): every branch starts before any ends,
    as the peer's threaded ones do, and the tee holds at most a round's worth of input.

    A failure (or the consumer leaving) closes the other branches' streams at once.
    """
    copies = itertools.tee(inputs, len(branches))
    streams = [scope.stream(step, copy, tag) for (step, tag), copy in zip(branches, copies, strict=True)]
    live = list(enumerate(streams))
    try:
        while live:
            going: list[tuple[int, Iterator[object]]] = []
            for i, chunks in live:
                for chunk in chunks:
                    going.append((i, chunks))
                    yield i, chunk
                    break
            live = going
    finally:
        for chunks in streams:
            if isinstance(chunks, Generator):
                chunks.close()


async def _next(chunks: AsyncIterator[T]) -> T:
    return await anext(chunks)


async def astream_branches(
    scope: Scope, branches: Sequence[TaggedBranch[In]], inputs: AsyncIterator[In]
) -> AsyncIterator[tuple[int, object]]:
    """``(branch index, chunk)`` pairs, interleaved as the branches produce them.

    Pull-based: one pending ``anext`` per branch, so no branch runs ahead of the
    consumer (bounded memory, and a branch ends only after its last chunk went
    out). Chunks that are ready together go out in branch order. Leaving early
    or a failure cancels and awaits every pending pull.
    """
    import asyncio

    tee = AsyncTee(inputs, len(branches))
    streams = [scope.astream(step, tee.reader(i), tag) for i, (step, tag) in enumerate(branches)]
    pending: dict[asyncio.Task[object], int] = {
        asyncio.ensure_future(_next(stream)): i for i, stream in enumerate(streams)
    }
    try:
        while pending:
            done, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in sorted(done, key=pending.__getitem__):
                i = pending.pop(task)
                try:
                    chunk = task.result()
                except StopAsyncIteration:
                    continue
                yield i, chunk
                pending[asyncio.ensure_future(_next(streams[i]))] = i
    finally:
        # The branches, then their common input (this node owns it).
        await aclose_all((*streams, inputs), tasks=pending)
