"""Filling a frozen attrs value's fields from a hand-written ``__init__``.

Nodes whose constructors need overloads (for typing) or normalisation write their
own ``__init__`` and hand the normalised values to attrs' generated initialiser.
"""

from __future__ import annotations

from collections.abc import Callable


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
