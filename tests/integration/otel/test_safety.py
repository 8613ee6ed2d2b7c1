"""Safe by default: no content unless asked, and secrets never, in any capture mode."""

from __future__ import annotations

import json
from typing import Any, get_args

import jsonschema
import pytest

from combinators import RunnableLambda
from combinators.messages import ToolCall
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate
from combinators.secrets import Secret
from combinators.tools import tool
from combinators.integrations.otel import CaptureMode, OtelConfig
from combinators import dispatch_custom_event
from tests.integration.otel.models import ChatAcme, ChatLocked
from tests.integration.otel.support import Traced, texts

SENTINEL = "sentinel-7f3a-do-not-record"
OPENAI_KEY = "sk-proj-" + "A1b2C3d4E5f6G7h8"
BEARER = "Bearer tok.abc.123-xyz"
AWS_KEY = "AKIA" + "ABCDEFGHIJKLMNOP"
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
PRIVATE_KEY = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----"
HIDDEN = "hunter2-plain-secret"
SECRETS = (OPENAI_KEY, BEARER.split()[1], AWS_KEY, JWT, "MIIEvQIBADANBg", HIDDEN, "sk-acme-0123456789abcdef",
           "sk-live-0123456789abcdef")  # fmt: skip
MODES: tuple[CaptureMode, ...] = get_args(CaptureMode)


def every_text(traced: Traced) -> list[str]:
    return [text for span in traced.spans for text in texts(span)]


def leaky_chain() -> Any:
    """A chain whose input, metadata, steps, events and errors all carry secrets."""

    @tool
    def lookup(query: str) -> str:
        """Look something up."""
        return f"found {query} with {AWS_KEY}"

    def prepare(payload: dict[str, Any]) -> str:
        dispatch_custom_event("prepared", {"auth": BEARER, "pem": PRIVATE_KEY, "key": payload["key"]})
        return f"{payload['question']} {JWT}"

    def ask_tool(question: str) -> ToolCall:
        return ToolCall("lookup", {"query": question}, id="call_1")

    prompt = ChatPromptTemplate.from_messages([("system", f"use {OPENAI_KEY}"), ("human", "{q}")])
    return (
        RunnableLambda(prepare)
        | {"q": RunnableLambda(lambda q: q), "tool": RunnableLambda(ask_tool) | lookup}
        | prompt
        | ChatAcme()
        | StrOutputParser()
    )


def failing_chain() -> Any:
    def fail(x: object) -> str:
        raise RuntimeError(f"upstream said: {BEARER} / {OPENAI_KEY} / {JWT} for {x}")

    return RunnableLambda(str) | RunnableLambda(fail)


def run_all(traced: Traced, config: OtelConfig) -> None:
    metadata = {"api_key": OPENAI_KEY, "note": f"see {AWS_KEY}", "user": "ann"}
    payload = {"question": f"why {SENTINEL}?", "key": Secret(HIDDEN)}
    chain = leaky_chain().with_tracing(traced.tracer, config)
    chain.invoke(payload, {"metadata": metadata})
    list(chain.stream(payload, {"metadata": metadata}))
    with pytest.raises(RuntimeError):
        failing_chain().with_tracing(traced.tracer, config).invoke(SENTINEL)
    with pytest.raises(PermissionError):
        ChatLocked().with_tracing(traced.tracer, config).invoke(SENTINEL)


def test_with_capture_off_no_input_is_recorded(traced: Traced) -> None:
    run_all(traced, OtelConfig())
    recorded = every_text(traced)
    assert len(traced.spans) > 20
    assert [text for text in recorded if SENTINEL in text] == []
    assert not any(key.startswith(("lcel.input", "lcel.output", "gen_ai.input", "gen_ai.output"))
                   for span in traced.spans for key in span.attributes or {})  # fmt: skip


@pytest.mark.parametrize("mode", MODES)
def test_secrets_never_show_in_any_capture_mode(traced: Traced, mode: CaptureMode) -> None:
    config = OtelConfig(capture=mode, metadata_keys=("api_key", "note", "user"))
    run_all(traced, config)
    recorded = every_text(traced)
    leaks = [(secret, text) for text in recorded for secret in SECRETS if secret in text]
    assert leaks == []
    if mode != "none":
        # capture is on: the content is there (so the absence above means something)
        assert any(SENTINEL in text for text in recorded)
        assert any("[REDACTED]" in text for text in recorded)
    assert "lcel.metadata.user='ann'" in recorded
    assert not any(text.startswith("lcel.metadata.api_key") for text in recorded)


