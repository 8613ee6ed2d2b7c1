"""Recordings: one JSON line per effect; replays project exactly like the live effects."""

from __future__ import annotations

import json

import pytest
from hypothesis import given

from effects.projections import (
    RecordedError,
    Recorder,
    Replayed,
    record,
    replay,
    run_log_patches,
    run_logs,
    stream_events_v1,
    stream_events_v2,
    to_jsonable,
)
from effects.projections.jsonable import JsonValue
from uuid import UUID

from effects.effect_values import NOTHING, Effect, RunEnded, RunFailed, RunInfo, RunStarted, RunStreamed
from tests.unit.effects.projections.script import Message, Piece, Script, sid
from tests.unit.effects.projections.strategies import SECRET_TEXT, effect_trees


def lines_of(effects: list[Effect]) -> list[dict[str, JsonValue]]:
    return [json.loads(line) for line in record(effects)]


def test_line_format() -> None:
    s = Script()
    root = s.run(1, "root", tags=("t",), metadata={"m": Piece("x")})
    child = s.run(2, "model", "chat_model", parent=root)
    s.start(root, {"q": 1})
    s.start(child)
    s.stream(child, Message("hi"))
    s.custom(child, "progress", (1, 2))
    s.fail(child, NOTHING, KeyError("k"))
    s.end(root, {"q": 1}, None)
    lines = lines_of(s.effects)
    assert lines[0] == {
        "kind": "start",
        "at": s.effects[0].at,
        "run": {
            "id": sid(1),
            "parent_ids": [],
            "name": "root",
            "type": "chain",
            "tags": ["t"],
            "metadata": {"m": {"type": "Piece", "text": "x"}},
        },
        "input": {"json": {"q": 1}},
    }
    assert lines[1]["input"] == {"no_input": True}
    assert lines[2]["chunk"] == {"json": {"type": "Message", "content": "hi", "id": None}, "text": "hi", "dict": False}
    assert (lines[3]["name"], lines[3]["data"]) == ("progress", {"json": [1, 2], "text": "[1, 2]", "dict": False})
    assert lines[4]["kind"] == "error"
    assert lines[4]["error"] == {"type": "error", "error_type": "KeyError", "message": "'k'"}
    assert (lines[5]["kind"], lines[5]["output"]) == ("end", {"json": None})
    assert all(line.endswith("\n") and line.count("\n") == 1 for line in record(s.effects))


def test_plain_effects_replay_to_equal_effects() -> None:
    s = Script()
    root = s.run(1, "root", tags=("a",), metadata={"k": [1]})
    child = s.run(2, "child", "tool", parent=root)
    s.start(root, "q")
    s.start(child, NOTHING)
    s.stream(child, {"x": 1})
    s.end(child, {"x": 0}, {"x": 1})
    s.stream(root, "Q")
    s.end(root, "q", "Q")
    replayed = list(replay(record(s.effects)))
    assert replayed == s.effects
    assert replayed[0].run is replayed[-1].run  # one RunInfo per run, as live


def test_errors_replay_as_recorded_errors() -> None:
    s = Script()
    root = s.run(1, "root")
    s.start(root, 1)
    s.fail(root, 1, ZeroDivisionError("division by zero"))
    failed = list(replay(record(s.effects)))[-1]
    assert isinstance(failed, RunFailed) and isinstance(failed.error, RecordedError)
    assert (failed.error.error_type, str(failed.error)) == ("ZeroDivisionError", "division by zero")
    assert to_jsonable(failed.error) == to_jsonable(ZeroDivisionError("division by zero"))


def test_objects_replay_with_the_facts_projections_need() -> None:
    s = Script()
    root = s.run(1, "root")
    s.start(root, Message("in"))
    s.stream(root, Piece("a"), Piece("b"), "c", Piece("d"))
    s.end(root, Message("in"), Piece("d"))
    started, first, second, third, fourth, _ = list(replay(record(s.effects)))
    assert isinstance(started, RunStarted) and started.input == Replayed(
        {"type": "Message", "content": "in", "id": None}, "in", False
    )
    assert isinstance(first, RunStreamed) and first.chunk == Replayed({"type": "Piece", "text": "a"}, "a", False)
    assert isinstance(second, RunStreamed) and second.chunk == Replayed(
        {"type": "Piece", "text": "b"}, "b", False, added=True, total={"type": "Piece", "text": "ab"}
    )
    assert isinstance(third, RunStreamed) and isinstance(third.chunk, Replayed) and third.chunk.added is False
    assert isinstance(fourth, RunStreamed) and isinstance(fourth.chunk, Replayed) and fourth.chunk.added is False
    live = to_jsonable([p.ops for p in run_log_patches(s.effects)])
    assert to_jsonable([p.ops for p in run_log_patches(replay(record(s.effects)))]) == live


