"""The wire format as pure functions (no server)."""

from __future__ import annotations

import pytest

from combinators.components.messages.message_classes import (
    AIMessage,
    AIMessageChunk,
    ChatMessage,
    HumanMessage,
    InvalidToolCall,
    ToolCallChunk,
    UsageMetadata,
)
from combinators.integrations.openai.chat import ChatOpenAI
from combinators.integrations.openai.messages import (
    chunk_to_message_chunk,
    completion_to_message,
    message_to_openai,
    usage_from_openai,
)
from tests.unit.combinators.integrations.openai.fake_server import chunk, completion


def test_invalid_tool_calls_go_back_with_their_raw_arguments() -> None:
    message = AIMessage("thinking", invalid_tool_calls=[InvalidToolCall("f", '{"a": ', "c9")])
    assert message_to_openai(message) == {
        "role": "assistant",
        "content": "thinking",
        "tool_calls": [{"id": "c9", "type": "function", "function": {"name": "f", "arguments": '{"a": '}}],
    }


def test_a_summed_chunk_is_sent_like_the_message() -> None:
    total = AIMessageChunk("", tool_call_chunks=[ToolCallChunk("f", '{"x": 1}', "c1", 0)])
    assert message_to_openai(total) == message_to_openai(total.to_message())


def test_a_chat_message_goes_with_its_own_role() -> None:
    assert message_to_openai(ChatMessage("x", role="developer")) == {"role": "developer", "content": "x"}
    assert message_to_openai(ChatMessage("y", role="critic", name="bo")) == {
        "role": "critic",
        "content": "y",
        "name": "bo",
    }


def test_content_parts() -> None:
    message = HumanMessage(["look:", {"type": "image_url", "image_url": {"url": "data:..."}}])
    assert message_to_openai(message)["content"] == [
        {"type": "text", "text": "look:"},
        {"type": "image_url", "image_url": {"url": "data:..."}},
    ]


def test_usage_without_total_adds_up() -> None:
    assert usage_from_openai({"prompt_tokens": 2, "completion_tokens": 3}) == UsageMetadata(2, 3, 5)


def test_a_refusal_is_kept() -> None:
    body = completion(None)
    body["choices"][0]["message"]["refusal"] = "I can't help with that."
    assert completion_to_message(body).additional_kwargs == {"refusal": "I can't help with that."}


def test_a_completion_without_choices_is_refused() -> None:
    with pytest.raises(ValueError, match="without choices"):
        completion_to_message({"id": "x", "choices": []})


def test_usage_in_the_finishing_chunk() -> None:
    # llama.cpp's server puts the usage on the last chunk that has choices.
    message, finish = chunk_to_message_chunk(
        chunk({}, finish_reason="length", usage={"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3})
    )
    assert finish == "length"
    assert message is not None and message.usage_metadata == UsageMetadata(1, 2, 3)
    assert message.response_metadata["finish_reason"] == "length"


def test_empty_chunks_are_dropped() -> None:
    assert chunk_to_message_chunk(chunk(choices=False)) == (None, None)


def test_streamed_reasoning_adds_up() -> None:
    parts = [chunk_to_message_chunk(chunk({"reasoning_content": piece}))[0] for piece in ("Let me ", "think.")]
    assert parts[0] is not None and parts[1] is not None
    assert (parts[0] + parts[1]).additional_kwargs == {"reasoning_content": "Let me think."}


def test_request_body_precedence() -> None:
    model = ChatOpenAI(model="m", temperature=0.1, extra_body={"temperature": 0.2, "seed": 1})
    body = model.request_body([HumanMessage("x")], temperature=0.3, stream=True)
    assert body["temperature"] == 0.3 and body["seed"] == 1
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    overridden = model.request_body([HumanMessage("x")], stream_options={"include_usage": False}, stream=True)
    assert overridden["stream_options"] == {"include_usage": False}


def test_a_function_message_goes_in_the_function_role_with_its_name() -> None:
    from combinators.messages import FunctionMessage

    assert message_to_openai(FunctionMessage("42", name="multiply")) == {
        "role": "function",
        "content": "42",
        "name": "multiply",
    }
