"""Our instrumentation scope: the name and version our tracers and meters carry.

>>> INSTRUMENTATION_NAME
'combinators'
>>> scope_version() is None or isinstance(scope_version(), str)
True
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import cache
from typing import Final, TypeVar

K = TypeVar("K")
V = TypeVar("V")

INSTRUMENTATION_NAME: Final = "combinators"
"""The instrumentation scope of our spans and metrics when they come from a provider."""


@cache
def scope_version() -> str | None:
    """The installed version of the distribution (None when it runs from a source tree)."""
    from importlib.metadata import PackageNotFoundError, version

    from effects.hooks import DISTRIBUTION

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return None


def remembered(known: weakref.WeakKeyDictionary[K, V], key: K, make: Callable[[K], V | None]) -> V | None:
    """``known[key]``, made by ``make(key)`` the first time (a ``None`` is not kept); a
    key that cannot be weakly referenced is made anew each time.

    >>> import weakref
    >>> class Provider: ...
    >>> known: weakref.WeakKeyDictionary[Provider, str] = weakref.WeakKeyDictionary()
    >>> p = Provider()
    >>> remembered(known, p, lambda _: "tracer") is remembered(known, p, lambda _: "other")
    True
    """
    try:
        found = known.get(key)
    except TypeError:  # not weakly referenceable
        return make(key)
    if found is None:
        found = make(key)
        if found is not None:
            known[key] = found
    return found
