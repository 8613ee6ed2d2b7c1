"""Deeply nested input never ends in a bare ``RecursionError``: ``loads``/``dumps`` have a
documented, configurable nesting limit with their own error, the JSON parser refuses
what nests too deep, and every channel of a run (events, SSE, log, recordings,
listeners) carries a deeply nested value."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators import RunnableLambda
from combinators.load import DataTooDeepError, MalformedDataError, dumps, loads
from combinators.output_parsers import JsonOutputParser, OutputParserError
from combinators.output_parsers import parse_partial_json
from combinators.components.serialization import MAX_DEPTH, from_data, to_data
from effects.projections.recording import record


def nested(depth: int, leaf: object = 1) -> Any:
    value: Any = leaf
    for _ in range(depth):
        value = [value]
    return value


def text_of(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 600, 5_000, 100_000])
def test_loads_refuses_deep_text_with_its_own_error(depth: int) -> None:
    with pytest.raises(DataTooDeepError, match=f"deeper than {MAX_DEPTH} levels"):
        loads(text_of(depth), allowed=[])
    with pytest.raises(DataTooDeepError):
        loads(text_of(depth).encode(), allowed=[])
    assert issubclass(DataTooDeepError, MalformedDataError) and issubclass(DataTooDeepError, ValueError)


@given(st.integers(1, 300))
def test_the_limit_is_exact_and_configurable(depth: int) -> None:
    limit = 250
    if depth <= limit:
        assert loads(text_of(depth), allowed=[], max_depth=limit) == nested(depth)
        assert loads(dumps(nested(depth), max_depth=limit), allowed=[], max_depth=limit) == nested(depth)
    else:
        with pytest.raises(DataTooDeepError):
            loads(text_of(depth), allowed=[], max_depth=limit)
        with pytest.raises(DataTooDeepError):
            dumps(nested(depth), max_depth=limit)
        with pytest.raises(DataTooDeepError):
            from_data(nested(depth), allowed=[], max_depth=limit)


def test_brackets_inside_strings_do_not_count() -> None:
    text = json.dumps(["[" * 500, {"k": "{" * 500, "e": '\\"[[['}])
    assert loads(text, allowed=[]) == json.loads(text)


@pytest.mark.parametrize("bad", [0, -1, 501, True, 1.5])
def test_max_depth_is_checked(bad: Any) -> None:
    with pytest.raises(ValueError, match="max_depth must be an int from 1 to 500"):
        loads("[]", allowed=[], max_depth=bad)
    with pytest.raises(ValueError, match="max_depth must be an int from 1 to 500"):
        dumps([], max_depth=bad)


def test_dumps_refuses_deep_values_with_its_own_error() -> None:
    with pytest.raises(DataTooDeepError, match="cannot serialize data nested deeper than 100 levels"):
        dumps(nested(5_000))
    with pytest.raises(DataTooDeepError):
        to_data({"a": nested(200)})


def test_the_json_parser_refuses_deep_replies() -> None:
    text = text_of(5_000)
    with pytest.raises(OutputParserError, match="nested deeper than 100 levels"):
        JsonOutputParser().invoke(text)
    tokens = [text[i : i + 7] for i in range(0, len(text), 7)]
    for parser in (JsonOutputParser(), JsonOutputParser(diff=True)):
        with pytest.raises(OutputParserError, match="nested deeper than 100 levels"):
            list(parser.transform(iter(tokens)))
    with pytest.raises(json.JSONDecodeError, match="nested deeper"):
        parse_partial_json(text)
    assert JsonOutputParser().invoke(text_of(99)) == nested(99)


def test_every_channel_of_a_run_carries_a_deep_value() -> None:
    deep = nested(5_000)

    def make(_: object) -> Any:
        return deep

    chain = RunnableLambda(make) | RunnableLambda(lambda x: x)
    seen: list[object] = []
    watched = chain.with_listeners(on_end=lambda run: seen.append(run))

    async def channels() -> list[int]:
        return [
            len([e async for e in chain.astream_events(1)]),
            len([e async for e in chain.astream_events(1, version="v1")]),
            len([b async for b in chain.astream_events(1, encoding="text/event-stream")]),
            len([p async for p in chain.astream_log(1)]),
            len([p async for p in chain.astream_log(1, diff=False)]),
            len(list(record([e async for e in chain.astream_effects(1)]))),
        ]

    counts = asyncio.run(channels())
    assert all(count > 2 for count in counts)
    assert len(list(chain.stream_events(1))) > 2
    assert watched.invoke(1) is deep
    assert len(seen) == 1
