"""Closing async iterators promptly.

An async generator that is abandoned is only finalised later by the event loop,
so every stage that iterates another stream closes it explicitly on exit: closing
the outermost stream then runs every upstream ``finally`` before it returns.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any, TypeVar

T = TypeVar("T")


@asynccontextmanager
async def closing(stream: AsyncIterator[T]) -> AsyncGenerator[AsyncIterator[T]]:
    """Close ``stream`` (if it can be closed) when the block exits.

    >>> import asyncio
    >>> async def gen():
    ...     try:
    ...         yield 1; yield 2
    ...     finally:
    ...         print("closed")
    >>> async def main():
    ...     async with closing(gen()) as it:
    ...         async for x in it:
    ...             break
    >>> asyncio.run(main())
    closed
    """
    try:
        yield stream
    finally:
        aclose: Callable[[], Awaitable[object]] | None = getattr(stream, "aclose", None)
        if aclose is not None:
            await aclose()


async def aiter_of(items: tuple[object, ...]) -> AsyncIterator[Any]:
    for item in items:
        yield item


def close_iterator(chunks: Iterator[Any]) -> None:
    close: Callable[[], object] | None = getattr(chunks, "close", None)
    if close is not None:
        close()


async def aclose_iterator(chunks: AsyncIterator[Any]) -> None:
    aclose: Callable[[], Awaitable[object]] | None = getattr(chunks, "aclose", None)
    if aclose is not None:
        await aclose()
