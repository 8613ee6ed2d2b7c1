"""W10: memory (tracemalloc peaks), building a 1000-step chain, and import time."""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
from collections.abc import Callable
from functools import reduce
from operator import or_
from time import perf_counter
from typing import Any

from bench.chains import (
    CHUNKS,
    aconsume,
    astream_floor,
    consume,
    inc,
    per_lib,
    stream_chain,
    stream_floor,
)
from bench.harness import AsyncFn, SyncFn, compare_sync, describe_error, peak_async, peak_sync
from bench.libs import PROJECT_ROOT, Lib, silence_tracing
from bench.record import Cell, Results, difference, quotient

MS = 1e3
KIB = 1 / 1024
STEPS = 1000


def _piped(lib: Lib) -> SyncFn:
    steps = [lib.RunnableLambda(inc) for _ in range(STEPS)]
    return lambda: reduce(or_, steps)


def _direct(lib: Lib) -> SyncFn:
    steps = [lib.RunnableLambda(inc) for _ in range(STEPS)]
    return lambda: lib.RunnableSequence(*steps)


def w10_build(res: Results) -> None:
    s = res.settings
    plain = [inc] * STEPS
    piped = compare_sync(
        per_lib(res.libs(), _piped) | {"floor": lambda: list(plain)}, repeat=s.repeat_heavy, target=s.target
    )
    row = res.add("W10", f"build {STEPS}-step chain with a | b | ...: ms", "ms", piped, MS, note="floor: list(steps)")
    res.budget("W10", f"build {STEPS} steps with |: ours/peer time", row.ratio("peer"), "<=", 1 / 20)
    direct = compare_sync(per_lib(res.libs(), _direct), repeat=s.repeat_heavy, target=s.target)
    res.add("W10", f"build {STEPS}-step RunnableSequence(*steps): ms", "ms", direct, MS)

    runs = s.memory_runs

    def invoke_peak(lib: Lib) -> float:
        chain = lib.RunnableSequence(*[lib.RunnableLambda(inc) for _ in range(STEPS)])
        chain.invoke(0)  # warm-up outside tracing
        return _median_peak(lambda: peak_sync(lambda: chain.invoke(0)), runs)

    def floor_loop() -> int:
        x = 0
        for f in plain:
            x = f(x)
        return x

    res.add(
        "W10",
        f"invoke {STEPS}-step sequence: peak KiB",
        "KiB",
        _guarded(res.libs(), invoke_peak) | {"floor": _median_peak(lambda: peak_sync(floor_loop), runs)},
        note="floor: for f in steps: x = f(x)",
    )


def _median_peak(measure: Callable[[], int], runs: int) -> float:
    """KiB; the median of several traced runs, as small peaks are noisy."""
    return float(statistics.median(measure() for _ in range(runs))) * KIB


def _guarded(libs: dict[str, Lib | str], fn: Callable[[Lib], float]) -> dict[str, Cell]:
    out: dict[str, Cell] = {}
    for side, lib in libs.items():
        if isinstance(lib, str):
            out[side] = None
            continue
        try:
            out[side] = fn(lib)
        except Exception as exc:
            out[side] = describe_error(exc)
    return out


async def _awaited(job: AsyncFn) -> object:
    return await job()


async def _events(chain: Any) -> int:
    n = 0
    async for _ in chain.astream_events(None, version="v2"):
        n += 1
    return n


def _stream_peaks(res: Results, n: int) -> tuple[dict[str, Cell], ...]:
    """Peak KiB for astream, astream_events v2 and stream at n chunks, per side."""
    runs = res.settings.memory_runs
    libs: dict[str, Lib | str] = res.libs()
    skipped: dict[str, Cell] = {}
    if n > 1_000 and not res.settings.peer_memory_large:
        libs = {"ours": res.ours}
        skipped = {"peer": "skipped in --quick"}

    def measure(kind: str) -> Callable[[Lib], float]:
        def run(lib: Lib) -> float:
            chain = stream_chain(lib, n)
            if kind == "stream":
                consume(chain.stream(None))  # warm-up outside tracing
                return _median_peak(lambda: peak_sync(lambda: consume(chain.stream(None))), runs)
            job: AsyncFn = (lambda: aconsume(chain.astream(None))) if kind == "astream" else (lambda: _events(chain))
            asyncio.run(_awaited(job))  # warm-up, untraced (tracing slows it 5-10x)
            return _median_peak(lambda: peak_async(job), runs)

        return run

    make_async, make_sync = astream_floor(n), stream_floor(n)
    afloor: Cell = _median_peak(lambda: peak_async(lambda: aconsume(make_async())), runs)
    floor: Cell = _median_peak(lambda: peak_sync(lambda: consume(make_sync())), runs)
    return tuple(
        _guarded(libs, measure(kind)) | skipped | {"floor": floor if kind == "stream" else afloor}
        for kind in ("astream", "astream_events", "stream")
    )


