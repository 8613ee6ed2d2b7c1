"""Run ids: time-ordered UUIDs (version 7), built only for observed runs."""

from __future__ import annotations

import random
import time
from typing import Final
from uuid import UUID, SafeUUID

_NEW: Final = object.__new__
# UUID(int=...) checks its arguments in Python code; an id made here needs none, so
# its two slots are set directly (every observed run makes one). Checked at import:
_SET_INT, _SET_SAFE = UUID.__dict__["int"].__set__, UUID.__dict__["is_safe"].__set__
if UUID.__slots__ != ("int", "is_safe", "__weakref__"):
    raise ImportError("uuid.UUID's slots changed: update new_run_id")


def new_run_id() -> UUID:
    """A time-ordered run id (UUID version 7).

    >>> new_run_id().version
    7
    """
    ms = time.time_ns() // 1_000_000
    bits = (ms & 0xFFFF_FFFF_FFFF) << 80 | random.getrandbits(80)
    bits = (bits & ~(0xF << 76)) | (7 << 76)  # version
    bits = (bits & ~(0x3 << 62)) | (0x2 << 62)  # variant
    run_id: UUID = _NEW(UUID)
    _SET_INT(run_id, bits)
    _SET_SAFE(run_id, SafeUUID.unknown)
    return run_id
