"""Content in the GenAI conventions' shapes, for capture (which is off by default).

Every function takes a value's redacted JSON form (``Redactor.clean``), so a live value
and its replay from a recording give the same content. Messages become
``{"role", "parts": [...]}`` (text, tool calls, tool call responses); a model's reply
also gets its ``finish_reason``; retrieved documents become ``{"id", "content"}``.

>>> input_messages({"messages": [[{"type": "HumanMessage", "content": "hi"}]]})
[{'role': 'user', 'parts': [{'type': 'text', 'content': 'hi'}]}]
>>> output_messages({"type": "AIMessage", "content": "hello"}, "stop")
[{'role': 'assistant', 'parts': [{'type': 'text', 'content': 'hello'}], 'finish_reason': 'stop'}]
"""

from __future__ import annotations

import json
from typing import Final

from effects.projections.jsonable import JsonValue

_ROLES: Final = {
    "SystemMessage": "system",
    "HumanMessage": "user",
    "AIMessage": "assistant",
    "AIMessageChunk": "assistant",
    "ToolMessage": "tool",
    "system": "system",
    "human": "user",
    "user": "user",
    "ai": "assistant",
    "assistant": "assistant",
    "tool": "tool",
}


def _text(content: JsonValue) -> str:
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def _parts(content: JsonValue) -> list[JsonValue]:
    if isinstance(content, str):
        return [{"type": "text", "content": content}] if content else []
    if isinstance(content, list):
        parts: list[JsonValue] = []
        for block in content:
            if isinstance(block, str):
                parts.append({"type": "text", "content": block})
            elif isinstance(block, dict) and block.get("type") == "text":
                parts.append({"type": "text", "content": _text(block.get("text", ""))})
            elif isinstance(block, dict) and isinstance(block.get("type"), str):
                parts.append(block)
            else:
                parts.append({"type": "text", "content": _text(block)})
        return parts
    return [{"type": "text", "content": _text(content)}]


def _tool_calls(message: dict[str, JsonValue]) -> list[JsonValue]:
    calls = message.get("tool_calls")
    if not isinstance(calls, list):
        return []
    return [
        {"type": "tool_call", "id": call.get("id"), "name": call.get("name", ""), "arguments": call.get("args")}
        for call in calls
        if isinstance(call, dict)
    ]


def message(data: JsonValue) -> dict[str, JsonValue]:
    """One message (the JSON form of a ``BaseMessage``, a ``(role, text)`` pair, or text).

    >>> message({"type": "ToolMessage", "content": "4", "tool_call_id": "c1"})
    {'role': 'tool', 'parts': [{'type': 'tool_call_response', 'id': 'c1', 'response': '4'}]}
    """
    if not isinstance(data, dict):
        if isinstance(data, list) and len(data) == 2 and isinstance(data[0], str):
            return {"role": _ROLES.get(data[0], data[0]), "parts": _parts(data[1])}
        return {"role": "user", "parts": _parts(data)}
    kind = data.get("type")
    role = _ROLES.get(kind, "user") if isinstance(kind, str) else "user"
    content = data.get("content", "")
    if role == "tool":
        parts: list[JsonValue] = [{"type": "tool_call_response", "id": data.get("tool_call_id"), "response": content}]
    else:
        parts = [*_parts(content), *_tool_calls(data)]
    shown: dict[str, JsonValue] = {"role": role, "parts": parts}
    name = data.get("name")
    if isinstance(name, str) and role != "tool":
        shown["name"] = name
    return shown


def _message_list(data: JsonValue) -> list[JsonValue]:
    if isinstance(data, dict):
        if "messages" in data:
            inner = data["messages"]
            if isinstance(inner, list) and len(inner) == 1 and isinstance(inner[0], list):
                inner = inner[0]  # a model run's input: {"messages": [[...]]}
            return _message_list(inner)
        if "prompts" in data and isinstance(data["prompts"], list):
            return [message(prompt) for prompt in data["prompts"]]
        if "text" in data and "content" not in data:
            return [message(data["text"])]  # a string prompt value
        return [message(data)]
    if isinstance(data, list):
        return [message(item) for item in data]
    return [message(data)]


def input_messages(data: JsonValue) -> list[JsonValue]:
    """``gen_ai.input.messages`` from a model run's input (or a root model's raw input)."""
    return _message_list(data)


def output_messages(data: JsonValue, finish_reason: str | None) -> list[JsonValue]:
    """``gen_ai.output.messages`` from a model run's output (a message, or an LLM result)."""
    reason = finish_reason or "stop"
    generations = data.get("generations") if isinstance(data, dict) else None
    if isinstance(generations, list):
        texts = [
            generation.get("text", "")
            for batch in generations
            if isinstance(batch, list)
            for generation in batch
            if isinstance(generation, dict)
        ]
        return [{"role": "assistant", "parts": _parts(text), "finish_reason": reason} for text in texts]
    reply = message(data)
    return [{"role": "assistant", "parts": reply["parts"], "finish_reason": reason}]


def query_text(data: JsonValue) -> str:
    """``gen_ai.retrieval.query.text`` from a retriever run's input.

    >>> query_text({"query": "fog"}), query_text("fog")
    ('fog', 'fog')
    """
    if isinstance(data, dict) and "query" in data:
        return _text(data["query"])
    return _text(data)


def documents(data: JsonValue) -> list[JsonValue]:
    """``gen_ai.retrieval.documents`` from a retriever's output.

    >>> documents([{"type": "Document", "page_content": "fog", "id": "d1", "metadata": {}}])
    [{'id': 'd1', 'content': 'fog'}]
    """
    if not isinstance(data, list):
        return []
    shown: list[JsonValue] = []
    for item in data:
        if isinstance(item, dict):
            entry: dict[str, JsonValue] = {"id": item.get("id"), "content": item.get("page_content")}
            metadata = item.get("metadata")
            if isinstance(metadata, dict) and isinstance(metadata.get("score"), int | float):
                entry["score"] = metadata["score"]
            shown.append(entry)
    return shown


def tool_arguments(data: JsonValue) -> JsonValue:
    """``gen_ai.tool.call.arguments`` from a tool run's input (a tool call's ``args``).

    >>> tool_arguments({"type": "ToolCall", "name": "add", "args": {"a": 1}, "id": "c1"})
    {'a': 1}
    """
    if isinstance(data, dict) and data.get("type") == "ToolCall" and "args" in data:
        return data["args"]
    return data
