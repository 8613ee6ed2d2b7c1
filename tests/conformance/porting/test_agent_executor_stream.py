"""``AgentExecutor.stream`` against LangChain's own (``langchain_classic``, in process): the
same scripted model (two tool calls, then an answer), the same chunks: keys, classes,
every field of the actions and steps (``log`` included) and of their messages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core import language_models as lc_models
from langchain_core import messages as lc_messages
from langchain_core.messages.tool import tool_call_chunk
from langchain_core import outputs as lc_outputs
from langchain_core import prompts as lc_prompts
from langchain_core import tools as lc_tools

from combinators.agents import AgentExecutor, create_tool_calling_agent
from combinators.language_models import ScriptedChatModel
from combinators.messages import AIMessage, ToolCall
from combinators.prompts import ChatPromptTemplate, MessagesPlaceholder
from combinators.tools import tool

classic = pytest.importorskip("langchain_classic.agents")  # (a dev dependency: langchain-community's)

CALLS = [("multiply", {"a": 6, "b": 7}, "call-1"), ("multiply", {"a": 2, "b": 3}, "call-2")]
ANSWER = "42 and 6."


def multiply(a: int, b: int) -> int:
    """Multiply two integers a and b."""
    return a * b


class TheirModel(lc_models.BaseChatModel):
    """Streams the two calls as tool-call chunks, then the answer, as a provider does."""

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self

    def _reply(self, messages: list[Any]) -> Any:
        if any(isinstance(m, lc_messages.FunctionMessage | lc_messages.ToolMessage) for m in messages):
            return lc_messages.AIMessageChunk(content=ANSWER)
        chunks = [
            tool_call_chunk(name=name, args=json.dumps(args), id=call_id, index=index)
            for index, (name, args, call_id) in enumerate(CALLS)
        ]
        return lc_messages.AIMessageChunk(content="", tool_call_chunks=chunks)

    def _generate(self, messages: list[Any], stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
        raise AssertionError("the agent streams its model")

    def _stream(self, messages: list[Any], stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Iterator[Any]:
        yield lc_outputs.ChatGenerationChunk(message=self._reply(messages))


def theirs() -> list[Any]:
    prompt = lc_prompts.ChatPromptTemplate.from_messages(
        [("system", "You multiply."), ("human", "{input}"), lc_prompts.MessagesPlaceholder("agent_scratchpad")]
    )
    their_tool = lc_tools.tool(multiply)
    agent = classic.create_tool_calling_agent(TheirModel(), [their_tool], prompt)
    return list(classic.AgentExecutor(agent=agent, tools=[their_tool]).stream({"input": "6 x 7?"}))


def ours() -> list[Any]:
    prompt = ChatPromptTemplate.from_messages(
        [("system", "You multiply."), ("human", "{input}"), MessagesPlaceholder("agent_scratchpad")]
    )
    our_tool = tool(multiply)
    asks = AIMessage("", tool_calls=[ToolCall(name, args, id=call_id) for name, args, call_id in CALLS])
    agent = create_tool_calling_agent(ScriptedChatModel([asks, ANSWER]), [our_tool], prompt)
    return list(AgentExecutor(agent=agent, tools=[our_tool]).stream({"input": "6 x 7?"}))


def _chunk_fields(chunk: Any) -> tuple[Any, Any, Any]:
    # LangChain keeps a tool-call chunk as a dict, we as a value
    if isinstance(chunk, dict):
        fields: dict[str, Any] = dict(chunk)  # pyright: ignore[reportUnknownArgumentType]
        return fields["name"], fields["args"], fields["index"]
    return chunk.name, chunk.args, chunk.index


def _message(message: Any) -> dict[str, Any]:
    chunks = [_chunk_fields(c) for c in getattr(message, "tool_call_chunks", ())]
    return {"class": type(message).__name__, "content": message.content, "name": message.name, "chunks": chunks}


def _described(chunk: Any) -> dict[str, Any]:
    described: dict[str, Any] = {"keys": sorted(chunk), "class": type(chunk).__name__}
    described["messages"] = [_message(m) for m in chunk["messages"]]
    for action in chunk.get("actions", ()):
        described.setdefault("actions", []).append(
            {
                "tool": action.tool,
                "tool_input": dict(action.tool_input),
                "log": action.log,
                "tool_call_id": action.tool_call_id,
                "message_log": [_message(m) for m in action.message_log],
            }
        )
    for step in chunk.get("steps", ()):
        described.setdefault("steps", []).append(
            {"tool": step.action.tool, "tool_call_id": step.action.tool_call_id, "observation": step.observation}
        )
    if "output" in chunk:
        described["output"] = chunk["output"]
    return described


def test_the_chunks_are_langchains() -> None:
    expected = [_described(chunk) for chunk in theirs()]
    assert [d["keys"] for d in expected] == [["actions", "messages"]] * 2 + [["messages", "steps"]] * 2 + [
        ["messages", "output"]
    ]
    assert [_described(chunk) for chunk in ours()] == expected
