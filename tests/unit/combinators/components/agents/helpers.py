"""Tools and scripts shared by the agent tests."""

from __future__ import annotations

import asyncio
from typing import Any

from combinators import RunnableTool
from combinators.language_models import ScriptedChatModel
from combinators.tools import tool
from combinators.messages import AIMessage, Message, ToolCall, ToolMessage

CALLED: list[str] = []


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    CALLED.append("add")
    return a + b


@tool
def fail(reason: str) -> str:
    """Always fails."""
    CALLED.append("fail")
    raise ValueError(reason)


@tool
def lookup(key: str) -> dict[str, object]:
    """Look a key up."""
    return {"key": key, "found": True}


def calls(*pairs: tuple[str, dict[str, Any]]) -> AIMessage:
    """An AI message asking for these tool calls (ids call_0, call_1, ...)."""
    return AIMessage("", tool_calls=[ToolCall(name, args, id=f"call_{i}") for i, (name, args) in enumerate(pairs)])


def fresh(*pairs: tuple[str, dict[str, Any]]) -> AIMessage:
    """An AI message asking for these tool calls, without ids (the model makes fresh ones)."""
    return AIMessage("", tool_calls=[ToolCall(name, args) for name, args in pairs])


def always_calling(times: int) -> ScriptedChatModel:
    """A model that asks for ``add`` on each of its ``times`` calls."""
    return ScriptedChatModel([fresh(("add", {"a": 1, "b": 2}))] * times)


def answered_once(messages: tuple[Message, ...] | list[Message]) -> bool:
    """Every tool call of the transcript has exactly one answer, and every answer a call."""
    asked = [c.id for m in messages if isinstance(m, AIMessage) for c in (*m.tool_calls, *m.invalid_tool_calls)]
    answers = [m.tool_call_id for m in messages if isinstance(m, ToolMessage)]
    return sorted(asked, key=str) == sorted(answers) and len(set(asked)) == len(asked)


def forever() -> tuple[RunnableTool[Any], list[int], list[int]]:
    """An async tool that never returns, and the calls it started and saw cancelled."""
    started: list[int] = []
    cancelled: list[int] = []

    @tool
    async def wait_forever(n: int) -> int:
        """Never returns."""
        started.append(n)
        try:
            await asyncio.Event().wait()
        finally:
            cancelled.append(n)
        return n

    return wait_forever, started, cancelled
