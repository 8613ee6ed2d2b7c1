"""The tool calls of one step run together (sync and async), outcomes in call order;
``max_concurrency`` bounds them; stopping the consumer cancels the tools in flight."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from combinators.language_models import ScriptedChatModel
from combinators.tools import tool
from combinators.agents import Finished, LoopPolicy, agent_loop
from combinators.messages import AIMessage, ToolCall
from combinators import RunnableTool
from tests.unit.combinators.components.agents.helpers import forever


def released_together(parties: int) -> tuple[RunnableTool[Any], RunnableTool[Any]]:
    """A sync and an async tool that return only once ``parties`` calls are inside at
    the same time (a barrier: calls run one by one would never get through)."""
    barrier = threading.Barrier(parties, timeout=10)
    arrived: list[int] = []
    gate = asyncio.Event()

    @tool
    def meet(n: int) -> int:
        """Wait for the others."""
        barrier.wait()
        return n

    @tool
    async def ameet(n: int) -> int:
        """Wait for the others."""
        arrived.append(n)
        if len(arrived) == parties:
            gate.set()
        await asyncio.wait_for(gate.wait(), timeout=10)
        # the last to arrive finishes first: outcomes must still come in call order
        await asyncio.sleep(0)
        return n

    return meet, ameet


def three_calls(name: str) -> ScriptedChatModel:
    return ScriptedChatModel([AIMessage("", tool_calls=[ToolCall(name, {"n": n}) for n in (0, 1, 2)]), "done"])


def test_sync_tool_calls_of_one_step_run_at_the_same_time() -> None:
    meet, _ = released_together(3)
    result = agent_loop(three_calls("meet"), [meet]).invoke("x")
    assert result.stop == Finished()
    assert [o.output for o in result.steps[0].outcomes] == [0, 1, 2]


def test_async_tool_calls_of_one_step_run_at_the_same_time() -> None:
    _, ameet = released_together(3)
    result = asyncio.run(agent_loop(three_calls("ameet"), [ameet]).ainvoke("x"))
    assert [o.output for o in result.steps[0].outcomes] == [0, 1, 2]


def concurrency_probe() -> tuple[RunnableTool[Any], RunnableTool[Any], list[int]]:
    running = [0]
    peak: list[int] = []
    lock = threading.Lock()

    @tool
    def probe(n: int) -> int:
        """Count who runs at once."""
        with lock:
            running[0] += 1
            peak.append(running[0])
        for _ in range(1000):  # leave room for another thread to come in
            pass
        with lock:
            running[0] -= 1
        return n

    @tool
    async def aprobe(n: int) -> int:
        """Count who runs at once."""
        running[0] += 1
        peak.append(running[0])
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        running[0] -= 1
        return n

    return probe, aprobe, peak


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_max_concurrency_one_runs_them_one_by_one_in_call_order(mode: str) -> None:
    probe, aprobe, peak = concurrency_probe()
    tool_ = probe if mode == "sync" else aprobe
    agent = agent_loop(three_calls(tool_.name), [tool_], policy=LoopPolicy(max_concurrency=1))
    result = agent.invoke("x") if mode == "sync" else asyncio.run(agent.ainvoke("x"))
    assert max(peak) == 1
    assert [o.output for o in result.steps[0].outcomes] == [0, 1, 2]


def test_async_without_a_limit_they_overlap() -> None:
    _, aprobe, peak = concurrency_probe()
    asyncio.run(agent_loop(three_calls("aprobe"), [aprobe]).ainvoke("x"))
    assert max(peak) == 3


def test_stopping_the_consumer_cancels_the_tools_in_flight() -> None:
    wait_forever, started, cancelled = forever()

    async def run() -> int:
        model = three_calls("wait_forever")
        events = agent_loop(model, [wait_forever]).astream_events("x")
        starts = 0
        async for event in events:
            starts += event["event"] == "on_tool_start"
            if starts == 3:
                break
        while len(started) < 3:  # the three bodies are running (the producer runs on)
            await asyncio.sleep(0)
        await events.aclose()  # type: ignore[attr-defined]
        await asyncio.sleep(0)
        return len(asyncio.all_tasks())

    tasks = asyncio.run(run())
    assert tasks == 1
    assert sorted(started) == sorted(cancelled) == [0, 1, 2]
