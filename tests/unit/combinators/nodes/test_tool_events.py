"""Tool runs in events: ``on_tool_start``, ``on_tool_end``, ``on_tool_error``."""

from __future__ import annotations

import asyncio
from typing import Any, TypedDict

import pytest

from combinators import RunnableLambda
from combinators.components.messages.message_classes import ToolMessage
from combinators.components.tools.message_tools import tool
from combinators.nodes.tool import ToolArgumentsError
from effects.projections.events_v2 import StreamEvent


@tool
def divide(a: int, b: int) -> float:
    """Divide a by b."""
    return a / b


class Query(TypedDict):
    q: str


def lookup(query: Query) -> str:
    return query["q"].upper()


def identity(x: Any) -> Any:
    return x


async def collect(runnable: Any, input: Any) -> tuple[list[StreamEvent], BaseException | None]:
    events: list[StreamEvent] = []
    try:
        async for event in runnable.astream_events(input):
            events.append(event)
    except Exception as error:
        return events, error
    return events, None


def tool_events(events: list[StreamEvent]) -> list[StreamEvent]:
    return [e for e in events if e["event"].startswith("on_tool")]


def test_root_tool_start_and_end() -> None:
    events, error = asyncio.run(collect(divide, {"a": 6, "b": 3}))
    assert error is None
    start, end = tool_events(events)
    assert (start["event"], start["name"], start["data"]) == ("on_tool_start", "divide", {"input": {"a": 6, "b": 3}})
    assert (end["event"], end["name"], end["data"]) == ("on_tool_end", "divide", {"output": 2.0})


def test_tool_inside_a_chain_shows_the_arguments_and_the_tool_message() -> None:
    call = {"name": "divide", "args": {"a": 1, "b": 4}, "id": "call_9", "type": "tool_call"}
    events, error = asyncio.run(collect(RunnableLambda(identity) | divide, call))
    assert error is None
    start, end = tool_events(events)
    assert start["data"] == {"input": {"a": 1, "b": 4}}  # the call's args, as the peer
    assert end["event"] == "on_tool_end"
    assert end["data"] == {
        "output": ToolMessage("0.25", tool_call_id="call_9", name="divide"),
        "input": {"a": 1, "b": 4},
    }
    root_id = events[0]["run_id"]
    assert start["parent_ids"] == [root_id]
    assert start["tags"] == ["seq:step:2"]


def test_failing_tool_gives_on_tool_error_with_the_input() -> None:
    events, error = asyncio.run(collect(RunnableLambda(identity) | divide, {"a": 1, "b": 0}))
    assert isinstance(error, ZeroDivisionError)
    start, failed = tool_events(events)
    assert start["event"] == "on_tool_start"
    assert failed["event"] == "on_tool_error"
    assert failed["data"].get("input") == {"a": 1, "b": 0}
    assert failed["data"].get("error") is error
    assert not any(e["event"] == "on_tool_end" for e in events)


def test_bad_arguments_give_on_tool_error_and_nothing_else_runs() -> None:
    events, error = asyncio.run(collect(divide, {"a": "one", "b": 2}))
    assert isinstance(error, ToolArgumentsError)
    assert [e["event"] for e in events] == ["on_tool_start", "on_tool_error"]
    assert events[-1]["data"].get("error") is error


def test_as_tool_runs_its_runnable_as_a_child_of_the_tool_run() -> None:
    t = RunnableLambda(lookup).as_tool(name="lookup")
    events, error = asyncio.run(collect(t, {"q": "cats"}))
    assert error is None
    names = [(e["event"], e["name"]) for e in events if not e["event"].endswith("_stream")]
    assert names == [
        ("on_tool_start", "lookup"),
        ("on_chain_start", "lookup"),
        ("on_chain_end", "lookup"),
        ("on_tool_end", "lookup"),
    ]
    tool_run = events[0]["run_id"]
    child = next(e for e in events if e["event"] == "on_chain_start")
    assert child["parent_ids"] == [tool_run]
    assert child["data"] == {"input": {"q": "cats"}}
    assert events[-1]["data"] == {"output": "CATS"}


