"""Messages to and from the OpenAI chat-completions wire format, as pure functions.

>>> from combinators.components.messages.message_classes import HumanMessage, SystemMessage
>>> messages_to_openai([SystemMessage("Be brief."), HumanMessage("hi")])
[{'role': 'system', 'content': 'Be brief.'}, {'role': 'user', 'content': 'hi'}]
>>> completion_to_message({
...     "id": "chatcmpl-1", "model": "m",
...     "choices": [{"index": 0, "finish_reason": "stop",
...                  "message": {"role": "assistant", "content": "hello"}}],
...     "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4},
... }).usage_metadata
UsageMetadata(input_tokens=3, output_tokens=1, total_tokens=4, input_token_details={}, output_token_details={})
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Final

from combinators.components.messages.message_classes import (
    AIMessage,
    AIMessageChunk,
    Content,
    ContentLike,
    HumanMessage,
    InvalidToolCall,
    Message,
    ChatMessage,
    FunctionMessage,
    SystemMessage,
    ToolCall,
    ToolCallChunk,
    ToolMessage,
    UsageMetadata,
)
from effects.authoring import is_a, is_list, is_str_mapping

__all__ = [
    "PROVIDER",
    "chunk_to_message_chunk",
    "completion_to_message",
    "message_to_openai",
    "messages_to_openai",
    "usage_from_openai",
]

PROVIDER: Final = "openai"
"""``response_metadata["model_provider"]`` of every message these models make."""

_Json = dict[str, object]


def _content_to_openai(content: Content) -> object:
    if isinstance(content, str):
        return content
    return [{"type": "text", "text": part} if isinstance(part, str) else dict(part) for part in content]


def _tool_call_to_openai(call_id: str | None, name: str | None, arguments: str) -> _Json:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def message_to_openai(message: Message) -> _Json:
    """One message in the wire format (``role``, ``content``, tool calls and ids).

    >>> from combinators.components.messages.message_classes import ToolMessage
    >>> message_to_openai(AIMessage("", tool_calls=[ToolCall("f", {"x": 1}, id="c1")]))
    {'role': 'assistant', 'content': None, 'tool_calls': [{'id': 'c1', 'type': 'function', 'function': {'name': 'f', 'arguments': '{"x": 1}'}}]}
    >>> message_to_openai(ToolMessage("2", tool_call_id="c1"))
    {'role': 'tool', 'content': '2', 'tool_call_id': 'c1'}
    """
    wire: _Json
    if isinstance(message, SystemMessage):
        role = message.additional_kwargs.get("__openai_role__", "system")
        wire = {"role": role, "content": _content_to_openai(message.content)}
    elif isinstance(message, HumanMessage):
        wire = {"role": "user", "content": _content_to_openai(message.content)}
    elif isinstance(message, AIMessage | AIMessageChunk):
        calls = [
            _tool_call_to_openai(call.id, call.name, json.dumps(dict(call.args))) for call in message.tool_calls
        ] + [_tool_call_to_openai(call.id, call.name, call.args or "") for call in message.invalid_tool_calls]
        # With tool calls and no text, OpenAI wants null content rather than "".
        empty = message.content in ("", ())
        wire = {"role": "assistant", "content": None if calls and empty else _content_to_openai(message.content)}
        if calls:
            wire["tool_calls"] = calls
    elif is_a(message, ToolMessage):
        wire = {"role": "tool", "content": _content_to_openai(message.content), "tool_call_id": message.tool_call_id}
    elif is_a(message, ChatMessage):
        wire = {"role": message.role, "content": _content_to_openai(message.content)}
    elif is_a(message, FunctionMessage):  # OpenAI's older function-calling role
        wire = {"role": "function", "content": _content_to_openai(message.content)}
    else:
        raise TypeError(f"cannot send a {type(message).__name__} to a chat-completions server")
    if message.name is not None:
        wire["name"] = message.name
    return wire


def messages_to_openai(messages: Sequence[Message]) -> list[_Json]:
    """The ``messages`` list of a request.

    >>> messages_to_openai([AIMessage("ok", name="bot")])
    [{'role': 'assistant', 'content': 'ok', 'name': 'bot'}]
    """
    return [message_to_openai(message) for message in messages]


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _mapping(value: object) -> Mapping[str, object]:
    return value if is_str_mapping(value) else {}


def _optional_mapping(value: object) -> Mapping[str, object] | None:
    return value if is_str_mapping(value) else None


def _list(value: object) -> list[object]:
    return value if is_list(value) else []


def _content(value: object) -> ContentLike:
    if isinstance(value, str) or not is_list(value):
        return value if isinstance(value, str) else ""
    parts = [part for part in value if isinstance(part, str) or is_str_mapping(part)]
    if len(parts) != len(value):
        raise TypeError(f"message content parts must be str or mappings (content blocks), got {value!r}")
    return parts


def usage_from_openai(usage: Mapping[str, object]) -> UsageMetadata:
    """Token counts from a ``usage`` object (cached and reasoning tokens as details).

    >>> usage_from_openai({"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7,
    ...                    "prompt_tokens_details": {"cached_tokens": 4}}).input_token_details
    {'cache_read': 4}
    """
    prompt, completion = _int(usage.get("prompt_tokens")), _int(usage.get("completion_tokens"))
    total = _int(usage.get("total_tokens")) or prompt + completion
    input_details: dict[str, int] = {}
    output_details: dict[str, int] = {}
    cached = _mapping(usage.get("prompt_tokens_details")).get("cached_tokens")
    if isinstance(cached, int):
        input_details["cache_read"] = cached
    completion_details = _mapping(usage.get("completion_tokens_details"))
    reasoning = completion_details.get("reasoning_tokens")
    if isinstance(reasoning, int):
        output_details["reasoning"] = reasoning
    return UsageMetadata(prompt, completion, total, input_details, output_details)


def _parsed_tool_calls(raw: object) -> tuple[list[ToolCall], list[InvalidToolCall]]:
    calls: list[ToolCall] = []
    invalid: list[InvalidToolCall] = []
    for item in _list(raw):
        entry = _mapping(item)
        function = _mapping(entry.get("function"))
        name = function.get("name")
        arguments = function.get("arguments")
        call_id = _str_or_none(entry.get("id"))
        text = arguments if isinstance(arguments, str) else ""
        try:
            args: object = json.loads(text) if text.strip() else {}
        except json.JSONDecodeError as error:
            invalid.append(InvalidToolCall(_str_or_none(name), text, call_id, f"arguments are not JSON: {error}"))
            continue
        if not is_str_mapping(args) or not isinstance(name, str):
            invalid.append(InvalidToolCall(_str_or_none(name), text, call_id, "arguments are not a JSON object"))
            continue
        calls.append(ToolCall(name, args, id=call_id))
    return calls, invalid


def _str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _metadata(**fields: object) -> dict[str, object]:
    return {key: value for key, value in fields.items() if value is not None}


def _extra_fields(message: Mapping[str, object]) -> dict[str, object]:
    # Fields some compatible servers add (vLLM and DeepSeek's "reasoning_content", ...).
    known = {"role", "content", "tool_calls", "function_call", "annotations", "audio"}
    return {key: value for key, value in message.items() if key not in known and value is not None}


def completion_to_message(completion: Mapping[str, object]) -> AIMessage:
    """The ``AIMessage`` of a chat completion (its first choice).

    Tool calls whose arguments are not a JSON object become ``invalid_tool_calls``.

    >>> reply = completion_to_message({"id": "c", "model": "m", "choices": [{"finish_reason": "tool_calls",
    ...     "message": {"role": "assistant", "content": None, "tool_calls": [
    ...         {"id": "t1", "type": "function", "function": {"name": "f", "arguments": '{"q": 1}'}}]}}]})
    >>> reply.tool_calls, reply.response_metadata["finish_reason"]
    ((ToolCall(name='f', args={'q': 1}, id='t1'),), 'tool_calls')
    """
    choices = _list(completion.get("choices"))
    if not choices:
        raise ValueError(f"a chat completion without choices: {dict(completion)!r}")
    choice = _mapping(choices[0])
    message = _mapping(choice.get("message"))
    content = message.get("content")
    calls, invalid = _parsed_tool_calls(message.get("tool_calls"))
    usage = _optional_mapping(completion.get("usage"))
    additional = _extra_fields(message)
    return AIMessage(
        _content(content),
        id=_str_or_none(completion.get("id")),
        additional_kwargs=additional,
        response_metadata=_metadata(
            token_usage=None if usage is None else dict(usage),
            model_name=completion.get("model"),
            system_fingerprint=completion.get("system_fingerprint"),
            id=completion.get("id"),
            service_tier=completion.get("service_tier"),
            finish_reason=choice.get("finish_reason"),
            logprobs=choice.get("logprobs"),
            model_provider=PROVIDER,
        ),
        tool_calls=calls,
        invalid_tool_calls=invalid,
        usage_metadata=None if usage is None else usage_from_openai(usage),
    )


def _tool_call_chunks(raw: object) -> list[ToolCallChunk]:
    chunks: list[ToolCallChunk] = []
    for item in _list(raw):
        entry = _mapping(item)
        function = _mapping(entry.get("function"))
        index = entry.get("index")
        chunks.append(
            ToolCallChunk(
                name=_str_or_none(function.get("name")),
                args=_str_or_none(function.get("arguments")),
                id=_str_or_none(entry.get("id")),
                index=index if isinstance(index, int) else None,
            )
        )
    return chunks


def chunk_to_message_chunk(chunk: Mapping[str, object]) -> tuple[AIMessageChunk | None, str | None]:
    """The ``AIMessageChunk`` of one streamed ``chat.completion.chunk``, and its finish reason.

    The chunk that finishes carries ``finish_reason`` and ``model_name`` in its
    ``response_metadata``; the usage chunk (``choices == []``) carries the token counts.
    A chunk with nothing in it gives ``None``.

    >>> chunk, finish = chunk_to_message_chunk({"id": "c", "model": "m", "choices": [
    ...     {"index": 0, "delta": {"content": "Hel"}, "finish_reason": None}]})
    >>> chunk.content, finish
    ('Hel', None)
    """
    chunk_id = _str_or_none(chunk.get("id"))
    usage = _optional_mapping(chunk.get("usage"))
    usage_metadata = None if usage is None else usage_from_openai(usage)
    choices = _list(chunk.get("choices"))
    if not choices:
        if usage_metadata is None:
            return None, None
        return AIMessageChunk(
            "", id=chunk_id, usage_metadata=usage_metadata, response_metadata={"model_provider": PROVIDER}
        ), None
    choice = _mapping(choices[0])
    delta = _mapping(choice.get("delta"))
    content = delta.get("content")
    finish = _str_or_none(choice.get("finish_reason"))
    metadata: dict[str, object] = {"model_provider": PROVIDER}
    if finish is not None:
        metadata.update(
            _metadata(
                finish_reason=finish,
                model_name=chunk.get("model"),
                system_fingerprint=chunk.get("system_fingerprint"),
                service_tier=chunk.get("service_tier"),
            )
        )
    return AIMessageChunk(
        _content(content),
        id=chunk_id,
        additional_kwargs=_extra_fields(delta),
        response_metadata=metadata,
        tool_call_chunks=_tool_call_chunks(delta.get("tool_calls")),
        usage_metadata=usage_metadata,
    ), finish
