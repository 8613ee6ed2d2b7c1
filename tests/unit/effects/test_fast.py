"""effects._fast: every value built by writing slots equals the plain constructor's.

The hot paths build run ids, effects and run-id'd messages slot by slot; these
properties hold each builder to the value the public constructor makes, and the last
tests keep slot writing in that one module with its import-time checks.
"""

from __future__ import annotations

import ast
import pathlib
import pickle
from typing import Any
from uuid import UUID

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators.components.messages.message_classes import AIMessage, AIMessageChunk
from combinators.components.models.chat_model import _with_id  # pyright: ignore[reportPrivateUsage]
from effects import RunInfo
from effects._fast import allow_slot_copy, field_setter, slot_setters, uuid_from_int
from effects._runtime.building import ended, run_info, started, streamed
from effects.effect_values import RunEnded, RunStarted, RunStreamed

ROOT = pathlib.Path(__file__).resolve().parents[3]

uuids = st.integers(min_value=0, max_value=(1 << 128) - 1).map(lambda bits: UUID(int=bits))
names = st.text(max_size=8)
jsonish = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)
mappings = st.dictionaries(st.text(max_size=4), jsonish, max_size=3)
runs = st.builds(
    RunInfo,
    uuids,
    st.lists(uuids, max_size=3).map(tuple),
    names,
    st.sampled_from(["chain", "llm", "chat_model", "tool", "prompt"]),
    st.lists(names, max_size=3).map(tuple),
    mappings,
    mappings,
)
times = st.floats(allow_nan=False)


def same(fast: object, plain: object) -> None:
    assert type(fast) is type(plain)
    assert fast == plain
    assert repr(fast) == repr(plain)


@given(st.integers(min_value=0, max_value=(1 << 128) - 1))
def test_uuid_from_int_is_uuid_of_int(bits: int) -> None:
    fast, plain = uuid_from_int(bits), UUID(int=bits)
    same(fast, plain)
    assert (str(fast), fast.version, fast.variant, fast.is_safe) == (
        str(plain),
        plain.version,
        plain.variant,
        plain.is_safe,
    )
    assert pickle.loads(pickle.dumps(fast)) == plain


@given(
    uuids,
    st.lists(uuids, max_size=3).map(tuple),
    names,
    names,
    st.lists(names, max_size=3).map(tuple),
    mappings,
    mappings,
)
def test_run_info_is_the_constructors(
    run_id: UUID,
    parents: tuple[UUID, ...],
    name: str,
    run_type: str,
    tags: tuple[str, ...],
    metadata: dict[str, Any],
    params: dict[str, Any],
) -> None:
    same(
        run_info(run_id, parents, name, run_type, tags, metadata, params),
        RunInfo(run_id, parents, name, run_type, tags, metadata, params),
    )


@given(runs, jsonish, jsonish, times)
def test_effects_are_the_constructors(run: RunInfo, input: object, output: object, at: float) -> None:
    same(started(run, input, at), RunStarted(run, input, at))
    same(ended(run, input, output, at), RunEnded(run, input, output, at))
    same(streamed(run, output, at), RunStreamed(run, output, at))


tool_calls = st.lists(st.fixed_dictionaries({"name": names, "args": mappings, "id": st.none() | names}), max_size=2)


@given(
    st.sampled_from([AIMessage, AIMessageChunk]),
    st.text(max_size=10),
    st.none() | names,
    mappings,
    tool_calls,
    st.none() | names,
)
def test_a_message_given_its_run_id_is_the_evolved_message(
    kind: type[AIMessage],
    content: str,
    name: str | None,
    metadata: dict[str, Any],
    calls: list[dict[str, Any]],
    message_id: str | None,
) -> None:
    extra: dict[str, Any] = {"tool_calls": calls} if kind is AIMessage else {}  # a chunk has tool_call_chunks
    message = kind(content, name=name, response_metadata=metadata, **extra)
    fast = _with_id(message, message_id)
    same(fast, attrs.evolve(message, id=message_id) if message_id is not None else message)
    assert message.id is None  # the original is untouched
    owned = attrs.evolve(message, id="provider's")
    assert _with_id(owned, message_id) is owned  # a provider's id is kept


