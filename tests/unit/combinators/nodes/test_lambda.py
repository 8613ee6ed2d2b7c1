"""RunnableLambda: sync, async, generators, returned runnables, config parameter."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest

from combinators import EmptyStreamError, InputError, RunConfig, RunnableLambda, RunnableSequence


def inc(x: int) -> int:
    return x + 1


async def ainc(x: int) -> int:
    return x + 1


def letters(text: str) -> Iterator[str]:
    yield from text


async def aletters(text: str) -> AsyncIterator[str]:
    for ch in text:
        yield ch


def test_sync_function_invoke_and_name() -> None:
    r = RunnableLambda(inc)
    assert r.invoke(1) == 2
    assert r.name == "inc"
    assert repr(r) == "RunnableLambda(inc)"
    assert RunnableLambda(lambda x: x).name == "RunnableLambda"
    assert RunnableLambda(inc, name="plus").name == "plus"


def test_async_only_function_refuses_sync_invoke_with_clear_error() -> None:
    r = RunnableLambda(ainc)
    with pytest.raises(InputError, match="ainc has only an async function"):
        r.invoke(1)
    assert asyncio.run(r.ainvoke(1)) == 2


def test_sync_and_async_pair_uses_each_in_its_mode() -> None:
    calls: list[str] = []

    def f(x: int) -> int:
        calls.append("sync")
        return x

    async def af(x: int) -> int:
        calls.append("async")
        return x

    r = RunnableLambda(f, afunc=af)
    r.invoke(1)
    asyncio.run(r.ainvoke(1))
    assert calls == ["sync", "async"]


def test_async_func_with_afunc_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="async func and an afunc"):
        RunnableLambda(ainc, afunc=ainc)  # type: ignore[call-overload]


def test_generator_function_streams_its_yields_and_invoke_adds_them() -> None:
    r = RunnableLambda(letters)
    assert list(r.stream("abc")) == ["a", "b", "c"]
    assert r.invoke("abc") == "abc"


def test_async_generator_streams_in_async_mode() -> None:
    r = RunnableLambda(aletters)

    async def main() -> tuple[list[str], str]:
        chunks = [c async for c in r.astream("xyz")]
        return chunks, await r.ainvoke("xyz")

    assert asyncio.run(main()) == (["x", "y", "z"], "xyz")


def test_empty_generator_invoke_is_a_clear_error() -> None:
    def nothing(x: str) -> Iterator[str]:
        return
        yield  # pragma: no cover

    with pytest.raises(EmptyStreamError, match="nothing produced an empty stream"):
        RunnableLambda(nothing).invoke("x")
    assert list(RunnableLambda(nothing).stream("x")) == []


def test_returned_runnable_runs_on_the_same_input() -> None:
    def route(x: int) -> RunnableLambda[int, int]:
        return RunnableLambda(lambda y: y * 100) if x > 0 else RunnableLambda(lambda y: -y)

    r = RunnableLambda(route)
    assert r.invoke(2) == 200
    assert r.invoke(-3) == 3
    assert list(r.stream(2)) == [200]
    assert asyncio.run(r.ainvoke(2)) == 200


def test_recursion_limit_stops_functions_that_keep_returning_runnables() -> None:
    def forever(x: int) -> RunnableLambda[int, int]:
        return RunnableLambda(forever)

    with pytest.raises(RecursionError, match="Recursion limit reached"):
        RunnableLambda(forever).invoke(1)

    depth: list[int] = []

    def countdown(x: int) -> object:
        depth.append(x)
        return RunnableLambda(countdown) if len(depth) < 5 else x

    assert RunnableLambda(countdown).invoke(7, {"recursion_limit": 4}) == 7
    depth.clear()
    with pytest.raises(RecursionError):
        RunnableLambda(countdown).invoke(7, {"recursion_limit": 3})


def test_function_taking_config_receives_the_run_config() -> None:
    seen: list[RunConfig] = []

    def f(x: int, config: RunConfig) -> int:
        seen.append(config)
        return x

    RunnableLambda(f).invoke(1, {"tags": ["a"], "configurable": {"user": "u"}})
    assert seen[0].tags == ("a",)
    assert dict(seen[0].configurable) == {"user": "u"}


def test_kwargs_reach_the_function() -> None:
    def scale(x: int, *, by: int = 1) -> int:
        return x * by

    assert RunnableLambda(scale).invoke(3, by=4) == 12
    seq = RunnableSequence(RunnableLambda(scale), RunnableLambda(inc))
    assert seq.invoke(3, by=2) == 7  # kwargs reach the first step only


def test_sync_function_in_async_mode_runs_on_a_thread_unless_asked_to_run_inline() -> None:
    import threading

    threads: list[str] = []

    def where(x: int) -> int:
        threads.append(threading.current_thread().name)
        return x

    async def main() -> None:
        await RunnableLambda(where, in_thread=False).ainvoke(1)
        await RunnableLambda(where).ainvoke(1)

    asyncio.run(main())
    assert threads[0] == threading.main_thread().name
    assert threads[1] != threading.main_thread().name


def test_non_callable_is_rejected() -> None:
    with pytest.raises(TypeError, match="needs a callable"):
        RunnableLambda(5)  # type: ignore[call-overload]


def test_a_lambda_subscripted_with_its_input_and_output_builds_and_runs() -> None:
    # The form users (and LangChain's own tests) write: the sync-input parameter defaults to In.
    plus_one = RunnableLambda[int, int](lambda x: x + 1)
    assert plus_one.invoke(1) == 2
    assert RunnableLambda[int, int] == RunnableLambda[int, int, int]
    assert RunnableLambda[str, int, str](len).invoke("ab") == 2
