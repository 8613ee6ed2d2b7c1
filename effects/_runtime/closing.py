"""Closing async iterators promptly, completely, and only once.

An async generator that is abandoned is only finalised later by the event loop, so
every stage that iterates another stream closes it explicitly on exit: closing the
outermost stream then runs every upstream ``finally`` before it returns.

Two rules keep that true under cancellation:

- ``closing`` is a class, not an ``@asynccontextmanager`` generator. A generator-based
  context manager is itself an async generator the loop may close on its own (at
  shutdown, ``asyncio.run`` closes every suspended async generator at once); closed
  twice concurrently, it fails with "generator didn't stop after athrow()".
- ``aclose_all`` finishes its cleanup even when a cancellation arrives in the middle
  of it, and raises that cancellation afterwards. Cleanup cut short by a second
  ``cancel()`` (a consumer that leaves while a failed run is still closing) would leave
  upstream generators suspended for the loop to close later, concurrently.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from types import AsyncGeneratorType, TracebackType
from typing import TYPE_CHECKING, Any, Generic, TypeVar, final

if TYPE_CHECKING:
    import asyncio

T = TypeVar("T")


@final
class closing(Generic[T]):  # noqa: N801 - used like contextlib's closing
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

    __slots__ = ("_stream",)

    def __init__(self, stream: AsyncIterator[T]) -> None:
        self._stream = stream

    async def __aenter__(self) -> AsyncIterator[T]:
        return self._stream

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await aclose_all((self._stream,))


def _unfinished(stream: object) -> bool:
    # Only an async generator can say whether it is finished; anything else is closed once.
    return isinstance(stream, AsyncGeneratorType) and stream.ag_frame is not None


async def aclose_all(streams: Iterable[AsyncIterator[object]] = (), tasks: Iterable[asyncio.Future[Any]] = ()) -> None:
    """Cancel ``tasks`` and wait for them, then close ``streams``: all of it, whatever happens.

    A cancellation that arrives meanwhile is raised at the end, after the cleanup (so
    ``asyncio.timeout`` and task groups still see it); otherwise the first error a
    stream raised while closing. The tasks' own errors are read (never reported by the
    loop as "never retrieved") and dropped: the caller raises the error that matters.

    >>> import asyncio
    >>> async def gen():
    ...     try:
    ...         yield 1
    ...     finally:
    ...         print("closed")
    >>> async def main():
    ...     stream = gen()
    ...     await anext(stream)
    ...     await aclose_all([stream], [asyncio.ensure_future(asyncio.sleep(10))])
    >>> asyncio.run(main())
    closed
    """
    import asyncio  # here: importing the package must not import asyncio

    cancelled: BaseException | None = None
    failed: BaseException | None = None
    waiting = list(tasks)
    for task in waiting:
        task.cancel()
    while unfinished := [task for task in waiting if not task.done()]:
        try:
            await asyncio.wait(unfinished)
        except asyncio.CancelledError as error:
            cancelled = cancelled or error
    for task in waiting:
        if not task.cancelled():
            task.exception()  # read: the loop must not report it as never retrieved
    for stream in streams:
        aclose: Callable[[], Awaitable[object]] | None = getattr(stream, "aclose", None)
        if aclose is None:
            continue
        while True:
            try:
                await aclose()
                break
            except asyncio.CancelledError as error:
                cancelled = cancelled or error
                if not _unfinished(stream):
                    break
            except BaseException as error:  # kept, raised after the rest is closed
                failed = failed or error
                break
    if cancelled is not None:
        raise cancelled
    if failed is not None:
        raise failed


async def aiter_of(items: tuple[T, ...]) -> AsyncIterator[T]:
    """``items`` as an async stream (a whole input handed to an ``astream`` of a child).

    >>> import asyncio
    >>> async def main():
    ...     return [x async for x in aiter_of((1, 2))]
    >>> asyncio.run(main())
    [1, 2]
    """
    for item in items:
        yield item


def close_iterator(chunks: Iterator[object]) -> None:
    close: Callable[[], object] | None = getattr(chunks, "close", None)
    if close is not None:
        close()
