"""run_on_total / arun_on_total: a stream transform that needs its whole input first."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from types import AsyncGeneratorType, GeneratorType

from hypothesis import given
from hypothesis import strategies as st

from effects.authoring import arun_on_total, run_on_total


def _twice(total: str) -> Iterator[str]:
    yield total
    yield total


@given(st.lists(st.text(max_size=3), max_size=5))
def test_run_sees_the_chunks_added_up_once(chunks: list[str]) -> None:
    calls: list[str] = []

    def run(total: str) -> Iterator[str]:
        calls.append(total)
        return _twice(total)

    out = list(run_on_total(iter(chunks), run))
    if chunks:
        assert calls == ["".join(chunks)]
        assert out == ["".join(chunks)] * 2
    else:  # no chunk: no total, and run is not called
        assert calls == []
        assert out == []


def test_nothing_runs_before_the_first_output_is_asked_for() -> None:
    calls: list[str] = []

    def run(total: str) -> Iterator[str]:
        calls.append(total)
        return iter([total])

    outputs = run_on_total(iter(["a"]), run)
    assert calls == []
    assert next(outputs) == "a"
    assert calls == ["a"]


def test_closing_the_sync_stream_closes_what_run_streams() -> None:
    closed: list[str] = []

    def run(total: str) -> Iterator[str]:
        try:
            yield total
            yield total
        finally:
            closed.append(total)

    outputs = run_on_total(iter(["a", "b"]), run)
    assert next(outputs) == "ab"
    assert isinstance(outputs, GeneratorType)
    outputs.close()
    assert closed == ["ab"]


async def _chunks(items: list[str], closed: list[str]) -> AsyncIterator[str]:
    try:
        for item in items:
            yield item
    finally:
        closed.append("inputs")


@given(st.lists(st.text(max_size=3), max_size=5))
def test_async_run_sees_the_total_and_both_streams_close(chunks: list[str]) -> None:
    closed: list[str] = []

    async def run(total: str) -> AsyncIterator[str]:
        try:
            yield total
            yield total.upper()
        finally:
            closed.append("outputs")

    async def main() -> list[str]:
        return [out async for out in arun_on_total(_chunks(chunks, closed), run)]

    out = asyncio.run(main())
    if chunks:
        assert out == ["".join(chunks), "".join(chunks).upper()]
        assert closed == ["inputs", "outputs"]
    else:
        assert out == []
        assert closed == ["inputs"]


def test_leaving_the_async_stream_early_closes_what_run_streams() -> None:
    closed: list[str] = []

    async def run(total: str) -> AsyncIterator[str]:
        try:
            yield total
            yield total
        finally:
            closed.append("outputs")

    async def main() -> str:
        outputs = arun_on_total(_chunks(["a", "b"], closed), run)
        first = await anext(outputs)
        assert isinstance(outputs, AsyncGeneratorType)
        await outputs.aclose()
        return first

    assert asyncio.run(main()) == "ab"
    assert closed == ["inputs", "outputs"]
