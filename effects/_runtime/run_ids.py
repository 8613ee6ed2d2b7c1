"""Run ids: time-ordered UUIDs (version 7), built only for observed runs."""

from __future__ import annotations

import random
import time
from uuid import UUID


def new_run_id() -> UUID:
    """A time-ordered run id (UUID version 7).

    >>> new_run_id().version
    7
    """
    ms = time.time_ns() // 1_000_000
    bits = (ms & 0xFFFF_FFFF_FFFF) << 80 | random.getrandbits(80)
    bits = (bits & ~(0xF << 76)) | (7 << 76)  # version
    bits = (bits & ~(0x3 << 62)) | (0x2 << 62)  # variant
    return UUID(int=bits)
