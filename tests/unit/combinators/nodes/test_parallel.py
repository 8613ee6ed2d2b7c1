"""RunnableParallel: a dict of runnables on one input, sync, streamed and async; a failure cancels the siblings."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from combinators import AddableDict, RunnableLambda, RunnableParallel


def inc(x: int) -> int:
    return x + 1


def double(x: int) -> int:
    return x * 2


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


def test_parallel_output_schema_is_its_branches_own_output_schemas_untitled() -> None:
    # The rule lives in the node: a branch that answers its own output schema (a prompt, a
    # remote runnable, a runnable of one's own) is asked, not re-derived from its types.
    from combinators import Runnable
    from combinators.prompts import PromptTemplate

    class Scored(Runnable[int, object]):
        def step_invoke(self, input: int, scope: object, kwargs: object) -> object:
            return input

        def output_schema(self) -> dict[str, Any]:
            return {"title": "Scored", "type": "number", "minimum": 0}

    par = RunnableParallel(n=inc, s=Scored())
    schema = par.output_schema()
    assert list(schema) == ["title", "type", "properties"]
    assert schema["title"] == "RunnableParallel<n,s>Output" and schema["type"] == "object"
    assert schema["properties"] == {"n": {"type": "integer"}, "s": {"type": "number", "minimum": 0}}
    prompted = RunnableParallel(p=PromptTemplate.from_template("{x}")).output_schema()["properties"]["p"]
    assert prompted == {
        key: v for key, v in PromptTemplate.from_template("{x}").output_schema().items() if key != "title"
    }
    nested = RunnableParallel(outer=par).output_schema()["properties"]["outer"]
    assert nested["properties"]["s"] == {"type": "number", "minimum": 0}


def test_the_schema_module_names_no_node() -> None:
    import pathlib

    import combinators._support.runnable_schema as module

    assert "RunnableParallel" not in pathlib.Path(module.__file__).read_text()
