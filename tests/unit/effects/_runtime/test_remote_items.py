"""Shipped items run where they landed: a cancelled item stops before its next run, a failed one ends
once with its error (through ``effects.executors.run_items``)."""

from __future__ import annotations

import asyncio
import threading

from returns.result import Failure, Success

from combinators import RunnableLambda
from effects import RunEnded, RunFailed, RunStarted, ShippedItem
from effects.executors import run_items


def ten_over(x: int) -> float:
    return 10 / x


def test_a_cancelled_item_stops_when_its_next_run_would_start() -> None:
    calls: list[str] = []
    stop = threading.Event()

    def one(x: int) -> int:
        calls.append("one")
        stop.set()
        return x

    def two(x: int) -> int:
        calls.append("two")
        return x

    chain = RunnableLambda(one) | RunnableLambda(two)
    item = ShippedItem(0, 1, run=None)
    [outcome] = run_items(chain, [item], {}, cancelled=stop.is_set)
    assert calls == ["one"]
    assert isinstance(outcome.result, Failure)
    assert isinstance(outcome.result.failure(), asyncio.CancelledError)
    [late] = run_items(chain, [item], {}, cancelled=lambda: True)
    assert calls == ["one"] and isinstance(late.result.failure(), asyncio.CancelledError)


def test_a_failed_item_run_ends_once_with_its_error() -> None:
    from uuid import UUID

    from effects import RunInfo

    run = RunInfo(UUID(int=5), (), "ten_over", "chain", (), {})
    [outcome] = run_items(RunnableLambda(ten_over), [ShippedItem(0, 0, run=run)], {})
    assert [type(e) for e in outcome.effects] == [RunStarted, RunFailed]
    assert outcome.effects[1].error is outcome.result.failure()  # type: ignore[union-attr]
    [ok] = run_items(RunnableLambda(ten_over), [ShippedItem(0, 5, run=run)], {}, asynchronous=True)
    assert ok.result == Success(2.0) and [type(e) for e in ok.effects] == [RunStarted, RunEnded]
