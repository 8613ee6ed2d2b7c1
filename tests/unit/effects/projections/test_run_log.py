"""RunLogPatch / RunLog values and the run-log fold."""

from __future__ import annotations

import copy
import functools
import json
import operator

import jsonpatch
import pytest
from hypothesis import given
from hypothesis import strategies as st

from effects.projections import (
    EventFilter,
    RunLog,
    RunLogPatch,
    RunLogPatches,
    RunLogStates,
    apply_ops,
    run_log_patches,
    run_logs,
    to_jsonable,
)
from effects.projections.jsonable import JsonValue
from effects.projections.shapes import add_chunk
from effects.effect_values import Effect
from tests.unit.effects.projections.script import Piece, Script, sid
from tests.unit.effects.projections.strategies import effect_trees

ROOT = {"op": "replace", "path": "", "value": {"a": 1}}


def test_patches_add_up_to_a_log_built_from_none() -> None:
    first, second = RunLogPatch(ROOT), RunLogPatch({"op": "add", "path": "/b", "value": [1]})
    log = first + second
    assert isinstance(log, RunLog)
    assert log.state == {"a": 1, "b": [1]}
    assert log.ops == (ROOT, {"op": "add", "path": "/b", "value": [1]})
    assert (log + RunLogPatch({"op": "add", "path": "/b/-", "value": 2})).state == {"a": 1, "b": [1, 2]}
    assert log.state == {"a": 1, "b": [1]}  # adding never changes the log it started from


def test_equality_hash_and_repr() -> None:
    assert RunLogPatch(ROOT) == RunLogPatch(copy.deepcopy(ROOT))
    assert RunLogPatch(ROOT) != RunLogPatch()
    with pytest.raises(TypeError):
        hash(RunLogPatch(ROOT))
    assert repr(RunLogPatch(ROOT, {"op": "remove", "path": "/a"})) == (
        "RunLogPatch({'op': 'replace', 'path': '', 'value': {'a': 1}},\n {'op': 'remove', 'path': '/a'})"
    )
    same_state = RunLog(state={"a": 1})
    assert same_state != RunLog(ROOT, state={"a": 1})  # equal states, different ops
    assert RunLog(ROOT, state={"a": 1}) == RunLog(ROOT, state={"a": 1})
    assert RunLog(state={"a": 1}) != RunLog(state={"a": 2})
    assert repr(RunLog(state={"a": 1})) == "RunLog({'a': 1})"
    assert RunLog(state=None) != RunLogPatch()


def test_adding_anything_else_is_a_type_error() -> None:
    log = RunLog(state=None)
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+: 'RunLog' and 'RunLog'"):
        log + log  # type: ignore[operator]
    with pytest.raises(TypeError, match="'RunLogPatch' and 'int'"):
        RunLogPatch() + 1  # type: ignore[operator]
    with pytest.raises(TypeError):
        RunLogPatch() + log  # type: ignore[operator]


@pytest.mark.parametrize(
    ("op", "message"),
    [
        ("add", "RunLogPatch op #0 must be a dict like"),
        ({"op": "append", "path": "/a"}, "RunLogPatch op #0 has op 'append'; expected one of add, remove"),
        ({"op": "add", "value": 1}, r"RunLogPatch op #0 \(add\) needs a str 'path' JSON pointer"),
        ({"op": "move", "path": "/a"}, r"RunLogPatch op #0 \(move\) needs a str 'from' JSON pointer"),
        ({"op": "replace", "path": "/a"}, r"RunLogPatch op #0 \(replace\) needs a 'value'"),
    ],
)
def test_malformed_ops_are_rejected(op: object, message: str) -> None:
    with pytest.raises((TypeError, ValueError), match=message):
        RunLogPatch(op)  # type: ignore[arg-type]


def test_op_values_are_kept_and_only_the_json_form_is_json() -> None:
    patch = RunLogPatch({"op": "add", "path": "/p", "value": Piece("a")})
    assert patch.ops[0]["value"] == Piece("a")
    assert to_jsonable(patch) == {
        "type": "RunLogPatch",
        "ops": [{"op": "add", "path": "/p", "value": {"type": "Piece", "text": "a"}}],
    }


def test_apply_ops_copies_only_the_touched_path() -> None:
    state: JsonValue = {"logs": {"a": {"streamed_output": [1]}, "b": {"x": [0]}}, "final_output": None}
    ops: list[dict[str, JsonValue]] = [
        {"op": "add", "path": "/logs/a/streamed_output/-", "value": {"k": [2]}},
        {"op": "add", "path": "/logs/a/streamed_output/1/k/-", "value": 3},
        {"op": "move", "from": "/logs/b/x", "path": "/final_output"},
    ]
    frozen_ops = copy.deepcopy(ops)
    before = copy.deepcopy(state)
    after = apply_ops(state, ops)
    assert state == before and ops == frozen_ops  # neither the state nor the ops change
    assert after == {"logs": {"a": {"streamed_output": [1, {"k": [2, 3]}]}, "b": {}}, "final_output": [0]}
    assert after == jsonpatch.apply_patch(before, frozen_ops)


