"""W12: batches on a Dask cluster (``DaskExecutor``) against calling Dask directly.

Full run only (``--quick`` skips it: a cluster and its worker processes take seconds to
start). One ``LocalCluster`` of 2 worker processes x 1 thread on 127.0.0.1. The floor is
raw Dask: ``client.gather(client.map(f, items, pure=False))`` of a plain function doing
the same work per item; the peer has no executor, so its column is n/a.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from typing import Any

from bench.chains import inc, sequence
from bench.harness import Stat, compare_sync
from bench.libs import PROJECT_ROOT, Lib
from bench.record import Results

MS = 1e3
US = 1e6
CHEAP_ITEMS = 2_000
SLOW_ITEMS = 200
SLOW_SECONDS = 0.05
REPEAT = 3  # each call lasts seconds: three interleaved repeats keep W12 to a few minutes


def inc3(x: int) -> int:
    return inc(inc(inc(x)))


def io_step(x: int) -> int:
    time.sleep(SLOW_SECONDS)
    return x


def _on_path(root: str) -> None:
    if root not in sys.path:
        sys.path.insert(0, root)


def w12_dask(res: Results) -> None:
    if res.settings.quick:
        res.log("W12 skipped in --quick (a Dask cluster takes seconds to start)")
        return
    ours = res.ours
    if not isinstance(ours, Lib):
        res.log("W12 skipped: our library is not loaded")
        return
    from distributed import Client, LocalCluster

    from combinators.integrations.dask import DaskExecutor

    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            silence_logs=logging.ERROR,
        ) as cluster,
        Client(cluster) as client,
    ):
        client.wait_for_workers(2, timeout=60)
        client.run(_on_path, str(PROJECT_ROOT))  # the plain functions travel by reference
        threads = sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())

        def raw(f: Callable[[int], int], items: list[int]) -> Callable[[], list[int]]:
            return lambda: client.gather(client.map(f, items, pure=False))

        def ours_on(chain: Any, items: list[int], chunk_size: int | str) -> Callable[[], list[int]]:
            executor = DaskExecutor(client, chunk_size=chunk_size)  # type: ignore[arg-type]
            return lambda: chain.batch(items, executor=executor)

        cheap = list(range(CHEAP_ITEMS))
        chain3 = sequence(ours, 3)
        local = compare_sync(
            {"ours": lambda: chain3.batch(cheap)}, repeat=REPEAT, target=0.0, expect=[x + 3 for x in cheap]
        )
        res.add("W12", f"batch({CHEAP_ITEMS}) x 3 steps, local (no executor): µs/item", "µs", local, US / CHEAP_ITEMS)
        for chunk_size in ("auto", 1):
            out = compare_sync(
                {"ours": ours_on(chain3, cheap, chunk_size), "floor": raw(inc3, cheap)},
                repeat=REPEAT,
                target=0.0,
                expect=[x + 3 for x in cheap],
            )
            row = res.add(
                "W12",
                f"batch({CHEAP_ITEMS}) x 3 steps on Dask, chunk_size={chunk_size}: µs/item",
                "µs",
                out,
                US / CHEAP_ITEMS,
                note="floor: raw client.map of a plain 3-step function, one task per item",
            )
            if chunk_size == 1:
                res.budget("W12", "cheap items, chunk_size=1: per-item ours/raw Dask", row.ratio("floor"), "<=", 1.5)
            else:  # the default: chosen from the batch
                res.budget(
                    "W12", "cheap items, default chunk_size: per-item ours/raw Dask", row.ratio("floor"), "<=", 0.2
                )

        slow = list(range(SLOW_ITEMS))
        ideal = SLOW_ITEMS * SLOW_SECONDS / threads
        step = ours.RunnableLambda(io_step)
        for chunk_size in ("auto", 1):
            out = compare_sync(
                {"ours": ours_on(step, slow, chunk_size), "floor": raw(io_step, slow)},
                repeat=REPEAT,
                target=0.0,
                expect=slow,
            )
            ratios = {k: v.median / ideal if isinstance(v, Stat) else v for k, v in out.items()}
            row = res.add(
                "W12",
                f"batch({SLOW_ITEMS}) x {SLOW_SECONDS * MS:.0f} ms I/O on Dask, chunk_size={chunk_size}: wall/ideal",
                "x",
                ratios,
                note=f"ideal {ideal:.1f} s at the cluster's {threads} threads; floor: raw client.map",
            )
            if chunk_size == "auto":
                res.budget(
                    "W12",
                    "50 ms I/O items, default chunk_size: wall/ideal (ours)",
                    row.ours,
                    "<=",
                    1.2,
                    context=f"raw Dask {row.floor:.3g}x" if isinstance(row.floor, float) else "",
                )
