"""Concurrency permits: ``max_concurrency`` bounds the leaf steps under a call."""

from __future__ import annotations

import threading
import time

from combinators import RunnableLambda


def test_max_concurrency_bounds_leaf_calls() -> None:
    lock = threading.Lock()
    running = [0]
    peak = [0]

    def work(x: int) -> int:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.002)
        with lock:
            running[0] -= 1
        return x

    RunnableLambda(work).batch(list(range(30)), {"max_concurrency": 2})
    assert 1 <= peak[0] <= 2
