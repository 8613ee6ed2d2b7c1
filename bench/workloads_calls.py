"""W1–W3: per-call overhead of one lambda, a 10-step sequence, a 10-branch parallel map."""

from __future__ import annotations

import asyncio
from typing import Any

from bench.chains import achain10, ainc, inc, lam, nested10, on, parallel, per_lib, sequence
from bench.harness import Outcome, Stat, ThreadStartCounter, compare_async, compare_sync
from bench.record import Results, guard

US = 1e6


def w0_harness(res: Results) -> None:
    """The cost of the timing loop itself, included in every µs figure below."""
    s = res.settings

    async def noop() -> None:
        return None

    sync = compare_sync({"floor": lambda: None}, repeat=s.repeat, target=s.target)
    asyn = compare_async({"floor": noop}, repeat=s.repeat, target=s.target)
    res.add("W0", "harness: empty call (in every sync µs figure)", "µs", sync, US)
    res.add("W0", "harness: empty await (in every async µs figure)", "µs", asyn, US)


def w1_lambda(res: Results) -> None:
    s = res.settings
    one = per_lib(res.libs(), lam)
    sync = compare_sync(
        on(one, lambda r: lambda: r.invoke(1)) | {"floor": lambda: inc(1)},
        repeat=s.repeat,
        target=s.target,
        expect=2,
    )
    row = res.add("W1", "invoke µs/call", "µs", sync, US, note="floor: f(1)")
    res.budget("W1", "invoke: ours/peer time", row.ratio("peer"), "<=", 1 / 50)

    asyn = compare_async(
        on(one, lambda r: lambda: r.ainvoke(1)) | {"floor": lambda: ainc(1)},
        repeat=s.repeat,
        target=s.target,
        expect=2,
    )
    row = res.add("W1", "ainvoke (async afunc) µs/call", "µs", asyn, US, note="floor: await af(1)")
    res.budget("W1", "ainvoke: ours/peer time", row.ratio("peer"), "<=", 1 / 50)

    # A sync-only lambda under ainvoke: both libraries hop to a worker thread (ours: the
    # library's own pool, so the loop is never held), as the floor does.
    sync_only = per_lib(res.libs(), lambda lib: lib.RunnableLambda(inc))

    async def hop() -> int:
        return await asyncio.get_running_loop().run_in_executor(None, inc, 1)

    hopped = compare_async(
        on(sync_only, lambda r: lambda: r.ainvoke(1)) | {"floor": hop},
        repeat=s.repeat,
        target=s.target,
        expect=2,
    )
    row = res.add("W1", "ainvoke (sync func only) µs/call", "µs", hopped, US, note="floor: run_in_executor(None, f, 1)")
    res.budget("W1", "ainvoke (sync func only, a thread hop): ours/peer time", row.ratio("peer"), "<=", 1 / 2)
    res.budget("W1", "ainvoke (sync func only): ours/floor (run_in_executor)", row.ratio("floor"), "<=", 2)


def _marginal(t10: Outcome, t2: Outcome) -> Outcome | float:
    """Marginal µs per step: (t10 - t2) / 8."""
    if isinstance(t10, Stat) and isinstance(t2, Stat):
        return (t10.median - t2.median) / 8 * US
    return t10 if not isinstance(t10, Stat) else t2


def w2_sequence(res: Results) -> None:
    s = res.settings
    seq10 = per_lib(res.libs(), lambda lib: sequence(lib, 10))
    seq2 = per_lib(res.libs(), lambda lib: sequence(lib, 2))
    # seq10 and seq2 are timed in the same interleaved run, so their difference is fair.
    sync = compare_sync(
        on(seq10, lambda r: lambda: r.invoke(0))
        | {"floor": lambda: nested10(0)}
        | {f"{k}2": v for k, v in on(seq2, lambda r: lambda: r.invoke(0)).items()},
        repeat=s.repeat,
        target=s.target,
    )
    asyn = compare_async(
        on(seq10, lambda r: lambda: r.ainvoke(0))
        | {"floor": lambda: achain10(0)}
        | {f"{k}2": v for k, v in on(seq2, lambda r: lambda: r.ainvoke(0)).items()},
        repeat=s.repeat,
        target=s.target,
    )
    for mode, out in (("invoke", sync), ("ainvoke", asyn)):
        res.add(
            "W2",
            f"{mode} 10-step µs/call",
            "µs",
            out,
            US,
            note="floor: 10 nested calls" if mode == "invoke" else "floor: 10 chained awaits",
        )
        per_step: dict[str, Outcome | float] = {
            side: _marginal(out[side], out[f"{side}2"]) for side in ("ours", "peer")
        }
        floor = out["floor"]
        per_step["floor"] = floor.median * US / 10 if isinstance(floor, Stat) else floor
        row = res.add(
            "W2",
            f"{mode} marginal µs/step [(t10-t2)/8]",
            "µs",
            per_step,
            note="floor: per-step share of the 10-step floor",
        )
        res.budget("W2", f"{mode} per step: ours/peer time", row.ratio("peer"), "<=", 1 / 50)


def _threads_per_call(chain: Any, calls: int = 20) -> float:
    chain.invoke(0)  # warm-up: a pool created once and reused is fine
    with ThreadStartCounter() as counter:
        for _ in range(calls):
            chain.invoke(0)
    return counter.count / calls


def w3_parallel(res: Results) -> None:
    s = res.settings
    keys = [f"k{i}" for i in range(10)]
    expect = {k: 1 for k in keys}
    par = per_lib(res.libs(), lambda lib: parallel(lib, 10))
    sync = compare_sync(
        on(par, lambda r: lambda: r.invoke(0)) | {"floor": lambda: {k: inc(0) for k in keys}},
        repeat=s.repeat,
        target=s.target,
        expect=expect,
    )
    row = res.add("W3", "invoke µs/call", "µs", sync, US, note="floor: dict comprehension")
    res.budget("W3", "invoke: ours/peer time", row.ratio("peer"), "<=", 1 / 5)

    threads = on(par, lambda chain: guard(lambda: _threads_per_call(chain)))
    row = res.add("W3", "threads started per invoke (after warm-up)", "threads", threads)
    res.budget("W3", "threads started per sync invoke (ours)", row.ours, "<=", 0, unit="threads")

    async def gather_floor() -> dict[str, int]:
        values = await asyncio.gather(*[ainc(0) for _ in keys])
        return dict(zip(keys, values))

    asyn = compare_async(
        on(par, lambda r: lambda: r.ainvoke(0)) | {"floor": gather_floor},
        repeat=s.repeat,
        target=s.target,
        expect=expect,
    )
    row = res.add("W3", "ainvoke µs/call", "µs", asyn, US, note="floor: asyncio.gather of 10")
    res.budget("W3", "ainvoke: ours/peer time", row.ratio("peer"), "<=", 1 / 10)
