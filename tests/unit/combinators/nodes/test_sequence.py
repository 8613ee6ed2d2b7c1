"""RunnableSequence: the pipe, its flattening and coercion of both sides; sync calls start no thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combinators import Runnable, RunnableLambda, RunnableSequence
from combinators.testing import runnables


def inc(x: int) -> int:
    return x + 1


def double(x: int) -> int:
    return x * 2


def test_pipe_flattens_and_runs_in_order() -> None:
    a, b, c = RunnableLambda(inc), RunnableLambda(double), RunnableLambda(str)
    left = (a | b) | c
    right = a | (b | c)
    assert left.steps == right.steps == (a, b, c)  # type: ignore[attr-defined]
    assert left == right
    assert left.invoke(1) == "4"
    assert repr(left) == "RunnableLambda(inc) | RunnableLambda(double) | RunnableLambda(str)"


def test_sequence_needs_two_steps_that_pipe() -> None:
    with pytest.raises(ValueError, match="at least 2 steps"):
        RunnableSequence(RunnableLambda(inc))
    with pytest.raises(TypeError, match="cannot pipe int"):
        RunnableSequence(RunnableLambda(inc), 3)  # type: ignore[call-overload]


def test_callables_and_dicts_coerce_on_both_sides() -> None:
    chain = inc | RunnableLambda(double) | {"a": inc, "b": RunnableLambda(str)}
    assert chain.invoke(1) == {"a": 5, "b": "4"}
    left = {"x": inc} | RunnableLambda(lambda d: d["x"] * 10)
    assert left.invoke(1) == 20


def test_constant_in_dict_is_a_type_error_naming_the_key() -> None:
    with pytest.raises(TypeError, match="key 'k' holds int"):
        RunnableLambda(inc) | {"k": 5}  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="cannot pipe"):
        RunnableLambda(inc) | 3  # type: ignore[operator]


def test_building_1000_steps_with_or_is_flat_and_runs() -> None:
    chain: Any = RunnableLambda(inc)
    for _ in range(999):
        chain = chain | inc
    assert len(chain.steps) == 1000
    assert chain.invoke(0) == 1000


def test_sync_calls_start_no_thread_and_no_loop() -> None:
    before = threading.active_count()
    chain = RunnableLambda(inc) | double | (lambda x: x - 1)
    for _ in range(50):
        chain.invoke(1)
    assert threading.active_count() == before
    with pytest.raises(RuntimeError):
        asyncio.get_running_loop()


def test_pipe_coerces_generators_by_what_they_take() -> None:
    def per_value(text: str) -> Iterator[str]:
        for word in text.split():
            yield word + " "

    def transform(chunks: Iterator[str]) -> Iterator[str]:
        for chunk in chunks:
            yield chunk.upper()

    def unannotated(chunks):  # type: ignore[no-untyped-def]  # the peer's rule: a transform
        for chunk in chunks:
            yield chunk

    chain = RunnableLambda(str.strip) | per_value | transform | unannotated
    assert [type(s).__name__ for s in chain.steps] == [  # type: ignore[attr-defined]
        "RunnableLambda",
        "RunnableLambda",
        "RunnableGenerator",
        "RunnableGenerator",
    ]
    assert list(chain.stream(" a b ")) == ["A ", "B "]
    assert chain.invoke(" a b ") == "A B "


def _outcome(chunks: Iterator[object]) -> tuple[str, object]:
    try:
        return ("chunks", list(chunks))
    except Exception as error:  # the same failure, whichever path raised it
        return (type(error).__name__, str(error))


async def _aoutcome(chunks: AsyncIterator[object]) -> tuple[str, object]:
    try:
        return ("chunks", [chunk async for chunk in chunks])
    except Exception as error:
        return (type(error).__name__, str(error))


@settings(max_examples=60, deadline=None)
@given(runnables(int, max_leaves=5), st.integers(-3, 3))
def test_a_plain_stream_calls_its_steps_hooks_directly_with_the_same_outcome(
    chain: Runnable[int, object], x: int
) -> None:
    # With no config nor observer (Scope.plain) an unbound sequence calls its steps' stream
    # hooks itself; a tag makes the scope run each step as usual. Chunks, or the error and
    # its message, must not tell the two apart (sync against sync, async against async).
    assert _outcome(chain.stream(x)) == _outcome(chain.stream(x, {"tags": ["watched"]}))
    assert asyncio.run(_aoutcome(chain.astream(x))) == asyncio.run(_aoutcome(chain.astream(x, {"tags": ["watched"]})))
