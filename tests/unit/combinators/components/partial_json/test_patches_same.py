"""``same_value``: two moments of a stream compared as their values are by ``==``."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from combinators.components.partial_json.patches import value_of
from combinators.components.partial_json.reader import PartialJsonReader
from combinators.components.partial_json.patches import same_value
from tests.unit.combinators.components.partial_json.test_patches import awkward_texts
from tests.unit.combinators.components.partial_json.test_reader import _cuts, json_texts  # pyright: ignore[reportPrivateUsage]

texts = st.one_of(
    json_texts().map(lambda case: case[1]),
    awkward_texts,
    st.sampled_from(['[[1, {"b": x}], 2', '{"a": [[], {}], "a": [[], {}]}', "[1, 1.0, true]", '{"a": [{"b": 1}]}']),
)


@given(texts, st.lists(st.integers(1, 6), max_size=60))
def test_two_moments_are_the_same_when_their_values_are_equal(text: str, sizes: list[int]) -> None:
    reader = PartialJsonReader(markdown=True)
    moments = []
    for chunk in _cuts(text, sizes):
        reader.feed(chunk)
        mark = reader.mark()
        if mark is not None:
            moments.append(mark)
    for at, before in enumerate(moments):
        for after in moments[at:]:
            assert same_value(before, after) == (value_of(before) == value_of(after)), (before.levels, after.levels)


def test_a_closed_container_is_the_value_it_had_open() -> None:
    reader = PartialJsonReader()
    reader.feed('{"a": [[1')
    before = reader.mark()
    reader.feed("]")
    closed = reader.mark()
    reader.feed(", 2")
    assert before is not None and closed is not None
    grown = reader.mark()
    assert grown is not None
    assert (same_value(before, closed), same_value(before, grown), same_value(closed, grown)) == (True, False, False)
