"""Run ids: time-ordered UUIDs (version 7), built only for observed runs."""

from __future__ import annotations

import random
import time
from typing import Final
from uuid import UUID

# Every observed run makes one: its bits are in range by construction, so the id is
# built without UUID(int=...)'s checks (effects._fast holds that speed-up and its check).
from effects._fast import uuid_from_int

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
    return uuid_from_int(bits)