def test_apply_ops_reports_bad_paths() -> None:
    with pytest.raises(ValueError, match="cannot apply .* to the run log: member 'missing' not found"):
        apply_ops({"a": 1}, [{"op": "remove", "path": "/missing/x"}])
    with pytest.raises(ValueError, match="cannot apply"):
        RunLog(state={"a": 1}) + RunLogPatch({"op": "test", "path": "/a", "value": 2})


def test_root_dict_chunks_diff_field_by_field_objects_replace_whole_and_failed_adds_start_over() -> None:
    s = Script()
    root = s.run(1, "root")
    s.start(root, 0)
    s.stream(root, {"a": [1]})  # first: replaces final_output
    s.stream(root, {"b": 2})  # dicts do not add: starts over, a whole replace
    s.stream(root, Piece("x"))
    s.stream(root, Piece("y"))  # Pieces add: the total replaced whole, as the peer does
    s.end(root, 0, Piece("xy"))
    diff_ops = [[op for op in p.ops if str(op["path"]).startswith("/final_output")] for p in run_log_patches(s.effects)]
    assert diff_ops[1:] == [
        [{"op": "replace", "path": "/final_output", "value": {"a": [1]}}],
        [{"op": "replace", "path": "/final_output", "value": {"b": 2}}],
        [{"op": "replace", "path": "/final_output", "value": Piece("x")}],
        [{"op": "replace", "path": "/final_output", "value": Piece("xy")}],
    ]


class Rotating(list[int]):
    """A list that adds up by rotating its items, so a final_output diff needs a ``move``."""

    def __add__(self, other: object) -> Rotating:  # type: ignore[override]
        return Rotating(self[-1:] + self[:-1])


def test_move_ops_in_final_output_get_their_from_prefixed() -> None:
    s = Script()
    root = s.run(1, "root")
    s.start(root, 0)
    s.stream(root, Rotating((1, 2, 3, 4, 5)), Rotating(()))
    s.end(root, 0, Rotating((5, 1, 2, 3, 4)))
    patches = list(run_log_patches(s.effects))
    moves = [op for op in patches[-1].ops if op["op"] == "move"]
    assert moves and all(str(op["from"]).startswith("/final_output/") for op in moves)
    state = functools.reduce(operator.add, patches[1:], RunLog.of_json((), None) + patches[0]).state
    assert isinstance(state, dict) and state["final_output"] == [5, 1, 2, 3, 4]


def test_sub_run_entries_keys_times_and_escaping() -> None:
    s = Script()
    root = s.run(1, "root")
    slash = s.run(2, "a/b", parent=root, tags=("t",), metadata={"k": Piece("m")})
    tilde = s.run(3, "a~b", parent=root)
    s.start(root, 0)
    s.start(slash)
    s.start(tilde)
    s.end(slash, 1, {"k": 1})
    s.fail(tilde, 1, ValueError("no"))
    s.end(root, 0, None)
    patches = list(run_log_patches(s.effects))
    assert [op["path"] for p in patches for op in p.ops] == [
        "",
        "/logs/a~1b",
        "/logs/a~0b",
        "/logs/a~1b/final_output",
        "/logs/a~1b/end_time",
        "/logs/a~0b/final_output",
        "/logs/a~0b/end_time",
    ]
    entry = patches[1].ops[0]["value"]
    assert isinstance(entry, dict)
    assert entry["start_time"] == "2025-11-29T14:16:57.196+00:00"
    assert entry["metadata"] == {"k": Piece("m")}
    state = list(run_logs(s.effects))[-1].state
    assert isinstance(state, dict) and isinstance(state["logs"], dict)
    assert list(state["logs"]) == ["a/b", "a~b"]
    assert state["logs"]["a~b"] == {
        "id": sid(3),
        "name": "a~b",
        "type": "chain",
        "tags": [],
        "metadata": {},
        "start_time": "2025-11-29T14:16:57.197+00:00",
        "streamed_output": [],
        "streamed_output_str": [],
        "final_output": {},
        "end_time": "2025-11-29T14:16:57.199+00:00",
    }


