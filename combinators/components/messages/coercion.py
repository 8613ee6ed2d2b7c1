"""Messages from message-likes, and messages as text and as the peer's dicts.

A message-like is a message, a str (a human message), a ``(role, content)`` pair or a
``{"role": ..., "content": ...}`` dict.

>>> get_buffer_string(coerce_to_messages([("system", "Be brief."), "Hi!"]))
'System: Be brief.\\nHuman: Hi!'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final, cast

import attrs

from combinators.components.messages.message_classes import (
    AIMessage,
    AIMessageChunk,
    ChatMessage,
    ContentLike,
    FunctionMessage,
    MESSAGE_CLASSES,
    HumanMessage,
    Message,
    SystemMessage,
    ToolMessage,
    checked_mapping,
    checked_optional,
)
from effects.authoring import is_list_or_tuple, is_mapping, is_str_mapping


def get_buffer_string(messages: Iterable[Message], *, human_prefix: str = "Human", ai_prefix: str = "AI") -> str:
    """The conversation as text, one ``Speaker: text`` line per message.

    >>> get_buffer_string([SystemMessage("s"), HumanMessage("h"), AIMessage("a")])
    'System: s\\nHuman: h\\nAI: a'
    """
    lines: list[str] = []
    for message in messages:
        prefix = message.role_prefix
        if isinstance(message, ChatMessage):
            prefix = message.role
        elif isinstance(message, HumanMessage):
            prefix = human_prefix
        elif isinstance(message, (AIMessage, AIMessageChunk)):
            prefix = ai_prefix
        lines.append(f"{prefix}: {message.text}")
    return "\n".join(lines)


def _plain(value: object) -> object:
    # JSON-shaped copies: mappings become dicts, tuples become lists.
    if is_mapping(value):
        return {str(k): _plain(v) for k, v in value.items()}
    if is_list_or_tuple(value):
        return [_plain(v) for v in value]
    return value


def message_to_dict(message: Message) -> dict[str, object]:
    """The peer's ``{"type": ..., "data": {...}}`` shape, with plain lists and dicts.

    >>> message_to_dict(HumanMessage("hi"))["data"]["content"]
    'hi'
    """
    data: dict[str, object] = {
        "content": _plain(message.content),
        "additional_kwargs": _plain(message.additional_kwargs),
        "response_metadata": _plain(message.response_metadata),
        "type": message.type,
        "name": message.name,
        "id": message.id,
    }
    if isinstance(message, (AIMessage, AIMessageChunk)):
        data["tool_calls"] = [
            {"name": c.name, "args": _plain(c.args), "id": c.id, "type": "tool_call"} for c in message.tool_calls
        ]
        data["invalid_tool_calls"] = [
            {"name": c.name, "args": c.args, "id": c.id, "error": c.error, "type": "invalid_tool_call"}
            for c in message.invalid_tool_calls
        ]
        data["usage_metadata"] = (
            None if message.usage_metadata is None else _plain(attrs.asdict(message.usage_metadata))
        )
    if isinstance(message, AIMessageChunk):
        data["tool_call_chunks"] = [
            {"name": c.name, "args": c.args, "id": c.id, "index": c.index, "type": "tool_call_chunk"}
            for c in message.tool_call_chunks
        ]
        data["chunk_position"] = message.chunk_position
    if isinstance(message, ToolMessage):
        data.update(tool_call_id=message.tool_call_id, status=message.status, artifact=message.artifact)
    if isinstance(message, ChatMessage):
        data["role"] = message.role
    return {"type": message.type, "data": data}


_ROLES: Final = "'system', 'developer', 'human', 'user', 'ai', 'assistant', 'tool' or 'function'"
_EXACT_MESSAGE_CLASSES: Final[frozenset[type]] = frozenset(MESSAGE_CLASSES)


def _from_role(role: str, content: object, extra: Mapping[str, object], source: object) -> Message:
    if not isinstance(content, (str, list, tuple)):
        raise TypeError(f"message content must be a str or a list of parts, got {type(content).__name__} in {source!r}")
    body = cast(ContentLike, content)
    rest = dict(extra)
    additional = dict(checked_mapping(rest.pop("additional_kwargs", None) or {}, "'additional_kwargs'"))
    metadata = checked_mapping(rest.pop("response_metadata", None) or {}, "'response_metadata'")
    message_id = checked_optional(rest.pop("id", None), str, "message 'id'")
    name = checked_optional(rest.pop("name", None), str, "message 'name'")
    tool_call_id = rest.pop("tool_call_id", None)
    tool_calls = rest.pop("tool_calls", None) or ()
    additional.update(rest)  # unknown keys travel as additional_kwargs, as in the peer
    if role == "developer":
        additional["__openai_role__"] = "developer"
    common = {"id": message_id, "name": name, "additional_kwargs": additional, "response_metadata": metadata}
    if role in ("system", "developer"):
        return SystemMessage(body, **common)  # type: ignore[arg-type]  # typed above
    if role in ("human", "user"):
        return HumanMessage(body, **common)  # type: ignore[arg-type]
    if role in ("ai", "assistant"):
        if not isinstance(tool_calls, (list, tuple)):
            raise TypeError(f"'tool_calls' must be a list, got {type(tool_calls).__name__}")
        calls = cast("Sequence[Mapping[str, object]]", tool_calls)
        return AIMessage(body, tool_calls=calls, **common)  # type: ignore[arg-type]
    if role == "tool":
        if not isinstance(tool_call_id, str):
            raise ValueError(f"a tool message needs a str 'tool_call_id' (use a dict or ToolMessage), got {source!r}")
        return ToolMessage(body, tool_call_id=tool_call_id, **common)  # type: ignore[arg-type]
    if role == "function":
        if not isinstance(name, str):
            raise ValueError(f"a function message needs a str 'name', got {source!r}")
        return FunctionMessage(body, **common)  # type: ignore[arg-type]
    raise ValueError(f"unknown message role {role!r} in {source!r}; expected {_ROLES}")


def coerce_to_message(value: object) -> Message:
    """A message from a message, a str (a human message), a ``(role, content)`` pair or a
    ``{"role": ..., "content": ...}`` dict (``"type"`` may stand for ``"role"``).

    >>> coerce_to_message(("assistant", "hi"))
    AIMessage('hi')
    >>> coerce_to_message({"role": "tool", "content": "42", "tool_call_id": "c1"})
    ToolMessage('42', tool_call_id='c1')
    >>> coerce_to_message({"role": "function", "content": "42", "name": "multiply"})
    FunctionMessage('42', name='multiply')
    """
    if isinstance(value, MESSAGE_CLASSES):
        return value
    if isinstance(value, str):
        return HumanMessage(value)
    if is_list_or_tuple(value):
        pair = value
        if len(pair) != 2 or not isinstance(pair[0], str):
            raise ValueError(f"a message as a sequence must be a (role, content) pair, got {value!r}")
        return _from_role(pair[0], pair[1], {}, pair)
    if is_str_mapping(value):
        source = value
        fields = dict(source)
        role = fields.pop("role", None) or fields.pop("type", None)
        if not isinstance(role, str) or "content" not in fields:
            raise ValueError(f"a message dict needs a str 'role' (or 'type') and a 'content', got {source!r}")
        content = fields.pop("content")
        return _from_role(role, content, fields, source)
    raise TypeError(
        f"cannot make a message from a {type(value).__name__}: expected a message, a str, "
        "a (role, content) pair or a {'role': ..., 'content': ...} dict"
    )


def coerce_to_messages(values: Iterable[object]) -> tuple[Message, ...]:
    """Messages from a sequence of anything ``coerce_to_message`` accepts.

    >>> coerce_to_messages([("system", "s"), {"role": "user", "content": "u"}])
    (SystemMessage('s'), HumanMessage('u'))
    """
    if isinstance(values, str) or is_mapping(values):
        kind = type(values).__name__
        raise TypeError(
            f"coerce_to_messages expects a sequence of message-likes, got a {kind}; wrap a single message in a list"
        )
    # Messages are the usual items (a prompt's own, a history): kept as they are after
    # a look at their type, without a call each.
    exact = _EXACT_MESSAGE_CLASSES
    return tuple(cast(Message, value) if type(value) in exact else coerce_to_message(value) for value in values)
