"""ScriptedChatModel: scripted replies, functions of the messages, ids, exhaustion."""

from __future__ import annotations

import asyncio
import pickle
from functools import reduce
from operator import add

import cloudpickle  # type: ignore[import-untyped]
import pytest

from combinators.language_models import ScriptedChatModel, ScriptExhaustedError
from combinators.messages import AIMessage, AIMessageChunk, HumanMessage, Message, ToolCall


def test_replies_in_order_messages_and_strings() -> None:
    model = ScriptedChatModel(["one", AIMessage("two")])
    assert [model.invoke("a").text, model.invoke("b").text] == ["one", "two"]
    assert [c.messages for c in model.calls] == [(HumanMessage("a"),), (HumanMessage("b"),)]


def test_a_function_of_the_messages_makes_the_reply() -> None:
    def echo(messages: list[Message]) -> str:
        return f"{len(messages)} messages, last {messages[-1].text!r}"

    assert (
        ScriptedChatModel([echo]).invoke([("human", "x"), ("ai", "y"), ("human", "z")]).text == "3 messages, last 'z'"
    )


def test_a_scripted_error_is_raised() -> None:
    model = ScriptedChatModel([ConnectionError("down"), "up"])
    with pytest.raises(ConnectionError, match="down"):
        model.invoke("a")
    assert model.invoke("b").text == "up"


def test_every_call_gets_a_fresh_message_id_and_scripted_call_ids_are_kept() -> None:
    reply = AIMessage("", id="fixed", tool_calls=[ToolCall("f", {}, id="mine"), ToolCall("g", {})])
    model = ScriptedChatModel([reply, reply])
    first, second = model.invoke("a"), model.invoke("b")
    assert first.id != second.id and "fixed" not in (first.id, second.id)
    assert first.tool_calls[0].id == second.tool_calls[0].id == "mine"
    made = {first.tool_calls[1].id, second.tool_calls[1].id}
    assert None not in made and len(made) == 2


def test_running_out_is_a_clear_error() -> None:
    model = ScriptedChatModel(["only"])
    model.invoke("a")
    with pytest.raises(ScriptExhaustedError, match="called 2 times but its script has 1 replies"):
        model.invoke("b")
    assert issubclass(ScriptExhaustedError, IndexError)


def test_streams_add_up_to_the_reply_sync_and_async() -> None:
    reply = AIMessage("a b", tool_calls=[ToolCall("f", {"x": 1}, id="c")])
    chunks = list(ScriptedChatModel([reply]).stream("q"))
    total = reduce(add, chunks)
    assert isinstance(total, AIMessageChunk)
    assert (total.text, total.to_message().tool_calls) == ("a b", reply.tool_calls)

    async def achunks() -> list[AIMessageChunk]:
        return [c async for c in ScriptedChatModel([reply]).astream("q")]  # type: ignore[misc]

    assert [c.text for c in asyncio.run(achunks())] == [c.text for c in chunks]


def test_a_copy_starts_the_script_afresh() -> None:
    model = ScriptedChatModel(["one", "two"])
    model.invoke("a")
    copy = pickle.loads(cloudpickle.dumps(model))
    assert copy == model and copy.invoke("a").text == "one" and model.invoke("b").text == "two"
