"""Concurrency permits: how ``max_concurrency`` bounds the leaf steps under a call.

A limiter is created where ``max_concurrency`` is *set* (a call's config or a
``with_config`` binding), never where it is merely inherited; leaves take one
permit of every limiter above them, containers take none, so nesting cannot
deadlock.

>>> lim = Limiter(2)
>>> with lim.hold():
...     lim.in_use
1
>>> lim.in_use
0
"""

from __future__ import annotations

# asyncio is imported where it is used: `import combinators` stays cheap for sync code.

import threading
from collections.abc import AsyncGenerator, Generator
from contextlib import asynccontextmanager, contextmanager
from typing import final


@final
class Limiter:
    """At most ``size`` holders at once, in threads or in tasks of one loop."""

    __slots__ = ("size", "_sync", "_async", "_lock", "in_use")

    def __init__(self, size: int) -> None:
        import asyncio

        if size < 1:
            raise ValueError(f"max_concurrency must be at least 1, got {size}")
        self.size = size
        self._sync = threading.BoundedSemaphore(size)
        self._async: asyncio.Semaphore | None = None
        self._lock = threading.Lock()
        self.in_use = 0

    def __repr__(self) -> str:
        return f"Limiter({self.size})"

    @contextmanager
    def hold(self) -> Generator[None]:
        """Hold one permit in this thread for the block."""
        with self._sync:
            with self._lock:
                self.in_use += 1
            try:
                yield
            finally:
                with self._lock:
                    self.in_use -= 1

    @asynccontextmanager
    async def ahold(self) -> AsyncGenerator[None]:
        """Hold one permit in this task for the block."""
        import asyncio

        if self._async is None:
            self._async = asyncio.Semaphore(self.size)
        async with self._async:
            self.in_use += 1
            try:
                yield
            finally:
                self.in_use -= 1
