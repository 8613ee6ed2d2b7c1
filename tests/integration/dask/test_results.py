"""DaskExecutor results: equal to the local batch, errors in position, shipping once."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any, final

import attrs
import pytest
from distributed import Client

from combinators import Runnable, RunnableLambda
from combinators.language_models import ExtractiveChatModel
from combinators.integrations.dask import DaskExecutor
from effects import ExecutorError, RemoteError, RunEnded, Scope
from examples.rag import build_chain
from tests.integration.dask.conftest import batch_tasks, until


def inc(x: int) -> int:
    return x + 1


def describe(x: int) -> dict[str, Any]:
    return {"n": x, "even": x % 2 == 0}


CHAIN = RunnableLambda(inc) | (lambda x: x * 3) | {"tripled": lambda x: x, "info": describe}

QUESTIONS = [
    "What pattern of flashes does the light show?",
    "Who keeps the lighthouse?",
    "When was the lighthouse built?",
    "How far can the light be seen?",
    "What powers the lamp?",
]


def test_a_dask_batch_equals_the_local_batch_in_order(dask_client: Client) -> None:
    inputs = list(range(50))
    executor = DaskExecutor(dask_client)
    local = CHAIN.batch(inputs)
    assert CHAIN.batch(inputs, executor=executor) == local
    assert asyncio.run(CHAIN.abatch(inputs, executor=executor)) == local
    assert CHAIN.batch(inputs, executor=DaskExecutor(dask_client, chunk_size="auto")) == local
    assert CHAIN.batch(inputs, config={"executor": executor}) == local


def test_the_quickstart_chain_on_dask_equals_the_local_batch(dask_client: Client) -> None:
    chain = build_chain(ExtractiveChatModel(max_sentences=2))
    questions = [QUESTIONS[i % len(QUESTIONS)] + f" ({i})" for i in range(50)]
    local = chain.batch(questions)
    assert chain.batch(questions, executor=DaskExecutor(dask_client)) == local
    assert "two white flashes every ten seconds" in local[0]


class KwOnlyError(Exception):
    """An error plain pickle cannot rebuild: its __init__ takes keyword arguments only."""

    def __init__(self, *, code: int) -> None:
        super().__init__(f"code {code}")
        self.code = code


class LockedError(Exception):
    """An error that cannot travel at all: it holds a lock."""

    def __init__(self) -> None:
        super().__init__("it holds a lock")
        self.lock = threading.Lock()


def fail_some(x: int) -> int:
    if x % 5 == 1:
        raise ValueError(f"bad {x}")
    if x % 5 == 2:
        raise KwOnlyError(code=x)
    if x % 5 == 3:
        raise LockedError()
    return x * 10


def test_errors_come_back_in_position_with_their_own_types(dask_client: Client) -> None:
    inputs = list(range(20))
    got = RunnableLambda(fail_some).batch(inputs, return_exceptions=True, executor=DaskExecutor(dask_client))
    for x, out in zip(inputs, got, strict=True):
        if x % 5 == 1:
            assert type(out) is ValueError and str(out) == f"bad {x}"
        elif x % 5 == 2:
            assert type(out) is KwOnlyError and out.code == x and str(out) == f"code {x}"
        elif x % 5 == 3:
            assert type(out) is RemoteError
            assert out.type_name == f"{__name__}.LockedError"
            assert out.message == "it holds a lock"
            assert "in fail_some" in out.traceback and "raise LockedError()" in out.traceback
        else:
            assert out == x * 10
    results = RunnableLambda(fail_some).batch_results(inputs[:3], executor=DaskExecutor(dask_client))
    assert [type(r.failure()) if x % 5 else r.unwrap() for x, r in zip(inputs, results)] == [0, ValueError, KwOnlyError]


def lock_for_odd(x: int) -> Any:
    return threading.Lock() if x % 2 else x


def test_an_output_that_cannot_travel_is_an_error_in_its_place(dask_client: Client) -> None:
    executor = DaskExecutor(dask_client)
    got = RunnableLambda(lock_for_odd).batch([0, 1, 2], return_exceptions=True, executor=executor)
    assert got[0] == 0 and got[2] == 2
    assert type(got[1]) is RemoteError and got[1].type_name == "_thread.lock"
    assert "could not be sent back from the worker" in got[1].message
    effects: list[Any] = []
    with pytest.raises(RemoteError):  # the effects arrive, then the item's error is raised
        for effect in RunnableLambda(lock_for_odd).each().stream_effects([1], config={"executor": executor}):
            effects.append(effect)
    ends = [e for e in effects if isinstance(e, RunEnded) and e.run.parent_ids]
    assert len(ends) == 1 and str(ends[0].output).startswith("<not sent from the worker: <unlocked _th")


def fail_at_3(x: int) -> int:
    import time

    if x == 3:
        raise ValueError("bad 3")
    time.sleep(0.05)
    return x


def test_without_return_exceptions_the_error_is_raised_and_nothing_is_left(dask_client: Client) -> None:
    inputs = list(range(40))
    executor = DaskExecutor(dask_client)
    with pytest.raises(ValueError, match="bad 3"):
        RunnableLambda(fail_at_3).batch(inputs, executor=executor)
    until(lambda: not batch_tasks(dask_client))
    with pytest.raises(ValueError, match="bad 3"):
        asyncio.run(RunnableLambda(fail_at_3).abatch(inputs, executor=executor))
    until(lambda: not batch_tasks(dask_client))
    with pytest.raises(ValueError, match="bad 3"):
        list(RunnableLambda(fail_at_3).batch_as_completed(inputs, executor=executor))
    until(lambda: not batch_tasks(dask_client))


def slow_first(x: int) -> int:
    if x == 0:
        import time

        time.sleep(1.5)
    return x


def test_as_completed_yields_each_index_once_the_slow_one_last(dask_client: Client) -> None:
    executor = DaskExecutor(dask_client)
    runnable = RunnableLambda(slow_first)
    pairs = list(runnable.batch_as_completed(list(range(8)), executor=executor))
    assert sorted(pairs) == [(i, i) for i in range(8)]
    assert pairs[-1] == (0, 0)

    async def main() -> list[tuple[int, int]]:
        return [p async for p in runnable.abatch_as_completed(list(range(8)), executor=executor)]

    apairs = asyncio.run(main())
    assert sorted(apairs) == [(i, i) for i in range(8)] and apairs[-1] == (0, 0)


PICKLED: list[int] = []


@final
@attrs.frozen
class Counting(Runnable[int, int]):
    """Counts, in this process, how often it is pickled."""

    def __reduce__(self) -> tuple[Any, ...]:
        PICKLED.append(1)
        return (Counting, ())

    def step_invoke(self, input: int, scope: Scope, kwargs: Mapping[str, Any]) -> int:
        return input + 1


def test_the_runnable_is_shipped_once_per_call_and_kept_by_the_executor(dask_client: Client) -> None:
    PICKLED.clear()
    runnable = Counting()
    executor = DaskExecutor(dask_client)
    assert runnable.batch(list(range(100)), executor=executor) == list(range(1, 101))
    assert len(PICKLED) == 1
    assert runnable.batch(list(range(100)), executor=executor) == list(range(1, 101))
    assert len(PICKLED) == 1  # the same executor still holds it on the workers
    runnable.batch([1], executor=DaskExecutor(dask_client))
    assert len(PICKLED) == 2


def test_identical_inputs_run_as_many_times_as_asked(dask_client: Client, tmp_path: Path) -> None:
    def mark(x: int) -> int:
        (tmp_path / f"run-{uuid.uuid4().hex}").touch()
        return x

    assert RunnableLambda(mark).batch([7] * 20, executor=DaskExecutor(dask_client)) == [7] * 20
    assert len(list(tmp_path.iterdir())) == 20


def test_each_runs_its_elements_on_the_executor(dask_client: Client) -> None:
    executor = DaskExecutor(dask_client)
    assert RunnableLambda(inc).each(executor=executor).invoke([1, 2, 3]) == [2, 3, 4]
    assert RunnableLambda(inc).each().invoke([1, 2], config={"executor": executor}) == [2, 3]
    assert asyncio.run(RunnableLambda(inc).each(executor=executor).ainvoke([5])) == [6]


def test_what_cannot_run_is_refused_before_anything_is_submitted(dask_client: Client) -> None:
    lock = threading.Lock()
    holds_a_lock = RunnableLambda(lambda x: (lock, x)[1])
    with pytest.raises(ExecutorError, match=r"cannot ship the runnable RunnableLambda\(lambda x: \(lock, x\)\[1\]\)"):
        holds_a_lock.batch([1, 2], executor=DaskExecutor(dask_client))
    with pytest.raises(ExecutorError, match=r"cannot ship the item at index 1 \(its input or config\)"):
        RunnableLambda(inc).batch([1, lock, 3], executor=DaskExecutor(dask_client))  # type: ignore[list-item]
    with pytest.raises(ExecutorError, match="no worker of the cluster has the resource GPU=1"):
        RunnableLambda(inc).batch([1], executor=DaskExecutor(dask_client, resources={"GPU": 1}))
    assert batch_tasks(dask_client) == []
    closed = Client(dask_client.scheduler.address)  # type: ignore[attr-defined]
    closed.close()
    with pytest.raises(ExecutorError, match="client is closed"):
        RunnableLambda(inc).batch([1], executor=DaskExecutor(closed))
    with pytest.raises(ValueError, match="chunk_size"):
        DaskExecutor(dask_client, chunk_size=0)
