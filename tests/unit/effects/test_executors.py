"""The Executor protocol, with an in-process executor: what every executor gets for free."""

from __future__ import annotations

import asyncio
import pickle
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import cloudpickle  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings, strategies as st
from returns.result import Failure, Success

from combinators import Runnable, RunnableLambda
from combinators.testing import inputs_for, runnables
from effects import BatchJob, ItemOutcome, RunEnded, RunFailed, RunStarted, ShippedItem, merge_configs
from combinators import CombinatorsError, RunConfig, StepTimeout
from effects.executors import run_items

ROOT = Path(__file__).resolve().parents[3]


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


def inc(x: int) -> int:
    return x + 1


def ten_over(x: int) -> float:
    return 10 / x


def same(a: list[Any], b: list[Any]) -> bool:
    return [type(x) if isinstance(x, Exception) else x for x in a] == [
        type(x) if isinstance(x, Exception) else x for x in b
    ]


@settings(max_examples=30, deadline=None)
@given(runnables(int, max_leaves=5), st.data())
def test_a_batch_on_an_executor_equals_the_local_batch(chain: Runnable[int, Any], data: st.DataObject) -> None:
    xs = data.draw(st.lists(inputs_for(chain), max_size=5))
    local = chain.batch(xs, return_exceptions=True)
    assert same(chain.batch(xs, return_exceptions=True, executor=Threads()), local)
    assert same(asyncio.run(chain.abatch(xs, return_exceptions=True, executor=Threads())), local)
    pairs = list(chain.batch_as_completed(xs, return_exceptions=True, executor=Threads()))
    assert sorted(i for i, _ in pairs) == list(range(len(xs)))
    assert same([v for _, v in sorted(pairs, key=lambda p: p[0])], local)


def test_the_config_carries_an_executor_and_children_inherit_it() -> None:
    threads = Threads()
    config = RunConfig.coerce({"executor": threads, "tags": ["t"]})
    assert config.executor is threads and config.to_dict()["executor"] is threads
    assert merge_configs(config, RunConfig(tags=("u",))).executor is threads
    assert merge_configs(RunConfig(executor=Threads()), config).executor is threads
    assert pickle.loads(pickle.dumps(RunConfig(tags=("x",)))) == RunConfig(tags=("x",))
    with pytest.raises(TypeError, match=r"config\['executor'\] must be an Executor"):
        RunConfig.coerce({"executor": "dask"})
    each = RunnableLambda(inc).each()
    assert each.invoke([1, 2], config={"executor": threads}) == [2, 3]
    assert RunnableLambda(inc).each(executor=threads).invoke([5]) == [6]
    assert each.with_config(executor=threads).invoke([7]) == [8]
    assert len(threads.jobs) == 3
    assert RunnableLambda(inc).batch([1], config=[{"executor": threads}]) == [2]
    assert len(threads.jobs) == 4


def test_adopted_runs_say_which_executor_and_where() -> None:
    each = RunnableLambda(inc).each(executor=Threads())
    effects = list(each.stream_effects([1, 2]))
    root = effects[0].run
    items = [e for e in effects if e.run.parent_ids == (root.run_id,)]
    assert {type(e) for e in items} == {RunStarted, RunEnded}
    assert all(dict(e.run.metadata) == {"executor": "threads", "worker": "here"} for e in items)
    assert "executor" not in root.metadata


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


def test_the_callers_timeout_travels_with_the_items() -> None:
    def nap(x: int) -> int:
        time.sleep(0.1)
        return x

    chain = RunnableLambda(nap) | RunnableLambda(nap)
    got = chain.batch([1, 2], config={"timeout": 0.05}, return_exceptions=True, executor=Threads())
    assert [type(x) for x in got] == [StepTimeout, StepTimeout]


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


def run_python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT, timeout=120
    )
    return done.stdout.strip()


def test_the_default_batch_path_never_loads_the_executor_machinery() -> None:
    out = run_python(
        "import asyncio, sys\n"
        "from combinators import RunnableLambda\n"
        "r = RunnableLambda(abs)\n"
        "r.batch([-1]); asyncio.run(r.abatch([-1])); list(r.batch_as_completed([-1])); r.each().invoke([-2])\n"
        "print(sorted(m for m in sys.modules if 'remote' in m or m.startswith(('distributed', 'returns'))))"
    )
    assert out == "[]"


def test_the_core_imports_and_runs_without_distributed() -> None:
    out = run_python(
        "import sys\n"
        "sys.modules['distributed'] = None  # as if the dask extra were not installed\n"
        "import effects, combinators, combinators.integrations\n"
        "from combinators import RunnableLambda\n"
        "print(RunnableLambda(abs).batch([-3]), effects.Executor.__name__)"
    )
    assert out == "[3] Executor"


def test_without_the_extra_the_dask_integration_says_which_extra() -> None:
    out = run_python(
        "import sys\n"
        "sys.modules['distributed'] = None\n"
        "try:\n"
        "    import combinators.integrations.dask\n"
        "except ImportError as error:\n"
        "    print(type(error).__name__, error)"
    )
    assert out.startswith(
        "MissingExtraError DaskExecutor needs the optional extra 'dask': pip install 'lcel-combinators[dask]'"
    )
