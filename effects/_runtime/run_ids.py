"""Run ids: time-ordered UUIDs (version 7), built only for observed runs."""

from __future__ import annotations

import random
import time
from typing import Final
from uuid import UUID, SafeUUID

_NEW: Final = object.__new__
_SET: Final = object.__setattr__
_UNKNOWN: Final = SafeUUID.unknown  # an enum member: read once, not per id
# UUID(int=...) checks its arguments in Python code; an id made here needs none, so
# its two slots are set directly (every observed run makes one). Checked at import:
if UUID.__slots__ != ("int", "is_safe", "__weakref__"):
    raise ImportError("uuid.UUID's slots changed: update new_run_id")


_RANDOM_BITS: Final = ((1 << 80) - 1) & ~(0xF << 76) & ~(0x3 << 62)
"""The 80 low bits, less those of the version (76-79) and the variant (62-63)."""
_VERSION_AND_VARIANT: Final = (7 << 76) | (0x2 << 62)


def new_run_id() -> UUID:
    """A time-ordered run id (UUID version 7).

    >>> new_run_id().version
    7
    """
    ms = time.time_ns() // 1_000_000
    bits = (ms & 0xFFFF_FFFF_FFFF) << 80 | (random.getrandbits(80) & _RANDOM_BITS) | _VERSION_AND_VARIANT
    run_id: UUID = _NEW(UUID)
    _SET(run_id, "int", bits)
    _SET(run_id, "is_safe", _UNKNOWN)
    return run_id
