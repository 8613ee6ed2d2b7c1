"""Partial JSON: the peer's facts (probed on langchain-core 1.8.3), streaming, and cost."""

from __future__ import annotations

import copy
import json
import math
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators.components.partial_json import scanner as json_scanner
from combinators.components.partial_json.reader import (
    JsonValue,
    PartialJsonReader,
    json_diff,
    parse_json_markdown,
    parse_partial_json,
)

RAISES = object()

# (text, what langchain-core's parse_partial_json returns); RAISES = json.JSONDecodeError.
PEER_FACTS: list[tuple[str, object]] = [
    ('{"b": "xy', {"b": "xy"}),
    ('{"a":[1,2', {"a": [1, 2]}),
    ('{"a": 1,', {"a": 1}),
    ("[1, 2,", [1, 2]),
    ('{"a": 1.', {"a": 1}),
    ("[1.", [1]),
    ("[1e", [1]),
    ("[1e-", [1]),
    ("[1.5e+", [1.5]),
    ("[-", []),
    ("[-1", [-1]),
    ("[0", [0]),
    ("[01", [0]),
    ("[tru", []),
    ("[true", [True]),
    ("[nul", []),
    ("[Na", []),
    ("[-Inf", []),
    ("[Infinity", [math.inf]),
    ('{"a": tru', {}),
    ('{"a', {}),
    ('{"a"', {}),
    ('{"a":', {}),
    ('{"a": ', {}),
    ('{"a": "x", "b', {"a": "x"}),
    ('{"a": [', {"a": []}),
    ('{"a": {', {"a": {}}),
    ('{"a": {"b', {"a": {}}),
    ('"ab', "ab"),
    ('"ab\\', "ab"),
    ('"ab\\u12', RAISES),
    ('["ab\\u12', []),
    ('{"a": "ab\\u12', {}),
    ('"ab\\ud83d', "ab\ud83d"),
    ('"ab\\ud83d\\ude', RAISES),
    ('"ab\\ud83d\\ude00', "ab\U0001f600"),
    ("[", []),
    ("{", {}),
    ("", RAISES),
    ("  ", RAISES),
    ("tr", RAISES),
    ("-", RAISES),
    ("1", 1),
    ("1.", 1),
    ("1.5e", 1.5),
    ('"', ""),
    ('["a\\"b', ['a"b']),
    ('["a\\\\', ["a\\"]),
    ('{"a": 1} xyz', {"a": 1}),
    ('{"a": 1}}', None),
    ("1 2", 1),
    ('{"a":1} {', {"a": 1}),
    ("[1] [2", [1]),
    ('[1] "x', [1]),
    ('{"a": "x\ny', {"a": "x\ny"}),
    ('{"a": "x\\ny', {"a": "x\ny"}),
    ("[1 2", [1]),
    ("{'a': 1}", RAISES),
    ('{"a": 1, oops "b": 2', {"a": 1}),
    ('{"a": 1, oops "b": 2}', RAISES),
    ('{"a": {"b": 1, oops}, "c": 2', {}),
    ('{"a":]', None),
    ("[}", None),
    ('{"a": "b"]', None),
    ('  {"a": 1', {"a": 1}),
    ('\ufeff{"a": 1}', RAISES),
    ('{"a": 1, "a": 2', {"a": 2}),
    ('{"a": "\t', {"a": "\t"}),
    ('{"a": 1e5', {"a": 100000.0}),
    ('{"a": -0', {"a": 0}),
    ('[1, {"b": 2, "c', [1, {"b": 2}]),
    ('{"a": "b", "c": "d\\', {"a": "b", "c": "d"}),
    ('{"a": [1, 2]} x ]', None),
    ("[true false", [True]),
    ('["x" "y"', ["x"]),
    ('{"a" 1', {}),
    ('{"a": 1 "b"', {"a": 1}),
    ("{,", {}),
    ("[,", []),
    ("[1,,", [1]),
    ('{"a": "\\x', {}),
    ('"\\', ""),
    ('"\\u', RAISES),
    ('{"x": "\\u00e9', {"x": "é"}),
    ('{"x": "\\u00e', {}),
    ('["a", "b\\u', ["a"]),
    ("nul", RAISES),
    ("null", None),
    ("true", True),
    ('{"a": {"b": [1, {"c": "d', {"a": {"b": [1, {"c": "d"}]}}),
]


