"""Deadlines: a call's ``timeout`` cancels async work and is checked before each sync leaf on the injected clock."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from combinators import RunnableLambda, StepTimeout


def test_timeout_cancels_async_work_and_names_the_runnable() -> None:
    async def forever(x: int) -> int:
        await asyncio.Event().wait()
        return x

    async def main() -> None:
        with pytest.raises(StepTimeout, match="forever timed out after 0.01 s"):
            await RunnableLambda(forever).with_timeout(0.01).ainvoke(1)
        with pytest.raises(StepTimeout, match="timed out"):
            await RunnableLambda(forever).ainvoke(1, {"timeout": 0.01})

    asyncio.run(main())


def test_sync_timeout_is_checked_before_each_leaf_with_the_injected_clock() -> None:
    from effects import FakeClock, use_clock

    clock = FakeClock()
    ran: list[int] = []

    def tick(x: int) -> int:
        ran.append(x)
        clock.advance(1.0)
        return x + 1

    chain: Any = RunnableLambda(tick) | tick | tick | tick
    with use_clock(clock), pytest.raises(StepTimeout):
        chain.invoke(0, {"timeout": 2.5})
    assert ran == [0, 1, 2]  # the running step finished; the next one did not start
