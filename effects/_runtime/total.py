"""``Total``: a stream's chunks added up with ``+``, in linear time.

Adding text chunks one by one (``total = total + chunk``) copies the total every
time: quadratic in the stream's length. A ``Total`` keeps text in blocks that are
joined once at the end; any other chunk type is folded with ``+`` as it arrives
(a chunk that cannot be added replaces the total, as the peer does).

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

from collections.abc import AsyncIterator, Iterable
from typing import Final, Generic, TypeVar, cast, final

from effects.errors import EmptyStreamError
from effects.values import NOTHING, Nothing
from effects._runtime.closing import aclose_all

_BLOCK: Final = 64


T = TypeVar("T")


def add_chunks(total: T | Nothing, chunk: T) -> T:
    """``total + chunk``, or ``chunk`` when the two cannot be added.

    Chunks of a ``T`` add up to a ``T`` (the chunk contract of every stream here).

    >>> add_chunks(NOTHING, "a"), add_chunks({"a": 1}, {"b": 2})
    ('a', {'b': 2})
    """
    if total is NOTHING:
        return chunk
    try:
        return total + chunk  # type: ignore[operator, no-any-return]
    except TypeError:
        return chunk


@final
class Total(Generic[T]):
    """Adds chunks up; ``value()`` is the sum (``NOTHING`` if there was none)."""

    __slots__ = ("_blocks", "_pending", "_folded", "_text")

    def __init__(self) -> None:
        self._blocks: list[str] = []
        self._pending: list[str] = []
        self._folded: T | Nothing = NOTHING
        self._text = True

    @property
    def empty(self) -> bool:
        """Whether no chunk was added."""
        return self._text and not self._pending and not self._blocks

    def add(self, chunk: T) -> None:
        """Add one chunk."""
        if self._text:
            item: object = chunk
            if type(item) is str:
                pending = self._pending
                pending.append(item)
                if len(pending) >= _BLOCK:
                    self._blocks.append("".join(pending))
                    pending.clear()
                return
            self._folded = self.value()
            self._text = False
            self._blocks.clear()
            self._pending.clear()
        self._folded = add_chunks(self._folded, chunk)

    def value(self) -> T | Nothing:
        """The chunks added up."""
        # Chunks of a T add up to a T (for text: the joined blocks of str chunks).
        if not self._text:
            return self._folded
        if not self._pending and not self._blocks:
            return NOTHING
        self._blocks.extend(self._pending)
        text = "".join(self._blocks)
        # Keep only the joined text: the blocks would hold a second copy of it.
        self._blocks = [text]
        self._pending.clear()
        return cast("T", text)


def added_up(chunks: Iterable[T]) -> T | Nothing:
    """All of ``chunks`` added up (``NOTHING`` if there is none).

    >>> added_up(["a", "b"]), added_up([]) is NOTHING
    ('ab', True)
    """
    total: Total[T] = Total()
    for chunk in chunks:
        total.add(chunk)
    return total.value()


async def aadded_up(chunks: AsyncIterator[T]) -> T | Nothing:
    """Async ``added_up``; the stream is closed when done.

    >>> import asyncio
    >>> async def letters():
    ...     yield "x"; yield "y"
    >>> asyncio.run(aadded_up(letters()))
    'xy'
    """
    total: Total[T] = Total()
    try:
        async for chunk in chunks:
            total.add(chunk)
    finally:
        await aclose_all((chunks,))
    return total.value()


def add_up(chunks: Iterable[T], name: str) -> T:
    """Add a stream's chunks with ``+``; an empty stream has no value and is an error.

    >>> add_up(iter(["a", "b"]), "x")
    'ab'
    >>> add_up(iter([]), "words")
    Traceback (most recent call last):
    ...
    effects.errors.EmptyStreamError: words produced an empty stream, so invoke has no output value
    """
    total = added_up(chunks)
    if total is NOTHING:
        raise EmptyStreamError(f"{name} produced an empty stream, so invoke has no output value")
    return total


async def aadd_up(chunks: AsyncIterator[T], name: str) -> T:
    """Async ``add_up``."""
    total = await aadded_up(chunks)
    if total is NOTHING:
        raise EmptyStreamError(f"{name} produced an empty stream, so invoke has no output value")
    return total
