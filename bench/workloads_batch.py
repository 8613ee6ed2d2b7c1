"""W4: batch / abatch of 1000 inputs through 3 steps; W5: abatch of sleeping steps."""

from __future__ import annotations

import asyncio
import statistics
from functools import partial
from typing import Any

from bench.chains import ainc, inc, on, per_lib, sequence
from bench.harness import AsyncFn, Stat, compare_async, compare_sync, peak_async
from bench.libs import Lib
from bench.record import Results, guard

MS = 1e3


def w4_batch(res: Results) -> None:
    s = res.settings
    size = s.batch_size
    inputs = list(range(size))
    expect = [x + 3 for x in inputs]
    seq3 = per_lib(res.libs(), lambda lib: sequence(lib, 3))

    sync = compare_sync(
        on(seq3, lambda r: lambda: r.batch(inputs)) | {"floor": lambda: [inc(inc(inc(x))) for x in inputs]},
        repeat=s.repeat_heavy,
        target=s.target,
        expect=expect,
    )
    row = res.add("W4", f"batch({size}) x 3 steps, ms", "ms", sync, MS, note="floor: list comprehension f(f(f(x)))")
    res.budget("W4", "batch: ours/peer time", row.ratio("peer"), "<=", 1 / 20)

    async def gather_floor() -> list[int]:
        async def one(x: int) -> int:
            return await ainc(await ainc(await ainc(x)))

        return list(await asyncio.gather(*[one(x) for x in inputs]))

    asyn = compare_async(
        on(seq3, lambda r: lambda: r.abatch(inputs)) | {"floor": gather_floor},
        repeat=s.repeat_heavy,
        target=s.target,
        expect=expect,
    )
    row = res.add(
        "W4", f"abatch({size}) x 3 steps, ms", "ms", asyn, MS, note=f"floor: asyncio.gather of {size} x 3 awaits"
    )
    res.budget("W4", "abatch: ours/peer time", row.ratio("peer"), "<=", 1 / 20)
    _abatch_memory(res)


MEMORY_INPUTS = 10_000


def _abatch_memory(res: Results) -> None:
    """Peak traced memory of one abatch of 10k inputs x 3 steps at max_concurrency 100."""
    size = MEMORY_INPUTS if not res.settings.quick else 2_000
    inputs = list(range(size))
    config = {"max_concurrency": 100}

    def peak(lib: Lib) -> float:
        chain = sequence(lib, 3)
        job: AsyncFn = lambda: chain.abatch(inputs, config)  # noqa: E731 - typed as the job the peak measures
        asyncio.run(_awaited(job))  # warm-up, untraced
        return statistics.median(peak_async(job) for _ in range(res.settings.memory_runs)) / 2**20

    async def floor() -> list[int]:
        gate = asyncio.Semaphore(100)

        async def one(x: int) -> int:
            async with gate:
                return await ainc(await ainc(await ainc(x)))

        return list(await asyncio.gather(*[one(x) for x in inputs]))

    cells = {
        side: guard(lambda lib=lib: peak(lib)) if isinstance(lib, Lib) else lib for side, lib in res.libs().items()
    }
    cells["floor"] = guard(lambda: peak_async(floor) / 2**20)
    row = res.add(
        "W4",
        f"abatch({size}) x 3, max_concurrency 100: peak MiB",
        "MiB",
        cells,
        note="floor: gather of all inputs under a Semaphore(100)",
    )
    res.budget("W4", "abatch max_concurrency=100 peak memory: ours/peer", row.ratio("peer"), "<", 1)


async def _awaited(job: AsyncFn) -> object:
    return await job()


async def sleep10(x: int) -> int:
    await asyncio.sleep(0.01)
    return x


def _sleeper(lib: Lib) -> object:
    return lib.RunnableLambda(sleep10)


def _abatch(runnable: Any, inputs: list[int], limit: int) -> AsyncFn:
    return lambda: runnable.abatch(inputs, config={"max_concurrency": limit})


def w5_concurrency(res: Results) -> None:
    s = res.settings
    inputs = list(range(200))
    sleeper = per_lib(res.libs(), _sleeper)
    for c in s.concurrency_levels:
        ideal = len(inputs) / c * 0.01

        async def floor(c: int = c) -> list[int]:
            gate = asyncio.Semaphore(c)

            async def one(x: int) -> int:
                async with gate:
                    return await sleep10(x)

            return list(await asyncio.gather(*[one(x) for x in inputs]))

        out = compare_async(
            on(sleeper, partial(_abatch, inputs=inputs, limit=c)) | {"floor": floor},
            repeat=s.repeat_heavy,
            target=0.0,
            expect=inputs,
        )
        ratios = {k: v.median / ideal if isinstance(v, Stat) else v for k, v in out.items()}
        row = res.add(
            "W5",
            f"abatch(200 x sleep 10ms) max_concurrency={c}: wall/ideal",
            "x",
            ratios,
            note=f"ideal {ideal * MS:.0f} ms; floor: Semaphore + gather",
        )
        if c == 50:
            base = row.floor
            res.budget(
                "W5",
                "c=50 wall/ideal (ours)",
                row.ours,
                "<=",
                1.15,
                context=f"floor {base:.3g}x" if isinstance(base, float) else "",
            )