def test_a_changed_class_fails_the_import_with_its_name() -> None:
    @attrs.frozen
    class Checked:
        size: int = attrs.field(validator=attrs.validators.instance_of(int))

    @attrs.frozen
    class Pair:
        left: int
        right: int

    with pytest.raises(ImportError, match="Checked converts or validates a field now: update the test"):
        slot_setters(Checked, ("size",), "the test")
    with pytest.raises(ImportError, match="Checked converts or validates a field now: update the test"):
        field_setter(Checked, "size", "the test")
    with pytest.raises(ImportError, match=r"Pair's fields are \('left', 'right'\), not \('right', 'left'\)"):
        slot_setters(Pair, ("right", "left"), "the test")
    with pytest.raises(ImportError, match="Pair has no field 'middle': update the test"):
        field_setter(Pair, "middle", "the test")

    @attrs.define(slots=False, frozen=True)
    class Open:
        x: int

    with pytest.raises(ImportError, match=r"Open\.x is not a slot: update the test"):
        allow_slot_copy(Open, "the test")


def test_only_effects_fast_writes_slots_through_their_descriptors() -> None:
    # A slot's __set__/__get__ taken and called elsewhere would be an unchecked copy
    # of the speed-up: every one lives in effects/_fast.py.
    writers: set[str] = set()
    for package in ("combinators", "effects"):
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            if any(isinstance(node, ast.Attribute) and node.attr in {"__set__", "__get__"} for node in ast.walk(tree)):
                writers.add(path.relative_to(ROOT).as_posix())
    assert writers == {"effects/_fast.py"}


ops_lists = st.lists(
    st.builds(lambda key, value: {"op": "add", "path": "/" + key, "value": value}, st.text("ab", max_size=3), jsonish),
    max_size=4,
)


@given(ops_lists, jsonish, st.integers(min_value=2, max_value=5), st.none() | names)
def test_values_built_past_their_init_equal_the_checked_constructors(
    ops: list[dict[str, object]], state: object, length: int, label: str | None
) -> None:
    # attrs_built (a sequence joined by |, a configurable's rebuilt value) and the slot
    # setters of the run log's own patches and logs, against the public constructors.
    from combinators import RunnableLambda, RunnableSequence
    from combinators.nodes.configurable_fields import rebuilt
    from combinators.nodes.sequence import _built  # pyright: ignore[reportPrivateUsage]
    from effects.projections.run_log import RunLog, RunLogPatch

    steps = tuple(RunnableLambda(abs, name=f"s{i}") for i in range(length))
    fast_sequence, plain_sequence = _built(steps, label), RunnableSequence(*steps, name=label)
    assert type(fast_sequence) is RunnableSequence
    assert (fast_sequence.parts, fast_sequence.label) == (plain_sequence.parts, plain_sequence.label)
    assert repr(fast_sequence) == repr(plain_sequence)
    assert (fast_sequence | steps[0]).parts == (plain_sequence | steps[0]).parts
    assert rebuilt(plain_sequence, {"label": label}).parts == plain_sequence.parts

    same(RunLogPatch.of_json_ops(ops), RunLogPatch(*ops))
    same(RunLog.of_json(tuple(ops), state), RunLog(*ops, state=state))  # type: ignore[arg-type]


def test_only_effects_fast_builds_values_past_their_constructors() -> None:
    # object.__new__ elsewhere would be an unchecked copy of attrs_built or NEW.
    builders: set[str] = set()
    for package in ("combinators", "effects"):
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and node.attr == "__new__" and isinstance(node.value, ast.Name):
                    if node.value.id == "object":
                        builders.add(path.relative_to(ROOT).as_posix())
    assert builders == {"effects/_fast.py"}
