"""The shared bounded pool: sync batches and parallel branches start no thread of their own and never deadlock nested."""

from __future__ import annotations

import threading
import time

from combinators import RunnableLambda, RunnableParallel


def inc(x: int) -> int:
    return x + 1


def test_sync_batch_uses_the_shared_pool_only() -> None:
    def slow(x: int) -> int:
        time.sleep(0.001)
        return x

    r = RunnableLambda(slow)
    r.batch(list(range(20)))  # warm-up may start pool threads
    before = {t.ident for t in threading.enumerate()}
    for _ in range(5):
        r.batch(list(range(20)))
        RunnableParallel(a=r, b=r, c=r).invoke(1)
    after = {t.ident for t in threading.enumerate()}
    assert after <= before


def test_nested_batches_and_parallels_do_not_deadlock() -> None:
    leaf = RunnableLambda(inc)
    middle = RunnableLambda(lambda xs: leaf.batch(list(xs)))
    outer = RunnableLambda(lambda n: middle.batch([[n] * 8] * 8))
    result = outer.batch(list(range(40)))
    assert result[3] == [[4] * 8] * 8
    deep = RunnableParallel({f"k{i}": RunnableParallel({f"j{j}": leaf for j in range(8)}) for i in range(8)})
    assert deep.batch([1] * 20)[0]["k0"]["j0"] == 2
