"""The author's Scope: what a step sees of the runtime (effects.Scope, effects.authoring)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import attrs
import pytest

from combinators import Runnable, RunnableLambda
from effects import FakeClock, use_clock
from combinators import RunConfig
from effects.authoring import Scope, aeach_on_executor, current_scope, each_on_executor
from effects.executors import run_items


def test_current_scope_is_the_running_steps_scope_as_the_protocol() -> None:
    seen: list[Scope | None] = []

    def look(x: int) -> int:
        seen.append(current_scope())
        return x

    with use_clock(FakeClock(start=7.0)):
        RunnableLambda(look).invoke(1, {"tags": ["t"], "metadata": {"k": 1}})
    scope = seen[0]
    assert scope is not None
    assert (scope.config.tags, scope.config.metadata, scope.run) == (("t",), {"k": 1}, None)
    assert current_scope() is None


class _Finished:
    def __init__(self, outcomes: list[Any]) -> None:
        self.left = iter(outcomes)

    def __iter__(self) -> _Finished:
        return self

    def __next__(self) -> Any:
        return next(self.left)

    def cancel(self) -> None:
        self.left = iter(())


class _Here:
    name = "here"

    def submit(self, job: Any) -> _Finished:
        return _Finished(run_items(job.step, job.items, job.kwargs, where="w1"))


@attrs.frozen
class Shipped(Runnable[list[int], list[int]]):
    def step_invoke(self, input: list[int], scope: Scope, kwargs: Mapping[str, Any]) -> list[int]:
        return each_on_executor(scope, _Here(), RunnableLambda(abs), input, kwargs)

    async def step_ainvoke(self, input: list[int], scope: Scope, kwargs: Mapping[str, Any]) -> list[int]:
        return await aeach_on_executor(scope, _Here(), RunnableLambda(abs), input, kwargs)


def test_each_on_an_executor_adopts_the_items_below_the_step() -> None:
    effects = list(Shipped().stream_effects([-1, -2]))
    names = [(type(e).__name__, e.run.name, len(e.run.parent_ids)) for e in effects]
    assert names[0] == ("RunStarted", "Shipped", 0)
    assert names.count(("RunEnded", "abs", 1)) == 2
    assert {e.run.metadata.get("worker") for e in effects if e.run.name == "abs"} == {"w1"}
    assert Shipped().invoke([-3, 4]) == [3, 4]
    assert asyncio.run(Shipped().ainvoke([-3, 4])) == [3, 4]


def test_each_on_an_executor_refuses_a_scope_the_runtime_did_not_make() -> None:
    class Homemade:
        config = RunConfig()

    with pytest.raises(TypeError, match="expected the scope the runtime gave the running step, got Homemade"):
        each_on_executor(Homemade(), _Here(), RunnableLambda(abs), [1], {})  # type: ignore[arg-type]
