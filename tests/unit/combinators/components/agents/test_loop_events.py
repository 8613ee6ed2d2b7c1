"""The agent's events: children of the agent's run, tool events with the call's data,
a root stream event per piece, the root's end last; listeners and recordings too."""

from __future__ import annotations

import asyncio
from typing import Any

from combinators.language_models import ScriptedChatModel
from combinators.agents import agent_loop
from combinators.messages import AIMessage, ToolCall
from combinators import ToolArgumentsError
from effects.projections.recording import record, replay
from effects.projections.events_v2 import EventsV2
from tests.unit.combinators.components.agents.helpers import add, calls, fail


def model() -> ScriptedChatModel:
    asked = AIMessage("", tool_calls=[
        ToolCall("add", {"a": 1, "b": 2}, id="c1"),
        ToolCall("fail", {"reason": "disk full"}, id="c2"),
        ToolCall("add", {"a": "x"}, id="c3"),
        ToolCall("nope", {}, id="c4"),
    ])  # fmt: skip
    return ScriptedChatModel([asked, "Done."])


def events() -> list[dict[str, Any]]:
    agent = agent_loop(model(), [add, fail]).with_config(run_name="Agent")

    async def collect() -> list[dict[str, Any]]:
        return [dict(e) async for e in agent.astream_events("go")]

    return asyncio.run(collect())


def test_tool_runs_show_arguments_results_and_errors_with_the_call_id() -> None:
    seen = events()
    root = seen[0]["run_id"]
    tools = [e for e in seen if e["event"].startswith("on_tool")]
    assert all(e["parent_ids"] == [root] for e in tools)
    starts = sorted((e["name"], str(e["data"]["input"])) for e in tools if e["event"] == "on_tool_start")
    assert starts == [("add", "{'a': 'x'}"), ("add", "{'a': 1, 'b': 2}"), ("fail", "{'reason': 'disk full'}")]
    [end] = [e for e in tools if e["event"] == "on_tool_end"]
    assert end["data"] == {"output": 3, "input": {"a": 1, "b": 2}}  # the tool's result, not a message
    errors = {e["data"]["tool_call_id"]: e["data"]["error"] for e in tools if e["event"] == "on_tool_error"}
    assert sorted(errors) == ["c2", "c3"]
    assert isinstance(errors["c2"], ValueError) and isinstance(errors["c3"], ToolArgumentsError)
    assert not any(e["name"] == "nope" for e in tools)  # an unknown tool has no run
    assert not any(e["event"] == "on_tool_stream" for e in seen)


def test_a_root_stream_event_per_piece_and_the_root_ends_last() -> None:
    seen = events()
    pieces = [e["data"]["chunk"] for e in seen if e["event"] == "on_chain_stream" and e["name"] == "Agent"]
    assert [bool(p.actions) for p in pieces] == [True, False, False]
    assert pieces[-1].output == "Done."
    assert (seen[-1]["event"], seen[-1]["name"]) == ("on_chain_end", "Agent")
    assert seen[-1]["data"]["output"] == sum(pieces[1:], pieces[0])


def test_listeners_see_the_runs_and_a_recording_replays_to_the_same_events() -> None:
    ended: list[Any] = []
    agent = agent_loop(ScriptedChatModel([calls(("add", {"a": 1, "b": 1})), "two"]), [add])
    result = agent.with_listeners(on_end=ended.append).invoke("x")
    [run] = ended
    assert run.outputs == {"output": result}
    assert [child.name for child in run.child_runs] == ["ScriptedChatModel", "add", "ScriptedChatModel"]

    async def effects() -> list[Any]:
        fresh = agent_loop(ScriptedChatModel([calls(("add", {"a": 1, "b": 1})), "two"]), [add])
        return [e async for e in fresh.astream_effects("x")]

    live = asyncio.run(effects())
    replayed = list(replay(record(live)))
    live_events, replayed_events = EventsV2(), EventsV2()
    kinds = [e["event"] for effect in live for e in live_events.feed(effect)]
    assert kinds == [e["event"] for effect in replayed for e in replayed_events.feed(effect)]
    assert kinds.count("on_chat_model_stream") > 0
