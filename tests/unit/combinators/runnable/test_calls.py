"""What a nested call inherits of its caller's config, and an async branch's error (batches, the pool,
limits, deadlines and streaming are tested in ``tests/unit/effects/_runtime/``)."""

from __future__ import annotations

import asyncio

import pytest

from combinators import (
    RunConfig,
    RunnableLambda,
    RunnableParallel,
)


def inc(x: int) -> int:
    return x + 1


def test_run_name_and_run_id_are_not_inherited() -> None:
    seen: list[RunConfig] = []

    def probe(x: int, config: RunConfig) -> int:
        seen.append(config)
        return x

    (RunnableLambda(inc) | RunnableLambda(probe)).invoke(1, {"run_name": "root", "tags": ["x"]})
    assert seen[0].run_name is None and seen[0].run_id is None and seen[0].tags == ("x",)


def test_an_async_branch_error_is_raised_without_a_context_cycle() -> None:
    # Re-raised inside the TaskGroup's handler, the error's context became the group that
    # holds it: a cycle that tblib (Dask's error shipping) recursed on without end.
    def boom(x: int) -> int:
        raise ValueError(f"boom {x}")

    fan = RunnableParallel({"a": RunnableLambda(boom), "b": RunnableLambda(lambda x: x)})
    with pytest.raises(ValueError, match="boom 1") as caught:
        asyncio.run(fan.ainvoke(1))
    assert caught.value.__context__ is None  # no group, so no cycle through one
