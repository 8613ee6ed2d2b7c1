"""Events v2: one event per effect, the peer's shapes, our error extension, filters, nesting."""

from __future__ import annotations

from collections import Counter
from uuid import UUID

import pytest
from hypothesis import given

from effects.projections import EventFilter, EventsV2, stream_events_v2
from effects.projections.events_v2 import StreamEvent
from effects.effect_values import NOTHING, Effect, RunEnded, RunFailed, RunInfo, RunStarted, RunStreamed
from tests.unit.effects.projections.script import Script, sid, uid
from tests.unit.effects.projections.strategies import effect_trees


def two_children() -> list[Effect]:
    """A root chain with two children that stream, one of which fails, plus custom events."""
    s = Script()
    root = s.run(1, "root", tags=("t",))
    a = s.run(2, "a", parent=root, tags=("seq:step:1", "t"))
    b = s.run(3, "b", "parser", parent=root, tags=("seq:step:2", "t"))
    inner = s.run(4, "inner", "tool", parent=b)
    s.start(root, "in")
    s.start(a)
    s.stream(a, "x", "y")
    s.custom(a, "progress", 0.5)
    s.end(a, "in", "xy")
    s.start(b, "xy")
    s.start(inner, {"q": 1})
    s.fail(inner, {"q": 1}, KeyError("q"))
    s.stream(b, "X")
    s.stream(root, "X")
    s.end(b, "xy", "X")
    s.end(root, "in", "X")
    return s.effects


def summary(events: list[StreamEvent]) -> list[tuple[str, str, object]]:
    return [(e["event"], e["name"], e["data"]) for e in events]


def test_a_root_with_two_streaming_children_a_failing_grandchild_and_a_custom_event() -> None:
    events = list(stream_events_v2(two_children()))
    error = events[8]["data"]
    assert summary(events) == [
        ("on_chain_start", "root", {"input": "in"}),
        ("on_chain_start", "a", {}),
        ("on_chain_stream", "a", {"chunk": "x"}),
        ("on_chain_stream", "a", {"chunk": "y"}),
        ("on_custom_event", "progress", 0.5),
        ("on_chain_end", "a", {"output": "xy", "input": "in"}),
        ("on_parser_start", "b", {"input": "xy"}),
        ("on_tool_start", "inner", {"input": {"q": 1}}),
        ("on_tool_error", "inner", error),
        ("on_parser_stream", "b", {"chunk": "X"}),
        ("on_chain_stream", "root", {"chunk": "X"}),
        ("on_parser_end", "b", {"output": "X", "input": "xy"}),
        ("on_chain_end", "root", {"output": "X"}),
    ]
    assert isinstance(error, dict) and isinstance(error["error"], KeyError) and error["input"] == {"q": 1}
    assert events[8]["parent_ids"] == [sid(1), sid(3)]  # root first, immediate parent last
    assert all(isinstance(e["run_id"], str) for e in events)
    assert events[4]["run_id"] == sid(2)  # custom events carry the enclosing run's id


def test_every_event_gets_fresh_lists_and_dicts() -> None:
    events = list(stream_events_v2(two_children()))
    events[0]["tags"].append("mutated")
    events[0]["metadata"]["k"] = 1
    events[0]["parent_ids"].append("x")
    again = list(stream_events_v2(two_children()))
    assert again[0]["tags"] == ["t"] and again[0]["metadata"] == {} and again[0]["parent_ids"] == []
    assert events[1]["tags"] == ["seq:step:1", "t"]


def test_no_input_start_and_known_input_end() -> None:
    s = Script()
    root = s.run(1, "root")
    child = s.run(2, "child", parent=root)
    s.start(root, "raw")
    s.start(child, NOTHING)
    s.end(child, NOTHING, 1)  # never learned its input: no "input" key at all
    s.fail(root, "raw", ValueError("late"))
    events = list(stream_events_v2(s.effects))
    assert events[1]["data"] == {}
    assert events[2]["data"] == {"output": 1}
    assert events[3]["event"] == "on_chain_error" and list(events[3]["data"]) == ["error"]


@pytest.mark.parametrize(
    ("filters", "shown"),
    [
        ({}, {"root", "a", "b", "inner", "progress"}),
        ({"include_names": ["a"]}, {"a"}),
        ({"include_types": ["parser", "tool"]}, {"b", "inner"}),
        ({"include_tags": ["seq:step:2"]}, {"b"}),
        ({"include_names": ["a"], "include_types": ["tool"]}, {"a", "inner"}),  # include is an OR
        ({"include_tags": ["t"], "exclude_names": ["a"]}, {"root", "b", "progress"}),
        ({"exclude_types": ["chain"]}, {"b", "inner", "progress"}),  # the root is not exempt
        # exclude is an AND of nots; the custom event goes with the tags of its run "a"
        ({"exclude_tags": ["seq:step:1", "seq:step:2"]}, {"root", "inner"}),
        ({"include_names": []}, set()),  # a given but empty include matches nothing
        ({"include_types": ["progress"]}, {"progress"}),  # a custom event's type is its name
        ({"exclude_names": ["progress"]}, {"root", "a", "b", "inner"}),
    ],
)
def test_filters(filters: dict[str, list[str]], shown: set[str]) -> None:
    events = list(stream_events_v2(two_children(), EventFilter(**filters)))
    assert {e["name"] for e in events} == shown


def test_filter_arguments_are_checked() -> None:
    with pytest.raises(TypeError, match=r"EventFilter.include_names must be a list of str, got the single str 'a'"):
        EventFilter(include_names="a")  # a str is an iterable of str: only the runtime check catches it
    with pytest.raises(TypeError, match=r"EventFilter.exclude_tags must hold str, got int 3"):
        EventFilter(exclude_tags=[3])  # type: ignore[list-item]
    assert EventFilter(include_types=("a",)) == EventFilter(include_types=["a"])
    assert EventFilter().is_open and not EventFilter(include_tags=[]).is_open


