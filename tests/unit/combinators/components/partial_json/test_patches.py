"""Diff mode of the JSON parser: the operations of the changed suffix, the same as a
whole-value diff, in work proportional to the stream."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonpatch
import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators.output_parsers import JsonOutputParser
from combinators.components.partial_json import patches
from combinators.components.partial_json.patches import changes, json_copy, value_of
from combinators.components.partial_json.reader import PartialJsonReader, json_diff
from tests.unit.combinators.components.partial_json.test_reader import _cuts, json_texts  # pyright: ignore[reportPrivateUsage]

# Texts that are not a clean prefix of JSON: repeated keys, errors, extra closers, fences.
awkward_texts = st.sampled_from(
    [
        '{"a": 1, "b": [1, 2], "a": {"c": "x"}, "a": "yz"}',
        '{"a": [1, 1, 1], "b": [[], [], {}], "c": ["x", "x"]}',
        '[1, 12, 1, "ab", "a", "ab"]',
        '{"a": [1, 2}, "b": 3}',
        '{"a": 1}} trailing',
        '```json\n{"a": [1, {"b": "c"}]}\n```',
        'Sure: ```\n[1, "two", {"3": null}]\n```',
        '{"a": NaN, "b": [NaN, -Infinity], "c": -0.0, "d": 0.0}',
        '{"a": 1, "a": 1, "b": {"a": 1, "a": 2}}',
        '{"x~y/z": {"~": [true, false, null]}}',
        "[[[[[[1]]]]], [[[2]]]]",
        '[null, "\\u00e9", {"k": "\\ud83d\\ude00"}]',  # a string cut inside an escape shows nothing
    ]
)


def _stream(text: str, sizes: list[int]) -> list[tuple[Any, list[dict[str, Any]]]]:
    """(value, operations) for each chunk that changed the value, as diff mode finds them."""
    reader = PartialJsonReader(markdown=True)
    mark = None
    steps: list[tuple[Any, list[dict[str, Any]]]] = []
    for chunk in _cuts(text, sizes):
        reader.feed(chunk)
        now = reader.mark()
        if now is None:
            continue
        operations = json_diff(None, value_of(now)) if mark is None else changes(mark, now)
        if operations:
            steps.append((copy.deepcopy(value_of(now)), operations))
            mark = now
    return steps


def _check(text: str, sizes: list[int]) -> None:
    previous: Any = None
    state: Any = None
    for value, operations in _stream(text, sizes):
        assert operations == json_diff(previous, value), (previous, value)
        state = jsonpatch.apply_patch(state, operations)
        assert json.dumps(state) == json.dumps(value)
        previous = value


@given(json_texts(), st.lists(st.integers(1, 7), max_size=40))
def test_operations_equal_a_whole_value_diff(case: tuple[Any, str], sizes: list[int]) -> None:
    _check(case[1], sizes)


@given(awkward_texts, st.lists(st.integers(1, 5), max_size=60))
def test_operations_equal_a_whole_value_diff_on_awkward_text(text: str, sizes: list[int]) -> None:
    _check(text, sizes)


@given(json_texts(), st.lists(st.integers(1, 7), max_size=40))
def test_marks_stand_for_the_values_the_reader_gives(case: tuple[Any, str], sizes: list[int]) -> None:
    reader = PartialJsonReader(markdown=True)
    for chunk in _cuts(case[1], sizes):
        reader.feed(chunk)
        mark = reader.mark()
        value = reader.value()
        assert (mark is None) == (value is None)
        if mark is not None:
            assert json.dumps(value_of(mark)) == json.dumps(value)


def test_the_parser_in_diff_mode_gives_the_peers_patches() -> None:
    tokens = ['{"a":', " [1,", " 2],", ' "b":', ' "xyz"}']
    assert list(JsonOutputParser(diff=True).transform(iter(tokens))) == [
        [{"op": "replace", "path": "", "value": {}}],
        [{"op": "add", "path": "/a", "value": [1]}],
        [{"op": "add", "path": "/a/1", "value": 2}],
        [{"op": "add", "path": "/b", "value": "xyz"}],
    ]


@given(json_texts(), st.lists(st.integers(1, 7), max_size=40))
def test_diff_mode_yields_when_plain_mode_does_and_its_patches_rebuild_those_values(
    case: tuple[Any, str], sizes: list[int]
) -> None:
    # The peer decides both modes' yields by ``!=`` between the parsed values.
    chunks = list(_cuts(case[1], sizes))
    values = list(JsonOutputParser().transform(iter(chunks)))
    patches = list(JsonOutputParser(diff=True).transform(iter(chunks)))
    assert len(patches) == len(values)
    state: Any = None
    for value, operations in zip(values, patches, strict=True):
        state = jsonpatch.apply_patch(state, operations)
        assert state == value


@pytest.mark.parametrize(
    ("tokens", "expected"),
    [  # measured on langchain-core 1.8.3
        (["[1", ".0", "]"], [[{"op": "replace", "path": "", "value": [1]}]]),
        (["[1", ".0", ", 2]"], [
            [{"op": "replace", "path": "", "value": [1]}],
            [{"op": "replace", "path": "/0", "value": 1.0}, {"op": "add", "path": "/1", "value": 2}],
        ]),
        (["[tr", "ue, 1", ".0]"], [
            [{"op": "replace", "path": "", "value": []}],
            [{"op": "add", "path": "/0", "value": True}, {"op": "add", "path": "/1", "value": 1}],
        ]),
    ],
)  # fmt: skip
def test_diff_mode_yields_nothing_for_a_number_that_changes_only_in_type(
    tokens: list[str], expected: list[list[dict[str, Any]]]
) -> None:
    got = list(JsonOutputParser(diff=True).transform(iter(tokens)))
    assert got == expected
    assert [[type(op["value"]) for op in ops] for ops in got] == [[type(op["value"]) for op in ops] for ops in expected]


def test_operations_hold_copies() -> None:
    reader = PartialJsonReader()
    reader.feed('{"a": [')
    before = reader.mark()
    reader.feed("[1, 2], 3")
    assert before is not None
    after = reader.mark()
    assert after is not None
    operations = changes(before, after)
    assert operations == [
        {"op": "add", "path": "/a/0", "value": [1, 2]},
        {"op": "add", "path": "/a/1", "value": 3},
    ]
    operations[0]["value"].append("mutated by a consumer")
    assert reader.value() == {"a": [[1, 2], 3]}


def test_json_copy_has_no_depth_limit() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    copied = json_copy(deep)
    depth = 0
    while copied:
        copied = copied[0]
        depth += 1
    assert depth == 100_000


def test_diff_mode_never_diffs_the_whole_value(monkeypatch: pytest.MonkeyPatch) -> None:
    # The work: every value handed to jsonpatch is measured in JSON characters. A
    # whole-value diff per chunk (the old way, and the peer's) hands it the value so far
    # each time: quadratic in the stream. Here it stays within a few times the text.
    sizes: list[int] = []
    real = jsonpatch.make_patch

    def measured(before: object, after: object) -> jsonpatch.JsonPatch:
        sizes.append(len(json.dumps(before)) + len(json.dumps(after)))
        return real(before, after)

    monkeypatch.setattr(patches.jsonpatch, "make_patch", measured)
    records = [{"id": i, "name": f"item {i}", "tags": ["a", "b"], "ok": i % 2 == 0} for i in range(400)]
    text = json.dumps({"items": records, "note": "done"})
    tokens = [text[i : i + 4] for i in range(0, len(text), 4)]
    operations = list(JsonOutputParser(diff=True).transform(iter(tokens)))
    assert jsonpatch.apply_patch(None, [op for ops in operations for op in ops]) == json.loads(text)
    assert len(operations) > 1000
    assert sum(sizes) < 4 * len(text)