def test_sync_stream_events_and_run_name() -> None:
    names = {e["name"] for e in divide.stream_events({"a": 1, "b": 1}, {"run_name": "div"})}
    assert names == {"div"}


def test_include_types_tool_filters_tool_runs() -> None:
    chain = RunnableLambda(identity) | divide
    kinds = [e["event"] for e in chain.stream_events({"a": 2, "b": 1}, include_types=["tool"])]
    assert kinds[0] == "on_tool_start" and kinds[-1] == "on_tool_end"


def test_listeners_see_the_tool_run() -> None:
    seen: list[Any] = []

    def on_end(run: Any) -> None:
        seen.append((run.run_type, run.inputs, run.outputs))

    bound = divide.with_listeners(on_end=on_end)
    assert bound.invoke({"a": 3, "b": 1}) == 3.0
    assert seen == [("tool", {"a": 3, "b": 1}, {"output": 3.0})]


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_both_event_versions_name_tool_runs(version: Any) -> None:
    events = list(divide.stream_events({"a": 4, "b": 2}, version=version))
    assert events[0]["event"] == "on_tool_start" and events[-1]["event"] == "on_tool_end"


def test_a_tool_shows_no_stream_events_in_v2_as_root_or_inside_a_chain() -> None:
    for runnable in (divide, RunnableLambda(identity) | divide):
        events, error = asyncio.run(collect(runnable, {"a": 1, "b": 2}))
        assert error is None
        assert [e["event"] for e in tool_events(events)] == ["on_tool_start", "on_tool_end"]


def test_v1_and_the_log_keep_a_root_tool_output_as_the_peer_does() -> None:
    assert [e["event"] for e in divide.stream_events({"a": 1, "b": 2}, version="v1")] == [
        "on_tool_start", "on_tool_stream", "on_tool_end",
    ]  # fmt: skip
    ops = [op for patch in divide.stream_log({"a": 1, "b": 2}) for op in patch.ops]
    assert {"op": "add", "path": "/streamed_output/-", "value": 0.5} in ops


@pytest.mark.parametrize("sync", [True, False])
def test_a_tool_ends_before_the_next_step_starts(sync: bool) -> None:
    chain = RunnableLambda(identity) | divide | RunnableLambda(identity)
    if sync:
        events = list(chain.stream_events({"a": 1, "b": 2}))
    else:
        events, _ = asyncio.run(collect(chain, {"a": 1, "b": 2}))
    order = [(e["event"], e["name"]) for e in events if not e["event"].endswith("_stream")]
    assert order.index(("on_tool_end", "divide")) < order.index(("on_chain_start", "identity"), 2)


@pytest.mark.parametrize(
    ("given", "call_id"),
    [
        ({"a": 1, "b": 0}, None),
        ({"name": "divide", "args": {"a": 1, "b": 0}, "id": "call_3", "type": "tool_call"}, "call_3"),
    ],
    ids=["plain arguments", "a tool call"],
)
def test_on_tool_error_carries_the_tool_call_id(given: dict[str, Any], call_id: str | None) -> None:
    for runnable in (divide, RunnableLambda(identity) | divide):
        events, error = asyncio.run(collect(runnable, given))
        assert isinstance(error, ZeroDivisionError)
        failed = next(e for e in events if e["event"] == "on_tool_error")
        assert "tool_call_id" in failed["data"]
        assert failed["data"].get("tool_call_id") == call_id


def test_a_recording_keeps_the_tool_call_id() -> None:
    from effects.projections.recording import record, replay

    call = {"name": "divide", "args": {"a": 1, "b": 0}, "id": "call_4", "type": "tool_call"}

    async def lines() -> list[str]:
        effects = []
        try:
            async for effect in divide.astream_effects(call):
                effects.append(effect)
        except ZeroDivisionError:
            pass
        return list(record(effects))

    replayed = list(replay(asyncio.run(lines())))
    assert [getattr(e, "tool_call_id", None) for e in replayed][-1] == "call_4"