def _same(left: object, right: object) -> bool:
    # Equality that also tells 1 from 1.0 and True from 1, as the peer's values do.
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(_same(a, b) for a, b in zip(left, right, strict=True))
    if isinstance(left, dict) and isinstance(right, dict):
        return list(left) == list(right) and all(_same(left[k], right[k]) for k in left)
    return type(left) is type(right) and left == right


@pytest.mark.parametrize(("text", "expected"), PEER_FACTS)
def test_parse_partial_json_matches_the_peer(text: str, expected: object) -> None:
    if expected is RAISES:
        with pytest.raises(json.JSONDecodeError):
            parse_partial_json(text)
    else:
        assert _same(parse_partial_json(text), expected)


def test_nan_is_accepted_like_pythons_json() -> None:
    value = parse_partial_json("[NaN")
    assert isinstance(value, list) and math.isnan(value[0])  # type: ignore[arg-type]


# Deliberate difference: text after a complete value (or an error) never changes the
# value; the peer's repair loop raises when that text leaves its own brackets open.
@pytest.mark.parametrize(
    ("text", "ours"),
    [('{"a": [1, 2]} [', {"a": [1, 2]}), ('```json\n{"a": 1}\n```\nThat is all [1', {"a": 1})],
)
def test_text_after_a_value_is_ignored(text: str, ours: JsonValue) -> None:
    assert parse_json_markdown(text) == ours


MARKDOWN_FACTS: list[tuple[str, object]] = [
    ('```json\n{"a": 1}\n```', {"a": 1}),
    ('```json\n{"a": "x', {"a": "x"}),
    ("```js", RAISES),
    ("```", RAISES),
    ("```json", RAISES),
    ("```json\n", RAISES),
    ('Sure: ```json\n{"a": [1', {"a": [1]}),
    ('{"a": "hello ', {"a": "hello"}),  # the peer strips the end of the text first
    ('{"a": "use `foo`', {"a": "use `foo"}),
    ('```\n{"a": 1}```', {"a": 1}),
    ('```json\n{"a": 1}\n```\nThat is all {', {"a": 1}),
    ('Here is {"a": 1}', RAISES),
    ('  {"a": 1}  ', {"a": 1}),
    ('```python\n{"a": 1}```', RAISES),
    ('{"action_input": "a\nb"}', {"action_input": "a\nb"}),
    ("text ```json\n[1,2]``` more ```json\n[3]```", [1, 2]),
    ("``", RAISES),
    ('``{"a": 1', {"a": 1}),
    ("json", RAISES),
    ('"```"', "```"),
]


@pytest.mark.parametrize(("text", "expected"), MARKDOWN_FACTS)
def test_parse_json_markdown_matches_the_peer(text: str, expected: object) -> None:
    if expected is RAISES:
        with pytest.raises(json.JSONDecodeError):
            parse_json_markdown(text)
    else:
        assert _same(parse_json_markdown(text), expected)


def test_bad_input_types_are_named() -> None:
    with pytest.raises(TypeError, match="parse_partial_json expects a str, got bytes"):
        parse_partial_json(b"{}")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="feed expects str chunks, got int"):
        PartialJsonReader().feed(1)  # type: ignore[arg-type]


# -- streaming --------------------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.sampled_from(list('ab "\\\n\t/é\U0001f600`{}[],:')), max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet='ab"\\ ', max_size=3), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def json_texts(draw: st.DrawFn) -> tuple[JsonValue, str]:
    value = draw(json_values)
    indent = draw(st.sampled_from([None, 0, 2]))
    ensure_ascii = draw(st.booleans())
    return value, json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)


def _cuts(text: str, sizes: list[int]) -> list[str]:
    chunks, at = [], 0
    for size in sizes:
        if at >= len(text):
            break
        chunks.append(text[at : at + size])
        at += size
    if at < len(text):
        chunks.append(text[at:])
    return chunks


@given(json_texts())
def test_a_complete_text_parses_to_its_value(case: tuple[JsonValue, str]) -> None:
    value, text = case
    assert _same(parse_partial_json(text), value)
    reader = PartialJsonReader()
    reader.feed(text)
    assert _same(reader.value(), value)


@given(json_texts(), st.lists(st.integers(1, 7), max_size=40))
def test_streaming_equals_parsing_each_prefix(case: tuple[JsonValue, str], sizes: list[int]) -> None:
    _, text = case
    reader = PartialJsonReader()
    seen = ""
    for chunk in _cuts(text, sizes):
        reader.feed(chunk)
        seen += chunk
        try:
            expected = parse_partial_json(seen)
        except json.JSONDecodeError:
            expected = None
        assert _same(reader.value(), expected)


