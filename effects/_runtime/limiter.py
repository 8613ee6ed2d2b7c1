"""Concurrency permits: how ``max_concurrency`` bounds the leaf steps under a call.

A limiter is created where ``max_concurrency`` is *set* (a call's config or a
``with_config`` binding), never where it is merely inherited; leaves take one
permit of every limiter above them, containers take none, so nesting cannot
deadlock. A leaf that itself calls runnables (a function that invokes a chain)
lends its permits to that nested work (``HELD``): waiting for a permit it
already holds would deadlock.

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
from collections.abc import AsyncGenerator, Generator, Iterable
from contextlib import AsyncExitStack, ExitStack, asynccontextmanager, contextmanager
from contextvars import ContextVar
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


HELD: ContextVar[frozenset[Limiter]] = ContextVar("combinators_held_permits", default=frozenset())
"""The limiters whose permit the step running here holds."""


def not_held(limiters: Iterable[Limiter]) -> tuple[Limiter, ...]:
    """The limiters this context still needs a permit of.

    >>> a = Limiter(1)
    >>> not_held((a,)) == (a,)
    True
    """
    held = HELD.get()
    return tuple(limiter for limiter in limiters if limiter not in held)


@contextmanager
def holding(limiters: tuple[Limiter, ...]) -> Generator[None]:
    """Take a permit of each limiter not held yet, and lend them to nested work.

    >>> a = Limiter(1)
    >>> with holding((a,)):
    ...     with holding((a,)):  # nested: already held, no deadlock
    ...         a.in_use
    1
    """
    needed = not_held(limiters)
    if not needed:
        yield
        return
    with ExitStack() as stack:
        for limiter in needed:
            stack.enter_context(limiter.hold())
        token = HELD.set(HELD.get() | frozenset(needed))
        try:
            yield
        finally:
            HELD.reset(token)


@asynccontextmanager
async def aholding(limiters: tuple[Limiter, ...]) -> AsyncGenerator[None]:
    """Async ``holding``."""
    needed = not_held(limiters)
    if not needed:
        yield
        return
    async with AsyncExitStack() as stack:
        for limiter in needed:
            await stack.enter_async_context(limiter.ahold())
        token = HELD.set(HELD.get() | frozenset(needed))
        try:
            yield
        finally:
            HELD.reset(token)
