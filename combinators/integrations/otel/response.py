"""What a model run's typed output says about the response: ids, model, reasons, usage.

Read from the output's JSON form, so the live ``AIMessage`` and its replay from a
recording give the same attributes. Only identifiers and counts are read, never text.

>>> reply = {"type": "AIMessage", "content": "hi", "id": "chatcmpl-1",
...          "response_metadata": {"model_name": "gpt-4o-mini", "finish_reason": "stop"},
...          "usage_metadata": {"input_tokens": 5, "output_tokens": 2, "total_tokens": 7}}
>>> sorted(response_attributes(reply).items())  # doctest: +NORMALIZE_WHITESPACE
[('gen_ai.response.finish_reasons', ('stop',)), ('gen_ai.response.id', 'chatcmpl-1'),
 ('gen_ai.response.model', 'gpt-4o-mini'), ('gen_ai.usage.input_tokens', 5),
 ('gen_ai.usage.output_tokens', 2)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from combinators.integrations.otel import semconv
from effects.projections.jsonable import JsonValue

Attributes = dict[str, str | bool | int | float | tuple[str, ...]]
"""Span attribute values as we set them."""

_USAGE: Final = (
    ("input_tokens", None, semconv.USAGE_INPUT_TOKENS),
    ("output_tokens", None, semconv.USAGE_OUTPUT_TOKENS),
    ("input_token_details", "cache_read", semconv.USAGE_CACHE_READ_INPUT_TOKENS),
    ("input_token_details", "cache_creation", semconv.USAGE_CACHE_CREATION_INPUT_TOKENS),
    ("output_token_details", "reasoning", semconv.USAGE_REASONING_OUTPUT_TOKENS),
)


def _count(value: JsonValue) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _usage(usage: Mapping[str, JsonValue]) -> Attributes:
    found: Attributes = {}
    for key, detail, name in _USAGE:
        value = usage.get(key)
        if detail is not None:
            value = value.get(detail) if isinstance(value, dict) else None
        count = _count(value)
        if count is not None and (detail is None or count > 0):
            found[name] = count
    return found


def finish_reason(data: JsonValue) -> str | None:
    """The finish reason of a model's reply, if it says.

    >>> finish_reason({"type": "AIMessage", "response_metadata": {"finish_reason": "length"}})
    'length'
    """
    if not isinstance(data, dict):
        return None
    metadata = data.get("response_metadata")
    if isinstance(metadata, dict):
        reason = metadata.get("finish_reason") or metadata.get("stop_reason")
        if isinstance(reason, str):
            return reason
    generations = data.get("generations")
    if isinstance(generations, list) and generations and isinstance(generations[0], list):
        first = generations[0][0] if generations[0] else None
        info = first.get("generation_info") if isinstance(first, dict) else None
        reason = info.get("finish_reason") if isinstance(info, dict) else None
        if isinstance(reason, str):
            return reason
    return None


def response_attributes(data: JsonValue) -> Attributes:
    """``gen_ai.response.*`` and ``gen_ai.usage.*`` from a model output's JSON form."""
    if not isinstance(data, dict):
        return {}
    found: Attributes = {}
    response_id = data.get("id")
    if isinstance(response_id, str) and response_id:
        found[semconv.RESPONSE_ID] = response_id
    metadata = data.get("response_metadata")
    if isinstance(metadata, dict):
        model = metadata.get("model_name") or metadata.get("model")
        if isinstance(model, str):
            found[semconv.RESPONSE_MODEL] = model
    reason = finish_reason(data)
    if reason is not None:
        found[semconv.RESPONSE_FINISH_REASONS] = (reason,)
    usage = data.get("usage_metadata")
    if isinstance(usage, dict):
        found.update(_usage(usage))
    return found


def provider(data: JsonValue) -> str | None:
    """The provider a reply names (``response_metadata["model_provider"]``).

    >>> provider({"type": "AIMessage", "response_metadata": {"model_provider": "openai"}})
    'openai'
    """
    if isinstance(data, dict):
        metadata = data.get("response_metadata")
        if isinstance(metadata, dict):
            name = metadata.get("model_provider")
            if isinstance(name, str):
                return name
    return None


def tool_call_id(data: JsonValue) -> str | None:
    """The tool call a tool's answer belongs to (a ``ToolMessage``'s ``tool_call_id``).

    >>> tool_call_id({"type": "ToolMessage", "content": "4", "tool_call_id": "call_1"})
    'call_1'
    """
    if isinstance(data, dict):
        call = data.get("tool_call_id")
        if isinstance(call, str):
            return call
    return None