def test_exception_messages_are_recorded_only_with_capture_and_then_redacted(traced: Traced) -> None:
    for config in (OtelConfig(), OtelConfig(capture="span")):
        with pytest.raises(RuntimeError):
            failing_chain().with_tracing(traced.tracer, config).invoke(SENTINEL)
    quiet, loud = (span for span in traced.spans if span.name == "fail")
    assert [dict(event.attributes or {}) for event in quiet.events] == [{"exception.type": "RuntimeError"}]
    [event] = loud.events
    message = str((event.attributes or {})["exception.message"])
    assert message == f"upstream said: [REDACTED] / [REDACTED] / [REDACTED] for {SENTINEL}"
    assert "Traceback" in str((event.attributes or {})["exception.stacktrace"])
    assert loud.status.description == "RuntimeError"


# The GenAI conventions' message shapes (written from their documentation): what we emit
# must validate against these.
PART: dict[str, Any] = {
    "type": "object",
    "required": ["type"],
    "properties": {"type": {"type": "string"}},
    "allOf": [
        {"if": {"properties": {"type": {"const": "text"}}},
         "then": {"required": ["content"], "properties": {"content": {"type": "string"}}}},
        {"if": {"properties": {"type": {"const": "tool_call"}}},
         "then": {"required": ["name"], "properties": {"name": {"type": "string"},
                                                       "id": {"type": ["string", "null"]}}}},
        {"if": {"properties": {"type": {"const": "tool_call_response"}}},
         "then": {"required": ["response"]}},
    ],
}  # fmt: skip
MESSAGE: dict[str, Any] = {
    "type": "object",
    "required": ["role", "parts"],
    "properties": {
        "role": {"enum": ["system", "user", "assistant", "tool"]},
        "parts": {"type": "array", "items": PART},
        "name": {"type": ["string", "null"]},
    },
}
INPUT_MESSAGES = {"type": "array", "items": MESSAGE}
OUTPUT_MESSAGES = {
    "type": "array",
    "items": {**MESSAGE, "required": ["role", "parts", "finish_reason"]},
}


def test_captured_messages_follow_the_genai_shapes(traced: Traced) -> None:
    from combinators.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

    history = [
        SystemMessage("Be brief."),
        HumanMessage("add 1 and 2"),
        AIMessage("", tool_calls=[{"name": "add", "args": {"a": 1, "b": 2}, "id": "c1"}]),
        ToolMessage("3", tool_call_id="c1"),
        HumanMessage([{"type": "text", "text": "and now?"}]),
    ]
    ChatAcme().with_tracing(traced.tracer, OtelConfig(capture="span")).invoke(history)

    list(ChatAcme().with_tracing(traced.tracer, OtelConfig(capture="span")).stream("a b"))
    for span in traced.spans:
        attributes = span.attributes or {}
        inputs = json.loads(str(attributes["gen_ai.input.messages"]))
        outputs = json.loads(str(attributes["gen_ai.output.messages"]))
        jsonschema.validate(inputs, INPUT_MESSAGES)
        jsonschema.validate(outputs, OUTPUT_MESSAGES)
    first = json.loads(str((traced.spans[0].attributes or {})["gen_ai.input.messages"]))
    assert [m["role"] for m in first] == ["system", "user", "assistant", "tool", "user"]
    assert first[2]["parts"] == [{"type": "tool_call", "id": "c1", "name": "add", "arguments": {"a": 1, "b": 2}}]
    assert first[3]["parts"] == [{"type": "tool_call_response", "id": "c1", "response": "3"}]
    streamed = json.loads(str((traced.spans[1].attributes or {})["gen_ai.output.messages"]))
    assert streamed == [{"role": "assistant", "parts": [{"type": "text", "content": "A B "}],
                         "finish_reason": "length"}]  # fmt: skip


def test_content_is_cut_to_the_configured_size_keeping_json(traced: Traced) -> None:
    config = OtelConfig(capture="span", max_content_chars=120)
    RunnableLambda(lambda x: x).with_tracing(traced.tracer, config).invoke({"text": "x" * 1000, "n": list(range(300))})
    [span] = traced.spans
    for key in ("lcel.input", "lcel.output"):
        text = str((span.attributes or {})[key])
        assert len(text) <= 120
        assert isinstance(json.loads(text), dict)


def test_event_mode_puts_content_in_events_not_attributes(traced: Traced) -> None:
    with pytest.raises(PermissionError):
        ChatLocked().with_tracing(traced.tracer, OtelConfig(capture="event")).invoke("hi")
    ChatAcme().with_tracing(traced.tracer, OtelConfig(capture="event")).invoke("hi")
    locked, acme = traced.spans
    assert not any(key.startswith("gen_ai.input") for key in acme.attributes or {})
    assert [event.name for event in acme.events] == ["gen_ai.client.inference.operation.details"] * 2
    assert [sorted(event.attributes or {}) for event in acme.events] == [
        ["gen_ai.input.messages"],
        ["gen_ai.output.messages"],
    ]
    assert [event.name for event in locked.events] == ["gen_ai.client.inference.operation.details", "exception"]