def test_bad_effects_and_filters_are_rejected_clearly() -> None:
    with pytest.raises(TypeError, match="EventsV2.feed expects an effect value"):
        EventsV2().feed({"event": "on_chain_start"})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="EventsV2 filter must be an EventFilter, got dict"):
        EventsV2({"include_names": ["a"]})  # type: ignore[arg-type]


def test_the_fold_forgets_runs_once_they_end() -> None:
    fold = EventsV2()
    for effect in two_children():
        fold.feed(effect)
    assert fold._runs == {}  # pyright: ignore[reportPrivateUsage]  # memory is bounded by open runs


@given(effect_trees())
def test_v2_events_are_well_nested(effects: list[Effect]) -> None:
    events = list(stream_events_v2(effects))
    infos = {e.run.run_id: e.run for e in effects}
    open_runs: list[str] = []
    closed: set[str] = set()
    starts: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    for event in events:
        run_id = event["run_id"]
        info = infos[UUID(run_id)]
        # parent_ids are the run's ancestors, root first
        assert event["parent_ids"] == [str(p) for p in info.parent_ids]
        kind = event["event"]
        if kind == "on_custom_event":
            assert run_id in open_runs
            continue
        assert kind.startswith(f"on_{info.run_type}_")
        if kind.endswith("_start"):
            starts[run_id] += 1
            assert run_id not in closed
            if info.parent_ids:
                assert str(info.parent_ids[-1]) in open_runs  # children start inside their parent
            open_runs.append(run_id)
        elif kind.endswith(("_end", "_error")):
            ends[run_id] += 1
            assert run_id in open_runs
            # a run closes only after all the runs it started
            assert not any(UUID(run_id) in infos[UUID(other)].parent_ids for other in open_runs)
            open_runs.remove(run_id)
            closed.add(run_id)
            has_input = "input" in event["data"]
            assert has_input == bool(info.parent_ids)  # the root's end/error has no input
        else:
            assert run_id in open_runs
    assert open_runs == []
    assert starts == ends and set(starts.values()) == {1}  # each start closed exactly once
    assert {str(i) for i in infos} == set(starts)


def shows_stream(run: RunInfo) -> bool:
    return run.run_type != "tool" and (bool(run.parent_ids) or run.run_type in {"chain", "chat_model", "llm"})


@pytest.mark.parametrize(
    ("run_type", "streams"),
    [
        ("prompt", False),
        ("retriever", False),
        ("parser", False),
        ("tool", False),
        ("chain", True),
        ("chat_model", True),
        ("llm", True),
    ],
)
def test_a_root_streams_only_when_it_is_a_chain_or_a_model(run_type: str, streams: bool) -> None:
    # langchain-core 1.8.3, astream_events v2 of a prompt, retriever, parser or tool called
    # alone: start and end only; of a lambda or a chat model: their chunks too.
    s = Script()
    root = s.run(1, "alone", run_type)
    s.start(root, "in")
    s.stream(root, "out")
    s.end(root, "in", "out")
    kinds = [e["event"] for e in stream_events_v2(s.effects)]
    stream = [f"on_{run_type}_stream"] if streams else []
    assert kinds == [f"on_{run_type}_start", *stream, f"on_{run_type}_end"]
    # as a child, every kind but a tool streams
    s = Script()
    parent = s.run(1, "root")
    child = s.run(2, "child", run_type, parent=parent)
    s.start(parent, "in")
    s.start(child, "in")
    s.stream(child, "out")
    s.end(child, "in", "out")
    s.end(parent, "in", "out")
    shown = [e["event"] for e in stream_events_v2(s.effects) if e["run_id"] == sid(2)]
    assert (f"on_{run_type}_stream" in shown) == (run_type != "tool")


@given(effect_trees())
def test_one_event_per_effect_without_filters(effects: list[Effect]) -> None:
    events = list(stream_events_v2(effects))
    # every effect gives one event, except the chunks the peer shows none of: a tool
    # run's, and a root's that is not a chain or a model
    effects = [e for e in effects if not (isinstance(e, RunStreamed) and not shows_stream(e.run))]
    assert len(events) == len(effects)
    for effect, event in zip(effects, events, strict=True):
        if isinstance(effect, RunStarted):
            assert event["event"].endswith("_start")
        if isinstance(effect, RunEnded):
            assert event["data"]["output"] is effect.output
        if isinstance(effect, RunFailed):
            assert event["data"]["error"] is effect.error
    assert uid(1) == effects[0].run.run_id


@pytest.mark.parametrize("run_type", ["chain", "chat_model", "llm"])
def test_a_root_whose_whole_output_came_after_it_ran_shows_no_stream(run_type: str) -> None:
    # langchain-core 1.8.3 taps a root's output only while its run is live: a model
    # without a token stream, called alone, shows its start and end only (issue 26).
    run = RunInfo(uid(1), (), "alone", run_type, (), {}, whole_output=True)
    effects: list[Effect] = [RunStarted(run, "in", 0.0), RunStreamed(run, "out", 0.1), RunEnded(run, "in", "out", 0.2)]
    assert [e["event"] for e in stream_events_v2(effects)] == [f"on_{run_type}_start", f"on_{run_type}_end"]
    # the same effects without the mark show the chunk
    plain = RunInfo(uid(1), (), "alone", run_type, (), {})
    effects = [RunStarted(plain, "in", 0.0), RunStreamed(plain, "out", 0.1), RunEnded(plain, "in", "out", 0.2)]
    assert [e["event"] for e in stream_events_v2(effects)][1] == f"on_{run_type}_stream"