@given(json_texts(), st.lists(st.integers(1, 7), max_size=40), st.sampled_from(["", "```json\n", "Sure! ```\n"]))
def test_streaming_markdown_equals_parsing_each_prefix(
    case: tuple[JsonValue, str], sizes: list[int], fence: str
) -> None:
    _, body = case
    text = fence + body + ("\n```" if fence else "")
    reader = PartialJsonReader(markdown=True)
    seen = ""
    for chunk in _cuts(text, sizes):
        reader.feed(chunk)
        seen += chunk
        try:
            expected = parse_json_markdown(seen)
        except json.JSONDecodeError:
            expected = None
        assert _same(reader.value(), expected)


@given(json_texts(), st.lists(st.integers(1, 7), max_size=40))
def test_values_already_returned_never_change(case: tuple[JsonValue, str], sizes: list[int]) -> None:
    _, text = case
    reader = PartialJsonReader()
    returned: list[tuple[JsonValue, JsonValue]] = []
    for chunk in _cuts(text, sizes):
        reader.feed(chunk)
        value = reader.value()
        returned.append((value, copy.deepcopy(value)))
    for value, snapshot in returned:
        assert _same(value, snapshot)


def test_the_reference_diff_stream() -> None:
    # Reference section 5: {"a": [1, 2], "b": "xyz"} streamed by whitespace tokens.
    reader, previous, diffs = PartialJsonReader(), None, []
    for token in ['{"a":', " [1,", " 2],", ' "b":', ' "xyz"}']:
        reader.feed(token)
        value = reader.value()
        if value is not None and value != previous:
            diffs.append(json_diff(previous, value))
            previous = copy.deepcopy(value)
    assert diffs == [
        [{"op": "replace", "path": "", "value": {}}],
        [{"op": "add", "path": "/a", "value": [1]}],
        [{"op": "add", "path": "/a/1", "value": 2}],
        [{"op": "add", "path": "/b", "value": "xyz"}],
    ]


# -- cost ------------------------------------------------------------------------------------


def test_a_long_streamed_string_is_decoded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    decoded = 0
    original = json_scanner.decode_string

    def counting(raw: str) -> str:
        nonlocal decoded
        decoded += len(raw)
        return original(raw)

    monkeypatch.setattr(json_scanner, "decode_string", counting)
    words = ["wörd\\n", "\\ud83d\\ude00 ", "x\\\\"] * 3400  # about 10k chunks
    reader = PartialJsonReader(markdown=True)
    reader.feed('```json\n{"text": "')
    for word in words:
        reader.feed(word)
        reader.value()
    reader.feed('"}\n```')
    total = sum(map(len, words))
    assert isinstance(reader.value(), dict)
    assert decoded <= total + 16  # each raw character decoded once (plus held-back escapes)


def _python_calls_per_chunk(records: int) -> float:
    """Python function calls per 4-character chunk to stream a reply of ``records`` items,
    asking for the value after each chunk."""
    document = {"items": [{"id": i, "name": f"item {i}", "tags": ["a"]} for i in range(records)], "note": "x " * 50}
    text = json.dumps(document)
    chunks = [text[at : at + 4] for at in range(0, len(text), 4)]
    reader, previous, calls = PartialJsonReader(markdown=True), None, 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        calls += event == "call"

    sys.setprofile(count)
    try:
        for chunk in chunks:
            reader.feed(chunk)
            value = reader.value()
            if value != previous:
                previous = value
    finally:
        sys.setprofile(None)
    assert previous == document
    return calls / len(chunks)


def test_streaming_does_python_work_per_chunk_that_does_not_grow_with_the_reply() -> None:
    # Counted, not timed: re-reading the text so far (the peer) would make the calls
    # per chunk grow tenfold here; reading only the new chunk keeps them the same.
    short, long = _python_calls_per_chunk(100), _python_calls_per_chunk(1_000)
    assert long <= 1.05 * short


def test_each_distinct_key_is_one_object() -> None:
    # As Python's json: a long list of records holds each key once.
    reader = PartialJsonReader()
    for chunk in ['[{"id": 1, "na', 'me": "a"}, {"id"', ': 2, "name": "b"}, {"name": 3}]']:
        reader.feed(chunk)
    records = reader.result()
    assert isinstance(records, list) and records == [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"name": 3}]
    keys = [key for record in records if isinstance(record, dict) for key in record]
    assert len({id(key) for key in keys}) == 2
