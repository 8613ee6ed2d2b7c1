"""Our instrumentation scope: the name and version our tracers and meters carry.

>>> INSTRUMENTATION_NAME
'combinators'
>>> scope_version() is None or isinstance(scope_version(), str)
True
"""

from __future__ import annotations

from functools import cache
from typing import Final

INSTRUMENTATION_NAME: Final = "combinators"
"""The instrumentation scope of our spans and metrics when they come from a provider."""


@cache
def scope_version() -> str | None:
    """The installed version of the package (None when it runs from a source tree)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(INSTRUMENTATION_NAME)
    except PackageNotFoundError:
        return None
