"""Timing and memory primitives shared by every workload.

Method (the same for both libraries and the plain-Python floor):

* every side of a comparison is warmed up once, then calibrated on its own so that one
  repeat lasts at least ``target`` seconds (or is a single call when ``target`` is 0);
* the repeats are interleaved: repeat ``r`` runs every side once, in an order rotated by
  ``r``, so that drift in machine load (2 shared cores) hits all sides alike;
* ``gc.collect()`` runs before each repeat; gc stays enabled while timing (realistic);
* the figure reported is the median of the repeats (min and max are kept for the JSON).

Async sides are timed inside ONE event loop per comparison (``asyncio.Runner``); the
timer runs inside the loop, so loop start-up is never counted.
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import threading
import tracemalloc
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from time import perf_counter
from typing import Final, TypeAlias, TypeVar

T = TypeVar("T")
SyncFn = Callable[[], object]
AsyncFn = Callable[[], Awaitable[object]]
# A side as handed to ``compare_*``: a callable to time, an error message (the side
# could not even be built), or None (the side is not available, reported as "n/a").
Side: TypeAlias = T | str | None


@dataclass(frozen=True)
class Stat:
    """Seconds per call, one sample per repeat."""

    samples: tuple[float, ...]
    loops: int

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    def as_json(self, scale: float) -> dict[str, float | int]:
        return {
            "median": self.median * scale,
            "min": min(self.samples) * scale,
            "max": max(self.samples) * scale,
            "repeats": len(self.samples),
            "inner_loops": self.loops,
        }


# What one side of a comparison ends as: timings, an error message, or None (n/a).
Outcome = Stat | str | None

_NOTHING: Final = object()


def describe_error(exc: BaseException) -> str:
    """One-line "error: ..." text for a table cell."""
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"error: {type(exc).__name__}: {text}"[:160]


def _rotated(names: list[str], r: int) -> list[str]:
    if not names:
        return names
    k = r % len(names)
    return names[k:] + names[:k]


def _calibrate(run_n: Callable[[int], float], target: float) -> int:
    """Smallest inner-loop count whose run lasts >= target (1 when target is 0)."""
    n = 1
    while target > 0:
        t = run_n(n)
        if t >= target:
            break
        if t < target / 20:
            n *= 10
        else:
            n = max(n + 1, int(n * target / t * 1.05))
            break
    return n


def _compare(
    sides: Mapping[str, Side[T]],
    run_n: Callable[[T, int], float],
    warm: Callable[[T], object],
    repeat: int,
    target: float,
    expect: object,
) -> dict[str, Outcome]:
    """The interleaved protocol, independent of sync/async (``run_n``/``warm`` adapt)."""
    out: dict[str, Outcome] = {}
    loops: dict[str, int] = {}
    live: dict[str, T] = {}
    for name, fn in sides.items():
        if fn is None or isinstance(fn, str):
            out[name] = fn
            continue
        try:
            t0 = perf_counter()
            result = warm(fn)
            warm_s = perf_counter() - t0
            if expect is not _NOTHING and result != expect:
                out[name] = f"error: wrong result {result!r:.60}, expected {expect!r:.60}"
                continue
            # A warm-up call that already lasts a whole repeat needs no calibration run.
            loops[name] = 1 if warm_s >= target else _calibrate(partial(run_n, fn), target)
        except Exception as exc:  # a side that fails is reported, never fatal
            out[name] = describe_error(exc)
            continue
        live[name] = fn
    samples: dict[str, list[float]] = {name: [] for name in live}
    for r in range(repeat):
        for name in _rotated(list(live), r):
            gc.collect()
            try:
                samples[name].append(run_n(live[name], loops[name]) / loops[name])
            except Exception as exc:
                out[name] = describe_error(exc)
                del live[name]
    for name in live:
        out[name] = Stat(tuple(samples[name]), loops[name])
    return {name: out[name] for name in sides}


def _run_sync_n(fn: SyncFn, n: int) -> float:
    t0 = perf_counter()
    for _ in range(n):
        fn()
    return perf_counter() - t0


def compare_sync(
    sides: Mapping[str, Side[SyncFn]],
    *,
    repeat: int,
    target: float,
    expect: object = _NOTHING,
) -> dict[str, Outcome]:
    """Seconds per ``fn()`` for each side, interleaved repeats."""
    return _compare(sides, _run_sync_n, lambda fn: fn(), repeat, target, expect)


async def _arun_n(fn: AsyncFn, n: int) -> float:
    t0 = perf_counter()
    for _ in range(n):
        await fn()
    return perf_counter() - t0


async def _await(fn: AsyncFn) -> object:
    return await fn()


def compare_async(
    sides: Mapping[str, Side[AsyncFn]],
    *,
    repeat: int,
    target: float,
    expect: object = _NOTHING,
) -> dict[str, Outcome]:
    """Seconds per ``await fn()`` for each side, all sides in one event loop."""
    with asyncio.Runner() as runner:
        return _compare(
            sides,
            lambda fn, n: runner.run(_arun_n(fn, n)),
            lambda fn: runner.run(_await(fn)),
            repeat,
            target,
            expect,
        )


class ThreadStartCounter:
    """Counts ``threading.Thread.start`` calls made inside the ``with`` block."""

    def __init__(self) -> None:
        self.count = 0

    def __enter__(self) -> ThreadStartCounter:
        original = threading.Thread.start
        counter = self

        def start(thread: threading.Thread) -> None:
            counter.count += 1
            original(thread)

        self._original = original
        setattr(threading.Thread, "start", start)  # noqa: B010 (a method swap, on purpose)
        return self

    def __exit__(self, *exc: object) -> None:
        setattr(threading.Thread, "start", self._original)  # noqa: B010 - restoring the method swapped above


@contextmanager
def traced_peak() -> Iterator[list[int]]:
    """Yields a list that receives the peak traced bytes above the starting level."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    box: list[int] = []
    try:
        yield box
    finally:
        box.append(tracemalloc.get_traced_memory()[1] - base)
        tracemalloc.stop()


def peak_sync(fn: SyncFn) -> int:
    """Peak bytes allocated (above baseline) while running fn()."""
    with traced_peak() as box:
        fn()
    return box[0]


def peak_async(fn: AsyncFn) -> int:
    """Peak bytes while awaiting fn(); the event loop is created before tracing starts."""

    async def traced() -> int:
        with traced_peak() as box:
            await fn()
        return box[0]

    return asyncio.run(traced())


def median_of(values: list[float]) -> float:
    return statistics.median(values)
