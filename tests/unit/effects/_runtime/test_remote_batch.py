"""Batches on an executor, the caller's side: the first error cancels the rest, leaving early cancels,
lost items are an error, and an interrupt on a worker is never a result."""

from __future__ import annotations

import asyncio
import time

import pytest

from combinators import CombinatorsError, RunnableLambda
from tests.unit.effects.threads_executor import Threads


def inc(x: int) -> int:
    return x + 1


def ten_over(x: int) -> float:
    return 10 / x


def test_the_first_error_cancels_the_rest_and_is_raised() -> None:
    threads = Threads()

    def slow_unless_zero(x: int) -> float:
        if x:
            time.sleep(0.2)
        return ten_over(x)

    with pytest.raises(ZeroDivisionError):
        RunnableLambda(slow_unless_zero).batch([0, 1, 2, 3, 4, 5], executor=threads)
    assert threads.cancels == 1
    with pytest.raises(ZeroDivisionError):
        asyncio.run(RunnableLambda(slow_unless_zero).abatch([0, 1, 2, 3], executor=threads))
    assert threads.cancels == 2
    assert RunnableLambda(ten_over).batch([0, 5], return_exceptions=True, executor=threads)[1] == 2.0


def test_leaving_as_completed_early_cancels_the_rest() -> None:
    threads = Threads()
    pairs = RunnableLambda(inc).batch_as_completed([1, 2, 3], executor=threads)
    next(pairs)
    pairs.close()
    assert threads.cancels == 1

    async def first() -> tuple[int, int]:
        async for pair in RunnableLambda(inc).abatch_as_completed([1, 2, 3], executor=threads):
            return pair
        raise AssertionError("no item")

    assert asyncio.run(first())[1] in {2, 3, 4}
    assert threads.cancels == 2


def test_an_executor_that_loses_items_is_an_error() -> None:
    with pytest.raises(CombinatorsError, match="returned 2 outcomes for 3 items"):
        RunnableLambda(inc).batch([1, 2, 3], executor=Threads(lose=1))


def test_an_interrupt_on_a_worker_is_never_a_result() -> None:
    def interrupt(x: int) -> int:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        RunnableLambda(interrupt).batch([1], return_exceptions=True, executor=Threads())
