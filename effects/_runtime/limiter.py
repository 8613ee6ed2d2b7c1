"""Concurrency permits: how ``max_concurrency`` bounds the leaf steps under a call.

A limiter is created where ``max_concurrency`` is *set* (a call's config or a
``with_config`` binding), never where it is merely inherited; leaves take one
permit of every limiter above them, containers take none, so nesting cannot
deadlock.

A leaf that itself calls runnables (a function that invokes or batches a chain) is
waiting while that nested work runs: its permits are *lent* (``Lease.lent``), back in
the pool while any nested leaf runs, and taken again when the last one is done. So
nested leaves take permits like any other leaf (a nested batch is bounded too) and
never wait for a permit their own caller holds (no deadlock, even at 1).

>>> lim = Limiter(2)
>>> with holding((lim,)):
...     lim.in_use
1
>>> lim.in_use
0
"""

from __future__ import annotations

# asyncio is imported where it is used: `import combinators` stays cheap for sync code.

import threading
from collections.abc import Generator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar, Token
from types import TracebackType
from typing import TYPE_CHECKING, final

if TYPE_CHECKING:
    import asyncio


@final
class Limiter:
    """At most ``size`` holders at once: threads (sync calls) or tasks of one loop."""

    __slots__ = ("size", "_sync", "_async", "_lock", "in_use")

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"max_concurrency must be at least 1, got {size}")
        self.size = size
        self._sync = threading.BoundedSemaphore(size)
        self._async: asyncio.BoundedSemaphore | None = None
        self._lock = threading.Lock()
        self.in_use = 0

    def __repr__(self) -> str:
        return f"Limiter({self.size})"

    def _count(self, change: int) -> None:
        with self._lock:
            self.in_use += change

    def acquire(self) -> None:
        """Take a permit for this thread (blocking)."""
        self._sync.acquire()
        self._count(1)

    def release(self) -> None:
        self._count(-1)
        self._sync.release()

    async def aacquire(self) -> None:
        """Take a permit for this task."""
        import asyncio

        if self._async is None:
            self._async = asyncio.BoundedSemaphore(self.size)
        await self._async.acquire()
        self._count(1)

    def arelease(self) -> None:
        assert self._async is not None
        self._count(-1)
        self._async.release()


@final
class Lease:
    """The permits one running leaf holds (sync or async), which nested work borrows.

    >>> lim = Limiter(1)
    >>> lease = Lease((lim,), asynchronous=False)
    >>> lease.take()
    >>> with lease.lent():  # nested work runs: the permit is back in the pool
    ...     lim.in_use
    0
    >>> lim.in_use
    1
    >>> lease.give_back()
    """

    __slots__ = ("limiters", "asynchronous", "holding", "_borrowers", "_lock", "_alock")

    def __init__(self, limiters: tuple[Limiter, ...], *, asynchronous: bool) -> None:
        self.limiters = limiters
        self.asynchronous = asynchronous
        self.holding = False
        self._borrowers = 0
        self._lock = threading.Lock()
        self._alock: asyncio.Lock | None = None

    # -- sync ----------------------------------------------------------------------

    def take(self) -> None:
        """Take a permit of every limiter (all or none)."""
        taken: list[Limiter] = []
        try:
            for limiter in self.limiters:
                limiter.acquire()
                taken.append(limiter)
        except BaseException:
            self._release(taken)
            raise
        self.holding = True

    def give_back(self) -> None:
        """Put the permits back (if held)."""
        if not self.holding:
            return
        self.holding = False
        self._release(self.limiters)

    def _release(self, taken: Sequence[Limiter]) -> None:
        # The last taken first; a sync lease takes with `take`, an async one with `atake`.
        for limiter in reversed(taken):
            if self.asynchronous:
                limiter.arelease()
            else:
                limiter.release()

    @contextmanager
    def lent(self) -> Generator[None]:
        """The permits are back in the pool for the block (nested work runs in it)."""
        with self._lock:
            self._borrowers += 1
            if self._borrowers == 1:
                self.give_back()
        try:
            yield
        finally:
            # Taken again under the lock: a borrower arriving meanwhile waits for it,
            # holding no permit, so this wait always ends.
            with self._lock:
                self._borrowers -= 1
                if self._borrowers == 0:
                    self.take()

    # -- async ---------------------------------------------------------------------

    async def atake(self) -> None:
        """Async ``take``; a cancelled wait leaves nothing held."""
        taken: list[Limiter] = []
        try:
            for limiter in self.limiters:
                await limiter.aacquire()
                taken.append(limiter)
        except BaseException:
            self._release(taken)
            raise
        self.holding = True

    def _async_lock(self) -> asyncio.Lock:
        import asyncio

        if self._alock is None:
            self._alock = asyncio.Lock()
        return self._alock

    async def lend(self) -> None:
        """Async ``lent``, entering: the permits go back to the pool."""
        async with self._async_lock():
            self._borrowers += 1
            if self._borrowers == 1:
                self.give_back()

    async def take_back(self) -> None:
        """Async ``lent``, leaving: the last borrower takes the permits again."""
        async with self._async_lock():
            self._borrowers -= 1
            if self._borrowers == 0:
                await self.atake()


