"""examples/agent.py: the seed's agent runs offline and its events read as the seed's do.

The seed's transcript, in order and with its nesting: the agent starts (the root,
named "Agent", with its input), the model streams (it asks for a tool: no text), the
tool starts and ends (children of the agent), the model streams the answer's tokens,
and the agent ends, last. Checked on v1 and v2 events and on the run log; and with
``OPENAI_BASE_URL`` the same example runs on an OpenAI-compatible server.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from combinators.agents import final_answer_tokens

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "What pattern of flashes does the light show?"
ANSWER = 'The light shows two white flashes every ten seconds, a pattern that sailors call "Fl(2) W 10s", and it can be seen from about 40 kilometres out at sea.'


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("agent_example", ROOT / "examples" / "agent.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_prints_the_seed_handlers_output() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "agent.py")],
        capture_output=True, text=True, timeout=120, check=True, env={**env, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.stderr == ""
    lines = [line for line in done.stdout.splitlines() if line != "-----"]
    assert lines[0] == f'Starting agent: Agent with input: {{"input": "{QUESTION}"}}'
    assert lines[1] == f'Starting tool: search_archive with inputs: {{"query": "{QUESTION}"}}'
    assert lines[2] == "Finished tool: search_archive"
    assert lines[3].startswith("Tool output was: # The lamp and the lens")
    tokens = next(line for line in lines if line.startswith("Tokens: ")).removeprefix("Tokens: ").split("|")
    assert "".join(tokens) == ANSWER and len(tokens) > 10
    assert lines[-2:] == ["Finished agent: Agent", f"Agent output was: {ANSWER}"]


def seed_steps(events: list[dict[str, Any]]) -> list[str]:
    """The seed's handlers' view: agent start/end, tokens (merged per run), tool start/end."""
    steps: list[str] = []
    for event in events:
        kind, name = event["event"], event["name"]
        if kind in ("on_chain_start", "on_chain_end") and name == "Agent":
            steps.append(f"agent {kind.removeprefix('on_chain_')}")
        elif kind in ("on_tool_start", "on_tool_end"):
            steps.append(f"tool {kind.removeprefix('on_tool_')}")
        elif kind == "on_chat_model_stream" and event["data"]["chunk"].content:
            if not steps or steps[-1] != "tokens":
                steps.append("tokens")
    return steps


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_seed_transcript_in_order_and_nested(version: str) -> None:
    agent = example().build_agent(example().ToolPickingChatModel())

    async def collect() -> list[dict[str, Any]]:
        return [dict(e) async for e in agent.astream_events({"input": QUESTION}, version=version)]

    events = asyncio.run(collect())
    assert seed_steps(events) == ["agent start", "tool start", "tool end", "tokens", "agent end"]
    root, last = events[0], events[-1]
    assert (root["event"], root["name"], root["data"]) == ("on_chain_start", "Agent", {"input": {"input": QUESTION}})
    assert (last["event"], last["name"]) == ("on_chain_end", "Agent")  # the root's end is the last event
    assert last["data"]["output"]["output"] == ANSWER
    models = [e for e in events if e["event"] == "on_chat_model_start"]
    assert len(models) == 2
    asking = [e for e in events if e["event"] == "on_chat_model_stream" and e["run_id"] == models[0]["run_id"]]
    assert asking and all(e["data"]["chunk"].content == "" for e in asking)  # tool-call chunks: empty content
    assert "".join(final_answer_tokens(events)) == ANSWER
    tool_start = next(e for e in events if e["event"] == "on_tool_start")
    assert tool_start["data"]["input"] == {"query": QUESTION}
    if version == "v2":
        # the model runs and the tool run are children of the agent's run
        for event in events[1:-1]:
            if event["event"].startswith(("on_chat_model", "on_tool", "on_prompt")):
                assert event["parent_ids"] == [root["run_id"]], event["event"]
        assert sum(e["event"] == "on_chain_stream" and e["name"] == "Agent" for e in events) == 3


def test_seed_transcript_in_the_run_log() -> None:
    agent = example().build_agent(example().ToolPickingChatModel())

    async def collect() -> list[Any]:
        return [patch async for patch in agent.astream_log({"input": QUESTION})]

    patches = asyncio.run(collect())
    paths = [op["path"] for patch in patches for op in patch.ops]
    tool_start = paths.index("/logs/search_archive")
    tool_end = paths.index("/logs/search_archive/end_time")
    first_token = paths.index("/logs/ToolPickingChatModel:2/streamed_output_str/-")
    assert paths.index("/logs/ToolPickingChatModel") < tool_start < tool_end < first_token
    state = patches[0]
    for patch in patches[1:]:
        state = state + patch
    assert state.state["final_output"]["output"] == ANSWER
    assert state.state["logs"]["search_archive"]["final_output"]["output"].startswith("# The lamp and the lens")


def test_with_openai_base_url_the_example_runs_on_a_server(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("openai")
    from tests.unit.combinators.integrations.openai.fake_server import FakeOpenAIServer, SseReply, chunk, text_stream

    asked = [
        chunk({"role": "assistant", "content": None}),
        chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                               "function": {"name": "calculator", "arguments": '{"expression": "6 * 7"}'}}]}),
        chunk({}, finish_reason="tool_calls"),
    ]  # fmt: skip
    with FakeOpenAIServer() as server:
        server.script(SseReply(asked), SseReply(text_stream(["It", " is", " 42."])))
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        lines = asyncio.run(example().run("What is 6 * 7?", "v2"))
        bodies = server.bodies
    assert 'Starting tool: calculator with inputs: {"expression": "6 * 7"}' in lines
    assert "Tool output was: 42" in lines
    assert "Tokens: It| is| 42." in lines
    assert lines[-2] == "Agent output was: It is 42."
    assert [t["function"]["name"] for t in bodies[0]["tools"]] == ["search_archive", "calculator"]
    assert bodies[1]["messages"][-1] == {
        "role": "tool",
        "content": "42",
        "tool_call_id": "call_1",
        "name": "calculator",
    }
