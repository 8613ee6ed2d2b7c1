"""Fallback promises: original input, no mutation, handled types only, errors recorded,
streams before the first chunk only, empty stream is a result, batch per item."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators import RunnableGenerator, RunnableLambda


def fail_with(error: BaseException) -> RunnableLambda[Any, Any]:
    def raising(x: Any) -> Any:
        raise error

    return RunnableLambda(raising, name=f"raise_{type(error).__name__}")


@given(st.dictionaries(st.text(max_size=3), st.integers(), max_size=4))
def test_exception_key_never_changes_the_callers_dict(data: dict[str, int]) -> None:
    original = dict(data)
    received: list[dict[str, Any]] = []

    def fallback(x: dict[str, Any]) -> str:
        received.append(x)
        return "ok"

    r = fail_with(ZeroDivisionError("z")).with_fallbacks([RunnableLambda(fallback)], exception_key="__error__")
    assert r.invoke(data) == "ok"
    assert data == original
    assert isinstance(received[0]["__error__"], ZeroDivisionError)


def test_unhandled_exception_types_propagate_at_once() -> None:
    called: list[int] = []
    r = fail_with(KeyError("k")).with_fallbacks(
        [RunnableLambda(lambda x: called.append(1))], exceptions_to_handle=(ValueError,)
    )
    with pytest.raises(KeyError):
        r.invoke(1)
    assert called == []


def test_base_exceptions_are_never_handled() -> None:
    r = fail_with(KeyboardInterrupt()).with_fallbacks(
        [RunnableLambda(lambda x: "no")], exceptions_to_handle=(BaseException,)
    )
    with pytest.raises(KeyboardInterrupt):
        r.invoke(1)


def test_streams_fall_back_only_before_the_first_chunk() -> None:
    def broken_at_start(chunks: Iterator[str]) -> Iterator[str]:
        raise ConnectionError("no chunk")
        yield  # pragma: no cover

    def backup(chunks: Iterator[str]) -> Iterator[str]:
        for c in chunks:
            yield c.upper()

    r = RunnableGenerator(broken_at_start).with_fallbacks([RunnableGenerator(backup)])
    assert list(r.stream("ab")) == ["AB"]

    def broken_later(chunks: Iterator[str]) -> Iterator[str]:
        yield "one"
        raise ConnectionError("later")

    late = RunnableGenerator(broken_later).with_fallbacks([RunnableGenerator(backup)])
    got: list[str] = []
    with pytest.raises(ConnectionError, match="later"):
        for chunk in late.stream("ab"):
            got.append(chunk)
    assert got == ["one"]


def test_empty_stream_is_a_valid_result_not_a_failure() -> None:
    used: list[str] = []

    def empty(chunks: Iterator[str]) -> Iterator[str]:
        for _ in chunks:
            pass
        return
        yield  # pragma: no cover

    def backup(chunks: Iterator[str]) -> Iterator[str]:
        used.append("backup")
        yield "x"

    r = RunnableGenerator(empty).with_fallbacks([RunnableGenerator(backup)])
    assert list(r.stream("ab")) == []
    assert used == []

    async def main() -> list[str]:
        return [c async for c in r.astream("ab")]

    assert asyncio.run(main()) == []


@given(st.lists(st.booleans(), min_size=1, max_size=12))
def test_batch_runs_fallbacks_only_for_failing_items(fails: list[bool]) -> None:
    primary_calls: list[int] = []
    fallback_calls: list[int] = []

    def primary(i: int) -> str:
        primary_calls.append(i)
        if fails[i]:
            raise ValueError(i)
        return f"p{i}"

    def fallback(i: int) -> str:
        fallback_calls.append(i)
        return f"f{i}"

    r = RunnableLambda(primary).with_fallbacks([RunnableLambda(fallback)])
    out = r.batch(list(range(len(fails))))
    assert out == [f"f{i}" if f else f"p{i}" for i, f in enumerate(fails)]
    assert sorted(fallback_calls) == [i for i, f in enumerate(fails) if f]
