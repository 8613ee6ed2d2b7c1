"""Algebraic laws of the combinators, as hypothesis properties."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from combinators import Runnable, RunnableLambda, RunnablePassthrough, pure
from tests.strategies import add_parts, int_chains, int_functions, ints, text_chains, texts

_ = add_parts


@given(int_chains(), int_chains(), int_chains(), ints)
def test_pipe_is_associative(a: Runnable[int, int], b: Runnable[int, int], c: Runnable[int, int], x: int) -> None:
    left = (a | b) | c
    right = a | (b | c)
    assert left == right
    assert left.invoke(x) == right.invoke(x)


@given(int_chains(), ints)
def test_passthrough_is_the_identity_of_pipe(a: Runnable[int, int], x: int) -> None:
    identity = RunnablePassthrough[int]()
    assert (identity | a).invoke(x) == a.invoke(x) == (a | identity).invoke(x)


@given(int_chains(), ints)
def test_map_identity(a: Runnable[int, int], x: int) -> None:
    assert a.map(lambda y: y).invoke(x) == a.invoke(x)


@given(int_chains(), int_functions(), int_functions(), ints)
def test_map_fusion(a: Runnable[int, int], f: Callable[[int], int], g: Callable[[int], int], x: int) -> None:
    assert a.map(f).map(g).invoke(x) == a.map(lambda y: g(f(y))).invoke(x)


@given(int_chains(), ints, ints)
def test_bind_left_identity(k: Runnable[int, int], a: int, x: int) -> None:
    def f(value: int) -> Runnable[int, int]:
        return k.map(lambda out: out + value)

    assert pure(a).bind(f).invoke(x) == f(a).invoke(x)


@given(int_chains(), ints)
def test_bind_right_identity(m: Runnable[int, int], x: int) -> None:
    assert m.bind(pure).invoke(x) == m.invoke(x)


@given(int_chains(), int_chains(), int_chains(), ints)
def test_bind_associativity(m: Runnable[int, int], k1: Runnable[int, int], k2: Runnable[int, int], x: int) -> None:
    def f(value: int) -> Runnable[int, int]:
        return k1.map(lambda out: out * 3 + value)

    def g(value: int) -> Runnable[int, int]:
        return k2.map(lambda out: out - value)

    assert m.bind(f).bind(g).invoke(x) == m.bind(lambda y: f(y).bind(g)).invoke(x)


@given(int_chains(), st.lists(ints, max_size=12))
def test_batch_equals_map_invoke(chain: Runnable[int, int], xs: list[int]) -> None:
    assert chain.batch(xs) == [chain.invoke(x) for x in xs]
    assert asyncio.run(chain.abatch(xs)) == [chain.invoke(x) for x in xs]


@given(int_chains(), ints)
def test_sync_and_async_agree(chain: Runnable[int, int], x: int) -> None:
    assert asyncio.run(chain.ainvoke(x)) == chain.invoke(x)


@given(text_chains(), texts)
def test_stream_adds_up_to_invoke(chain: Runnable[str, str], text: str) -> None:
    chunks = list(chain.stream(text))
    assert "".join(chunks) == chain.invoke(text)

    async def collect() -> list[str]:
        return [c async for c in chain.astream(text)]

    assert "".join(asyncio.run(collect())) == chain.invoke(text)


@given(int_chains(), ints)
def test_stream_of_int_chain_adds_up_to_invoke(chain: Runnable[int, int], x: int) -> None:
    chunks = list(chain.stream(x))
    assert len(chunks) >= 1
    total = chunks[0]
    for c in chunks[1:]:
        total = total + c
    assert total == chain.invoke(x)


def test_strategy_reprs_read_like_expressions() -> None:
    chain = RunnableLambda(abs) | RunnablePassthrough[int]()
    assert repr(chain) == "RunnableLambda(abs) | RunnablePassthrough()"
