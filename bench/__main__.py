"""``python -m bench [--quick] [--out FILE] [--only W1,W6] [--strict]``."""

from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from time import perf_counter

from bench.libs import Lib, load_ours, load_peer, silence_tracing

silence_tracing()  # before anything can import langchain_core

# Imported after the environment is clean (the workloads import nothing from the peer).
from bench import (  # noqa: E402 - after silence_tracing, see above
    workloads_agents,
    workloads_batch,
    workloads_bridge,
    workloads_calls,
    workloads_dask,
    workloads_events,
    workloads_memory,
    workloads_parsers,
    workloads_resilience,
    workloads_serving,
    workloads_stream,
    workloads_tracing,
)
from bench.record import Results, Settings  # noqa: E402 - as above
from bench.report import render, write_json  # noqa: E402 - as above

Workload = Callable[[Results], None]
WORKLOADS: tuple[tuple[str, Workload], ...] = (
    ("W0", workloads_calls.w0_harness),
    ("W1", workloads_calls.w1_lambda),
    ("W2", workloads_calls.w2_sequence),
    ("W3", workloads_calls.w3_parallel),
    ("W4", workloads_batch.w4_batch),
    ("W5", workloads_batch.w5_concurrency),
    ("W6", workloads_stream.w6_throughput),
    ("W6", workloads_stream.w6_first_chunk),
    ("W6", workloads_stream.w6_scaling),
    ("W6", workloads_stream.w6_cancellation),
    ("W7", workloads_events.w7_events),
    ("W8", workloads_events.w8_log),
    ("W9", workloads_resilience.w9_resilience),
    ("W10", workloads_memory.w10_build),
    ("W10", workloads_memory.w10_stream_memory),
    ("W10", workloads_memory.w10_import),
    ("W11", workloads_tracing.w11_tracing),
    ("W12", workloads_dask.w12_dask),
    ("W13", workloads_agents.w13_agent),
    ("W14", workloads_serving.w14_serving),
    ("W15", workloads_parsers.w15_json_streaming),
    ("W16", workloads_bridge.w16_bridge),
    ("W16", workloads_bridge.w16_from_langchain),
)
DEFAULT_OUT = Path(__file__).resolve().parent / "results.json"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    ap.add_argument("--quick", action="store_true", help="smaller sizes, fewer repeats (< 1 min)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON results file")
    ap.add_argument("--only", default="", help="comma-separated workload ids, e.g. W1,W6")
    ap.add_argument("--no-ours", action="store_true", help="peer and floors only")
    ap.add_argument("--strict", action="store_true", help="exit 1 if a budget misses or errors")
    return ap.parse_args(argv)


def _describe(lib: Lib | str) -> str:
    return f"{lib.label} {lib.version}" if isinstance(lib, Lib) else f"n/a ({lib})"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = perf_counter()

    def log(line: str) -> None:
        print(f"[{perf_counter() - started:6.1f}s] {line}", file=sys.stderr, flush=True)

    ours = "disabled by --no-ours" if args.no_ours else load_ours()
    peer = load_peer()
    # The peer deprecates astream_log and events v1; both are still measured on purpose.
    # (Set after importing it: its import installs a filter that would come first.)
    warnings.filterwarnings("ignore", message=".*deprecated.*")
    res = Results(Settings.make(args.quick), ours=ours, peer=peer, log=log)
    meta = {
        "ours": _describe(ours),
        "peer": _describe(peer),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "quick": args.quick,
        "loadavg_before": [round(x, 2) for x in os.getloadavg()],
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    log(f"ours: {meta['ours']}; peer: {meta['peer']}")
    only = {w.strip().upper() for w in args.only.split(",") if w.strip()}
    for wid, workload in WORKLOADS:
        if not only or wid in only:
            log(f"{wid} {workload.__name__}")
            # Everything alive now (two libraries, pydantic, ...) is moved out of the
            # collector's reach: the gc.collect() before each repeat then costs µs, not
            # tens of ms, and full collections inside timed loops scan only new objects.
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            workload(res)
    meta |= {"loadavg_after": [round(x, 2) for x in os.getloadavg()], "wall_s": round(perf_counter() - started, 1)}
    print(render(res, meta))
    print(f"\nwall {meta['wall_s']} s; JSON -> {args.out}")
    write_json(res, meta, args.out)
    failed = any(b.verdict in ("MISS", "ERROR") for b in res.budgets)
    return 1 if args.strict and failed else 0


if __name__ == "__main__":
    sys.exit(main())
