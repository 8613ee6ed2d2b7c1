"""The structured fields of an AI message besides its content: the tool calls it asks
for (whole, streamed in chunks, or unreadable) and the tokens it used; with the converters
the message classes read them through (a mapping becomes the value, a list a tuple); and
fresh ids for messages and tool calls, cheap enough to make on every call (a random part
drawn once per process, then a counter: unique within the process and across processes,
without a system call per id, as ``uuid4`` reads the OS's random source).

>>> to_tool_calls([{"name": "search", "args": {"q": "cats"}, "id": "call_1"}])[0]
ToolCall(name='search', args={'q': 'cats'}, id='call_1')
>>> a, b = fresh_id("call_"), fresh_id("call_")
>>> a != b and a.startswith("call_") and len(a) == len(b)
True
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import Final, TypeVar, cast, final

import attrs

from combinators.components.messages.fields import (
    add_details,
    checked_mapping,
    checked_optional,
    no_items,
    to_mapping,
    to_token_details,
)
from effects.authoring import is_a


@final
@attrs.frozen
class ToolCall:
    """A complete request from the model to call a tool.

    >>> ToolCall("search", {"q": "cats"}, id="call_1").args["q"]
    'cats'
    """

    name: str
    args: Mapping[str, object] = attrs.field(factory=no_items, converter=to_mapping)
    id: str | None = None


@final
@attrs.frozen
class ToolCallChunk:
    """A streamed piece of a tool call; pieces with the same ``index`` add up.

    >>> ToolCallChunk(name="search", args='{"q": "ca', index=0).args
    '{"q": "ca'
    """

    name: str | None = None
    args: str | None = None
    id: str | None = None
    index: int | None = None


@final
@attrs.frozen
class InvalidToolCall:
    """A tool call whose arguments are not a JSON object.

    >>> InvalidToolCall(name="f", args="[1]").error is None
    True
    """

    name: str | None = None
    args: str | None = None
    id: str | None = None
    error: str | None = None


@final
@attrs.frozen
class UsageMetadata:
    """Token counts; ``+`` adds them up, details key by key.

    >>> (UsageMetadata(1, 2, 3) + UsageMetadata(10, 20, 30)).total_tokens
    33
    """

    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    input_token_details: Mapping[str, int] = attrs.field(default=None, converter=to_token_details)
    output_token_details: Mapping[str, int] = attrs.field(default=None, converter=to_token_details)

    def __add__(self, other: UsageMetadata) -> UsageMetadata:
        if not is_a(other, UsageMetadata):
            return NotImplemented
        return UsageMetadata(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.total_tokens + other.total_tokens,
            add_details(self.input_token_details, other.input_token_details),
            add_details(self.output_token_details, other.output_token_details),
        )


def to_usage(value: UsageMetadata | Mapping[str, object] | None) -> UsageMetadata | None:
    if value is None or isinstance(value, UsageMetadata):
        return value
    usage = checked_mapping(value, "usage_metadata")

    def count(key: str) -> int:
        return checked_optional(usage.get(key), int, f"usage_metadata[{key!r}]") or 0

    def details(key: str) -> Mapping[str, int] | None:
        return cast("Mapping[str, int]", checked_mapping(usage[key], key)) if key in usage else None

    return UsageMetadata(
        count("input_tokens"),
        count("output_tokens"),
        count("total_tokens"),
        details("input_token_details"),
        details("output_token_details"),
    )


_T = TypeVar("_T")


def _each_as(
    values: Iterable[_T | Mapping[str, object]], kind: type[_T], built: Callable[[Mapping[str, object]], _T], what: str
) -> tuple[_T, ...]:
    # Values of ``kind`` as they are, mappings (checked, named ``what`` when not) built.
    if not values and isinstance(values, (list, tuple)):
        return ()  # the usual case (a message without tool calls): no generator to run
    return tuple(value if isinstance(value, kind) else built(checked_mapping(value, what)) for value in values)


def _tool_call(call: Mapping[str, object]) -> ToolCall:
    name = call.get("name")
    if not isinstance(name, str):
        raise TypeError(f"a tool call needs a str 'name', got {call!r}")
    args = checked_mapping(call.get("args", {}), "tool call 'args'")
    return ToolCall(name, args, id=checked_optional(call.get("id"), str, "tool call 'id'"))


def to_tool_calls(values: Iterable[ToolCall | Mapping[str, object]]) -> tuple[ToolCall, ...]:
    return _each_as(values, ToolCall, _tool_call, "a tool call")


def _invalid_tool_call(call: Mapping[str, object]) -> InvalidToolCall:
    return InvalidToolCall(*(checked_optional(call.get(k), str, f"invalid tool call {k!r}") for k in _INVALID_FIELDS))


def to_invalid_tool_calls(
    values: Iterable[InvalidToolCall | Mapping[str, object]],
) -> tuple[InvalidToolCall, ...]:
    return _each_as(values, InvalidToolCall, _invalid_tool_call, "an invalid tool call")


def _tool_call_chunk(chunk: Mapping[str, object]) -> ToolCallChunk:
    name, args, call_id = (
        checked_optional(chunk.get(k), str, f"tool call chunk {k!r}") for k in ("name", "args", "id")
    )
    return ToolCallChunk(name, args, call_id, checked_optional(chunk.get("index"), int, "tool call chunk 'index'"))


def to_tool_call_chunks(
    values: Iterable[ToolCallChunk | Mapping[str, object]],
) -> tuple[ToolCallChunk, ...]:
    return _each_as(values, ToolCallChunk, _tool_call_chunk, "a tool call chunk")


_INVALID_FIELDS: Final = ("name", "args", "id", "error")


_PROCESS: Final = uuid.uuid4().hex[:12]
_COUNTER: Final = itertools.count()


def fresh_id(prefix: str) -> str:
    """``prefix`` then an id no other call of this function returns."""
    return f"{prefix}{_PROCESS}{next(_COUNTER):012x}"


def fresh_run_id() -> str:
    """A fresh id in the form of a run id (a UUID's text), for a run nobody watches.

    >>> import uuid
    >>> a = fresh_run_id()
    >>> str(uuid.UUID(a)) == a and a != fresh_run_id()
    True
    """
    count = next(_COUNTER)
    return f"{_PROCESS[:8]}-{_PROCESS[8:12]}-4{count >> 48 & 0xFFF:03x}-8{count >> 36 & 0xFFF:03x}-{count & 0xFFFFFFFFF:012x}"


__all__ = [
    "InvalidToolCall",
    "ToolCall",
    "ToolCallChunk",
    "UsageMetadata",
    "fresh_id",
    "fresh_run_id",
    "to_invalid_tool_calls",
    "to_tool_call_chunks",
    "to_tool_calls",
    "to_usage",
]
