"""W6: streaming through a source and 3 transforms; cancellation latency.

Rates are chunks/s (higher is better); the ours/peer column of a rate row is therefore
"how many times faster", which is what the W6 budgets are stated in.
"""

from __future__ import annotations

import asyncio
import gc
import statistics
from functools import partial
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from time import perf_counter
from typing import Any

from bench.chains import (
    Counter,
    aconsume,
    astream_floor,
    consume,
    on,
    per_lib,
    stream_chain,
    stream_floor,
)
from bench.harness import Outcome, Side, Stat, compare_async, compare_sync, describe_error
from bench.libs import Lib
from bench.record import Results, quotient

US = 1e6
MS = 1e3
Pair = tuple[Any, Counter]  # makes the iterator; the counter its source increments


def _rate(out: dict[str, Outcome], n: int) -> dict[str, Outcome | float]:
    """Seconds per pass over n chunks -> chunks per second."""
    return {k: n / v.median if isinstance(v, Stat) else v for k, v in out.items()}


def w6_throughput(res: Results) -> None:
    s = res.settings
    n = s.stream_chunks
    chains = per_lib(res.libs(), lambda lib: stream_chain(lib, n))
    floor, afloor = stream_floor(n), astream_floor(n)
    sync = compare_sync(
        on(chains, lambda c: lambda: consume(c.stream(None))) | {"floor": lambda: consume(floor())},
        repeat=s.repeat_heavy,
        target=s.target,
        expect=n,
    )
    row = res.add(
        "W6",
        f"stream {n} chunks: chunks/s (higher is better)",
        "chunk/s",
        _rate(sync, n),
        note="floor: nested generators",
    )
    res.budget("W6", "stream: ours/peer chunks/s", row.ratio("peer"), ">=", 10)
    res.add("W6", "stream µs/chunk", "µs", sync, US / n)

    asyn = compare_async(
        on(chains, lambda c: lambda: aconsume(c.astream(None))) | {"floor": lambda: aconsume(afloor())},
        repeat=s.repeat_heavy,
        target=s.target,
        expect=n,
    )
    row = res.add(
        "W6",
        f"astream {n} chunks: chunks/s (higher is better)",
        "chunk/s",
        _rate(asyn, n),
        note="floor: nested async generators",
    )
    res.budget("W6", "astream: ours/peer chunks/s", row.ratio("peer"), ">=", 20)
    res.add("W6", "astream µs/chunk", "µs", asyn, US / n)


# ---------------------------------------------------------------- first chunk and close

FirstChunk = tuple[float, float, float]  # seconds to first chunk, seconds to closed, produced


def _trial_sync(make: Callable[[], Iterator[object]], counter: Counter) -> FirstChunk:
    counter.produced = 0
    t0 = perf_counter()
    it = make()
    next(it)
    t1 = perf_counter()
    it.close()  # type: ignore[attr-defined]
    t2 = perf_counter()
    del it
    gc.collect()  # finalizers of anything the close left behind run before we count
    return t1 - t0, t2 - t0, counter.produced


async def _trial_async(make: Callable[[], AsyncIterator[object]], counter: Counter) -> FirstChunk:
    counter.produced = 0
    t0 = perf_counter()
    it = make()
    await it.__anext__()
    t1 = perf_counter()
    await it.aclose()  # type: ignore[attr-defined]
    t2 = perf_counter()
    for _ in range(5):  # background tasks, if any, get a chance to keep producing
        await asyncio.sleep(0)
    return t1 - t0, t2 - t0, counter.produced


def _trials(
    sides: dict[str, Side[Pair]],
    run: Callable[[Any, Counter], FirstChunk],
    trials: int,
) -> dict[str, list[FirstChunk] | str | None]:
    """Interleaved trials (ours, peer, floor, ours, ...), gc.collect() before each."""
    out: dict[str, list[FirstChunk] | str | None] = {
        k: v if v is None or isinstance(v, str) else [] for k, v in sides.items()
    }
    for _ in range(trials):
        for name, pair in sides.items():
            samples = out[name]
            if not isinstance(samples, list) or pair is None or isinstance(pair, str):
                continue
            gc.collect()
            try:
                samples.append(run(*pair))
            except Exception as exc:
                out[name] = describe_error(exc)
    return out


