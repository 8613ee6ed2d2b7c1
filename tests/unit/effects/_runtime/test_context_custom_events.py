"""Custom events: ``dispatch_custom_event`` belongs to the enclosing run, is a clear error outside any
run, and is a quiet no-op inside runs nobody watches."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from combinators import Runnable, RunnableGenerator, RunnableLambda, dispatch_custom_event


def events_v2(chain: Runnable[Any, Any], value: Any) -> list[dict[str, Any]]:
    async def main() -> list[dict[str, Any]]:
        return [dict(e) async for e in chain.astream_events(value)]

    return asyncio.run(main())


async def _collect(stream: AsyncIterator[Any]) -> list[Any]:
    return [e async for e in stream]


def test_custom_events_carry_the_enclosing_run() -> None:
    def progress(x: int) -> int:
        dispatch_custom_event("progress", {"at": x})
        return x

    events = events_v2(RunnableLambda(abs) | RunnableLambda(progress), -2)
    custom = [e for e in events if e["event"] == "on_custom_event"]
    assert len(custom) == 1
    step = next(e for e in events if e["event"] == "on_chain_start" and e["name"] == "progress")
    assert custom[0]["run_id"] == step["run_id"] and custom[0]["data"] == {"at": 2}
    filtered = asyncio.run(_collect(RunnableLambda(progress).astream_events(1, include_types=["progress"])))
    assert [e["event"] for e in filtered] == ["on_custom_event"]


def test_dispatch_outside_a_run_is_a_clear_error() -> None:
    with pytest.raises(RuntimeError, match="inside a running step"):
        dispatch_custom_event("x", 1)


def test_dispatch_inside_unobserved_runs_is_a_quiet_no_op() -> None:
    from collections.abc import Iterator

    def step(x: int) -> int:
        dispatch_custom_event("progress", x)
        return x

    def chunks(inputs: Iterator[int]) -> Iterator[int]:
        for item in inputs:
            dispatch_custom_event("progress", item)
            yield item

    async def achunks(inputs: AsyncIterator[int]) -> AsyncIterator[int]:
        async for item in inputs:
            dispatch_custom_event("progress", item)
            yield item

    assert RunnableLambda(step).invoke(1) == 1
    assert RunnableLambda(step).batch([1, 2]) == [1, 2]
    assert list(RunnableGenerator(chunks).stream(3)) == [3]
    assert asyncio.run(_collect(RunnableGenerator(achunks).astream(4))) == [4]
    assert asyncio.run(RunnableLambda(step).ainvoke(5)) == 5
