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


def test_parallel_tuple_declares_its_branches_input_and_the_tuple_of_outputs() -> None:
    def size(text: str) -> int:
        return len(text)

    def shout(text: str) -> str:
        return text.upper()

    both = parallel(RunnableLambda(lambda x: x), RunnableLambda(size), RunnableLambda(shout))
    assert both.declared_type("input") is str
    assert both.output_schema()["type"] == "array"
    typed = parallel(RunnableLambda(size), RunnableLambda(shout))
    assert typed.declared_type("output") == tuple[int, str]
    assert typed.output_schema()["prefixItems"] == [{"type": "integer"}, {"type": "string"}]