def test_hidden_and_unknown_runs_add_nothing() -> None:
    s = Script()
    root = s.run(1, "root")
    hidden = s.run(2, "hidden", parent=root)
    stranger = s.run(9, "stranger", parent=root)
    s.start(root, 0)
    s.start(hidden)
    s.stream(hidden, 1)
    s.stream(stranger, 1)  # never started: ignored
    s.end(hidden, 0, 1)
    s.custom(root, "progress", 1)
    s.end(root, 0, None)
    patches = list(run_log_patches(s.effects, EventFilter(exclude_names=["hidden"])))
    assert len(patches) == 1


def test_bad_times_and_bad_input_are_reported() -> None:
    s = Script()
    root = s.run(1, "root")
    child = s.run(2, "child", parent=root)
    fold = RunLogPatches()
    fold.feed(s.start(root, 0))
    from effects.effect_values import RunStarted

    with pytest.raises(ValueError, match=r"effect time must be seconds since the epoch, got 1e\+300"):
        fold.feed(RunStarted(child, 0, 1e300))
    with pytest.raises(TypeError, match="RunLogPatches.feed expects an effect value"):
        fold.feed(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="RunLogPatches filter must be an EventFilter"):
        RunLogPatches("x")  # type: ignore[arg-type]


def test_diff_false_yields_the_accumulated_log_after_every_patch() -> None:
    s = Script()
    root = s.run(1, "root")
    s.start(root, 0)
    s.stream(root, "a", "b")
    s.end(root, 0, "ab")
    logs = list(run_logs(s.effects))
    assert [log.state["final_output"] for log in logs] == [None, "a", "ab"]  # type: ignore[call-overload, index]
    assert [len(log.ops) for log in logs] == [1, 3, 5]


def _all_ops(patches: list[RunLogPatch]) -> list[dict[str, JsonValue]]:
    return [op for patch in patches for op in patch.ops]


@given(effect_trees())
def test_applying_all_patches_gives_the_final_run_log(effects: list[Effect]) -> None:
    patches = list(run_log_patches(effects))
    logs = list(run_logs(effects))
    assert len(logs) == len(patches)
    summed = functools.reduce(operator.add, patches[1:], RunLog(state=None) + patches[0])
    assert summed == logs[-1]
    plain = jsonpatch.apply_patch(None, copy.deepcopy(_all_ops(patches)))
    assert to_jsonable(plain) == to_jsonable(logs[-1].state)
    json.dumps(to_jsonable(_all_ops(patches)), allow_nan=False)  # their JSON form is plain JSON
    for log, patch in zip(logs, patches):
        assert log.ops[-len(patch.ops) :] == patch.ops if patch.ops else True


@given(effect_trees())
def test_consumers_mutating_patches_do_not_change_later_patches(effects: list[Effect]) -> None:
    expected = [p.ops for p in run_log_patches(effects)]
    fold, seen = RunLogPatches(), []
    for effect in effects:
        for patch in fold.feed(effect):
            seen.append(copy.deepcopy(patch.ops))
            for op in patch.ops:  # a careless consumer scribbles on what it got
                value = op.get("value")
                if isinstance(value, dict):
                    value["scribble"] = True
                elif isinstance(value, list):
                    value.append("scribble")
    assert to_jsonable([tuple(ops) for ops in seen]) == to_jsonable(expected)


@given(effect_trees())
def test_root_is_always_in_the_state_and_filters_only_choose_logs(effects: list[Effect]) -> None:
    state = list(run_logs(effects, EventFilter(include_names=["no-such-run"])))[-1].state
    assert isinstance(state, dict)
    assert state["logs"] == {} and state["id"] == str(effects[0].run.run_id)
    unfiltered = list(run_logs(effects))[-1].state
    assert isinstance(unfiltered, dict)
    assert to_jsonable(state["final_output"]) == to_jsonable(unfiltered["final_output"])
    assert to_jsonable(state["streamed_output"]) == to_jsonable(unfiltered["streamed_output"])


def test_states_fold_rejects_bad_input() -> None:
    with pytest.raises(TypeError, match="expects an effect value"):
        RunLogStates().feed("x")  # type: ignore[arg-type]


@given(
    st.lists(
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-3, 3),
            st.floats(-2, 2, width=16),
            st.text(max_size=2),
            st.lists(st.integers(0, 2), max_size=2),
        ),
        max_size=6,
    )
)
def test_root_final_output_ops_are_jsonpatch_diffs(chunks: list[object]) -> None:
    s = Script()
    root = s.run(1, "root")
    s.start(root, 0)
    s.stream(root, *chunks)
    patches = list(run_log_patches(s.effects, with_streamed_output_list=False))[1:]
    total: object = None
    previous: object = None
    for chunk, patch in zip(chunks, patches):
        total, added = add_chunk(total, chunk)
        expected = [
            {**op, "path": "/final_output" + str(op["path"])}
            for op in jsonpatch.JsonPatch.from_diff(previous if added else None, total).patch
        ]
        assert list(patch.ops) == expected
        previous = total
