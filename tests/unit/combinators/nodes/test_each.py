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


def test_each_declares_lists_of_what_its_runnable_takes_and_gives() -> None:
    # As langchain-core 1.8.3's .map(): arrays of the element's schemas (inlined here).
    def f(x: int) -> str:
        return str(x)

    each = RunnableLambda(f).each()
    assert each.declared_type("input") == list[int] and each.declared_type("output") == list[str]
    assert each.input_schema() == {"title": "RunnableEach<f>Input", "type": "array", "items": {"type": "integer"}}
    assert each.output_schema() == {"title": "RunnableEach<f>Output", "type": "array", "items": {"type": "string"}}
    untyped = RunnableLambda(lambda x: x).each()
    assert untyped.input_schema() == {"title": "RunnableEach<RunnableLambda>Input", "type": "array", "items": {}}
