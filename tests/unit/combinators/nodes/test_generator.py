"""``RunnableGenerator``: a stream transform fed chunk by chunk, closed with its stream."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

from combinators import RunnableGenerator


def test_streaming_passes_through_generator_steps() -> None:
    produced: list[int] = []

    def source(_: Iterator[object]) -> Iterator[int]:
        for i in range(5):
            produced.append(i)
            yield i

    def double(chunks: Iterator[int]) -> Iterator[int]:
        for c in chunks:
            yield c * 2

    chain = RunnableGenerator(source) | RunnableGenerator(double)
    stream = chain.stream(None)
    assert next(stream) == 0
    assert produced == [0]  # lazily, chunk by chunk
    stream.close()
    assert produced == [0]


def test_async_stream_close_runs_finally() -> None:
    closed: list[str] = []

    async def source(_: AsyncIterator[object]) -> AsyncIterator[int]:
        try:
            for i in range(100):
                yield i
        finally:
            closed.append("source")

    async def main() -> None:
        from contextlib import aclosing

        async with aclosing(RunnableGenerator(source).astream(None)) as stream:
            async for chunk in stream:
                assert chunk == 0
                break
        assert closed == ["source"]

    asyncio.run(main())
