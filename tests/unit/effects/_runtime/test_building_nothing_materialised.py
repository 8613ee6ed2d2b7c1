"""When nobody observes a run, the runtime builds no run id, no timestamp, no effect."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

import effects._runtime.building
import effects._runtime.scope
import effects._runtime.streaming
from combinators import RunnableGenerator, RunnableLambda, RunnableParallel


def inc(x: int) -> int:
    return x + 1


def chunks(_: Iterator[object]) -> Iterator[int]:
    yield from range(3)


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    made: list[str] = []

    def counting(name: str, original: Any) -> Any:
        def make(*args: Any, **kwargs: Any) -> Any:
            made.append(name)
            return original(*args, **kwargs)

        return make

    monkeypatch.setattr(effects._runtime.scope, "new_run_id", counting("run id", effects._runtime.scope.new_run_id))
    # Effects are built by effects._runtime.building (slot by slot) or by their classes.
    for name, kind in (
        ("run_info", "RunInfo"),
        ("started", "RunStarted"),
        ("streamed", "RunStreamed"),
        ("ended", "RunEnded"),
    ):
        for module in (effects._runtime.building, effects._runtime.streaming):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, counting(kind, getattr(module, name)))
    for name in ("RunStarted", "RunEnded", "RunFailed"):
        for module in (effects._runtime.streaming, effects._runtime.scope):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, counting(name, getattr(module, name)))
    return made


def test_unobserved_calls_build_nothing(built: list[str]) -> None:
    chain = RunnableLambda(inc) | RunnableParallel(a=RunnableLambda(inc), b=RunnableGenerator(chunks))
    chain.invoke(1)
    chain.batch([1, 2])
    list(chain.stream(1))
    asyncio.run(chain.ainvoke(1))
    chain.invoke(1, {"tags": ["configured"], "max_concurrency": 2})
    assert built == []


def test_observed_calls_build_them(built: list[str]) -> None:
    list(RunnableLambda(inc).stream_events(1))
    assert "RunInfo" in built and "run id" in built and "RunStarted" in built and "RunEnded" in built
