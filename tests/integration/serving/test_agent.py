"""An agent served and consumed through RemoteRunnable.astream_events shows its tool events."""

from __future__ import annotations

from typing import Any

from combinators.language_models import ScriptedChatModel
from combinators.tools import tool
from combinators.agents import LoopPolicy, agent_loop
from combinators.messages import AIMessage, ToolCall
from combinators.integrations.serving import RemoteRunnable, serve
from tests.integration.serving.live import live


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


async def test_a_served_agent_shows_its_tool_calls_locally() -> None:
    model = ScriptedChatModel(
        [AIMessage("", tool_calls=[ToolCall("multiply", {"a": 6, "b": 7}, id="call-1")]), "6 times 7 is 42."]
    )
    agent = agent_loop(model, [multiply], policy=LoopPolicy(max_iterations=5))
    with live(serve({"/agent": agent})) as server:
        remote: RemoteRunnable[str, Any] = RemoteRunnable(f"{server.url}/agent", timeout=30)
        events = [e async for e in remote.astream_events("6 x 7?")]
        await remote.aclose()
    node = events[0]
    assert (node["event"], node["name"]) == ("on_chain_start", "RemoteRunnable")
    (server_root,) = [e for e in events if e["event"] == "on_chain_start" and e["name"] == "/agent"]
    assert server_root["parent_ids"] == [node["run_id"]]
    (tool_start,) = [e for e in events if e["event"] == "on_tool_start"]
    (tool_end,) = [e for e in events if e["event"] == "on_tool_end"]
    assert tool_start["name"] == tool_end["name"] == "multiply"
    assert tool_start["data"]["input"] == {"a": 6, "b": 7}
    assert "42" in str(tool_end["data"]["output"])
    assert tool_start["parent_ids"][:2] == [node["run_id"], server_root["run_id"]]
    assert tool_start["metadata"]["remote"] == f"{server.url}/agent"
    kinds = [e["event"] for e in events]
    first_model_end = kinds.index("on_chat_model_end")
    assert first_model_end < kinds.index("on_tool_start") < kinds.index("on_tool_end")
    answer = "".join(
        e["data"]["chunk"].text for e in events[kinds.index("on_tool_end") :] if e["event"] == "on_chat_model_stream"
    )
    assert answer == "6 times 7 is 42."
    assert events[-1]["event"] == "on_chain_end" and events[-1]["run_id"] == node["run_id"]
    output = events[-1]["data"]["output"]
    assert output["kind"] == "agent_result" and output["output"] == "6 times 7 is 42."
    assert output["stop"] == {"kind": "finished"}
    assert output["conversation"][-1] == AIMessage("6 times 7 is 42.", id=output["conversation"][-1].id)  # revived
