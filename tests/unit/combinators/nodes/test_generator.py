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


def _digits(xs: Iterator[int]) -> Iterator[str]:
    for x in xs:
        yield str(x)


async def _adigits(xs: AsyncIterator[int]) -> AsyncIterator[str]:
    async for x in xs:
        yield str(x)


def test_generator_declares_the_element_types_of_its_transform() -> None:
    # As langchain-core 1.8.3: Iterator[int] -> Iterator[str] takes int and gives str.
    for transform in (RunnableGenerator(_digits), RunnableGenerator(_adigits)):
        assert transform.declared_type("input") is int and transform.declared_type("output") is str
    assert RunnableGenerator(_digits).input_schema() == {"title": "_digits_input", "type": "integer"}
    assert RunnableGenerator(_adigits).output_schema() == {"title": "_adigits_output", "type": "string"}
    untyped = RunnableGenerator(lambda xs: xs)
    assert untyped.input_schema() == {"title": "RunnableGeneratorInput"}
