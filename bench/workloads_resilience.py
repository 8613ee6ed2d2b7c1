"""W9: retry and fallbacks (µs per successful call)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bench.chains import ainc, inc, lam, on, per_lib
from bench.harness import AsyncFn, Outcome, Side, SyncFn, compare_async, compare_sync
from bench.libs import Lib
from bench.record import Results

US = 1e6


class Flaky:
    """Fails twice, then succeeds, forever (each side owns one: interleaving-safe)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, x: int) -> int:
        self.calls += 1
        if self.calls % 3:
            raise ValueError("boom")
        return x + 1

    async def acall(self, x: int) -> int:
        return self(x)


def _retrying(lib: Lib) -> Any:
    flaky = Flaky()
    return lib.RunnableLambda(flaky, afunc=flaky.acall).with_retry(
        stop_after_attempt=3, wait_exponential_jitter=False, retry_if_exception_type=(ValueError,)
    )


def _never_failing(lib: Lib) -> Any:
    return lam(lib).with_retry(stop_after_attempt=3, wait_exponential_jitter=False)


def boom(x: int) -> int:
    raise ValueError("primary down")


async def aboom(x: int) -> int:
    raise ValueError("primary down")


def _with_fallback(lib: Lib) -> Any:
    return lib.RunnableLambda(boom, afunc=aboom).with_fallbacks([lam(lib)])


def _retry_floor() -> tuple[SyncFn, AsyncFn]:
    flaky = Flaky()

    def sync() -> int:
        for attempt in range(3):
            try:
                return flaky(1)
            except ValueError:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def asyn() -> int:
        for attempt in range(3):
            try:
                return await flaky.acall(1)
            except ValueError:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    return sync, asyn


def _fallback_floor() -> tuple[SyncFn, AsyncFn]:
    def sync() -> int:
        try:
            return boom(1)
        except ValueError:
            return inc(1)

    async def asyn() -> int:
        try:
            return await aboom(1)
        except ValueError:
            return await ainc(1)

    return sync, asyn


def _pair(
    res: Results,
    label: str,
    build: Callable[[Lib], Any],
    floors: tuple[SyncFn, AsyncFn],
    limit: float,
) -> None:
    """invoke and ainvoke rows + budgets for one wrapper."""
    s = res.settings
    built = per_lib(res.libs(), build)
    sync_sides: dict[str, Side[SyncFn]] = on(built, lambda r: lambda: r.invoke(1))
    async_sides: dict[str, Side[Callable[[], Awaitable[object]]]] = on(built, lambda r: lambda: r.ainvoke(1))
    runs: tuple[tuple[str, dict[str, Outcome]], ...] = (
        ("invoke", compare_sync(sync_sides | {"floor": floors[0]}, repeat=s.repeat, target=s.target, expect=2)),
        ("ainvoke", compare_async(async_sides | {"floor": floors[1]}, repeat=s.repeat, target=s.target, expect=2)),
    )
    for mode, out in runs:
        row = res.add("W9", f"{label}: {mode} µs/call", "µs", out, US)
        res.budget("W9", f"{label} {mode}: ours/peer time", row.ratio("peer"), "<=", limit)


def w9_resilience(res: Results) -> None:
    _pair(res, "with_retry(3), never fails", _never_failing, (lambda: inc(1), lambda: ainc(1)), 1 / 50)
    _pair(res, "with_retry(3), fails twice then ok", _retrying, _retry_floor(), 1 / 20)
    _pair(res, "with_fallbacks, primary raises", _with_fallback, _fallback_floor(), 1 / 20)
