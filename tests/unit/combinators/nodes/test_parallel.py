"""RunnableParallel: a dict of runnables on one input, sync, streamed and async; a failure cancels the siblings."""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

import pytest

from combinators import AddableDict, RunnableLambda, RunnableParallel, RunnablePassthrough


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


def test_parallel_output_schema_is_its_branches_own_output_schemas_titled_by_key() -> None:
    # The rule lives in the node: a branch that answers its own output schema (a prompt, a
    # remote runnable, a runnable of one's own) is asked, not re-derived from its types;
    # as langchain-core 1.8.3, each property is titled after its key and all are required.
    from combinators import Runnable
    from combinators.prompts import PromptTemplate

    class Scored(Runnable[int, object]):
        def step_invoke(self, input: int, scope: object, kwargs: object) -> object:
            return input

        def output_schema(self) -> dict[str, Any]:
            return {"title": "Scored", "type": "number", "minimum": 0}

    par = RunnableParallel(n=inc, s=Scored())
    schema = par.output_schema()
    assert list(schema) == ["title", "type", "properties", "required"]
    assert schema["title"] == "RunnableParallel<n,s>Output" and schema["type"] == "object"
    assert schema["properties"] == {
        "n": {"type": "integer", "title": "N"},
        "s": {"type": "number", "minimum": 0, "title": "S"},
    }
    assert schema["required"] == ["n", "s"]
    prompted = RunnableParallel(p=PromptTemplate.from_template("{x}")).output_schema()["properties"]["p"]
    assert prompted == PromptTemplate.from_template("{x}").output_schema() | {"title": "P"}
    nested = RunnableParallel(outer_one=par).output_schema()["properties"]["outer_one"]
    assert nested["title"] == "Outer One"
    assert nested["properties"]["s"] == {"type": "number", "minimum": 0, "title": "S"}


def test_the_schema_module_names_no_node() -> None:
    import pathlib

    import combinators._support.runnable_schema as module

    assert "RunnableParallel" not in pathlib.Path(module.__file__).read_text()


def _branch_order(kinds_and_names: list[tuple[str, str]]) -> list[str]:
    return [f"{kind} {name}" for kind, name in kinds_and_names if name in ("inc", "double", "words")]


def test_sync_streamed_branches_all_start_before_any_ends() -> None:
    # As the peer's (whose sync parallel streams its branches on threads): every branch
    # starts before any ends; ours interleaves them on the caller's thread.
    def words(chunks: Any) -> Any:
        for chunk in chunks:
            yield from str(chunk)

    from combinators import RunnableGenerator

    par = RunnableParallel(a=inc, b=RunnableLambda(double), c=RunnableGenerator(words))
    events = [(e["event"].rsplit("_", 1)[1], e["name"]) for e in par.stream_events(12, version="v2")]
    order = _branch_order([(k, n) for k, n in events if k in ("start", "end")])
    assert order[:3] == ["start inc", "start double", "start words"]
    assert sorted(order[3:]) == ["end double", "end inc", "end words"]
    ops = [op for patch in par.stream_log(12) for op in patch.ops]
    added = [
        op["path"] for op in ops if op["op"] == "add" and op["path"].startswith("/logs/") and op["path"].count("/") == 2
    ]
    ended = [i for i, op in enumerate(ops) if op["path"].endswith("/end_time")]
    assert added == ["/logs/inc", "/logs/double", "/logs/words"]
    assert ended and min(ended) > max(i for i, op in enumerate(ops) if op["path"] in added)
    assert par.invoke(12) == {"a": 13, "b": 24, "c": "12"}
    whole: dict[str, Any] = {}
    for chunk in par.stream(12):
        for key, value in chunk.items():
            whole[key] = whole.get(key, "" if key == "c" else 0) + value
    assert whole == {"a": 13, "b": 24, "c": "12"}


def test_a_failing_sync_branch_closes_its_started_siblings_before_the_error_propagates() -> None:
    from combinators import RunnableGenerator

    closed: list[str] = []

    def words(chunks: Any) -> Any:
        try:
            for chunk in chunks:
                yield from str(chunk)
        finally:
            closed.append("words")

    def boom(x: int) -> int:
        raise ValueError("boom")

    par = RunnableParallel(a=RunnableGenerator(words), b=boom)
    with pytest.raises(ValueError, match="boom"):
        list(par.stream(12))
    assert closed == ["words"]


T = TypeVar("T")


def _same(x: T) -> T:
    return x


def test_a_branch_generic_in_its_input_declares_nothing_to_the_fan_out() -> None:
    # A passthrough or a generic lambda (x: T) -> T says nothing of the input: the next branch does.
    def size(text: str) -> int:
        return len(text)

    for first in (RunnablePassthrough(), RunnableLambda(_same)):
        fan_out = RunnableParallel(first=first, n=size)
        assert fan_out.declared_type("input") is str
        assert fan_out.input_schema()["type"] == "string"
