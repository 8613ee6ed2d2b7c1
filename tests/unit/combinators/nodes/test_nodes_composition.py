"""Sequences, parallel maps, passthrough/assign/pick, branch, each, bind, coercion."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from combinators import (
    AddableDict,
    InputError,
    RunnableBranch,
    RunnableGenerator,
    RunnableLambda,
    RunnableParallel,
    RunnablePassthrough,
    RunnablePick,
    RunnableSequence,
    parallel,
    pure,
)


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


def test_parallel_dict_invoke_stream_and_async() -> None:
    par = RunnableParallel(a=inc, b=RunnableLambda(double))
    assert par.invoke(3) == {"a": 4, "b": 6}
    chunks = list(par.stream(3))
    assert all(isinstance(c, AddableDict) and len(c) == 1 for c in chunks)
    total = chunks[0]
    for c in chunks[1:]:
        total = total + c
    assert total == {"a": 4, "b": 6}
    assert asyncio.run(par.ainvoke(3)) == {"a": 4, "b": 6}
    assert par.name == "RunnableParallel<a,b>"


def test_tuple_parallel_is_positional() -> None:
    both = parallel(RunnableLambda(inc), RunnableLambda(str))
    assert both.invoke(1) == (2, "1")
    assert asyncio.run(both.ainvoke(1)) == (2, "1")


def test_parallel_failure_cancels_async_siblings_and_raises_the_error_itself() -> None:
    finished: list[str] = []

    async def slow(x: int) -> int:
        try:
            await asyncio.sleep(10)
        finally:
            finished.append("slow cleaned up")
        return x

    async def boom(x: int) -> int:
        await asyncio.sleep(0)
        raise ValueError("boom")

    par = RunnableParallel(slow=RunnableLambda(slow), boom=RunnableLambda(boom))

    async def main() -> set[asyncio.Task[Any]]:
        before = asyncio.all_tasks()
        with pytest.raises(ValueError, match="boom"):
            await par.ainvoke(1)
        return asyncio.all_tasks() - before

    assert asyncio.run(main()) == set()
    assert finished == ["slow cleaned up"]


def test_passthrough_and_side_effect() -> None:
    seen: list[object] = []
    p = RunnablePassthrough(seen.append)
    assert p.invoke(5) == 5
    assert list(p.stream("ab")) == ["ab"]
    assert seen == [5, "ab"]

    def words(it: Iterator[str]) -> Iterator[str]:
        yield from ("a", "b", "c")

    streamed = RunnableGenerator(words) | RunnablePassthrough(seen.append)
    assert list(streamed.stream("x")) == ["a", "b", "c"]
    assert seen[-1] == "abc"


def test_assign_adds_keys_and_rejects_non_dict_input() -> None:
    assign = RunnablePassthrough.assign(n=lambda d: len(d["s"]))
    assert assign.invoke({"s": "abc"}) == {"s": "abc", "n": 3}
    assert assign.name == "RunnableAssign<n>"
    with pytest.raises(InputError, match="RunnableAssign<n> expects a dict input, got int"):
        assign.invoke(3)  # type: ignore[arg-type]
    streamed = list(assign.stream({"s": "abc", "n": 0}))
    assert streamed[0] == {"s": "abc"}  # the mapper's key is held back
    assert streamed[-1] == {"n": 3}


def test_pick_semantics() -> None:
    data = {"a": 1, "b": 2}
    assert RunnablePick("a").invoke(data) == 1
    assert RunnablePick("z").invoke(data) is None
    assert RunnablePick(["a", "z"]).invoke(data) == {"a": 1}
    assert RunnablePick(["z"]).invoke(data) is None
    with pytest.raises(InputError, match="RunnablePick<a> expects a dict input, got list"):
        RunnablePick("a").invoke([1])  # type: ignore[arg-type]
    chunks = [{"a": 1}, {"b": 2}, {"a": 3}]
    assert list(RunnablePick("a").transform(chunks)) == [1, 3]


def test_a_branch_of_fewer_than_two_arguments_is_refused_in_the_peers_words() -> None:
    for too_few in [((lambda x: x > 0, RunnableLambda(abs)),), (RunnableLambda(abs),)]:
        with pytest.raises(ValueError, match=r"^RunnableBranch requires at least two branches"):
            RunnableBranch(*too_few)  # type: ignore[arg-type]


def test_branch_picks_first_true_condition_in_order() -> None:
    calls: list[int] = []

    def positive(x: int) -> bool:
        calls.append(1)
        return x > 0

    def even(x: int) -> bool:
        calls.append(2)
        return x % 2 == 0

    branch = RunnableBranch(
        (positive, RunnableLambda(lambda x: "pos")),
        (even, RunnableLambda(lambda x: "even")),
        RunnableLambda(lambda x: "other"),
    )
    assert branch.invoke(4) == "pos"
    assert calls == [1]
    assert branch.invoke(-2) == "even"
    assert branch.invoke(-3) == "other"
    assert list(branch.stream(-3)) == ["other"]
    with pytest.raises(ValueError, match="one or more"):
        RunnableBranch(RunnableLambda(inc))
    with pytest.raises(TypeError, match="pairs before the default"):
        RunnableBranch(RunnableLambda(inc), RunnableLambda(inc))  # type: ignore[arg-type]


def test_each_runs_elementwise_in_order() -> None:
    each = RunnableLambda(double).each()
    assert each.invoke([1, 2, 3]) == [2, 4, 6]
    assert asyncio.run(each.ainvoke([3, 1])) == [6, 2]
    assert each.name == "RunnableEach<double>"


def test_map_and_bind() -> None:
    r = RunnableLambda(inc)
    assert r.map(double).invoke(1) == 4
    chosen = r.bind(lambda y: pure(y * 10) if y > 1 else RunnableLambda(lambda x: -x))
    assert chosen.invoke(5) == 60
    assert chosen.invoke(0) == 0


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