LENDER: ContextVar[Lease | None] = ContextVar("combinators_lender", default=None)
"""The lease of the leaf whose code runs here (nested work borrows its permits)."""


@contextmanager
def leased(limiters: tuple[Limiter, ...]) -> Generator[Lease]:
    """Hold a permit of every limiter for the block, borrowing the calling leaf's.

    Does not make the lease the ``LENDER``: a stream sets it around each step only.
    """
    lender = LENDER.get()
    borrowing = lender is not None and not lender.asynchronous
    lease = Lease(limiters, asynchronous=False)
    if borrowing:
        assert lender is not None
        with lender.lent():
            lease.take()
            try:
                yield lease
            finally:
                lease.give_back()
        return
    lease.take()
    try:
        yield lease
    finally:
        lease.give_back()


@contextmanager
def holding(limiters: tuple[Limiter, ...]) -> Generator[Lease]:
    """``leased``, with the lease lent to the nested work of the block.

    >>> a = Limiter(1)
    >>> with holding((a,)):
    ...     with holding((a,)):  # nested: borrows the outer permit, no deadlock
    ...         a.in_use
    1
    """
    with leased(limiters) as lease:
        token = LENDER.set(lease)
        try:
            yield lease
        finally:
            LENDER.reset(token)


@final
class aleased:  # noqa: N801 - used like a function, as ``leased`` is
    """Async ``leased`` (a class: no generator for the event loop to finalize)."""

    __slots__ = ("_limiters", "_lender", "_lease")

    def __init__(self, limiters: tuple[Limiter, ...]) -> None:
        self._limiters = limiters
        self._lender: Lease | None = None
        self._lease = Lease(limiters, asynchronous=True)

    async def __aenter__(self) -> Lease:
        lender = LENDER.get()
        if lender is not None and lender.asynchronous:
            await lender.lend()
            self._lender = lender
        try:
            await self._lease.atake()
        except BaseException:
            await self._return()
            raise
        return self._lease

    async def _return(self) -> None:
        if self._lender is not None:
            lender, self._lender = self._lender, None
            await lender.take_back()

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._lease.give_back()
        await self._return()


@final
class aholding:  # noqa: N801 - used like a function, as ``holding`` is
    """Async ``holding``: ``aleased``, with the lease lent to the block's nested work."""

    __slots__ = ("_leased", "_token")

    def __init__(self, limiters: tuple[Limiter, ...]) -> None:
        self._leased = aleased(limiters)
        self._token: Token[Lease | None] | None = None

    async def __aenter__(self) -> Lease:
        lease = await self._leased.__aenter__()
        self._token = LENDER.set(lease)
        return lease

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._token is not None:
            LENDER.reset(self._token)
        await self._leased.__aexit__(kind, error, trace)
