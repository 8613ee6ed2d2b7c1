"""Running tools: sync and async, tool calls, ``as_tool``, batches, values."""

from __future__ import annotations

import asyncio
import pickle
from typing import Any, TypedDict, assert_type

import attrs
import cloudpickle  # type: ignore[import-untyped]
import pytest

from combinators import InputError, Runnable, RunnableLambda
from combinators.components.messages.message_classes import AIMessage, ToolCall, ToolMessage
from combinators.components.tools.message_tools import StructuredTool, Tool, tool
from combinators.nodes.tool import RunnableTool, ToolArgumentsError


@tool
def add(a: int, b: int = 2) -> int:
    """Add two numbers."""
    return a + b


@tool
async def aadd(a: int, b: int = 2) -> int:
    """Add two numbers, asynchronously."""
    await asyncio.sleep(0)
    return a + b


class Pair(TypedDict):
    a: int
    b: int


@attrs.frozen
class Span:
    start: int
    end: int


def add_pair(pair: Pair) -> int:
    return pair["a"] + pair["b"]


def shout(text: str) -> str:
    return text.upper() + "!"


def test_types_are_inferred_honestly() -> None:
    assert_type(add, RunnableTool[int | ToolMessage])
    assert_type(aadd, RunnableTool[int | ToolMessage])
    runnable: Runnable[Any, int | ToolMessage] = add
    assert runnable is add
    assert_type(RunnableLambda(add_pair).as_tool(), RunnableTool[int])
    assert_type(Tool("shout", shout, "Shout."), RunnableTool[str | ToolMessage])


def test_sync_tool_invoke_and_ainvoke() -> None:
    assert add.invoke({"a": 1}) == 3
    assert asyncio.run(add.ainvoke({"a": 1, "b": 5})) == 6
    assert add.name == "add" and add.run_type == "tool"


def test_async_tool_runs_async_and_refuses_sync_invoke() -> None:
    assert asyncio.run(aadd.ainvoke({"a": 1})) == 3
    with pytest.raises(InputError, match="tool 'aadd' has only an async function; call ainvoke"):
        aadd.invoke({"a": 1})


def test_sync_and_async_pair_uses_each_in_its_mode() -> None:
    modes: list[str] = []

    def f(x: int) -> int:
        """F."""
        modes.append("sync")
        return x

    async def af(x: int) -> int:
        modes.append("async")
        return x

    t = StructuredTool.from_function(f, af)
    assert t.invoke({"x": 1}) == 1 and asyncio.run(t.ainvoke({"x": 2})) == 2
    assert modes == ["sync", "async"]
    only_async = StructuredTool.from_function(coroutine=af, name="af", description="Async.")
    assert asyncio.run(only_async.ainvoke({"x": 3})) == 3


def test_tool_call_dict_gives_a_tool_message_with_its_id() -> None:
    call = {"name": "add", "args": {"a": 1, "b": 1}, "id": "call_7", "type": "tool_call"}
    message = add.invoke(call)
    assert message == ToolMessage("2", tool_call_id="call_7", name="add")
    assert asyncio.run(aadd.ainvoke(call)) == ToolMessage("2", tool_call_id="call_7", name="aadd")


def test_tool_call_value_from_an_ai_message() -> None:
    reply = AIMessage("", tool_calls=[ToolCall("add", {"a": 40}, id="c1")])
    (call,) = reply.tool_calls
    assert add.invoke(call) == ToolMessage("42", tool_call_id="c1", name="add")


def test_tool_call_without_id_gives_the_raw_output_as_the_peer() -> None:
    assert add.invoke({"name": "add", "args": {"a": 1}, "id": None, "type": "tool_call"}) == 3


def test_tool_message_content_is_text_json_or_str() -> None:
    @tool
    def info(kind: str) -> object:
        """Info."""
        return {
            "text": "t",
            "json": {"k": [1, "é"]},
            "blocks": [{"type": "text", "text": "b"}],
            "other": Span(1, 2),
            "message": ToolMessage("kept", tool_call_id="own"),
        }[kind]

    def call(kind: str) -> Any:
        return info.invoke({"name": "info", "args": {"kind": kind}, "id": "i", "type": "tool_call"})

    assert call("text").content == "t"
    assert call("json").content == '{"k": [1, "é"]}'
    assert call("blocks").content == ({"type": "text", "text": "b"},)
    assert call("other").content == "Span(start=1, end=2)"
    assert call("message") == ToolMessage("kept", tool_call_id="own")


def test_attrs_parameter_receives_an_instance() -> None:
    @tool
    def length(span: Span) -> int:
        """Length of a span."""
        return span.end - span.start

    assert length.invoke({"span": {"start": 2, "end": 7}}) == 5
    with pytest.raises(ToolArgumentsError, match=r"\$\.span: 'extra' was unexpected|Additional properties"):
        length.invoke({"span": {"start": 2, "end": 7, "extra": 1}})


def test_single_input_tool_sync_and_async() -> None:
    async def ashout(text: str) -> str:
        return text.lower()

    t = Tool("shout", shout, "Shout.", coroutine=ashout)
    assert t.invoke("a") == "A!"
    assert asyncio.run(t.ainvoke("B")) == "b"
    call = {"name": "shout", "args": {"__arg1": "x"}, "id": "s1", "type": "tool_call"}
    assert t.invoke(call) == ToolMessage("X!", tool_call_id="s1", name="shout")
    assert asyncio.run(Tool("a", None, "A.", coroutine=ashout).ainvoke("Q")) == "q"


