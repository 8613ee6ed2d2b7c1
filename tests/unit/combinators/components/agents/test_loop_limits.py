"""Limits and error policies: max_iterations, on_limit, timeout, tool_errors."""

from __future__ import annotations

import asyncio
from typing import Any

import attrs
import pytest

from combinators.language_models import BaseChatModel, ScriptedChatModel
from combinators.agents import (
    Finished,
    Halted,
    LoopPolicy,
    MaxIterations,
    TimedOut,
    ToolCallNotRun,
    agent_loop,
    partial_result,
)
from combinators.messages import AIMessage, Message
from combinators.tools import tool
from effects.clock import FakeClock, current_clock, use_clock
from effects.errors import InputValueError
from tests.unit.combinators.components.agents.helpers import (
    add,
    always_calling,
    answered_once,
    calls,
    fail,
    forever,
    fresh,
)


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_an_always_calling_model_is_called_exactly_max_iterations_times(limit: int) -> None:
    model = always_calling(limit + 3)
    result = agent_loop(model, [add], policy=LoopPolicy(max_iterations=limit)).invoke("x")
    assert len(model.calls) == limit
    assert result.stop == MaxIterations(limit)
    assert result.output is None  # a limit never passes itself off as an answer
    assert len(result.steps) == limit and answered_once(result.messages)


@pytest.mark.parametrize("limit", [1, 3])
def test_final_answer_makes_one_more_call_without_tools(limit: int) -> None:
    model = ScriptedChatModel([*always_calling(limit).script, "All I know."])
    result = agent_loop(model, [add], policy=LoopPolicy(max_iterations=limit, on_limit="final_answer")).invoke("x")
    assert len(model.calls) == limit + 1
    assert [c.tools for c in model.calls] == [("add",)] * limit + [()]
    assert (result.output, result.stop) == ("All I know.", MaxIterations(limit))


def test_a_last_answer_that_still_asks_for_tools_is_sealed_not_run() -> None:
    model = always_calling(2)
    result = agent_loop(model, [add], policy=LoopPolicy(max_iterations=1, on_limit="final_answer")).invoke("x")
    assert len(model.calls) == 2 and result.stop == MaxIterations(1)
    assert answered_once(result.messages)
    assert "not run" in result.messages[-1].text and len(result.steps) == 1


def test_a_model_that_answers_within_the_limit_finishes() -> None:
    model = ScriptedChatModel([calls(("add", {"a": 1, "b": 1})), "two"])
    result = agent_loop(model, [add], policy=LoopPolicy(max_iterations=2)).invoke("x")
    assert (result.output, result.stop) == ("two", Finished())


@tool
def slow_add(a: int, b: int) -> int:
    """Add, taking ten seconds of the clock."""
    current_clock().sleep(10)
    return a + b


def test_sync_timeout_stops_between_steps_on_the_runtime_clock() -> None:
    with use_clock(FakeClock()):
        model = ScriptedChatModel([fresh(("slow_add", {"a": 1, "b": 2}))] * 5)
        result = agent_loop(model, [slow_add], policy=LoopPolicy(timeout=15)).invoke("x")
    assert result.stop == TimedOut(15) and result.output is None
    assert len(model.calls) == 2  # 0 s, 10 s: called; 20 s: out of time
    assert answered_once(result.messages)


def test_timeout_with_final_answer_still_answers() -> None:
    with use_clock(FakeClock()):
        model = ScriptedChatModel([calls(("slow_add", {"a": 1, "b": 2})), "Late, but: 3."])
        result = agent_loop(model, [slow_add], policy=LoopPolicy(timeout=5, on_limit="final_answer")).invoke("x")
    assert (result.output, result.stop) == ("Late, but: 3.", TimedOut(5))
    assert model.calls[-1].tools == ()


