"""RunnableEach: element-wise, in order."""

from __future__ import annotations

import asyncio

from combinators import RunnableLambda


def double(x: int) -> int:
    return x * 2


def test_each_runs_elementwise_in_order() -> None:
    each = RunnableLambda(double).each()
    assert each.invoke([1, 2, 3]) == [2, 4, 6]
    assert asyncio.run(each.ainvoke([3, 1])) == [6, 2]
    assert each.name == "RunnableEach<double>"
