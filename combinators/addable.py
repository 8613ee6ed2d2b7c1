"""``AddableDict``: the chunk type of streamed parallel maps.

Adding two of them merges the keys, adding values under the same key with ``+``,
so adding up a parallel map's stream rebuilds its ``invoke`` output.

>>> AddableDict(a="x") + AddableDict(a="y", b=1)
{'a': 'xy', 'b': 1}
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable, Mapping
from typing import Any, Protocol, Self, TypeVar


class AddableDict(dict[str, Any]):
    """A dict whose ``+`` merges, adding values under shared keys."""

    def __add__(self, other: Mapping[str, object]) -> AddableDict:
        merged = AddableDict(self)
        for key, value in other.items():
            if key in merged and merged[key] is not None:
                try:
                    merged[key] = merged[key] + value
                except TypeError:
                    merged[key] = value
            else:
                merged[key] = value
        return merged

    def __radd__(self, other: Mapping[str, object]) -> AddableDict:
        return AddableDict(other) + self


class SupportsAdd(Protocol):
    """A value that adds to another of its kind with ``+`` (chunks, strings, lists...)."""

    def __add__(self, other: Self, /) -> Self: ...


A = TypeVar("A", bound=SupportsAdd)


def add(addables: Iterable[A]) -> A | None:
    """The ``+`` of all the values, in order; ``None`` when there is none (the peer's ``add``).

    >>> add(["a", "b", "c"]), add([AddableDict(a=1), AddableDict(b=2)]), add([])
    ('abc', {'a': 1, 'b': 2}, None)
    """
    total: A | None = None
    for value in addables:
        total = value if total is None else total + value
    return total


async def aadd(addables: AsyncIterable[A]) -> A | None:
    """Async ``add``: the ``+`` of an async iterable's values.

    >>> import asyncio
    >>> async def parts():
    ...     yield [1]
    ...     yield [2]
    >>> asyncio.run(aadd(parts()))
    [1, 2]
    """
    total: A | None = None
    async for value in addables:
        total = value if total is None else total + value
    return total
