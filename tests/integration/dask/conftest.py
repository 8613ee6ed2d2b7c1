"""One real Dask cluster for the session: 2 worker processes on 127.0.0.1, no dashboard."""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]

try:
    from distributed import Client, LocalCluster
except ImportError:  # pragma: no cover - the dev extra installs it
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("distributed (the dask extra) is not installed", allow_module_level=True)


def _on_path(root: str) -> None:
    if root not in sys.path:
        sys.path.insert(0, root)


@pytest.fixture(scope="session")
def dask_client() -> Iterator[Client]:
    import dask

    # One task per worker thread, none queued on a busy worker behind a slow one (the
    # default, 1.1, gives a one-thread worker a second task to start when it can).
    dask.config.set({"distributed.scheduler.worker-saturation": 1.0})
    cluster = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        # The scheduler's own HTTP routes, on a free loopback port (not 8787, shared).
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        # Not silence_logs: it lowers the stream handlers it finds to its level until the
        # cluster closes, pytest's log capture among them, so a later test's caplog would
        # see only errors. distributed's own logger is quietened instead.
        silence_logs=False,
    )
    distributed = logging.getLogger("distributed")
    level = distributed.level
    distributed.setLevel(logging.ERROR)
    client = Client(cluster)
    try:
        client.wait_for_workers(2, timeout=60)
        # Functions and classes of the test modules travel by reference, as users' do.
        client.run(_on_path, str(ROOT))
        yield client
    finally:
        client.close()
        cluster.close()
        distributed.setLevel(level)


def batch_tasks(client: Client) -> list[tuple[str, str]]:
    """Batch tasks the scheduler still knows, with their states (the tasks are named
    combinators_<batch>-<chunk>; the shipped runnables, combinators_step_<token>)."""

    def keys(dask_scheduler: Any) -> list[tuple[str, str]]:
        return [
            (str(k), t.state)
            for k, t in dask_scheduler.tasks.items()
            if str(k).startswith("combinators_") and not str(k).startswith("combinators_step_")
        ]

    return client.run_on_scheduler(keys)


def until(condition: Any, seconds: float = 30.0) -> None:
    """Wait (polling) until ``condition()`` holds; fail the test if it never does."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting after {seconds} s for {condition}")
        time.sleep(0.05)
