"""Public calls as the runtime runs them: a failing async branch raises its own error, not the task
group that held it (so its context has no cycle)."""

from __future__ import annotations

import asyncio

import pytest

from combinators import (
    RunnableLambda,
    RunnableParallel,
)


def test_an_async_branch_error_is_raised_without_a_context_cycle() -> None:
    # Re-raised inside the TaskGroup's handler, the error's context became the group that
    # holds it: a cycle that tblib (Dask's error shipping) recursed on without end.
    def boom(x: int) -> int:
        raise ValueError(f"boom {x}")

    fan = RunnableParallel({"a": RunnableLambda(boom), "b": RunnableLambda(lambda x: x)})
    with pytest.raises(ValueError, match="boom 1") as caught:
        asyncio.run(fan.ainvoke(1))
    assert caught.value.__context__ is None  # no group, so no cycle through one