def test_as_tool_on_a_typed_lambda() -> None:
    t = RunnableLambda(add_pair).as_tool(description="Add a pair.")
    assert t.name == "add_pair" and t.description == "Add a pair."
    assert t.tool_call_schema() == {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
        "additionalProperties": False,
        "title": "add_pair",
    }
    assert t.invoke({"a": 2, "b": 3}) == 5
    # the core tool answers a tool call with the raw output
    assert t.invoke({"name": "add_pair", "args": {"a": 1, "b": 1}, "id": "x", "type": "tool_call"}) == 2
    assert repr(t) == "RunnableLambda(add_pair).as_tool(name='add_pair')"


def test_as_tool_default_description_is_the_peers() -> None:
    t = RunnableLambda(add_pair).as_tool()
    assert t.description == f"Takes {RunnableLambda(add_pair).input_schema()}."


def test_as_tool_on_a_sequence() -> None:
    def double(n: int) -> int:
        return n * 2

    chain = RunnableLambda(add_pair) | double
    t = chain.as_tool(name="add_double", description="Add, then double.")
    assert t.invoke({"a": 1, "b": 2}) == 6
    assert asyncio.run(t.ainvoke({"a": 1, "b": 1})) == 4
    assert repr(t) == "(RunnableLambda(add_pair) | RunnableLambda(double)).as_tool(name='add_double')"
    assert t.output_schema()["type"] == "integer"


def test_as_tool_on_a_str_input_is_a_single_input_tool() -> None:
    t = RunnableLambda(shout).as_tool()
    assert t.args == {"__arg1": {"type": "string"}}
    assert t.invoke("hi") == "HI!"
    assert t.invoke({"text": "yo"}) == "YO!"
    with pytest.raises(ToolArgumentsError):
        t.invoke({"text": 1})


def times_ten(d: Any) -> Any:
    return d["a"] * 10


def test_as_tool_with_args_schema_and_arg_types() -> None:
    untyped = RunnableLambda(times_ten)
    with pytest.raises(InputError, match="pass args_schema= or arg_types="):
        untyped.as_tool(name="times")
    by_type = untyped.as_tool(name="times", args_schema=Pair)
    assert by_type.invoke({"a": 2, "b": 0}) == 20
    by_dict = untyped.as_tool(name="times", args_schema={"type": "object", "properties": {"a": {"type": "integer"}}})
    assert by_dict.invoke({"a": 3}) == 30
    by_arg_types = untyped.as_tool(name="times", arg_types={"a": int})
    assert by_arg_types.invoke({"a": 4}) == 40
    with pytest.raises(ToolArgumentsError, match="'a' is a required property"):
        by_arg_types.invoke({})
    with pytest.raises(InputError, match="must describe an object"):
        untyped.as_tool(name="times", args_schema=int)


def test_batch_keeps_order_and_reports_bad_arguments_per_item() -> None:
    results = add.batch([{"a": 1}, {"a": "x"}, {"a": 3, "b": 3}], return_exceptions=True)
    assert results[0] == 3 and results[2] == 6
    assert isinstance(results[1], ToolArgumentsError)
    assert asyncio.run(aadd.abatch([{"a": 1}, {"a": 2}])) == [3, 4]
    assert add.batch([{"a": 1}, {"a": 2}], {"max_concurrency": 1}) == [3, 4]


def test_as_tool_under_max_concurrency_one_does_not_deadlock() -> None:
    t = (RunnableLambda(add_pair) | RunnableLambda(abs)).as_tool(name="t")
    assert t.batch([{"a": 1, "b": 1}, {"a": -5, "b": 1}], {"max_concurrency": 1}) == [2, 4]
    assert asyncio.run(t.abatch([{"a": 1, "b": 1}], {"max_concurrency": 1})) == [2]


def test_stream_gives_one_chunk() -> None:
    assert list(add.stream({"a": 5})) == [7]


def test_tools_are_values() -> None:
    assert add == StructuredTool.from_function(add.func, description="Add two numbers.")  # type: ignore[arg-type]
    assert hash(add) == hash(StructuredTool.from_function(add.func, description="Add two numbers."))  # type: ignore[arg-type]
    assert add != tool("plus", description="Add two numbers.")(add.func)  # type: ignore[arg-type]
    assert repr(add) == "RunnableTool.from_function(add, name='add')"
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        add.description = "x"  # type: ignore[misc]


def _plain_add(a: int, b: int = 2) -> int:
    """Add two numbers."""
    return a + b


@pytest.mark.parametrize("module", [pickle, cloudpickle], ids=["pickle", "cloudpickle"])
def test_tools_survive_pickling(module: Any) -> None:
    def roundtrip(value: RunnableTool[Any]) -> RunnableTool[Any]:
        again: RunnableTool[Any] = module.loads(module.dumps(value))
        return again

    plain = tool(_plain_add)
    again = roundtrip(plain)
    assert again == plain and again.invoke({"a": 1}) == 3
    with pytest.raises(ToolArgumentsError):
        again.invoke({"a": "x"})
    wrapped = RunnableLambda(add_pair).as_tool()
    assert roundtrip(wrapped) == wrapped
    assert roundtrip(Tool("shout", shout, "Shout.")).invoke("x") == "X!"
