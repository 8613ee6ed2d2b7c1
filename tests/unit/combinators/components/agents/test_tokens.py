"""final_answer_tokens: the answer's tokens from the events, nothing else."""

from __future__ import annotations

import asyncio

from combinators.language_models import ScriptedChatModel
from combinators.tools import tool
from combinators.agents import afinal_answer_tokens, agent_loop, final_answer_tokens
from combinators.messages import AIMessage, ToolCall


def test_only_the_answer_not_the_thoughts_before_a_tool_call_nor_a_nested_agent() -> None:
    inner = agent_loop(ScriptedChatModel(["inner words"] * 2), [])

    @tool
    def consult(question: str) -> str:
        """Ask another agent."""
        return inner.invoke(question).output or ""

    model = ScriptedChatModel([AIMessage("", tool_calls=[ToolCall("consult", {"question": "q"})]), "The answer."])
    events = list(agent_loop(model, [consult]).stream_events("q"))
    assert any(e["event"] == "on_chat_model_stream" and "inner" in e["data"]["chunk"].text for e in events)
    assert list(final_answer_tokens(events)) == ["The", " ", "answer."]


def test_a_model_call_that_asks_for_a_tool_stops_giving_tokens() -> None:
    @tool
    def noop() -> str:
        """Nothing."""
        return ""

    asking = AIMessage("Let me see", tool_calls=[ToolCall("noop", {})])
    model = ScriptedChatModel([asking, "Done."])
    tokens = list(final_answer_tokens(agent_loop(model, [noop]).stream_events("q", version="v1")))
    # the text before the tool call was given as it came; nothing after it
    assert tokens == ["Let", " ", "me", " ", "see", "Done."]


def test_async_helper() -> None:
    async def tokens() -> list[str]:
        events = agent_loop(ScriptedChatModel(["a b"]), []).astream_events("q")
        return [t async for t in afinal_answer_tokens(events)]

    assert asyncio.run(tokens()) == ["a", " ", "b"]
