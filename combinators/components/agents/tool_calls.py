"""Running the tool calls of one step: each call an ordinary tool run, in parallel.

Sync calls run on the shared pool (the caller's thread takes part), async ones under
a task group; ``max_concurrency`` bounds both the same way. Under async, a tool that
is a plain function runs on a worker thread, so such calls overlap too (and their
events may interleave). Outcomes come back in call order, whatever order they end in.
A call to an unknown tool or with arguments that are not a JSON object is answered
without running anything; arguments that fail the tool's schema fail
inside the tool run (``on_tool_error``) before its function is called.

Calls are written into ``slots`` as they finish, so whoever stops the step midway
(a timeout, a cancellation, a tool error under ``"raise"``) knows which were answered.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, final

import attrs
from returns.result import Failure, Success

from combinators.components.agents.policy import LoopPolicy
from combinators.components.agents.transcript import (
    MalformedToolCallError,
    ToolCallNotRun,
    UnknownToolError,
    answer,
    error_answer,
)
from combinators.components.agents.steps import ToolOutcome
from combinators.components.messages.message_classes import AIMessage, ToolCall
from combinators import RunnableTool, ToolArgumentsError
from effects.authoring import gather_structured, run_indexed
from effects.authoring import Scope

Slots = list[ToolOutcome | None]
"""One place per call of the step, filled as calls finish."""


@final
@attrs.frozen
class PlannedCall:
    """A call of the step: the tool to run, or the error that answers it without a run."""

    call: ToolCall
    tool: RunnableTool[Any] | None
    refused: Exception | None = None


def plan(message: AIMessage, tools: Mapping[str, RunnableTool[Any]]) -> list[PlannedCall]:
    """The calls of ``message`` (well-formed first, then the malformed ones), in order.

    >>> plan(AIMessage("", tool_calls=[ToolCall("nope", id="c1")]), {})[0].refused
    UnknownToolError("unknown tool 'nope'; the tools are: (none)")
    """
    planned: list[PlannedCall] = []
    for call in message.tool_calls:
        tool = tools.get(call.name)
        planned.append(
            PlannedCall(call, tool, None if tool is not None else UnknownToolError(call.name, tuple(sorted(tools))))
        )
    for bad in message.invalid_tool_calls:
        call = ToolCall(bad.name or "", {}, id=bad.id)
        planned.append(PlannedCall(call, None, MalformedToolCallError(bad.name, bad.args)))
    return planned


def failed(call: ToolCall, error: Exception) -> ToolOutcome:
    """The outcome of a call that failed with ``error`` (the model is told)."""
    return ToolOutcome(call, Failure(error), error_answer(call, error))


def not_run(call: ToolCall, reason: str) -> ToolOutcome:
    """The outcome of a call that was never answered (``reason`` says why)."""
    return failed(call, ToolCallNotRun(reason))


def filled(planned: list[PlannedCall], slots: Slots, reason: str) -> list[ToolOutcome]:
    """Every call's outcome: the finished ones, and ``not_run`` for the others."""
    return [slot if slot is not None else not_run(p.call, reason) for p, slot in zip(planned, slots, strict=True)]


def _succeeded(call: ToolCall, output: object) -> ToolOutcome:
    message = answer(call, output)
    if message.tool_call_id != call.id:  # a tool that made its own message answers this call
        message = attrs.evolve(message, tool_call_id=call.id or "")
    return ToolOutcome(call, Success(output), message)


def _handled(call: ToolCall, error: Exception, policy: LoopPolicy) -> ToolOutcome:
    if isinstance(error, ToolArgumentsError) or policy.handling(error) == "to_model":
        return failed(call, error)
    raise error


def run_one(scope: Scope, planned: PlannedCall, policy: LoopPolicy) -> ToolOutcome:
    """One call, as a child tool run of ``scope``."""
    if planned.tool is None:
        assert planned.refused is not None
        return failed(planned.call, planned.refused)
    try:
        output = scope.invoke(planned.tool, planned.call)
    except Exception as error:
        return _handled(planned.call, error, policy)
    return _succeeded(planned.call, output)


async def arun_one(scope: Scope, planned: PlannedCall, policy: LoopPolicy) -> ToolOutcome:
    """Async ``run_one``."""
    if planned.tool is None:
        assert planned.refused is not None
        return failed(planned.call, planned.refused)
    try:
        output = await scope.ainvoke(planned.tool, planned.call)
    except Exception as error:
        return _handled(planned.call, error, policy)
    return _succeeded(planned.call, output)


def run_calls(
    scope: Scope, planned: list[PlannedCall], policy: LoopPolicy, slots: Slots, deadline: float | None
) -> bool:
    """Run the calls into ``slots``; True when the deadline stopped some from starting
    (a sync call already running is not interrupted)."""
    clock = scope.clock
    late = [False]

    def work(i: int) -> None:
        if deadline is not None and clock.monotonic() >= deadline:
            late[0] = True
            return
        try:
            slots[i] = run_one(scope, planned[i], policy)
        except Exception as error:  # a tool error to raise: its call is answered with it
            slots[i] = failed(planned[i].call, error)
            raise

    run_indexed(work, len(planned), limit=policy.max_concurrency)
    return late[0]


async def arun_calls(
    scope: Scope, planned: list[PlannedCall], policy: LoopPolicy, slots: Slots, deadline: float | None
) -> bool:
    """Async ``run_calls``: calls in flight when the deadline passes are cancelled (True)."""
    if deadline is None:
        await _every(scope, planned, policy, slots)
        return False
    window = asyncio.timeout(max(deadline - scope.clock.monotonic(), 0.0))
    try:
        async with window:
            await _every(scope, planned, policy, slots)
    except TimeoutError:
        if not window.expired():
            raise
        return True
    return False


async def _answered(scope: Scope, planned: PlannedCall, policy: LoopPolicy, slots: Slots, i: int) -> None:
    try:
        slots[i] = await arun_one(scope, planned, policy)
    except Exception as error:  # a tool error to raise: its call is answered with it
        slots[i] = failed(planned.call, error)
        raise


async def _limited(
    scope: Scope, planned: PlannedCall, policy: LoopPolicy, slots: Slots, i: int, limit: asyncio.Semaphore
) -> None:
    async with limit:
        await _answered(scope, planned, policy, slots, i)


async def _every(scope: Scope, planned: list[PlannedCall], policy: LoopPolicy, slots: Slots) -> None:
    if len(planned) == 1:
        await _answered(scope, planned[0], policy, slots, 0)
    elif policy.max_concurrency is None:
        await gather_structured([_answered(scope, p, policy, slots, i) for i, p in enumerate(planned)])
    else:
        limit = asyncio.Semaphore(policy.max_concurrency)
        await gather_structured([_limited(scope, p, policy, slots, i, limit) for i, p in enumerate(planned)])