def _column(
    trials: dict[str, list[FirstChunk] | str | None],
    index: int,
    scale: float,
    pick: Callable[[list[float]], float] = statistics.median,
) -> dict[str, float | str | None]:
    return {
        k: pick([t[index] for t in v]) * scale
        if isinstance(v, list) and v
        else (v if not isinstance(v, list) else "error: no trial")
        for k, v in trials.items()
    }


def _first_chunk_sides(res: Results, n: int, asynchronous: bool) -> dict[str, Side[Pair]]:
    def build(lib: Lib) -> Pair:
        counter = Counter()
        chain = stream_chain(lib, n, counter)
        make = (lambda: chain.astream(None)) if asynchronous else (lambda: chain.stream(None))
        return make, counter

    floor_counter = Counter()
    floor_make: Callable[[], object] = (
        astream_floor(n, floor_counter) if asynchronous else stream_floor(n, floor_counter)
    )
    return per_lib(res.libs(), build) | {"floor": (floor_make, floor_counter)}


def w6_first_chunk(res: Results) -> None:
    s = res.settings
    n = s.stream_chunks
    sync = _trials(_first_chunk_sides(res, n, False), _trial_sync, s.ttfc_trials)

    def run_async(make: Any, counter: Counter) -> FirstChunk:
        return asyncio.run(_trial_async(make, counter))

    asyn = _trials(_first_chunk_sides(res, n, True), run_async, s.ttfc_trials)
    for mode, trials, closer in (("stream", sync, "close()"), ("astream", asyn, "aclose()")):
        row = res.add("W6", f"{mode} time to first chunk", "µs", _column(trials, 0, US))
        res.budget("W6", f"{mode} time to first chunk: ours/peer", row.ratio("peer"), "<=", 1 / 20)
        res.add("W6", f"{mode} first chunk + {closer}", "µs", _column(trials, 1, US))
        row = res.add(
            "W6",
            f"{mode}: chunks the source produced, closed after 1st",
            "chunks",
            _column(trials, 2, 1.0, max),
            note=f"of {n}; worst trial",
        )
        res.budget("W6", f"{mode} closed after 1st chunk: source produced (ours)", row.ours, "<=", 2, unit="chunks")


# ---------------------------------------------------------------- per-chunk cost vs length


def w6_scaling(res: Results) -> None:
    """µs per chunk at several stream lengths; flat is the goal (no per-chunk growth)."""
    s = res.settings
    per_chunk: dict[tuple[str, int], float | str | None] = {}
    for n in s.scaling_sizes:
        libs = res.libs() if n <= s.peer_scaling_max else {"ours": res.ours}
        chains = per_lib(libs, partial(stream_chain, n=n))
        floor, afloor = stream_floor(n), astream_floor(n)
        # The floor shows what the machine does at this length (e.g. cache misses).
        sync = compare_sync(
            on(chains, lambda c: lambda: consume(c.stream(None))) | {"floor": lambda: consume(floor())},
            repeat=s.repeat_heavy,
            target=s.target,
            expect=n,
        )
        asyn = compare_async(
            on(chains, lambda c: lambda: aconsume(c.astream(None))) | {"floor": lambda: aconsume(afloor())},
            repeat=s.repeat_heavy,
            target=s.target,
            expect=n,
        )
        skipped = "" if "peer" in chains else " (peer skipped: too slow)"
        for mode, out in (("stream", sync), ("astream", asyn)):
            row = res.add("W6", f"{mode} µs/chunk at {n} chunks{skipped}", "µs", out, US / n)
            per_chunk[(mode, n)] = row.ours
    small, large = min(s.scaling_sizes), max(s.scaling_sizes)
    for mode in ("stream", "astream"):
        growth = quotient(per_chunk[(mode, large)], per_chunk[(mode, small)])
        res.budget("W6", f"{mode} µs/chunk at {large // 1000}k / at {small // 1000}k (ours)", growth, "<=", 1.3)


