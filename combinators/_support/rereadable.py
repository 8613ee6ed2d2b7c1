"""Input streams that can be read again: what retrying or falling back a stream needs.

An error raised by the source is remembered: every reader that gets that far sees
it again (so a failed input is never replayed as a shorter, "successful" one), and
``error`` tells the caller that the input, not the step, failed.

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

    __slots__ = ("_seen", "_source", "_done", "error")

    def __init__(self, source: Iterator[T]) -> None:
        self._source = source
        self._seen: list[T] = []
        self._done = False
        self.error: BaseException | None = None
        """The error the source raised, if it did."""

    def reader(self) -> Iterator[T]:
        """A fresh reader from the first chunk."""
        i = 0
        while True:
            if i < len(self._seen):
                yield self._seen[i]
            elif self.error is not None:
                raise self.error
            elif self._done:
                return
            else:
                try:
                    item = next(self._source)
                except StopIteration:
                    self._done = True
                    return
                except BaseException as error:
                    self.error = error
                    raise
                self._seen.append(item)
                yield item
            i += 1


class AReplayable(Generic[T]):
    """Async ``Replayable``."""

    __slots__ = ("_seen", "_source", "_done", "error")

    def __init__(self, source: AsyncIterator[T]) -> None:
        self._source = source
        self._seen: list[T] = []
        self._done = False
        self.error: BaseException | None = None

    async def reader(self) -> AsyncIterator[T]:
        """A fresh reader from the first chunk."""
        i = 0
        while True:
            if i < len(self._seen):
                yield self._seen[i]
            elif self.error is not None:
                raise self.error
            elif self._done:
                return
            else:
                try:
                    item = await anext(self._source)
                except StopAsyncIteration:
                    self._done = True
                    return
                except BaseException as error:
                    self.error = error
                    raise
                self._seen.append(item)
                yield item
            i += 1
