"""DaskExecutor when the cluster changes under it (issue 29, items 3, 8, 9): workers that
restart, a scheduler that goes away, a client that closes.

Each test makes a small cluster of its own (2 worker processes, 1 thread each): these
tests restart or stop it, which the session's cluster must never see.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dask
import pytest
from distributed import Client, LocalCluster

from combinators import RunnableLambda
from combinators.integrations.dask import DaskExecutor
from effects import ExecutorError
from tests.integration.dask.conftest import ROOT, _on_path, until


def _cluster(**config: Any) -> tuple[LocalCluster, Client]:
    with dask.config.set(config):
        cluster = LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            silence_logs=logging.CRITICAL,
        )
    client = Client(cluster)
    client.wait_for_workers(2, timeout=60)
    client.run(_on_path, str(ROOT))
    return cluster, client


@pytest.fixture
def cluster() -> Iterator[tuple[LocalCluster, Client]]:
    cluster, client = _cluster()
    try:
        yield cluster, client
    finally:
        client.close()
        # A test may have closed the scheduler: closing then waits a connect timeout for
        # it (30 s by default) before stopping the workers.
        with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
            cluster.close()


def inc(x: int) -> int:
    return x + 1


def workers(client: Client) -> list[str]:
    return sorted(client.scheduler_info(n_workers=-1)["workers"])


def test_all_workers_restarting_between_batches_ships_the_runnable_again(cluster: tuple[LocalCluster, Client]) -> None:
    _, client = cluster
    executor = DaskExecutor(client)
    step = RunnableLambda(inc)
    assert step.batch([1, 2, 3], executor=executor) == [2, 3, 4]
    client.restart_workers(workers(client))  # every worker (and the runnable they held) is gone
    client.wait_for_workers(2, timeout=60)
    client.run(_on_path, str(ROOT))
    assert step.batch([1, 2, 3], executor=executor, return_exceptions=True) == [2, 3, 4]
    assert step.batch([5], executor=executor) == [6]  # and it is kept again


def runs_of(folder: Path) -> dict[int, int]:
    counts: dict[int, int] = {}
    for path in folder.iterdir():
        item = int(path.name.split("-")[0])
        counts[item] = counts.get(item, 0) + 1
    return counts


def test_a_worker_restart_mid_batch_still_finishes_it_and_reruns_what_was_in_flight(
    cluster: tuple[LocalCluster, Client], tmp_path: Path
) -> None:
    _, client = cluster

    def marked(x: int) -> int:
        (tmp_path / f"{x}-{uuid.uuid4().hex}").touch()  # one file per run of the item
        time.sleep(2.0)
        return x * 10

    results: list[object] = []
    batch = threading.Thread(
        target=lambda: results.extend(
            RunnableLambda(marked).batch(list(range(6)), executor=DaskExecutor(client, chunk_size=1, retries=0))
        )
    )
    batch.start()
    until(lambda: len(runs_of(tmp_path)) >= 2)  # both workers are inside an item
    client.restart_workers(workers(client)[:1])
    batch.join(120)
    assert not batch.is_alive()
    assert results == [x * 10 for x in range(6)]  # every item, once, in order
    runs = runs_of(tmp_path)
    assert sorted(runs) == list(range(6))
    # What DaskExecutor's docstring says: Dask re-ran the item the killed worker was
    # running, whatever retries says; nothing else ran twice.
    assert sorted(runs.values())[-1] == 2 and sum(runs.values()) == 7


def test_with_allowed_failures_zero_a_killed_workers_item_runs_at_most_once(tmp_path: Path) -> None:
    cluster, client = _cluster(**{"distributed.scheduler.allowed-failures": 0})
    try:

        def marked(x: int) -> int:
            (tmp_path / f"{x}-{uuid.uuid4().hex}").touch()
            time.sleep(2.0)
            return x * 10

        outcomes: list[object] = []
        executor = DaskExecutor(client, chunk_size=1)
        batch = threading.Thread(
            target=lambda: outcomes.extend(
                RunnableLambda(marked).batch(list(range(4)), executor=executor, return_exceptions=True)
            )
        )
        batch.start()
        until(lambda: len(runs_of(tmp_path)) >= 2)
        client.restart_workers(workers(client)[:1])
        batch.join(120)
        assert not batch.is_alive()
        killed = [o for o in outcomes if isinstance(o, Exception)]
        # The item it ran failed (and any the scheduler had queued on it meanwhile).
        assert killed and all(type(e).__name__ == "KilledWorker" for e in killed)
        assert max(runs_of(tmp_path).values()) == 1  # nothing ran twice
    finally:
        client.close()
        cluster.close()


def test_a_scheduler_that_goes_away_is_a_clear_error_not_a_hang(
    cluster: tuple[LocalCluster, Client], tmp_path: Path
) -> None:
    local, client = cluster

    def slow(x: int) -> int:
        (tmp_path / f"{x}-{uuid.uuid4().hex}").touch()
        time.sleep(0.3)
        return x

    outcomes: list[object] = []
    batch = threading.Thread(
        target=lambda: outcomes.extend(
            RunnableLambda(slow).batch(
                list(range(20)), executor=DaskExecutor(client, chunk_size=1), return_exceptions=True
            )
        )
    )
    batch.start()
    until(lambda: len(runs_of(tmp_path)) >= 2)
    local.sync(local.scheduler.close)
    batch.join(120)
    assert not batch.is_alive()  # no hang
    lost = [o for o in outcomes if isinstance(o, Exception)]
    assert len(outcomes) == 20 and lost
    assert all(isinstance(e, ExecutorError) and "cluster went away" in str(e) for e in lost)
    with pytest.raises(ExecutorError, match="client is"):
        RunnableLambda(slow).batch([1], executor=DaskExecutor(client))


def test_closing_the_readme_example_is_quiet(caplog: pytest.LogCaptureFixture) -> None:
    # The README's example, as written: in-process workers, closed right after the batch.
    watched = logging.getLogger("distributed")
    watched.addHandler(caplog.handler)  # distributed's loggers do not propagate to the root
    try:
        with caplog.at_level(logging.ERROR, logger="distributed"):
            cluster = LocalCluster(n_workers=2, processes=False, dashboard_address="127.0.0.1:0")
            client = Client(cluster)
            executor = DaskExecutor(client)
            chain = RunnableLambda(str.strip) | RunnableLambda(str.title)
            assert chain.batch([" ada lovelace ", " grace hopper "], executor=executor) == [
                "Ada Lovelace",
                "Grace Hopper",
            ]

            async def starts() -> list[str]:
                events = chain.each().astream_events([" alan turing "], config={"executor": executor})
                return [e["name"] async for e in events if e["event"] == "on_chain_start"]

            assert len(asyncio.run(starts())) == 4
            client.close()
            cluster.close()
    finally:
        watched.removeHandler(caplog.handler)
    # The scheduler's event handlers are the ones that logged a traceback for each cancel
    # watcher still waiting at close (a client of another test may still log its own
    # failed reconnection meanwhile: not this example's).
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR and r.name.startswith("distributed.event")]
    assert logged == []
