"""Run-time guards for typed parameters, and typed reads of untyped data.

A parameter typed ``str`` still receives an ``int`` from untyped code. These checks
take ``object``, so the checkers do not call them unnecessary, and they narrow what
they accept: ``is_mapping`` and ``is_list_or_tuple`` narrow data of unknown shape (JSON,
message-likes) to containers whose items are ``object``, to be checked as they are read.

>>> checked("fog", str, "embed_query expects a str")
'fog'
>>> checked(3, str, "embed_query expects a str")
Traceback (most recent call last):
...
TypeError: embed_query expects a str, got int
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeGuard, TypeVar

if TYPE_CHECKING:  # typing_extensions is only for the checkers: importing it costs ~2 ms
    from typing_extensions import TypeIs

T = TypeVar("T")


def is_a(value: object, kind: type[T] | tuple[type[T], ...]) -> TypeIs[T]:
    """Whether ``value`` is a ``kind``: ``isinstance`` for a value whose declared type
    already says so (a guard against untyped callers).

    >>> is_a(True, int), is_a("1", (int, float))
    (True, False)
    """
    return isinstance(value, kind)


def is_subclass(value: object, kind: type[T]) -> TypeIs[type[T]]:
    """Whether ``value`` is a class and a subclass of ``kind`` (``issubclass`` that takes
    any value, for a class whose declared type already says so).

    >>> is_subclass(ValueError, Exception), is_subclass("ValueError", Exception)
    (True, False)
    """
    return isinstance(value, type) and issubclass(value, kind)


def checked(value: object, kind: type[T] | tuple[type[T], ...], expected: str) -> T:
    """``value`` when it is a ``kind``; else ``TypeError("<expected>, got <its type>")``."""
    if isinstance(value, kind):
        return value
    raise TypeError(f"{expected}, got {type(value).__name__}")


def is_mapping(value: object) -> TypeGuard[Mapping[object, object]]:
    """Whether ``value`` is a mapping, to be read (its keys and values typed ``object``).

    >>> is_mapping({"a": 1}), is_mapping([("a", 1)])
    (True, False)
    """
    return isinstance(value, Mapping)


def is_str_mapping(value: object) -> TypeGuard[Mapping[str, object]]:
    """Whether ``value`` is a mapping whose keys are all str (as a JSON object's are).

    >>> is_str_mapping({"a": 1}), is_str_mapping({1: "a"}), is_str_mapping(["a"])
    (True, False, False)
    """
    return is_mapping(value) and all(isinstance(key, str) for key in value)


def is_dict(value: object) -> TypeGuard[dict[object, object]]:
    """Whether ``value`` is a dict (a ``dict`` exactly or a subclass), its keys and values ``object``.

    >>> is_dict({}), is_dict([])
    (True, False)
    """
    return isinstance(value, dict)


def is_list(value: object) -> TypeGuard[list[object]]:
    """Whether ``value`` is a list, its items typed ``object``.

    >>> is_list([]), is_list(())
    (True, False)
    """
    return isinstance(value, list)


def is_list_or_tuple(value: object) -> TypeGuard[list[object] | tuple[object, ...]]:
    """Whether ``value`` is a list or a tuple, to be read (its items typed ``object``).

    >>> is_list_or_tuple([1]), is_list_or_tuple((1,)), is_list_or_tuple("1")
    (True, True, False)
    """
    return isinstance(value, list | tuple)


def is_list_of(value: object, kind: type[T]) -> TypeIs[list[T] | tuple[T, ...]]:
    """Whether ``value`` is a list or tuple of ``kind`` items (an empty one is).

    >>> is_list_of(["a", "b"], str), is_list_of(("a", 1), str), is_list_of("ab", str)
    (True, False, False)
    """
    return is_list_or_tuple(value) and all(isinstance(item, kind) for item in value)


__all__ = [
    "checked", "is_a", "is_dict", "is_list", "is_list_of", "is_list_or_tuple", "is_mapping", "is_str_mapping", "is_subclass",
]  # fmt: skip
