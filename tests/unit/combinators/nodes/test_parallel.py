"""RunnableParallel: a dict of runnables on one input, sync, streamed and async; a failure cancels the siblings."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from combinators import AddableDict, RunnableLambda, RunnableParallel


def inc(x: int) -> int:
    return x + 1


def double(x: int) -> int:
    return x * 2


def test_parallel_dict_invoke_stream_and_async() -> None:
    par = RunnableParallel(a=inc, b=RunnableLambda(double))
    assert par.invoke(3) == {"a": 4, "b": 6}
    chunks = list(par.stream(3))
    assert all(isinstance(c, AddableDict) and len(c) == 1 for c in chunks)
    total = chunks[0]
    for c in chunks[1:]:
        total = total + c
    assert total == {"a": 4, "b": 6}
    assert asyncio.run(par.ainvoke(3)) == {"a": 4, "b": 6}
    assert par.name == "RunnableParallel<a,b>"


def test_parallel_failure_cancels_async_siblings_and_raises_the_error_itself() -> None:
    finished: list[str] = []

    async def slow(x: int) -> int:
        try:
            await asyncio.sleep(10)
        finally:
            finished.append("slow cleaned up")
        return x

    async def boom(x: int) -> int:
        await asyncio.sleep(0)
        raise ValueError("boom")

    par = RunnableParallel(slow=RunnableLambda(slow), boom=RunnableLambda(boom))

    async def main() -> set[asyncio.Task[Any]]:
        before = asyncio.all_tasks()
        with pytest.raises(ValueError, match="boom"):
            await par.ainvoke(1)
        return asyncio.all_tasks() - before

    assert asyncio.run(main()) == set()
    assert finished == ["slow cleaned up"]
