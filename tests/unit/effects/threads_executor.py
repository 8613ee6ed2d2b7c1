"""A fake executor for the tests of executors: it ships each item through a pickle round trip and
runs it on a thread of its own pool (``Threads(lose=n)`` loses the first ``n`` items)."""

from __future__ import annotations

import pickle
import queue
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import cloudpickle  # type: ignore[import-untyped]

from effects import BatchJob, ItemOutcome, ShippedItem
from effects.executors import run_items


class Threads:
    """Ships each item through a pickle round trip and runs it on a thread of its own pool."""

    name = "threads"

    def __init__(self, lose: int = 0) -> None:
        self.jobs: list[BatchJob] = []
        self.cancels = 0
        self.lose = lose

    def submit(self, job: BatchJob) -> ThreadSubmission:
        self.jobs.append(job)
        return ThreadSubmission(self, job)


class ThreadSubmission:
    def __init__(self, owner: Threads, job: BatchJob) -> None:
        self.owner = owner
        self.stop = threading.Event()
        self.landed: queue.SimpleQueue[ItemOutcome | BaseException] = queue.SimpleQueue()
        self.left = len(job.items) - owner.lose
        step = pickle.loads(cloudpickle.dumps(job.step))
        self.pool = ThreadPoolExecutor(job.max_concurrency or 4)
        for item in job.items[owner.lose :]:
            shipped = pickle.loads(cloudpickle.dumps(item))
            self.pool.submit(self._run, step, shipped, job)

    def _run(self, step: Any, item: ShippedItem, job: BatchJob) -> None:
        try:
            outcomes = run_items(
                step, [item], job.kwargs, asynchronous=job.asynchronous, where="here", cancelled=self.stop.is_set
            )
            self.landed.put(pickle.loads(cloudpickle.dumps(outcomes[0])))
        except BaseException as exc:  # the fake's own fault: shown by the test, not a hang
            self.landed.put(exc)
            raise

    def __iter__(self) -> Iterator[ItemOutcome]:
        return self

    def __next__(self) -> ItemOutcome:
        if self.left == 0 or self.stop.is_set():
            raise StopIteration
        self.left -= 1
        landed = self.landed.get(timeout=60)
        if isinstance(landed, BaseException):
            raise AssertionError("the fake executor's thread failed") from landed
        return landed

    def cancel(self) -> None:
        self.owner.cancels += 1
        self.stop.set()
        self.pool.shutdown(wait=True, cancel_futures=True)
