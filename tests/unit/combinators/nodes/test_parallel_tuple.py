"""parallel(...): the positional (tuple) parallel."""

from __future__ import annotations

import asyncio

from combinators import RunnableLambda, parallel


def inc(x: int) -> int:
    return x + 1


def test_tuple_parallel_is_positional() -> None:
    both = parallel(RunnableLambda(inc), RunnableLambda(str))
    assert both.invoke(1) == (2, "1")
    assert asyncio.run(both.ainvoke(1)) == (2, "1")
