"""W7: astream_events (v2, v1) and W8: astream_log, over the W2 and W6 chains.

Rows show time per call with the number of events (ops) each library emitted in the
note; the budgets compare events (ops) per second, as the issue states them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Literal

from bench.chains import achain10, aconsume, astream_floor, per_lib, sequence, stream_chain
from bench.harness import AsyncFn, Outcome, Side, Stat, compare_async
from bench.record import Results, quotient

US = 1e6
MS = 1e3
Projection = Literal["v2", "v1", "log"]


async def count_items(items: AsyncIterator[Any], projection: Projection) -> int:
    """Events for astream_events; JSON-patch ops for astream_log."""
    n = 0
    async for item in items:
        n += len(item.ops) if projection == "log" else 1
    return n


def _project(chain: Any, value: object, projection: Projection) -> AsyncIterator[Any]:
    if projection == "log":
        return chain.astream_log(value)  # type: ignore[no-any-return]
    return chain.astream_events(value, version=projection)  # type: ignore[no-any-return]


def _counted(chain: Any, value: object, projection: Projection, counts: dict[str, int], side: str) -> AsyncFn:
    """A side that records how many items it saw (same count on every call)."""

    async def run() -> int:
        counts[side] = await count_items(_project(chain, value, projection), projection)
        return counts[side]

    return run


def _sides(
    built: dict[str, Side[Any]], value: object, projection: Projection, counts: dict[str, int]
) -> dict[str, Side[AsyncFn]]:
    return {
        side: chain if chain is None or isinstance(chain, str) else _counted(chain, value, projection, counts, side)
        for side, chain in built.items()
    }


def _rate_ratio(out: dict[str, Outcome], counts: dict[str, int]) -> float | str | None:
    """ours items/s divided by peer items/s."""
    rates: dict[str, float | str | None] = {}
    for side in ("ours", "peer"):
        value = out.get(side)
        rates[side] = counts[side] / value.median if isinstance(value, Stat) else value
    return quotient(rates["ours"], rates["peer"])


# Ours/peer events (ops) per second, at least. Over a long stream (per-chunk cost) v2 and
# the run log as issue 13 sets them, v1 (kept for ported code) as the first round did; over
# seq10 (per-run cost: starts and ends, no chunks) the first round's 5x for all three.
STREAM_RATE_BUDGETS: dict[Projection, float] = {"v2": 10, "v1": 5, "log": 20}
RUN_RATE_BUDGET = 5.0


def _measure(
    res: Results,
    workload: str,
    label: str,
    built: dict[str, Side[Any]],
    value: object,
    projection: Projection,
    floor: AsyncFn,
    scale: tuple[float, str],
    repeat: int,
    target: float,
    limit: float,
    extra: dict[str, Side[AsyncFn]] | None = None,
) -> dict[str, Outcome]:
    """Time one projection on both libraries (+ floor, + extra sides in the same run)."""
    counts: dict[str, int] = {}
    out = compare_async(
        _sides(built, value, projection, counts) | {"floor": floor} | (extra or {}), repeat=repeat, target=target
    )
    what = "ops" if projection == "log" else "events"
    name = "astream_log" if projection == "log" else f"astream_events {projection}"
    note = f"{what}: " + ", ".join(f"{k} {v}" for k, v in counts.items() if k != "floor")
    res.add(
        workload, f"{name} {label}", scale[1], out, scale[0], note=note + "; floor: same work, plain Python, no events"
    )
    res.budget(workload, f"{name} {label}: ours/peer {what}/s", _rate_ratio(out, counts), ">=", limit)
    return out


def _seq_floor() -> AsyncFn:
    return lambda: achain10(0)


def _stream_floor(n: int) -> AsyncFn:
    make = astream_floor(n)
    return lambda: aconsume(make())


def w7_events(res: Results) -> None:
    s = res.settings
    seq10 = per_lib(res.libs(), lambda lib: sequence(lib, 10))
    for version in ("v2", "v1"):
        _measure(res, "W7", "seq10", seq10, 0, version, _seq_floor(), (US, "µs"), s.repeat, s.target, RUN_RATE_BUDGET)

    n = s.events_chunks
    chains = per_lib(res.libs(), lambda lib: stream_chain(lib, n))
    # Plain astream of each library runs in the same interleaved run: the overhead factor.
    plain: dict[str, Side[AsyncFn]] = {
        f"{side}_plain": _plain(chain)
        for side, chain in chains.items()
        if chain is not None and not isinstance(chain, str)
    }
    out = _measure(
        res,
        "W7",
        f"stream {n} chunks",
        chains,
        None,
        "v2",
        _stream_floor(n),
        (MS, "ms"),
        s.repeat_heavy,
        0.0,
        STREAM_RATE_BUDGETS["v2"],
        plain,
    )
    factors: dict[str, Outcome | float] = {}
    for side in chains:
        events, bare = out.get(side), out.get(f"{side}_plain")
        factors[side] = (
            events.median / bare.median
            if isinstance(events, Stat) and isinstance(bare, Stat)
            else events
            if not isinstance(events, Stat)
            else bare
        )
    res.add(
        "W7",
        f"astream_events v2 / plain astream time, stream {n} chunks",
        "x",
        factors,
        note="each library against its own astream",
    )
    _v1_stream(res)


def _v1_stream(res: Results) -> None:
    """v1 over the stream chain. The peer's v1 is super-linear in stream length, so at
    10k chunks (full run only) it gets a single run, timed apart from our repeats."""
    s = res.settings
    n = s.v1_chunks
    label = f"stream {n} chunks"
    if n <= 2_000:
        chains = per_lib(res.libs(), lambda lib: stream_chain(lib, n))
        _measure(
            res,
            "W7",
            label,
            chains,
            None,
            "v1",
            _stream_floor(n),
            (MS, "ms"),
            max(2, s.repeat_heavy - 1),
            0.0,
            STREAM_RATE_BUDGETS["v1"],
        )
        return
    chains = per_lib({"ours": res.ours}, lambda lib: stream_chain(lib, n))
    peer = per_lib({"peer": res.peer}, lambda lib: stream_chain(lib, n))
    counts: dict[str, int] = {}
    ours = compare_async(
        _sides(chains, None, "v1", counts) | {"floor": _stream_floor(n)}, repeat=s.repeat_heavy, target=0.0
    )
    one = compare_async(_sides(peer, None, "v1", counts) if s.peer_v1_large else {"peer": None}, repeat=1, target=0.0)
    out = ours | one
    note = "events: " + ", ".join(f"{k} {v}" for k, v in counts.items())
    res.add("W7", f"astream_events v1 {label}", "ms", out, MS, note=note + "; peer: a single run (super-linear)")
    res.budget(
        "W7",
        f"astream_events v1 {label}: ours/peer events/s",
        _rate_ratio(out, counts),
        ">=",
        STREAM_RATE_BUDGETS["v1"],
    )


def _plain(chain: Any) -> AsyncFn:
    return lambda: aconsume(chain.astream(None))


def w8_log(res: Results) -> None:
    s = res.settings
    seq10 = per_lib(res.libs(), lambda lib: sequence(lib, 10))
    _measure(res, "W8", "seq10", seq10, 0, "log", _seq_floor(), (US, "µs"), s.repeat, s.target, RUN_RATE_BUDGET)
    n = s.events_chunks
    chains = per_lib(res.libs(), lambda lib: stream_chain(lib, n))
    _measure(
        res,
        "W8",
        f"stream {n} chunks",
        chains,
        None,
        "log",
        _stream_floor(n),
        (MS, "ms"),
        s.repeat_heavy,
        0.0,
        STREAM_RATE_BUDGETS["log"],
    )
