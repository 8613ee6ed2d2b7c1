"""The injectable clock and random source used by retry, timeouts and fake models.

Code that waits or draws jitter asks ``current_clock()``; tests install a
``FakeClock`` with ``use_clock`` so that nothing really sleeps and every delay is
exactly predictable.

>>> clock = FakeClock(start=100.0)
>>> with use_clock(clock):
...     current_clock().sleep(2.5)
>>> clock.monotonic(), clock.sleeps
(102.5, [2.5])
"""

from __future__ import annotations

# asyncio is imported where it is used: `import combinators` stays cheap for sync code.

import random
import time
from collections.abc import Callable, Generator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Final, Protocol, TypeVar, final


class Clock(Protocol):
    """Time and randomness, as the runtime sees them."""

    def now(self) -> float:
        """Wall-clock seconds since the epoch (timestamps of effects)."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (deadlines)."""
        ...

    def sleep(self, seconds: float) -> None:
        """Block the calling thread."""
        ...

    async def asleep(self, seconds: float) -> None:
        """Suspend the calling task."""
        ...

    def random(self) -> float:
        """A float in [0, 1) (jitter)."""
        ...


@final
class SystemClock:
    """The real clock.

    >>> SystemClock().monotonic() > 0
    True
    """

    __slots__ = ("_rng",)

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)

    async def asleep(self, seconds: float) -> None:
        import asyncio

        await asyncio.sleep(seconds)

    def random(self) -> float:
        return self._rng.random()

    def __repr__(self) -> str:
        return "SystemClock()"


@final
class FakeClock:
    """A clock for tests: sleeping advances time at once and is recorded.

    This is deliberately mutable state (time moves); it is the one kind of object
    in the library that is not a value.

    >>> c = FakeClock(seed=1)
    >>> c.sleep(1.0); c.sleep(0.5)
    >>> c.sleeps, c.monotonic()
    ([1.0, 0.5], 1.5)
    """

    __slots__ = ("_now", "_rng", "sleeps")

    def __init__(self, start: float = 0.0, seed: int = 0) -> None:
        self._now = start
        self._rng = random.Random(seed)
        self.sleeps: list[float] = []

    def now(self) -> float:
        return self._now

    def monotonic(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        """Move time forward without recording a sleep."""
        self._now += seconds

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self._now += seconds

    async def asleep(self, seconds: float) -> None:
        import asyncio

        self.sleeps.append(seconds)
        self._now += seconds
        # Still a real suspension point, so cancellation and fairness behave as live.
        await asyncio.sleep(0)

    def random(self) -> float:
        return self._rng.random()

    def __repr__(self) -> str:
        return f"FakeClock(now={self._now!r})"


SYSTEM_CLOCK: Final = SystemClock()
C = TypeVar("C", bound=Clock)
_CLOCK: ContextVar[Clock] = ContextVar("combinators_clock", default=SYSTEM_CLOCK)


def timestamps(clock: Clock) -> Callable[[], float]:
    """The clock's ``now``, as cheap to call as it can be (``time.time`` itself for the
    system clock): the runtime stamps every streamed chunk with it.

    >>> timestamps(SYSTEM_CLOCK) is time.time
    True
    """
    return time.time if type(clock) is SystemClock else clock.now


def current_clock() -> Clock:
    """The clock in force here.

    >>> current_clock() is SYSTEM_CLOCK
    True
    """
    return _CLOCK.get()


@contextmanager
def use_clock(clock: C) -> Generator[C]:
    """Install ``clock`` for the code inside the block (and the tasks it starts).

    >>> with use_clock(FakeClock()) as c:
    ...     current_clock() is c
    True
    """
    token = _CLOCK.set(clock)
    try:
        yield clock
    finally:
        _CLOCK.reset(token)
