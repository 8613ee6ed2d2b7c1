"""LangServe's wire format: each table class as its field dict and `type` tag, read back
only when a dict validates as that class; the documented forms of the values LangChain
has no class for; the older envelope still loads."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from returns.result import Failure, Success

from combinators._support.langchain_types import AGENT_TYPES, GENERATION_TYPES, VALUE_TYPES, WIRE_TAGS
from combinators.agents import ToolAgentAction, ToolAgentStep
from combinators.components.agents.steps import STOP_TYPES, Finished, Halted, MaxIterations, ReturnedDirect, TimedOut
from combinators.components.agents.steps import AgentResult, AgentStep, ToolOutcome
from combinators.components.serialization import to_data
from combinators.documents import Document
from combinators.integrations.serving import from_wire, to_wire
from combinators.integrations.serving.wire import from_request
from combinators.messages import (
    AIMessage,
    AIMessageChunk,
    ChatMessage,
    FunctionMessage,
    HumanMessage,
    SystemMessage,
    ToolCall,
    ToolCallChunk,
    ToolMessage,
)
from combinators.outputs import ChatGeneration, Generation
from combinators.prompt_values import ChatPromptValue, StringPromptValue

CALL = ToolCall("add", {"a": 1}, id="c1")
VALUES: dict[str, object] = {
    "human": HumanMessage("hi", id="h1", name="ann"),
    "system": SystemMessage("be brief"),
    "ai": AIMessage("", tool_calls=[CALL], usage_metadata={"input_tokens": 1, "output_tokens": 2, "total_tokens": 3}),
    "AIMessageChunk": AIMessageChunk("to", tool_call_chunks=[ToolCallChunk("add", '{"a": 1', "c1", 0)]),
    "tool": ToolMessage("2", tool_call_id="c1", status="error", artifact={"raw": 2}),
    "chat": ChatMessage("hey", role="critic"),
    "function": FunctionMessage("42", name="multiply"),
    "Document": Document("fog", metadata={"page": 1}, id="d1"),
    "StringPromptValue": StringPromptValue("tell me"),
    "ChatPromptValueConcrete": ChatPromptValue([SystemMessage("s"), HumanMessage("q")]),
    "Generation": Generation("g", generation_info={"finish_reason": "stop"}),
    "ChatGeneration": ChatGeneration(AIMessage("m")),
    "AgentActionMessageLog": ToolAgentAction("add", {"a": 1}, "log", [AIMessageChunk("", id="m1")], "c1"),
}


def test_every_tag_of_the_table_is_covered() -> None:
    assert set(VALUES) == set(WIRE_TAGS)
    tags = {v.tag for v in (*VALUE_TYPES.values(), *GENERATION_TYPES.values(), *AGENT_TYPES.values())}
    assert tags - {""} == set(WIRE_TAGS)


@pytest.mark.parametrize("tag", sorted(VALUES))
def test_each_value_is_its_field_dict_with_its_tag_and_reads_back(tag: str) -> None:
    value = VALUES[tag]
    wire = json.loads(json.dumps(to_wire(value)))
    assert wire["type"] == tag
    entry = WIRE_TAGS[tag]
    assert set(wire) == {*entry.fields, *entry.derived, "type"}
    assert "__combinators__" not in json.dumps(wire)
    assert from_wire(wire) == value
    assert type(from_wire(wire)) is type(value)


def test_agent_executors_values_are_langchains_dumps() -> None:
    """As LangServe writes them (probed): a field LangChain declares as a base class carries
    only that base's keys (a message in ``message_log``, a step's ``action``); a step has no tag."""
    asked = AIMessageChunk("", id="m1", tool_call_chunks=[ToolCallChunk("add", '{"a": 1}', "c1", 0)])
    action = ToolAgentAction("add", {"a": 1}, "\nInvoking: `add` with `{'a': 1}`\n\n\n", [asked], "c1")
    base_message: dict[str, object] = {"content": "", "additional_kwargs": {}, "response_metadata": {}, "type": "AIMessageChunk",
                    "name": None, "id": "m1"}  # fmt: skip
    assert to_wire(action) == {
        "tool": "add", "tool_input": {"a": 1}, "log": action.log, "type": "AgentActionMessageLog",
        "message_log": [base_message], "tool_call_id": "c1",
    }  # fmt: skip
    step = to_wire(ToolAgentStep(action, 1))
    assert step == {"action": {"tool": "add", "tool_input": {"a": 1}, "log": action.log, "type": "AgentActionMessageLog"},
                    "observation": 1}  # fmt: skip
    # read back: the action (its message without its calls, as LangChain's client gets it); the step stays data
    assert from_wire(to_wire(action)) == ToolAgentAction(
        "add", {"a": 1}, action.log, [AIMessageChunk("", id="m1")], "c1"
    )
    assert from_wire(step) == step
    # a plain AgentActionMessageLog (no tool_call_id) has no class here: it stays data
    plain: dict[str, object] = {
        "tool": "add",
        "tool_input": {},
        "log": "",
        "message_log": [],
        "type": "AgentActionMessageLog",
    }
    assert from_wire(plain) == plain


def test_message_parts_are_langchains_typed_dicts() -> None:
    ai = to_wire(VALUES["ai"])
    assert isinstance(ai, dict)
    assert ai["tool_calls"] == [{"name": "add", "args": {"a": 1}, "id": "c1", "type": "tool_call"}]
    assert ai["usage_metadata"] == {"input_tokens": 1, "output_tokens": 2, "total_tokens": 3}
    chunk = to_wire(VALUES["AIMessageChunk"])
    assert isinstance(chunk, dict)
    assert chunk["tool_call_chunks"] == [
        {"name": "add", "args": '{"a": 1', "id": "c1", "index": 0, "type": "tool_call_chunk"}
    ]
    assert chunk["tool_calls"] == [{"name": "add", "args": {"a": 1}, "id": "c1", "type": "tool_call"}]


@given(st.text(), st.sampled_from(["human", "system", "ai", "AIMessageChunk"]), st.none() | st.text(max_size=5))
def test_a_message_dict_reads_as_that_message(content: str, tag: str, message_id: str | None) -> None:
    read = from_request({"messages": [{"type": tag, "content": content, "id": message_id, "example": False}]})
    assert isinstance(read, dict)
    (message,) = read["messages"]
    assert type(message).__name__ == WIRE_TAGS[tag].name and message.content == content and message.id == message_id


@pytest.mark.parametrize(
    "data",
    [
        {"type": "human", "content": "hi", "password": "x"},  # a key the class does not have
        {"type": "human", "content": 5},  # a value its constructor refuses
        {"type": "human"},  # a required field missing
        {"type": "tool", "content": "x"},  # no tool_call_id
        {"type": "human", "content": "hi", "example": True},  # LangChain's example flag, set
        {"type": "Document", "page_content": 3},
        {"type": "function", "content": "x"},  # a function message needs its name
        {"type": "HumanMessage", "content": "hi", "additional_kwargs": {}},  # not a wire tag
        {"type": "ChatPromptValue", "messages": []},  # LangServe reads only the concrete tag
        {"content": "hi", "additional_kwargs": {}},  # no tag at all
    ],
)
def test_a_dict_that_does_not_validate_stays_the_dict(data: dict[str, Any]) -> None:
    assert from_request(data) == data


def test_only_allowlisted_classes_are_built() -> None:
    from combinators.integrations.serving.wire import WireTypes

    assert from_wire({"type": "human", "content": "hi"}, WireTypes([AIMessage])) == {"type": "human", "content": "hi"}


def test_records_of_the_older_envelope_still_load() -> None:
    old = to_data({"history": [HumanMessage("q"), AIMessage("a")], "doc": Document("fog")})
    assert isinstance(old, dict) and old["doc"]["__combinators__"] == 1
    assert from_wire(old) == {"history": [HumanMessage("q"), AIMessage("a")], "doc": Document("fog")}
    assert from_request(old) == from_wire(old)


def _forms(value: object) -> list[dict[str, Any]]:
    """Every dict in a wire value."""
    if isinstance(value, list):
        return [form for item in value for form in _forms(item)]
    if isinstance(value, dict):
        return [value, *(form for item in value.values() for form in _forms(item))]
    return []


def _result() -> AgentResult:
    ok = ToolOutcome(CALL, Success(2), ToolMessage("2", tool_call_id="c1"))
    failed = ToolOutcome(CALL, Failure(ValueError("no")), ToolMessage("no", tool_call_id="c1", status="error"))
    asked = AIMessage("", tool_calls=[CALL])
    return AgentResult(
        "2", (HumanMessage("1+1?"), asked, ok.message, AIMessage("2")), (AgentStep(asked, (ok, failed)),), Finished()
    )


def test_an_agent_result_has_its_documented_form() -> None:
    wire = json.loads(json.dumps(to_wire(_result())))
    assert list(wire) == ["kind", "output", "steps", "conversation", "stop"]
    assert wire["kind"] == "agent_result" and wire["output"] == "2" and wire["stop"] == {"kind": "finished"}
    (step,) = wire["steps"]
    assert step["kind"] == "agent_step" and step["message"]["type"] == "ai"
    ok, failed = step["outcomes"]
    expected: dict[str, Any] = {
        "kind": "tool_outcome",
        "call": {"name": "add", "args": {"a": 1}, "id": "c1", "type": "tool_call"},
        "result": {"ok": True, "value": 2},
        "message": to_wire(ToolMessage("2", tool_call_id="c1")),
    }
    assert ok == expected
    assert failed["result"]["ok"] is False and failed["result"]["error"]["error_type"] == "ValueError"
    assert [m["type"] for m in wire["conversation"]] == ["human", "ai", "tool", "ai"]
    assert "repr" not in json.dumps(wire)


@pytest.mark.parametrize(
    "value",
    [
        _result(),
        Success({"a": 1}),
        Failure(KeyError("k")),
        *[Finished(), MaxIterations(3), TimedOut(1.5)],
        ReturnedDirect("search"),
        Halted(ValueError("x")),
    ],
)
def test_documented_forms_never_look_like_a_langchain_value(value: object) -> None:
    wire = to_wire(value)
    assert isinstance(wire, dict)
    assert "text" not in wire and "messages" not in wire
    for form in _forms(wire):
        keys = set(form)
        if form.get("type") in WIRE_TAGS:
            continue  # a real message inside (the conversation, a step's message)
        assert not {"content", "type", "additional_kwargs"} <= keys and not {"page_content", "metadata"} <= keys
        assert "repr" not in form


def test_every_stop_reason_has_a_form() -> None:
    assert {
        type(v) for v in (Finished(), MaxIterations(3), TimedOut(1.0), ReturnedDirect("t"), Halted(ValueError()))
    } == set(STOP_TYPES)
    assert to_wire(MaxIterations(3)) == {"kind": "max_iterations", "n": 3}
    assert to_wire(ReturnedDirect("search")) == {"kind": "returned_direct", "tool": "search"}


def _langchain_dumps() -> dict[str, tuple[dict[str, Any], object]]:
    """What LangServe writes (``model_dump()``) for LangChain's chunk classes we have no class
    for, and what each is read as here."""
    lc_messages = pytest.importorskip("langchain_core.messages")
    lc_outputs = pytest.importorskip("langchain_core.outputs")
    return {
        "HumanMessageChunk": (lc_messages.HumanMessageChunk(content="hi").model_dump(), HumanMessage("hi")),
        "SystemMessageChunk": (lc_messages.SystemMessageChunk(content="s").model_dump(), SystemMessage("s")),
        "ChatMessageChunk": (
            lc_messages.ChatMessageChunk(content="c", role="r").model_dump(),
            ChatMessage("c", role="r"),
        ),
        "ToolMessageChunk": (
            lc_messages.ToolMessageChunk(content="2", tool_call_id="c1").model_dump(),
            ToolMessage("2", tool_call_id="c1"),
        ),
        "FunctionMessageChunk": (
            lc_messages.FunctionMessageChunk(content="2", name="f").model_dump(),
            FunctionMessage("2", name="f"),
        ),
        "ChatGenerationChunk": (
            lc_outputs.ChatGenerationChunk(message=lc_messages.AIMessageChunk(content="m")).model_dump(),
            ChatGeneration(AIMessageChunk("m")),
        ),
    }


@pytest.mark.parametrize(
    "tag",
    ["HumanMessageChunk", "SystemMessageChunk", "ChatMessageChunk", "ToolMessageChunk", "FunctionMessageChunk",
     "ChatGenerationChunk"],
)  # fmt: skip
def test_langchains_other_chunks_are_read_as_the_class_they_subclass(tag: str) -> None:
    dumped, expected = _langchain_dumps()[tag]
    assert dumped["type"] == tag
    read = from_wire(json.loads(json.dumps(dumped)))
    assert read == expected and type(read) is type(expected)


@pytest.mark.parametrize(
    "data",
    [
        {"return_values": {"output": "42"}, "log": "42", "type": "AgentFinish"},  # no class here
        {"tool": "add", "tool_input": {}, "log": "", "type": "AgentAction"},  # no class here
        {"generations": [], "llm_output": None, "run": None, "type": "LLMResult"},  # no class here
        # a step's action as LangChain dumps it (declared as AgentAction): no message_log
        {"tool": "add", "tool_input": {}, "log": "", "type": "AgentActionMessageLog"},
        # a tool message dumped as a BaseMessage (in a prompt value): no tool_call_id
        {"content": "2", "additional_kwargs": {}, "response_metadata": {}, "type": "tool", "name": None, "id": None},
    ],
)
def test_what_langserve_revives_and_we_have_no_class_for_stays_a_dict(data: dict[str, Any]) -> None:
    assert from_wire(data) == data
