"""Events v1: the v2 stream with the peer's v1 differences."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given

from effects.projections import EventFilter, EventsV1, stream_events_v1, stream_events_v2
from effects.effect_values import NOTHING, CustomEmitted, Effect, RunFailed
from tests.unit.effects.projections.script import Message, Script
from tests.unit.effects.projections.strategies import effect_trees


@attrs.frozen
class GenerationChunk:
    text: str


def test_v1_drops_parent_ids_and_custom_events() -> None:
    s = Script()
    root = s.run(1, "root")
    child = s.run(2, "child", parent=root)
    s.start(root, "q")
    s.start(child, "q")
    s.custom(child, "progress", 1)
    s.end(child, "q", "Q")
    s.end(root, "q", "Q")
    events = list(stream_events_v1(s.effects))
    assert [e["event"] for e in events] == ["on_chain_start", "on_chain_start", "on_chain_end", "on_chain_end"]
    assert all(e["parent_ids"] == [] for e in events)
    assert events[1]["data"] == {"input": "q"}
    assert events[3]["data"] == {"output": None}  # the root streamed nothing


def test_root_end_shows_the_streamed_total() -> None:
    s = Script()
    root = s.run(1, "root")
    s.start(root, "q")
    s.stream(root, "a", "b")
    s.end(root, "q", "ab")
    assert list(stream_events_v1(s.effects))[-1]["data"] == {"output": "ab"}


def test_model_chunks_llm_token_text_and_chat_generation_kinds() -> None:
    s = Script()
    root = s.run(1, "root")
    llm = s.run(2, "llm", "llm", parent=root)
    streamed_chat = s.run(3, "chat", "chat_model", parent=root)
    invoked_chat = s.run(4, "chat", "chat_model", parent=root)
    s.start(root, "q")
    s.start(llm, NOTHING)
    s.stream(llm, GenerationChunk("to"), Message("ken"))
    s.end(llm, NOTHING, "token")
    s.start(streamed_chat, {"messages": [["q"]]})
    s.stream(streamed_chat, Message("hi"))
    s.end(streamed_chat, {"messages": [["q"]]}, Message("hi"))
    s.start(invoked_chat, {"messages": [["q"]]})
    s.end(invoked_chat, {"messages": [["q"]]}, Message("yo"))
    s.end(root, "q", None)
    events = list(stream_events_v1(s.effects))
    assert [e["data"] for e in events[1:5]] == [
        {},
        {"chunk": "to"},
        {"chunk": "ken"},
        {
            "output": {
                "generations": [[{"text": "token", "generation_info": None, "type": "Generation"}]],
                "llm_output": None,
                "run": None,
                "type": "LLMResult",
            }
        },
    ]
    streamed_end, invoked_end = events[7]["data"], events[9]["data"]
    assert streamed_end["output"]["generations"][0][0]["type"] == "ChatGenerationChunk"  # type: ignore[index]
    assert invoked_end["output"]["generations"][0][0] == {  # type: ignore[index]
        "text": "yo",
        "generation_info": None,
        "type": "ChatGeneration",
        "message": Message("yo"),
    }
    assert events[6]["data"] == {"chunk": Message("hi")}  # chat models stream the message chunk


def test_root_failure_shows_nothing_and_sub_run_failure_ends() -> None:
    s = Script()
    root = s.run(1, "root")
    child = s.run(2, "child", "parser", parent=root)
    s.start(root, "q")
    s.start(child)
    s.fail(child, NOTHING, ValueError("x"))
    s.fail(root, "q", ValueError("x"))
    events = list(stream_events_v1(s.effects))
    assert [(e["event"], e["data"]) for e in events] == [
        ("on_chain_start", {"input": "q"}),
        ("on_parser_start", {}),
        ("on_parser_end", {"output": None}),
    ]


def test_filters_hide_runs_the_root_included() -> None:
    s = Script()
    root = s.run(1, "root")
    child = s.run(2, "child", "tool", parent=root, tags=("keep",))
    s.start(root, "q")
    s.start(child, "q")
    s.end(child, "q", 1)
    s.stream(root, 1)
    s.end(root, "q", 1)
    assert [e["name"] for e in stream_events_v1(s.effects, EventFilter(include_tags=["keep"]))] == ["child", "child"]
    assert [e["event"] for e in stream_events_v1(s.effects, EventFilter(exclude_types=["tool"]))] == [
        "on_chain_start",
        "on_chain_stream",
        "on_chain_end",
    ]


def test_bad_input_is_rejected() -> None:
    with pytest.raises(TypeError, match="EventsV1.feed expects an effect value"):
        EventsV1().feed(object())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="EventsV1 filter must be an EventFilter"):
        EventsV1(None)  # type: ignore[arg-type]


@given(effect_trees())
def test_v1_follows_v2_run_by_run(effects: list[Effect]) -> None:
    """Same runs, same order; v2 errors are v1 ends (none for the root); no custom events."""
    v2 = [
        (e["event"].replace("_error", "_end"), e["run_id"])
        for e in stream_events_v2(effects)
        if e["event"] != "on_custom_event" and not (e["event"].endswith("_error") and not e["parent_ids"])
    ]
    # v2 shows no stream events for tool runs, nor for a root that is not a chain or a
    # model (as the peer's v2); v1, built on the log, does.
    root_streams = {"on_chain_stream", "on_chat_model_stream", "on_llm_stream"}
    v1 = [
        (e["event"], e["run_id"])
        for e in stream_events_v1(effects)
        if e["event"] != "on_tool_stream"
        and not (
            e["event"].endswith("_stream")
            and e["run_id"] == str(effects[0].run.run_id)
            and e["event"] not in root_streams
        )
    ]
    assert v1 == v2
    fold = EventsV1()
    for effect in effects:
        out = fold.feed(effect)
        if isinstance(effect, CustomEmitted) or (isinstance(effect, RunFailed) and not effect.run.parent_ids):
            assert out == []
        else:
            assert len(out) == 1
    assert fold._runs == {}  # pyright: ignore[reportPrivateUsage]  # memory is bounded by open runs
