"""Filling a frozen attrs value's fields from a hand-written ``__init__``.

Nodes whose constructors need overloads (for typing) or normalisation write their
own ``__init__`` and hand the normalised values to attrs' generated initialiser.
"""

from __future__ import annotations

from collections.abc import Callable


def init_fields(instance: object, *values: object) -> None:
    """Call the attrs initialiser of ``instance`` with ``values`` (fields in order)."""
    initialise: Callable[..., None] = getattr(instance, "__attrs_init__")
    initialise(*values)
