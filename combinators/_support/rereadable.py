"""Input streams that can be read again: what retrying or falling back a stream needs,
and the loop both run (``stream_tries``: try again until one try yields a chunk).

An error raised by the source is remembered: every reader that gets that far sees
it again (so a failed input is never replayed as a shorter, "successful" one), and
``error`` tells the caller that the input, not the step, failed.

>>> r = Replayable(iter([1, 2, 3]))
>>> next(r.reader()), list(r.reader())
(1, [1, 2, 3])
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Generic, TypeVar

from effects.authoring import closing

T = TypeVar("T")
U = TypeVar("U")


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


def stream_tries(inputs: Iterator[T], start: Callable[[Iterator[T], BaseException | None], Iterator[U]]) -> Iterator[U]:
    """The chunks of the first try that yields one (or ends empty). ``start(reader, error)``
    opens a try on a fresh reader of ``inputs``, ``error`` being how the one before failed
    before its first chunk (``None`` at first); it raises to give up. Once a chunk came, an
    error propagates (nothing is ever duplicated); so does an error of ``inputs`` itself.

    >>> def fails_first(reader, error):
    ...     for chunk in reader:
    ...         if error is None:
    ...             raise ValueError("first try")
    ...         yield f"{chunk} after {error}"
    >>> list(stream_tries(iter(["a"]), fails_first))
    ['a after first try']
    """
    source = Replayable(inputs)
    error: BaseException | None = None
    while True:
        chunks = start(source.reader(), error)
        try:
            first = next(chunks)
        except StopIteration:
            return  # an empty stream is a valid result
        except BaseException as failed:
            if source.error is not None:
                raise  # the input failed, not the try
            error = failed
            continue
        yield first
        yield from chunks
        return


async def astream_tries(
    inputs: AsyncIterator[T], start: Callable[[AsyncIterator[T], BaseException | None], Awaitable[AsyncIterator[U]]]
) -> AsyncIterator[U]:
    """Async ``stream_tries`` (``start`` may wait before a try); it owns ``inputs``, closed when
    the chosen stream ends."""
    source = AReplayable(inputs)
    async with closing(inputs):
        error: BaseException | None = None
        while True:
            chunks = await start(source.reader(), error)
            try:
                first = await anext(chunks)
            except StopAsyncIteration:
                return
            except BaseException as failed:
                if source.error is not None:
                    raise  # the input failed, not the try
                error = failed
                continue
            async with closing(chunks) as stream:  # closed also if the consumer stops at `first`
                yield first
                async for chunk in stream:
                    yield chunk
            return
