"""Plain mode of the JSON parser: it yields the value of its prefix at the peer's moments
(when the re-parsed prefix value changes), and nothing a consumer does to the values it
was given changes when the next ones come, the parts still being filled, or the result."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any, TypedDict

import jsonpatch
import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators.output_parsers import JsonOutputParser
from combinators.components.partial_json.reader import JsonValue, parse_json_markdown
from tests.unit.combinators.components.partial_json.test_patches import awkward_texts
from tests.unit.combinators.components.partial_json.test_reader import _cuts, json_texts  # pyright: ignore[reportPrivateUsage]

# A list of records that completes item by item: completed items are what successive
# values share.
records = st.lists(
    st.fixed_dictionaries({"id": st.integers(0, 9), "tags": st.lists(st.sampled_from(["a", "b"]), max_size=2)}),
    max_size=5,
).map(lambda items: json.dumps({"items": items}))

# A repeated key drops a completed container the consumer may hold (and have mutated)
# for one that may be equal to what it was.
repeated_keys = st.sampled_from(
    [
        '{"a": [1], "a": [1], "b": {"c": []}, "b": {"c": []}}',
        '{"a": {}, "a": {}, "a": [], "a": []}',
        '{"x": {"a": [[]], "a": [[]]}, "x": {"a": [[]]}}',
    ]
)

# Text broken inside nested containers, then closing them: after the error the reader
# keeps one value, a new one each time a bracket closes a level open at the error.
# (Cut before the last bracket: text that closes every level holds no value.)
BROKEN = ['[[1, {"b": x}], 2', '{"a": [{"b": [x]}], "c": 1', '[[[]], [{"a": [1, 2}]]']

texts = st.one_of(
    json_texts().map(lambda case: case[1]),
    awkward_texts,
    records,
    repeated_keys,
    st.sampled_from(BROKEN),
    st.tuples(json_texts(), st.sampled_from(["```json\n", "Sure! ```\n"])).map(
        lambda pair: pair[1] + pair[0][1] + "\n```"
    ),
)
sizes = st.lists(st.integers(1, 7), max_size=60)


def _dumped(value: object) -> str:
    # Tells 1, 1.0 and true apart, and keys' order.
    return json.dumps(value)


def _reparsed(chunks: list[str]) -> list[tuple[int, JsonValue]]:
    """The peer's stream, with the number of chunks read at each value: each prefix
    parsed on its own, kept when it has a value that differs (by ``==``) from the last
    one kept."""
    kept: list[tuple[int, JsonValue]] = []
    previous: JsonValue = None
    seen = ""
    for read, chunk in enumerate(chunks, 1):
        seen += chunk
        try:
            value = parse_json_markdown(seen)
        except json.JSONDecodeError:
            continue
        if value is not None and value != previous:
            kept.append((read, value))
            previous = value
    return kept


def _containers(value: object) -> list[Any]:
    found: list[Any] = []
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, list):
            found.append(item)
            todo.extend(item)
        elif isinstance(item, dict):
            found.append(item)
            todo.extend(item.values())
    return found


def _vandalize(value: object) -> None:
    """Mutate every container inside ``value`` (found first, then changed)."""
    for container in _containers(value):
        if isinstance(container, list):
            container.insert(0, "vandal")
            container.append({"vandal": []})
        else:
            for key in list(container)[:1]:
                container[key] = "vandal"
            container["vandal"] = ["vandal"]


def _imitate(value: object, other: JsonValue) -> None:
    """Turn ``value`` in place into a copy of ``other`` (where both are lists or dicts)."""
    if isinstance(value, list) and isinstance(other, list):
        value[:] = copy.deepcopy(other)
    elif isinstance(value, dict) and isinstance(other, dict):
        value.clear()
        value.update(copy.deepcopy(other))


def _same_where_not_shared(value: object, expected: object, shared: set[int]) -> bool:
    """``value`` is ``expected`` in every container it does not share with values given
    before (``shared``: their containers' ids, which their consumer may have changed)."""
    if isinstance(value, list):
        return id(value) in shared or (
            isinstance(expected, list)
            and len(value) == len(expected)
            and all(_same_where_not_shared(a, b, shared) for a, b in zip(value, expected, strict=True))
        )
    if isinstance(value, dict):
        return id(value) in shared or (
            isinstance(expected, dict)
            and list(value) == list(expected)
            and all(_same_where_not_shared(value[key], expected[key], shared) for key in value)
        )
    return _dumped(value) == _dumped(expected)


class _Consumer:
    """Takes the values as they come, checks each as of its time, mutates given ones."""

    def __init__(self, chunks: list[str], data: st.DataObject) -> None:
        self.expected = _reparsed(chunks)
        self.data = data
        self.read = 0  # chunks the parser has pulled so far
        self.collected: list[Any] = []
        self.shared: set[int] = set()
        self.moments: list[int] = []

    def take(self, value: Any) -> None:
        index = len(self.collected)
        assert index < len(self.expected), "a yield the peer does not make"
        moment, wanted = self.expected[index]
        assert self.read == moment, (index, self.read, moment)  # at the peer's moment
        assert _same_where_not_shared(value, wanted, self.shared), index
        self.collected.append(value)
        self.shared.update(id(container) for container in _containers(value))
        mutated = self.data.draw(st.lists(st.integers(0, index), max_size=2), label="mutate these now")
        for at in mutated:
            _vandalize(self.collected[at])
        if self.data.draw(st.booleans(), label="make it the value the peer gives next"):
            _imitate(value, self.expected[index + 1][1] if index + 1 < len(self.expected) else None)

    def done(self, parser: JsonOutputParser[Any], text: str) -> None:
        assert len(self.collected) == len(self.expected)
        order = self.data.draw(st.permutations(range(len(self.collected))), label="then these")
        for at in order:
            _vandalize(self.collected[at])
        if self.expected:
            whole = _dumped(parse_json_markdown(text))
            assert _dumped(parser.parse(text)) == whole
            assert _dumped(parser.invoke(text)) == whole


@given(texts, sizes)
def test_each_value_is_its_prefix_value_at_the_peers_moment(text: str, cuts: list[int]) -> None:
    chunks = _cuts(text, cuts)
    expected = [_dumped(value) for _, value in _reparsed(chunks)]
    assert [_dumped(value) for value in JsonOutputParser().transform(iter(chunks))] == expected


@given(texts, sizes, st.data())
def test_mutating_given_values_changes_no_later_yield_nor_the_result(
    text: str, cuts: list[int], data: st.DataObject
) -> None:
    chunks = _cuts(text, cuts)
    consumer = _Consumer(chunks, data)

    def source() -> Iterator[str]:
        for chunk in chunks:
            consumer.read += 1
            yield chunk

    parser = JsonOutputParser()
    for value in parser.transform(source()):
        consumer.take(value)
    consumer.done(parser, "".join(chunks))


@given(texts, sizes, st.data())
def test_the_async_stream_too(text: str, cuts: list[int], data: st.DataObject) -> None:
    chunks = _cuts(text, cuts)
    consumer = _Consumer(chunks, data)

    async def source() -> AsyncIterator[str]:
        for chunk in chunks:
            consumer.read += 1
            yield chunk

    async def consume() -> None:
        async for value in parser.atransform(source()):
            consumer.take(value)

    parser = JsonOutputParser()
    asyncio.run(consume())
    consumer.done(parser, "".join(chunks))


@pytest.mark.parametrize("text", BROKEN)
def test_a_consumer_turning_each_value_into_the_next_moves_no_yield(text: str) -> None:
    # The most misleading consumer: it makes each value equal to the one the peer gives
    # next, which a parser comparing with what it gave out would then never yield.
    chunks = list(text)
    expected = _reparsed(chunks)
    given: list[Any] = []
    for value in JsonOutputParser().transform(iter(chunks)):
        given.append(value)
        if len(given) < len(expected):
            _imitate(value, expected[len(given)][1])
    assert len(given) == len(expected) > 5


def test_successive_values_share_their_completed_parts() -> None:
    # The deliberate difference from the peer: only the open containers are new.
    values = list(JsonOutputParser().transform(iter(['{"a": [{"x": 1}', ', {"y"', ": 2}", "]}"])))
    assert values == [{"a": [{"x": 1}]}, {"a": [{"x": 1}, {}]}, {"a": [{"x": 1}, {"y": 2}]}]
    assert values[0]["a"] is not values[1]["a"] and values[0]["a"][0] is values[1]["a"][0]
    values[1]["a"].append("more")  # an open part: that value's own
    values[0]["a"][0]["x"] = 99  # a completed part: shared
    assert values == [{"a": [{"x": 99}]}, {"a": [{"x": 99}, {}, "more"]}, {"a": [{"x": 99}, {"y": 2}]}]


@given(texts, sizes)
def test_diff_mode_operations_are_the_consumers_own(text: str, cuts: list[int]) -> None:
    # Each list of operations is vandalized as soon as it is yielded; applied (from a
    # copy made first) they still rebuild, type for type, every value the peer yields
    # (a change by ``==``, as plain streaming yields).
    chunks = _cuts(text, cuts)
    wanted = [_dumped(value) for _, value in _reparsed(chunks)]
    state: Any = None
    states: list[str] = []
    for operations in JsonOutputParser(diff=True).transform(iter(chunks)):
        state = jsonpatch.apply_patch(state, copy.deepcopy(operations))
        states.append(_dumped(state))
        _vandalize(operations)
    assert states == wanted


class Listing(TypedDict):
    items: list[Any]  # JSON of any shape: the typed value holds it as it is


def test_a_schema_stream_is_not_moved_by_its_consumer() -> None:
    chunks = ['{"items": [{"id": 1, "tags": ["a"]}', ', {"id": 2, "tags": []}', "]}", " "]
    values: list[Listing] = []
    for value in JsonOutputParser(Listing).transform(iter(chunks)):
        values.append(value)
        value["items"].clear()  # the open list: the consumer's own
    assert len(values) == 2
    assert values[1] == {"items": []}
    assert JsonOutputParser(Listing).invoke("".join(chunks)) == {
        "items": [{"id": 1, "tags": ["a"]}, {"id": 2, "tags": []}]
    }