def test_a_none_chunk_that_resets_an_object_total_replays_as_none() -> None:
    s = Script()
    root = s.run(1, "root")
    s.start(root, None)
    s.stream(root, Piece(""), None, "")
    s.end(root, None, "")
    lines = list(record(s.effects))
    assert json.loads(lines[2])["chunk"] == {"json": None}
    replayed = list(replay(lines))
    assert list(record(replayed)) == lines
    assert to_jsonable([p.ops for p in run_log_patches(replayed)]) == to_jsonable(
        [p.ops for p in run_log_patches(s.effects)]
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{oops", "recording line 2 is not JSON"),
        ("[1]", "recording line 2 must be a JSON object"),
        ('{"kind": "start"}', "recording line 2: missing 'at'"),
        ('{"kind": "start", "at": "now"}', "recording line 2: 'at' must be a number, got str"),
        ('{"kind": "start", "at": 1, "run": {"id": "x"}}', "recording line 2: 'x' is not a run id"),
        (
            '{"kind": "start", "at": 1, "run": {"id": "00000000-0000-0000-0000-000000000001"}}',
            "recording line 2: 'metadata' must be an object",
        ),
        (
            '{"kind": "stream", "at": 1, "run": {"id": "00000000-0000-0000-0000-000000000001", "parent_ids": [], "name": "r", "type": "chain", "tags": [], "metadata": {}}, "chunk": 3}',
            "recording line 2: 'chunk' must be a payload object",
        ),
    ],
)
def test_bad_lines_name_the_line_and_the_field(line: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        list(replay(["", line]))  # blank lines are skipped but still counted


def test_recorder_rejects_non_effects_and_non_finite_times() -> None:
    with pytest.raises(TypeError, match="Recorder.feed expects an effect value"):
        Recorder().feed(1)  # type: ignore[arg-type]
    s = Script()
    with pytest.raises(ValueError, match="effect time must be a finite number of seconds, got nan"):
        Recorder().feed(RunStarted(s.run(1, "r"), 0, float("nan")))


def _projections(effects: list[Effect]) -> tuple[JsonValue, JsonValue, JsonValue, JsonValue]:
    # The log's states after every patch: a replay patches an object total it only knows
    # as JSON (a dict, say) whole, where the live run may diff it, to the same state.
    return (
        to_jsonable(list(stream_events_v2(effects))),
        to_jsonable(list(stream_events_v1(effects))),
        to_jsonable([log.state for log in run_logs(effects)]),
        to_jsonable(list(run_logs(effects))[-1].state),
    )


@given(effect_trees())
def test_replayed_effects_project_like_the_live_ones(effects: list[Effect]) -> None:
    lines = list(record(effects))
    replayed = list(replay(lines))
    assert _projections(replayed) == _projections(effects)
    assert list(record(replayed)) == lines  # recording a replay gives the same lines
    assert SECRET_TEXT not in "".join(lines)


def test_a_root_s_whole_output_mark_is_recorded_and_replayed() -> None:
    root = RunInfo(UUID(int=1), (), "alone", "chat_model", (), {}, whole_output=True)
    effects: list[Effect] = [
        RunStarted(root, "in", 0.0),
        RunStreamed(root, "out", 0.1),
        RunEnded(root, "in", "out", 0.2),
    ]
    lines = lines_of(effects)
    assert [line["run"].get("whole_output") for line in lines] == [True, True, True]  # type: ignore[union-attr]
    replayed = list(replay(record(effects)))
    assert replayed == effects and replayed[1].run.whole_output
    assert [e["event"] for e in stream_events_v2(replayed)] == ["on_chat_model_start", "on_chat_model_end"]
    # unmarked runs keep the short form
    plain = RunInfo(UUID(int=2), (), "alone", "chain", (), {})
    assert "whole_output" not in lines_of([RunStarted(plain, "in", 0.0)])[0]["run"]  # type: ignore[operator]
