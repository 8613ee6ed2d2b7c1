"""``Total``: a stream's chunks added up with ``+``, in linear time.

Adding text chunks one by one (``total = total + chunk``) copies the total every
time: quadratic in the stream's length. A ``Total`` keeps the chunks and adds them up
in blocks: text is joined, any other chunk type folded with ``+`` in order (a chunk
that cannot be added replaces the total, as the peer does).

>>> t = Total()
>>> for chunk in ["a", "b", "c"]:
...     t.add(chunk)
>>> t.value()
'abc'
>>> t = Total()
>>> t.add([1]); t.add([2])
>>> t.value()
[1, 2]
>>> Total().empty
True
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from typing import Final, Generic, TypeVar, cast, final

from effects.errors import EmptyStreamError
from effects.effect_values import NOTHING, Nothing
from effects._runtime.closing import aclose_all, closing

_BLOCK: Final = 64


T = TypeVar("T")
R = TypeVar("R")


def plus_chunk(total: T | Nothing, chunk: T) -> T:
    """``total + chunk``, or ``chunk`` when the two cannot be added.

    Chunks of a ``T`` add up to a ``T`` (the chunk contract of every stream here).

    >>> plus_chunk(NOTHING, "a"), plus_chunk({"a": 1}, {"b": 2})
    ('a', {'b': 2})
    """
    if total is NOTHING:
        return chunk
    if _plain_dicts(total, chunk):  # they never add: no exception to raise and catch
        return chunk
    try:
        return total + chunk  # type: ignore[operator, no-any-return]
    except TypeError:
        return chunk


def _plain_dicts(total: object, chunk: object) -> bool:
    return type(total) is dict and type(chunk) is dict


def _joined(chunks: Sequence[object]) -> str | None:
    """The chunks joined, if they all are text (``None`` if not)."""
    if chunks and not isinstance(chunks[0], str):
        return None  # what the join would find at once, without its exception
    try:
        return "".join(cast("list[str]", chunks))
    except TypeError:  # a chunk that is not text: they are added with + instead
        return None


@final
class Total(Generic[T]):
    """Adds chunks up; ``value()`` is the sum (``NOTHING`` if there was none).

    Chunks are kept as they come and added up every ``_BLOCK`` chunks (text joined into
    a block, other chunks folded with ``+`` in order), so memory stays bounded; a hot
    loop may use ``append`` (a bare ``list.append``) and call ``compact()`` now and then.
    """

    __slots__ = ("_chunks", "append", "_blocks", "_folded", "_text")

    def __init__(self) -> None:
        self._chunks: list[T] = []
        self.append = self._chunks.append
        """Add one chunk without the size check (call ``compact()`` every so often)."""
        self._blocks: list[str] = []
        self._folded: T | Nothing = NOTHING
        self._text = True

    @property
    def empty(self) -> bool:
        """Whether no chunk was added."""
        return not self._chunks and self._text and not self._blocks

    def add(self, chunk: T) -> None:
        """Add one chunk."""
        chunks = self._chunks
        chunks.append(chunk)
        if len(chunks) >= _BLOCK:
            self._fold()

    def compact(self) -> None:
        """Add up the chunks kept so far if there are many (bounds memory)."""
        if len(self._chunks) >= _BLOCK:
            self._fold()

    def _fold(self) -> None:
        chunks = self._chunks
        block = _joined(chunks) if self._text else None
        if block is not None:
            self._blocks.append(block)
        else:
            total = self._so_far()
            for chunk in chunks:
                total = plus_chunk(total, chunk)
            self._folded, self._text = total, False
            self._blocks.clear()
        chunks.clear()

    def _so_far(self) -> T | Nothing:
        # Chunks of a T add up to a T (for text: the joined blocks of str chunks).
        if not self._text:
            return self._folded
        if not self._blocks:
            return NOTHING
        text = "".join(self._blocks)
        # Keep only the joined text: the blocks would hold a second copy of it.
        self._blocks[:] = [text]
        return cast("T", text)

    def value(self) -> T | Nothing:
        """The chunks added up."""
        if self._chunks:
            self._fold()
        return self._so_far()


def total_or_nothing(chunks: Iterable[T]) -> T | Nothing:
    """All of ``chunks`` added up (``NOTHING`` if there is none).

    >>> total_or_nothing(["a", "b"]), total_or_nothing([]) is NOTHING
    ('ab', True)
    """
    total: Total[T] = Total()
    for chunk in chunks:
        total.add(chunk)
    return total.value()


async def atotal_or_nothing(chunks: AsyncIterator[T]) -> T | Nothing:
    """Async ``total_or_nothing``; the stream is closed when done.

    >>> import asyncio
    >>> async def letters():
    ...     yield "x"; yield "y"
    >>> asyncio.run(atotal_or_nothing(letters()))
    'xy'
    """
    total: Total[T] = Total()
    try:
        async for chunk in chunks:
            total.add(chunk)
    finally:
        await aclose_all((chunks,))
    return total.value()


def run_on_total(chunks: Iterable[T], run: Callable[[T], Iterator[R]]) -> Iterator[R]:
    """What ``run`` streams from ``chunks`` added up, nothing when there is no chunk: the
    stream transform of a step that needs its whole input before it starts.

    >>> list(run_on_total(iter(["a", "b"]), lambda text: iter(text.upper())))
    ['A', 'B']
    >>> list(run_on_total(iter([]), lambda text: iter(text.upper())))
    []
    """
    total = total_or_nothing(chunks)
    if total is NOTHING:
        return
    yield from run(total)


async def arun_on_total(chunks: AsyncIterator[T], run: Callable[[T], AsyncIterator[R]]) -> AsyncIterator[R]:
    """Async ``run_on_total``; both streams are closed when done.

    >>> import asyncio
    >>> async def letters():
    ...     yield "x"; yield "y"
    >>> async def shout(text):
    ...     yield text.upper()
    >>> async def main():
    ...     return [out async for out in arun_on_total(letters(), shout)]
    >>> asyncio.run(main())
    ['XY']
    """
    total = await atotal_or_nothing(chunks)
    if total is NOTHING:
        return
    async with closing(run(total)) as outputs:
        async for out in outputs:
            yield out


def total_of(chunks: Iterable[T], name: str) -> T:
    """Add a stream's chunks with ``+``; an empty stream has no value and is an error.

    >>> total_of(iter(["a", "b"]), "x")
    'ab'
    >>> total_of(iter([]), "words")
    Traceback (most recent call last):
    ...
    effects.errors.EmptyStreamError: words produced an empty stream, so invoke has no output value
    """
    total = total_or_nothing(chunks)
    if total is NOTHING:
        raise EmptyStreamError(f"{name} produced an empty stream, so invoke has no output value")
    return total


async def atotal_of(chunks: AsyncIterator[T], name: str) -> T:
    """Async ``total_of``; the stream is closed when done.

    >>> import asyncio
    >>> from effects._runtime.closing import aiter_of
    >>> asyncio.run(atotal_of(aiter_of(("a", "b")), "x"))
    'ab'
    """
    total = await atotal_or_nothing(chunks)
    if total is NOTHING:
        raise EmptyStreamError(f"{name} produced an empty stream, so invoke has no output value")
    return total