def w10_stream_memory(res: Results) -> None:
    small, large = 1_000, 10_000
    peaks = {n: _stream_peaks(res, n) for n in (small, large)}
    for i, name in enumerate(("astream", "astream_events v2", "stream")):
        for n in (small, large):
            res.add(
                "W10",
                f"{name}, {n} chunks: peak KiB",
                "KiB",
                peaks[n][i],
                note="floor: nested " + ("" if name == "stream" else "async ") + "generators",
            )
    astream_growth = quotient(peaks[large][0]["ours"], peaks[small][0]["ours"])
    res.budget("W10", f"astream peak at {large // 1000}k / at {small // 1000}k (ours)", astream_growth, "<=", 1.2)
    # v2 end events must carry every run's aggregated output (and, for runs that take a
    # stream, their aggregated input): that much memory may grow with the stream. The
    # budget allows 20% more than the growth of what those end events carry.
    output = (sys.getsizeof("".join(CHUNKS[:large])) - sys.getsizeof("".join(CHUNKS[:small]))) * KIB
    carried = _carried_by_end_events(res, small)
    growths = {
        side: quotient(difference(peaks[large][1][side], peaks[small][1][side]), output * carried)
        for side in ("ours", "peer")
    }
    growth = growths["ours"]
    res.add(
        "W10",
        f"astream_events v2 peak growth {small // 1000}k->{large // 1000}k / growth of what its end events carry",
        "x",
        growths,
        note=f"end events carry {carried:g} aggregated copies of the {output:.0f} KiB"
        " output growth (each run's output, and input for stream transforms)",
    )
    res.budget("W10", "astream_events v2 memory growth / what its end events carry (ours)", growth, "<=", 1.2)


def _carried_by_end_events(res: Results, n: int) -> float:
    """How many stream-sized values the v2 end events carry (from our run at n chunks)."""
    if isinstance(res.ours, str):  # our library did not load: the row reads n/a
        return 1.0
    chain = stream_chain(res.ours, n)
    size = len("".join(CHUNKS[:n]))

    async def count() -> float:
        total = 0
        async for event in chain.astream_events(None, version="v2"):
            if event["event"].endswith("_end"):
                for key in ("input", "output"):
                    value = event["data"].get(key)
                    if isinstance(value, str):
                        total += len(value)
        return total / size

    return round(asyncio.run(count()), 2)


# ---------------------------------------------------------------- import time

IMPORTS = {
    "ours": "from combinators import RunnableLambda",
    "peer": "from langchain_core.runnables import RunnableLambda",
    "floor": "pass",
}
SCRIPT = "import time; t0 = time.perf_counter(); {stmt}; print(time.perf_counter() - t0)"


def _fresh_process(stmt: str) -> tuple[float, float]:
    """(process wall seconds, seconds the import statement took inside it)."""
    env = dict(os.environ, PYTHONPATH=str(PROJECT_ROOT))
    t0 = perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(stmt=stmt)],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    wall = perf_counter() - t0
    if done.returncode:
        lines = done.stderr.strip().splitlines() or ["exit status " + str(done.returncode)]
        raise RuntimeError(lines[-1])
    return wall, float(done.stdout.strip())


def w10_import(res: Results) -> None:
    silence_tracing()
    sides = {k: v for k, v in IMPORTS.items() if k == "floor" or not isinstance(res.libs()[k], str)}
    walls: dict[str, list[float] | str | None] = {k: ([] if k in sides else None) for k in IMPORTS}
    inner: dict[str, list[float]] = {k: [] for k in IMPORTS}
    for r in range(res.settings.import_runs + 1):  # run 0 warms the .pyc caches, not kept
        for side, stmt in sides.items():
            box = walls[side]
            if not isinstance(box, list):
                continue
            try:
                wall, imp = _fresh_process(stmt)
            except Exception as exc:
                walls[side] = describe_error(exc)
                continue
            if r:
                box.append(wall)
                inner[side].append(imp)
    wall_cells = {
        k: statistics.median(v) * MS if isinstance(v, list) and v else (v if not isinstance(v, list) else None)
        for k, v in walls.items()
    }
    inner_cells = {k: (statistics.median(inner[k]) * MS if inner[k] else wall_cells[k]) for k in IMPORTS}
    row = res.add("W10", "fresh process running the import: wall ms", "ms", wall_cells, note="floor: python -c pass")
    res.budget("W10", "import, fresh process wall: ours/peer", row.ratio("peer"), "<=", 1 / 10)
    res.add(
        "W10",
        "the import statement alone, timed inside that process: ms",
        "ms",
        inner_cells,
        note="informative; the budget is on the whole process",
    )
