"""Closing streams: ``aclose_all`` closes everything even when a stream fails or a cancellation
arrives while closing, and raises that afterwards; tasks end before streams close."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest

from effects._runtime.closing import aclose_all, close_iterator, closing


def test_every_stream_is_closed_and_the_first_closing_error_is_raised_after() -> None:
    closed: list[str] = []

    async def failing(name: str) -> AsyncIterator[int]:
        try:
            yield 1
        finally:
            closed.append(name)
            raise RuntimeError(f"{name} failed while closing")

    async def quiet() -> AsyncIterator[int]:
        try:
            yield 1
        finally:
            closed.append("quiet")

    async def main() -> None:
        streams = [failing("first"), failing("second"), quiet()]
        for stream in streams:
            await anext(stream)
        await aclose_all(streams)

    with pytest.raises(RuntimeError, match="first failed while closing"):
        asyncio.run(main())
    assert closed == ["first", "second", "quiet"]


def test_a_cancellation_while_closing_closes_the_rest_and_is_raised_at_the_end() -> None:
    closed: list[str] = []

    async def main() -> bool:
        started = asyncio.Event()

        async def slow() -> AsyncIterator[int]:
            try:
                yield 1
            finally:
                started.set()
                await asyncio.sleep(0.05)  # the cancellation lands here
                closed.append("slow")

        async def fast() -> AsyncIterator[int]:
            try:
                yield 1
            finally:
                closed.append("fast")

        streams = [slow(), fast()]
        for stream in streams:
            await anext(stream)
        task = asyncio.ensure_future(aclose_all(streams))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return task.cancelled()

    assert asyncio.run(main()) is True
    assert closed == ["fast"]  # the slow stream's cleanup was cut, the next one still ran


def test_tasks_are_cancelled_and_awaited_before_the_streams_close() -> None:
    order: list[str] = []

    async def main() -> tuple[bool, bool]:
        async def sleeper() -> None:
            try:
                await asyncio.sleep(10)
            finally:
                order.append("task")

        async def failed() -> None:
            raise ValueError("read, not reported")

        async def stream() -> AsyncIterator[int]:
            try:
                yield 1
            finally:
                order.append("stream")

        s = stream()
        await anext(s)
        sleeping, failing = asyncio.ensure_future(sleeper()), asyncio.ensure_future(failed())
        await asyncio.sleep(0)
        await aclose_all([s], [sleeping, failing])
        return sleeping.cancelled(), failing.done()

    assert asyncio.run(main()) == (True, True)
    assert order == ["task", "stream"]


def test_closing_closes_the_stream_when_the_block_raises() -> None:
    closed: list[bool] = []

    async def gen() -> AsyncIterator[int]:
        try:
            yield 1
            yield 2
        finally:
            closed.append(True)

    async def main() -> None:
        async with closing(gen()) as it:
            async for _ in it:
                raise KeyError("left")

    with pytest.raises(KeyError, match="left"):
        asyncio.run(main())
    assert closed == [True]


def test_close_iterator_closes_a_generator_and_leaves_a_plain_iterator() -> None:
    closed: list[bool] = []

    def gen() -> Iterator[int]:
        try:
            yield 1
            yield 2
        finally:
            closed.append(True)

    chunks = gen()
    assert next(chunks) == 1
    close_iterator(chunks)
    assert closed == [True] and list(chunks) == []
    plain = iter([1, 2])
    close_iterator(plain)
    assert list(plain) == [1, 2]