# ---------------------------------------------------------------- cancellation latency

SLOW = 10.0  # seconds an inner task would live if cancellation did not reach it
DEADLINE = 2.0


async def _cancel_latency(start: Callable[[], Awaitable[object]], settle: float) -> tuple[float, int]:
    """Seconds from cancelling the consumer until no other task is alive; tasks at cancel."""
    me = asyncio.current_task()
    consumer = asyncio.ensure_future(start())
    await asyncio.sleep(settle)  # let the chain fan out into its inner tasks
    alive = len([t for t in asyncio.all_tasks() if t is not me])
    t0 = perf_counter()
    consumer.cancel()
    while True:
        pending = [t for t in asyncio.all_tasks() if t is not me and not t.done()]
        if not pending:
            return perf_counter() - t0, alive
        if perf_counter() - t0 > DEADLINE:
            raise TimeoutError(f"{len(pending)} task(s) still alive {DEADLINE:.0f} s after cancel")
        await asyncio.sleep(0)


async def slow(x: object) -> object:
    await asyncio.sleep(SLOW)
    return x


def _slow_source(inputs: Iterator[object]) -> Iterator[str]:
    for _ in inputs:
        pass
    yield from ("tok",) * 1_000_000


async def _aslow_source(inputs: AsyncIterator[object]) -> AsyncIterator[str]:
    async for _ in inputs:
        pass
    while True:
        await asyncio.sleep(0.001)
        yield "tok"


def _cancel_scenarios(lib: Lib) -> dict[str, Callable[[], Awaitable[object]]]:
    branches = {f"k{i}": lib.RunnableLambda(slow) for i in range(10)}
    par = lib.RunnableParallel(branches)
    gens = lib.RunnableParallel({f"g{i}": lib.RunnableGenerator(_slow_source, _aslow_source) for i in range(3)})
    sleeper = lib.RunnableLambda(slow)

    async def stream_forever() -> int:
        return await aconsume(gens.astream(None))

    return {
        "ainvoke parallel x10 sleeping": lambda: par.ainvoke(0),
        "astream parallel x3 endless gens": stream_forever,
        "abatch 200 sleeping, max_conc 50": lambda: sleeper.abatch(list(range(200)), config={"max_concurrency": 50}),
    }


def w6_cancellation(res: Results) -> None:
    s = res.settings
    built = per_lib(res.libs(), _cancel_scenarios)
    names = list(next((v for v in built.values() if isinstance(v, dict)), {}))
    for name in names:
        samples: dict[str, list[float] | str | None] = {
            k: v if v is None or isinstance(v, str) else [] for k, v in built.items()
        }
        alive: dict[str, int] = {}
        for _ in range(s.repeat_heavy):
            for side, scenarios in built.items():
                box = samples[side]
                if not isinstance(box, list) or not isinstance(scenarios, dict):
                    continue
                try:
                    latency, alive[side] = asyncio.run(_cancel_latency(scenarios[name], 0.03))
                    box.append(latency)
                except Exception as exc:
                    samples[side] = describe_error(exc)
        cells = {k: statistics.median(v) * MS if isinstance(v, list) else v for k, v in samples.items()}
        note = "tasks alive at cancel: " + ", ".join(f"{k} {v}" for k, v in alive.items())
        row = res.add("W6", f"cancel consumer -> tasks gone: {name}", "ms", cells, note=note)
        res.budget("W6", f"cancel consumer -> inner tasks gone, {name} (ours)", row.ours, "<", 50, unit="ms")
