"""The LangChain-shaped facade: create_tool_calling_agent and AgentExecutor."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from combinators import AddableDict
from combinators.language_models import ScriptedChatModel
from combinators.prompts import ChatPromptTemplate, MessagesPlaceholder
from combinators.tools import tool
from combinators.agents import (
    STOPPED_AT_MAX_ITERATIONS,
    STOPPED_AT_TIME_LIMIT,
    AgentExecutor,
    ToolAgentAction,
    ToolAgentStep,
    create_tool_calling_agent,
)
from combinators.messages import AIMessage, AIMessageChunk, FunctionMessage, InvalidToolCall
from combinators.output_parsers import OutputParserError
from effects.clock import FakeClock, current_clock, use_clock
from effects.errors import InputValueError
from tests.unit.combinators.components.agents.helpers import add, always_calling, calls, fail, fresh

PROMPT = ChatPromptTemplate.from_messages(
    [("system", "Use tools."), MessagesPlaceholder("chat_history", optional=True), ("human", "{input}"),
     MessagesPlaceholder("agent_scratchpad")]
)  # fmt: skip


def executor(model: ScriptedChatModel, tools: list[Any] | None = None, **options: Any) -> AgentExecutor:
    chosen = tools if tools is not None else [add, fail]
    return AgentExecutor(agent=create_tool_calling_agent(model, chosen, PROMPT), tools=chosen, **options)


def test_input_and_output_keep_the_peer_shapes() -> None:
    model = ScriptedChatModel([calls(("add", {"a": 2, "b": 2})), "Four."])
    history = [("human", "hi"), ("ai", "hello")]
    result = executor(model).invoke({"input": "2+2?", "chat_history": history})
    assert result == {"input": "2+2?", "chat_history": history, "output": "Four."}
    assert [m.type for m in model.calls[0].messages] == ["system", "human", "ai", "human"]


def test_intermediate_steps_when_asked() -> None:
    model = ScriptedChatModel([calls(("add", {"a": 2, "b": 2}), ("fail", {"reason": "no"})), "Four."])
    result = executor(model, return_intermediate_steps=True).invoke({"input": "x"})
    [(first, four), (second, error)] = result["intermediate_steps"]
    assert isinstance(first, ToolAgentAction) and four == 4
    assert (first.tool, first.tool_input, first.tool_call_id) == ("add", {"a": 2, "b": 2}, "call_0")
    assert first.log == "\nInvoking: `add` with `{'a': 2, 'b': 2}`\n\n\n"  # LangChain's line
    assert [type(m) for m in first.message_log] == [AIMessage] and first.message_log == second.message_log
    assert second.tool == "fail" and error == "ValueError: no"  # the tool's error went to the model


def test_the_limit_gives_the_peer_text_or_with_generate_a_final_answer() -> None:
    forced = executor(always_calling(3), max_iterations=2).invoke({"input": "x"})
    assert forced["output"] == STOPPED_AT_MAX_ITERATIONS == "Agent stopped due to max iterations."
    model = ScriptedChatModel([*always_calling(2).script, "Best guess: 3."])
    generated = executor(model, max_iterations=2, early_stopping_method="generate").invoke({"input": "x"})
    assert generated["output"] == "Best guess: 3." and model.calls[-1].tools == ()


@tool
def slow(n: int) -> int:
    """Take a minute."""
    current_clock().sleep(60)
    return n


def test_max_execution_time() -> None:
    with use_clock(FakeClock()):
        result = executor(ScriptedChatModel([fresh(("slow", {"n": 1}))] * 3), [slow], max_execution_time=30).invoke(
            {"input": "x"}
        )
    assert result["output"] == STOPPED_AT_TIME_LIMIT


def test_stream_chunks_are_langchains_addable_dicts() -> None:
    model = ScriptedChatModel([calls(("add", {"a": 1, "b": 1}), ("add", {"a": 2, "b": 2})), "Two."])
    chunks = list(executor(model).stream({"input": "x"}))
    assert all(isinstance(c, AddableDict) for c in chunks)
    # one chunk per tool call asked for, one per result, then the answer (as LangChain's)
    assert [sorted(c) for c in chunks] == [
        ["actions", "messages"], ["actions", "messages"], ["messages", "steps"], ["messages", "steps"],
        ["messages", "output"],
    ]  # fmt: skip
    first, second = chunks[0]["actions"][0], chunks[1]["actions"][0]
    assert isinstance(first, ToolAgentAction) and (first.tool, first.tool_input) == ("add", {"a": 1, "b": 1})
    assert (first.tool_call_id, second.tool_call_id, second.tool_input) == ("call_0", "call_1", {"a": 2, "b": 2})
    (streamed,) = chunks[0]["messages"]
    assert isinstance(streamed, AIMessageChunk) and chunks[1]["messages"] == [streamed]
    assert first.message_log == (streamed,) and [c.args for c in streamed.tool_call_chunks] == [
        '{"a": 1, "b": 1}', '{"a": 2, "b": 2}'
    ]  # fmt: skip
    step = chunks[2]["steps"][0]
    assert isinstance(step, ToolAgentStep) and (step.action, step.observation) == (first, 2)
    assert chunks[2]["messages"] == [FunctionMessage("2", name="add")]
    assert chunks[3]["steps"][0].observation == 4
    assert chunks[4]["output"] == "Two." and chunks[4]["messages"] == [AIMessage("Two.")]
    head = chunks[0]
    assert isinstance(head, AddableDict)
    summed = head + chunks[2] + chunks[4]  # they add up, as LangChain's AddableDicts
    assert summed["output"] == "Two." and [type(m) for m in summed["messages"]] == [
        AIMessageChunk, FunctionMessage, AIMessage
    ]  # fmt: skip


def test_a_stopped_run_streams_langchains_empty_finish_message() -> None:
    chunks = list(executor(always_calling(3), max_iterations=1).stream({"input": "x"}))
    assert chunks[-1] == {"output": STOPPED_AT_MAX_ITERATIONS, "messages": [AIMessage("")]}


async def test_async_stream_chunks_are_the_sync_ones() -> None:
    def run() -> list[Any]:
        return list(executor(ScriptedChatModel([calls(("add", {"a": 1, "b": 1})), "Two."])).stream({"input": "x"}))

    model = ScriptedChatModel([calls(("add", {"a": 1, "b": 1})), "Two."])
    got = [c async for c in executor(model).astream({"input": "x"})]
    assert [sorted(c) for c in got] == [sorted(c) for c in run()]
    assert got[1]["steps"][0].observation == 2 and got[1]["messages"] == [FunctionMessage("2", name="add")]


def test_stream_chunks_add_up_as_the_peer_addable_dicts() -> None:
    # The peer's chunks are AddableDicts: summed (as an event's end output is) they give
    # {actions, messages, steps, output}, every message once (issue 26, the seed's agent).
    model = ScriptedChatModel([calls(("add", {"a": 1, "b": 1})), "Two."])
    chunks = list(executor(model).stream({"input": "x"}))
    assert all(isinstance(c, AddableDict) for c in chunks)
    total = chunks[0] + chunks[1] + chunks[2]
    assert list(total) == ["actions", "messages", "steps", "output"]
    assert [m.type for m in total["messages"]] == ["AIMessageChunk", "function", "ai"] and total["output"] == "Two."

    async def end_output(version: Any) -> Any:
        model = ScriptedChatModel([calls(("add", {"a": 1, "b": 1})), "Two."])
        events = [e async for e in executor(model).astream_events({"input": "x"}, version=version)]
        return events[-1]["data"]["output"]

    for version in ("v1", "v2"):
        assert list(asyncio.run(end_output(version))) == ["actions", "messages", "steps", "output"]


def test_sync_tool_calls_run_concurrently_as_in_async() -> None:
    barrier = threading.Barrier(2, timeout=10)

    @tool
    def meet(n: int) -> int:
        """Wait for the other."""
        barrier.wait()
        return n

    model = ScriptedChatModel([calls(("meet", {"n": 1}), ("meet", {"n": 2})), "ok"])
    assert executor(model, [meet]).invoke({"input": "x"})["output"] == "ok"


def test_handle_parsing_errors_false_raises_and_true_tells_the_model() -> None:
    malformed = AIMessage("", invalid_tool_calls=[InvalidToolCall("add", "{oops", "c1")])
    with pytest.raises(OutputParserError, match="Could not parse tool input"):
        executor(ScriptedChatModel([malformed, "x"]), handle_parsing_errors=False).invoke({"input": "x"})
    model = ScriptedChatModel([malformed, "fixed"])
    assert executor(model).invoke({"input": "x"})["output"] == "fixed"
    assert "not a JSON object" in model.calls[1].messages[-1].text


def test_async_and_the_seed_name() -> None:
    model = ScriptedChatModel([calls(("add", {"a": 1, "b": 1})), "Two."])
    agent = executor(model).with_config(run_name="Agent")

    async def names() -> list[tuple[str, str]]:
        return [(e["event"], e["name"]) async for e in agent.astream_events({"input": "x"}) if e["name"] == "Agent"]

    seen = asyncio.run(names())
    assert seen[0] == ("on_chain_start", "Agent") and seen[-1] == ("on_chain_end", "Agent")
    assert asyncio.run(executor(ScriptedChatModel(["hi"])).ainvoke({"input": "x"})) == {"input": "x", "output": "hi"}


def test_mismatched_tools_and_bad_options_are_refused() -> None:
    agent = create_tool_calling_agent(ScriptedChatModel([]), [add], PROMPT)
    with pytest.raises(InputValueError, match="not the agent's"):
        AgentExecutor(agent=agent, tools=[fail])
    with pytest.raises(InputValueError, match="early_stopping_method"):
        AgentExecutor(agent=agent, tools=[add], early_stopping_method="never")  # type: ignore[arg-type]
    with pytest.raises(InputValueError, match="handle_parsing_errors"):
        AgentExecutor(agent=agent, tools=[add], handle_parsing_errors="Check your output")  # type: ignore[arg-type]
