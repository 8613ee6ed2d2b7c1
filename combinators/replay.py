"""Input streams that can be read again: what retrying or falling back a stream needs.

>>> r = Replayable(iter([1, 2, 3]))
>>> next(r.reader()), list(r.reader())
(1, [1, 2, 3])
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class Replayable(Generic[T]):
    """Records what was read from ``source`` so every reader sees the whole stream."""

    __slots__ = ("_seen", "_source")

    def __init__(self, source: Iterator[T]) -> None:
        self._source = source
        self._seen: list[T] = []

    def reader(self) -> Iterator[T]:
        """A fresh reader from the first chunk."""
        i = 0
        while True:
            if i < len(self._seen):
                yield self._seen[i]
            else:
                try:
                    item = next(self._source)
                except StopIteration:
                    return
                self._seen.append(item)
                yield item
            i += 1


class AReplayable(Generic[T]):
    """Async ``Replayable``."""

    __slots__ = ("_seen", "_source")

    def __init__(self, source: AsyncIterator[T]) -> None:
        self._source = source
        self._seen: list[T] = []

    async def reader(self) -> AsyncIterator[T]:
        """A fresh reader from the first chunk."""
        i = 0
        while True:
            if i < len(self._seen):
                yield self._seen[i]
            else:
                try:
                    item = await anext(self._source)
                except StopAsyncIteration:
                    return
                self._seen.append(item)
                yield item
            i += 1
