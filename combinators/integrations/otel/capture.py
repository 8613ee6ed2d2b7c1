"""Content capture: which attribute a run's input or output goes to, and where it lands.

Used only when ``OtelConfig.capture`` is not ``"none"``. A model's messages go to
``gen_ai.input.messages`` / ``gen_ai.output.messages``, a retriever's query and
documents to ``gen_ai.retrieval.*``, a tool's arguments and result to
``gen_ai.tool.call.*``, anything else to ``lcel.input`` / ``lcel.output``; each is the
redacted JSON text, cut to ``max_content_chars``. In span mode it becomes an attribute;
in event mode an event at the effect's time (``gen_ai.client.inference.operation.details``
for models, ``lcel.content`` otherwise) carrying the same attribute.

>>> from combinators.integrations.otel.config import OtelConfig
>>> input_item(None, {"q": "fog", "password": "x"}, OtelConfig(capture="span"))
('lcel.input', '{"q": "fog", "password": "[REDACTED]"}')
"""

from __future__ import annotations

from typing import Final

from opentelemetry.trace import Span

from combinators.integrations.otel import content, semconv
from combinators.integrations.otel.config import OtelConfig
from combinators.integrations.otel.redact import fit
from effects.projections.jsonable import JsonValue

_MODELS: Final = frozenset({semconv.CHAT, semconv.TEXT_COMPLETION})

Item = tuple[str, str]
"""An attribute name and its JSON text."""


def input_item(operation: str | None, value: object, config: OtelConfig) -> Item:
    """The attribute for a run's input."""
    data = config.redactor.clean(value)
    limit = config.max_content_chars
    if operation in _MODELS:
        return semconv.INPUT_MESSAGES, fit(content.input_messages(data), limit)
    if operation == semconv.RETRIEVAL:
        return semconv.RETRIEVAL_QUERY_TEXT, _cut(content.query_text(data), limit)
    if operation == semconv.EXECUTE_TOOL:
        return semconv.TOOL_CALL_ARGUMENTS, fit(content.tool_arguments(data), limit)
    return semconv.INPUT, fit(data, limit)


def output_item(operation: str | None, data: JsonValue, finish_reason: str | None, config: OtelConfig) -> Item:
    """The attribute for a run's output (``data``: its JSON form, not yet redacted)."""
    clean = config.redactor.clean(data)
    limit = config.max_content_chars
    if operation in _MODELS:
        return semconv.OUTPUT_MESSAGES, fit(content.output_messages(clean, finish_reason), limit)
    if operation == semconv.RETRIEVAL:
        return semconv.RETRIEVAL_DOCUMENTS, fit(content.documents(clean), limit)
    if operation == semconv.EXECUTE_TOOL:
        return semconv.TOOL_CALL_RESULT, fit(clean, limit)
    return semconv.OUTPUT, fit(clean, limit)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def place(span: Span, item: Item, at_ns: int, operation: str | None, *, on_spans: bool, on_events: bool) -> None:
    """Record ``item`` on ``span``: as an attribute, an event at ``at_ns``, or both."""
    key, text = item
    if on_spans:
        span.set_attribute(key, text)
    if on_events:
        name = semconv.INFERENCE_DETAILS_EVENT if operation in _MODELS else semconv.CONTENT_EVENT
        span.add_event(name, {key: text}, timestamp=at_ns)
