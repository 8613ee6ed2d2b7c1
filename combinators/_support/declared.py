"""``DeclaredFields``: a base whose subclasses are frozen attrs classes of their annotated
fields, without writing the decorator (as a LangChain user declares a retriever's or a
tool's fields on a pydantic model).

>>> import attrs
>>> class Shelf(DeclaredFields):
...     books: list[str]
...     limit: int = 2
>>> Shelf(books=["a", "b", "c"], limit=1)
Shelf(books=['a', 'b', 'c'], limit=1)
>>> attrs.has(Shelf), Shelf(books=[]) == Shelf(books=[])
(True, True)

A subclass may still be decorated by hand (``@attrs.frozen`` makes it slotted), which is
why the class becomes an attrs class when its first instance is made, not when the
``class`` statement runs: by then a decorator has had its say. Fields follow the
dataclass rules (fields with defaults last, or ``attrs.field(kw_only=True)``). Type
checkers see the fields through ``dataclass_transform``.

``init_fields`` fills a frozen attrs value's fields from a hand-written ``__init__``: nodes
whose constructors need overloads (for typing) or normalisation write their own
``__init__`` and hand the normalised values to attrs' generated initialiser.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Self, dataclass_transform

import attrs

_PENDING: Final = "__declared_fields_pending__"


def _is_data_descriptor(value: object) -> bool:
    kind = type(value)
    return hasattr(kind, "__get__") and (hasattr(kind, "__set__") or hasattr(kind, "__delete__"))


def _own_fields_win(cls: type, fields: list[attrs.Attribute[object]]) -> list[attrs.Attribute[object]]:
    # A field the class declares takes its keyword from an inherited field of another
    # attribute name (a model's own ``name`` field over the components' ``run_name``,
    # whose keyword is ``name``): two parameters of one name cannot be.
    del cls
    last = {field.alias or field.name.lstrip("_"): index for index, field in enumerate(fields)}
    return [field for index, field in enumerate(fields) if last[field.alias or field.name.lstrip("_")] == index]


def _transform(cls: type) -> None:
    for base in reversed(cls.__mro__[1:]):
        if base.__dict__.get(_PENDING):
            _transform(base)  # its fields are inherited: it becomes an attrs class first
    if not cls.__dict__.get(_PENDING):
        return
    delattr(cls, _PENDING)
    attrs.define(cls, frozen=True, slots=False, field_transformer=_own_fields_win)
    for field in attrs.fields(cls):
        if field.name not in cls.__dict__ and _is_data_descriptor(getattr(cls, field.name, None)):
            # An inherited property of the same name (a runnable's `name`) would hide the
            # field's value, which lives in the instance's __dict__.
            setattr(cls, field.name, None)


@dataclass_transform(frozen_default=True, field_specifiers=(attrs.field,))
class DeclaredFields:
    """Subclasses become frozen attrs classes of their annotated fields (see the module).

    A class created with ``fields=False`` (an abstract base of the library) is left as
    it is; its subclasses are transformed.
    """

    __slots__ = ()

    def __init_subclass__(cls, fields: bool = True, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__attrs_attrs__" in cls.__dict__:
            # attrs re-creating a decorated class (with the original's dict, flag included)
            if _PENDING in cls.__dict__:
                delattr(cls, _PENDING)
        elif fields:
            setattr(cls, _PENDING, True)

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        if _PENDING in cls.__dict__:
            _transform(cls)
        return super().__new__(cls)


def init_fields(instance: object, *values: object) -> None:
    """Call the attrs initialiser of ``instance`` with ``values`` (fields in order).

    >>> import attrs
    >>> @attrs.frozen(init=False)
    ... class Span:
    ...     start: int
    ...     end: int
    ...     def __init__(self, text: str) -> None:
    ...         init_fields(self, *map(int, text.split("-")))
    >>> Span("2-5")
    Span(start=2, end=5)
    """
    initialise: Callable[..., None] = getattr(instance, "__attrs_init__")
    initialise(*values)
