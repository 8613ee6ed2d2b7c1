"""Fresh ids for messages and tool calls, cheap enough to make on every call.

A random part drawn once per process, then a counter: unique within the process and
across processes, without a system call per id (``uuid4`` reads the OS's random source).

>>> a, b = fresh_id("call_"), fresh_id("call_")
>>> a != b and a.startswith("call_") and len(a) == len(b)
True
"""

from __future__ import annotations

import itertools
import uuid
from typing import Final

_PROCESS: Final = uuid.uuid4().hex[:12]
_COUNTER: Final = itertools.count()


def fresh_id(prefix: str) -> str:
    """``prefix`` then an id no other call of this function returns."""
    return f"{prefix}{_PROCESS}{next(_COUNTER):012x}"


def fresh_run_id() -> str:
    """A fresh id in the form of a run id (a UUID's text), for a run nobody watches.

    >>> import uuid
    >>> a = fresh_run_id()
    >>> str(uuid.UUID(a)) == a and a != fresh_run_id()
    True
    """
    count = next(_COUNTER)
    return f"{_PROCESS[:8]}-{_PROCESS[8:12]}-4{count >> 48 & 0xFFF:03x}-8{count >> 36 & 0xFFF:03x}-{count & 0xFFFFFFFFF:012x}"
