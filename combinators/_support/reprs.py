"""Reprs that read like the call that built a value: only the fields that differ from
their defaults.

>>> import attrs

_FACTORY: Final = cast("type[object]", attrs.Factory)  # a function to type checkers, a class at runtime
>>> @attrs.frozen
... class Point:
...     x: int
...     y: int = 0
...     tags: tuple[str, ...] = attrs.field(factory=tuple)
>>> changed_fields(Point(1)), changed_fields(Point(1, 2, ("a",)), skip=("x",))
(['x=1'], ['y=2', "tags=('a',)"])
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Final, cast

import attrs

_FACTORY: Final = cast("type[object]", attrs.Factory)  # a function to type checkers, a class at runtime


def changed_fields(value: object, *, skip: Collection[str] = ()) -> list[str]:
    """``name=value`` for each constructor field of an attrs ``value`` that is required or
    differs from its default (fields hidden from ``repr`` and those in ``skip`` left out)."""
    shown: list[str] = []
    for field in attrs.fields(cast(Any, type(value))):
        if not field.repr or not field.init or field.name in skip:
            continue
        current = getattr(value, field.name)
        default: object = field.default
        if isinstance(default, _FACTORY):
            default = getattr(default, "factory")()
        if default is attrs.NOTHING or current != default:
            shown.append(f"{field.alias}={current!r}")
    return shown
