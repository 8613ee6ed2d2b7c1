"""Names a package root exports but imports on first use (to keep importing it cheap).

>>> getattr_ = lazy_exports("pkg", {"dumps": "json"})
>>> getattr_("dumps").__name__
'dumps'
>>> getattr_("nope")
Traceback (most recent call last):
...
AttributeError: module 'pkg' has no attribute 'nope'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def lazy_exports(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` that imports ``name`` from ``homes[name]`` on first use."""

    def attribute(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(home), name)

    return attribute


__all__ = ["lazy_exports"]
