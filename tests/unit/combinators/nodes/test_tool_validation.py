"""Arguments are validated against the schema before anything runs."""

from __future__ import annotations

import asyncio
import pickle
from typing import Any, TypedDict

import pytest

from combinators import CombinatorsError, RunnableLambda
from combinators.components.messages.message_classes import ToolMessage
from combinators.components.tools.message_tools import Tool, tool
from combinators.nodes.tool import RunnableTool, ToolArgumentsError


class Item(TypedDict):
    sku: str
    qty: int


class Args(TypedDict):
    path: str


class Spy:
    """Records every call, so a test can show that nothing ran."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def make(self) -> RunnableTool[int | ToolMessage]:
        @tool
        def transfer(account: str, amount: int, memo: str | None = None) -> int:
            """Move money."""
            self.calls.append({"account": account, "amount": amount, "memo": memo})
            return amount

        return transfer


def violations(error: pytest.ExceptionInfo[ToolArgumentsError]) -> list[tuple[str, str]]:
    return list(error.value.violations)


def test_wrong_type_names_the_tool_and_the_path_and_the_function_is_not_called() -> None:
    spy = Spy()
    with pytest.raises(ToolArgumentsError) as caught:
        spy.make().invoke({"account": "a1", "amount": "100"})
    assert spy.calls == []
    assert caught.value.tool == "transfer"
    assert violations(caught) == [("$.amount", "'100' is not of type 'integer'")]
    assert str(caught.value) == ("tool 'transfer' got invalid arguments:\n  $.amount: '100' is not of type 'integer'")


def test_every_violation_is_listed() -> None:
    spy = Spy()
    with pytest.raises(ToolArgumentsError) as caught:
        spy.make().invoke({"amount": 1.5, "memo": 3, "admin": True})
    found = violations(caught)
    assert ("$", "'account' is a required property") in found
    assert ("$.amount", "1.5 is not of type 'integer'") in found
    assert ("$.memo", "3 is not valid under any of the given schemas") in found
    assert any(path == "$" and "'admin' was unexpected" in message for path, message in found)
    assert len(found) == 4
    assert spy.calls == []


def test_nested_paths_show_keys_and_indexes() -> None:
    calls: list[object] = []

    @tool
    def order(items: list[Item]) -> int:
        """Order items."""
        calls.append(items)
        return len(items)

    with pytest.raises(ToolArgumentsError) as caught:
        order.invoke({"items": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": "two"}]})
    assert violations(caught) == [("$.items[1].qty", "'two' is not of type 'integer'")]
    assert calls == []
    assert order.invoke({"items": [{"sku": "a", "qty": 1}]}) == 1


def test_async_tool_is_not_awaited_on_bad_arguments() -> None:
    calls: list[int] = []

    @tool
    async def slow(n: int) -> int:
        """Slow."""
        calls.append(n)
        return n

    with pytest.raises(ToolArgumentsError, match=r"\$\.n: None is not of type 'integer'"):
        asyncio.run(slow.ainvoke({"n": None}))
    assert calls == []


def test_a_tool_call_with_bad_arguments_raises_and_does_not_run() -> None:
    spy = Spy()
    call = {"name": "transfer", "args": {"account": 1, "amount": 5}, "id": "c1", "type": "tool_call"}
    with pytest.raises(ToolArgumentsError, match=r"\$\.account: 1 is not of type 'string'"):
        spy.make().invoke(call)
    assert spy.calls == []


def test_security_nothing_runs_before_validation_in_a_runnable_tool() -> None:
    # The wrapped runnable must not even start: no side effect, no child run.
    ran: list[object] = []

    def delete(args: Args) -> str:
        ran.append(args)
        return "deleted " + args["path"]

    remove = RunnableLambda(delete).as_tool(name="delete", description="Delete a file.")
    hostile: list[Any] = [
        {"path": ["/", "etc"]},
        {"path": "/tmp/x", "recursive": True},
        {},
        {"path": None},
        "rm -rf /",  # a str goes to the first argument, which is fine here...
    ]
    for arguments in hostile[:-1]:
        with pytest.raises(ToolArgumentsError):
            remove.invoke(arguments)
    events: list[str] = []
    with pytest.raises(ToolArgumentsError):
        for event in remove.stream_events({"path": 1}):
            events.append(event["event"])
    assert ran == []
    assert events == ["on_tool_start", "on_tool_error"]  # no child run started
    assert remove.invoke(hostile[-1]) == "deleted rm -rf /"  # ...and runs only once valid
    assert ran == [{"path": "rm -rf /"}]


def test_security_unknown_arguments_cannot_reach_the_function() -> None:
    spy = Spy()
    with pytest.raises(ToolArgumentsError, match="'__class__' was unexpected"):
        spy.make().invoke({"account": "a", "amount": 1, "__class__": "x"})
    assert spy.calls == []


def test_huge_values_are_shortened_in_the_message() -> None:
    spy = Spy()
    with pytest.raises(ToolArgumentsError) as caught:
        spy.make().invoke({"account": "a", "amount": "9" * 10_000})
    ((_, message),) = caught.value.violations
    assert len(message) <= 200 and message.endswith("...")


def test_str_input_goes_to_the_first_argument_and_is_validated() -> None:
    @tool
    def square(n: int) -> int:
        """Square."""
        return n * n

    with pytest.raises(ToolArgumentsError, match=r"\$\.n: '3' is not of type 'integer'"):
        square.invoke("3")

    @tool
    def upper(text: str) -> str:
        """Upper."""
        return text.upper()

    assert upper.invoke("ab") == "AB"


def test_a_tool_without_arguments_refuses_a_str() -> None:
    @tool
    def now() -> str:
        """Now."""
        return "noon"

    assert now.invoke({}) == "noon"
    with pytest.raises(ToolArgumentsError, match="takes no arguments"):
        now.invoke("x")
    with pytest.raises(ToolArgumentsError, match="'x' was unexpected"):
        now.invoke({"x": 1})


def test_single_input_tool_takes_one_string() -> None:
    seen: list[str] = []

    def record(text: str) -> str:
        seen.append(text)
        return text

    t = Tool("record", record, "Record.")
    assert t.invoke("a") == "a"
    assert t.invoke({"query": "b"}) == "b"  # any single key, as the peer
    with pytest.raises(ToolArgumentsError, match=r"\$.__arg1: 3 is not of type 'string'"):
        t.invoke({"query": 3})
    with pytest.raises(ToolArgumentsError):
        t.invoke({"a": "x", "b": "y"})
    assert seen == ["a", "b"]


def test_error_is_a_value_error_and_a_combinators_error_and_pickles() -> None:
    spy = Spy()
    with pytest.raises(ToolArgumentsError) as caught:
        spy.make().invoke({"account": "a"})
    error = caught.value
    assert isinstance(error, ValueError) and isinstance(error, CombinatorsError)
    again = pickle.loads(pickle.dumps(error))
    assert (again.tool, again.violations, str(again)) == (error.tool, error.violations, str(error))


def test_validation_does_not_mutate_or_keep_the_callers_dict() -> None:
    @tool
    def keep(a: list[int]) -> list[int]:
        """Keep."""
        return a

    given = {"a": [1]}
    keep.invoke(given)
    assert given == {"a": [1]}


def test_input_that_is_neither_arguments_nor_a_call_is_an_input_error() -> None:
    spy = Spy()
    with pytest.raises(TypeError, match="tool 'transfer' expects a dict of arguments, a str or a tool call, got int"):
        spy.make().invoke(5)  # type: ignore[arg-type]