def test_async_timeout_cancels_the_tools_in_flight_and_seals_the_transcript() -> None:
    wait_forever, started, cancelled = forever()

    async def run() -> tuple[object, int]:
        model = ScriptedChatModel([calls(*(("wait_forever", {"n": i}) for i in range(3))), "never"])
        result = await agent_loop(model, [wait_forever], policy=LoopPolicy(timeout=0.05)).ainvoke("x")
        await asyncio.sleep(0)
        return result, len(asyncio.all_tasks())

    result, tasks = asyncio.run(run())
    assert tasks == 1  # only the test's own task: nothing left running
    assert sorted(started) == sorted(cancelled) == [0, 1, 2]
    assert result.stop == TimedOut(0.05)  # type: ignore[attr-defined]
    outcomes = result.steps[0].outcomes  # type: ignore[attr-defined]
    assert all(isinstance(o.result.failure(), ToolCallNotRun) for o in outcomes)
    assert answered_once(result.messages)  # type: ignore[attr-defined]


@attrs.frozen
class Pondering(BaseChatModel):
    """A model that never answers (until cancelled)."""

    cancelled: list[bool] = attrs.field(factory=list, eq=False)

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        raise AssertionError("only called asynchronously")

    async def _agenerate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        try:
            await asyncio.Event().wait()
        finally:
            self.cancelled.append(True)
        raise AssertionError("not reached")


def test_async_timeout_while_the_model_thinks() -> None:
    model = Pondering()
    result = asyncio.run(agent_loop(model, [add], policy=LoopPolicy(timeout=0.05)).ainvoke("x"))
    assert result.stop == TimedOut(0.05) and result.steps == () and result.output is None
    assert model.cancelled == [True]


def test_tool_errors_raise_fails_the_run_with_a_sealed_transcript() -> None:
    model = ScriptedChatModel([calls(("fail", {"reason": "disk full"}), ("add", {"a": 1, "b": 2})), "never"])
    with pytest.raises(ValueError, match="disk full") as caught:
        agent_loop(model, [add, fail], policy=LoopPolicy(tool_errors="raise")).invoke("x")
    partial = partial_result(caught.value)
    assert partial is not None and partial.stop == Halted(caught.value)
    assert answered_once(partial.messages)
    failed = next(m for m in partial.messages if getattr(m, "tool_call_id", None) == "call_0")
    assert failed.text == "ValueError: disk full"
    assert len(model.calls) == 1


def test_tool_errors_per_type() -> None:
    policy = LoopPolicy(tool_errors={ValueError: "raise"})
    with pytest.raises(ValueError):
        agent_loop(ScriptedChatModel([calls(("fail", {"reason": "r"}))]), [fail], policy=policy).invoke("x")
    lenient = LoopPolicy(tool_errors={KeyError: "raise"})
    result = agent_loop(ScriptedChatModel([calls(("fail", {"reason": "r"})), "ok"]), [fail], policy=lenient).invoke("x")
    assert result.output == "ok"


def test_a_model_error_leaves_a_sealed_partial_result() -> None:
    model = ScriptedChatModel([calls(("add", {"a": 1, "b": 1})), RuntimeError("model down")])
    with pytest.raises(RuntimeError, match="model down") as caught:
        agent_loop(model, [add]).invoke("x")
    partial = partial_result(caught.value)
    assert partial is not None and [m.type for m in partial.messages] == ["human", "ai", "tool"]
    assert len(partial.steps) == 1


def test_async_raise_cancels_the_siblings() -> None:
    cancelled: list[str] = []

    @tool
    async def wait_forever() -> str:
        """Never returns."""
        try:
            await asyncio.Event().wait()
        finally:
            cancelled.append("wait_forever")
        return ""

    async def run() -> BaseException:
        model = ScriptedChatModel([calls(("wait_forever", {}), ("fail", {"reason": "r"}))])
        try:
            await agent_loop(model, [wait_forever, fail], policy=LoopPolicy(tool_errors="raise")).ainvoke("x")
        except ValueError as error:
            return error
        raise AssertionError("no error")

    error = asyncio.run(run())
    assert cancelled == ["wait_forever"]
    partial = partial_result(error)
    assert partial is not None and answered_once(partial.messages)


@pytest.mark.parametrize(
    "bad",
    [
        {"max_iterations": 0},
        {"timeout": 0},
        {"on_limit": "answer"},
        {"tool_errors": "ignore"},
        {"tool_errors": {"ValueError": "raise"}},
        {"max_concurrency": 0},
    ],
)
def test_bad_policies_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(InputValueError, match="LoopPolicy"):
        LoopPolicy(**bad)  # type: ignore[arg-type]
