"""``AsyncTee``: one async stream read by several consumers, each at its own pace.

The source is pulled on demand by whichever reader is ahead (one pull at a time);
items every reader has passed are dropped, so memory is bounded by how far the
readers are apart, not by the stream's length. An error of the source reaches
every reader (none of them mistakes it for the end of the stream).

>>> import asyncio
>>> async def numbers():
...     for i in range(3):
...         yield i
>>> async def main():
...     tee = AsyncTee(numbers(), 2)
...     a, b = tee.reader(0), tee.reader(1)
...     return [x async for x in a], [x async for x in b]
>>> asyncio.run(main())
([0, 1, 2], [0, 1, 2])
"""

from __future__ import annotations

# asyncio is imported where it is used: `import combinators` stays cheap for sync code.
from collections import deque
from collections.abc import AsyncIterator
from typing import Generic, TypeVar, final

T = TypeVar("T")


@final
class AsyncTee(Generic[T]):
    """``count`` readers of ``source``."""

    __slots__ = ("_source", "_items", "_offset", "_positions", "_lock", "_done", "_error")

    def __init__(self, source: AsyncIterator[T], count: int) -> None:
        import asyncio

        self._source = source
        self._items: deque[T] = deque()
        self._offset = 0  # index in the stream of self._items[0]
        self._positions = [0] * count
        self._lock = asyncio.Lock()
        self._done = False
        self._error: BaseException | None = None  # the source's error, for every reader

    async def reader(self, index: int) -> AsyncIterator[T]:
        """Reader number ``index`` (each reader is used once)."""
        try:
            while True:
                position = self._positions[index]
                if position >= self._offset + len(self._items):
                    async with self._lock:
                        if position >= self._offset + len(self._items) and not self._done and self._error is None:
                            try:
                                self._items.append(await anext(self._source))
                            except StopAsyncIteration:
                                self._done = True
                            except BaseException as error:
                                self._error = error
                                raise
                    if position >= self._offset + len(self._items):
                        if self._error is not None:
                            raise self._error
                        return
                item = self._items[position - self._offset]
                self._positions[index] = position + 1
                self._trim()
                yield item
        finally:
            # A reader that stops no longer holds items back.
            self._positions[index] = 1 << 62
            self._trim()

    def _trim(self) -> None:
        lowest = min(self._positions)
        while self._items and self._offset < lowest:
            self._items.popleft()
            self._offset += 1
