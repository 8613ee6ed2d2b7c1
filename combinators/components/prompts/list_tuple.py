"""``ListTuple``: the tuple a prompt gives for its variables and parts, equal to the list
of the same items (the peer gives lists, and ported code compares with them).

A prompt is a frozen value, so what it hands out cannot be a list that a caller could
change under it; a tuple that also equals the list of its items keeps ported
comparisons (``prompt.input_variables == ["a"]``) true without a copy per read.

>>> names = ListTuple(["a", "b"])
>>> names == ["a", "b"], ["a", "b"] == names, names == ("a", "b"), names != ["b"]
(True, True, True, True)
>>> hash(names) == hash(("a", "b")), names
(True, ('a', 'b'))
"""

from __future__ import annotations

from typing import TypeVar, final

_T_co = TypeVar("_T_co", covariant=True)


@final
class ListTuple(tuple[_T_co, ...]):
    """A tuple that also equals a list of the same items, in order.

    Equality with a plain tuple is a tuple's; the hash is a tuple's (a list is never
    hashed, so equal values still hash alike). Slices and sums are plain tuples.

    >>> ListTuple("ab") == ["a", "b"], ListTuple("ab") == ["b", "a"]
    (True, False)
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, list):
            items: list[object] = other  # pyright: ignore[reportUnknownVariableType]
            return super().__eq__(tuple(items))
        return super().__eq__(other)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return super().__hash__()
