"""``OtelProjection``: one OpenTelemetry span per run, folded from the effect stream.

A span starts at its run's ``RunStarted`` time and ends at its ``RunEnded`` or
``RunFailed`` time (``start_span(start_time=...)``, ``end(end_time=...)``), so spans are
the same whether built live or from a recording. A run's parent span is its nearest
traced ancestor's; a run with none (the root) is parented to the ambient context at
its start, so an application's request span contains the chain. Spans are never made
current unless ``OtelConfig.attach_context`` asks.

- Streamed runs get ``lcel.stream.chunk_count`` and the time to their first chunk
  (``gen_ai.response.time_to_first_chunk`` on model spans); no span per chunk.
- A failed run: status ERROR, ``error.type`` and an ``exception`` event (its message and
  stack trace only with capture on, redacted); a cancelled or closed run has
  ``error.type`` ``cancelled`` and ``lcel.cancelled``. A run that ended is UNSET (a
  fallback that recovered leaves the failed primary ERROR and its parent UNSET).
- A root that ends with runs still open ends them too, with ``lcel.incomplete``.
- With ``GenAiMetrics`` (a meter), a chat, text completion or embeddings run also
  records its duration and token usage as it ends (``metrics``).
- Nothing here ever raises into the run: a failure (a processor or exporter that
  raises, an odd value) is logged and counted (``failure_count``).

>>> from opentelemetry.trace import NoOpTracer
>>> from uuid import UUID
>>> from effects.effect_values import RunInfo, RunStarted, RunEnded
>>> projection = OtelProjection(NoOpTracer())
>>> run = RunInfo(UUID(int=1), (), "seq", "chain", (), {})
>>> projection.emit(RunStarted(run, "x", 1.0)); projection.open_runs
1
>>> projection.emit(RunEnded(run, "x", "y", 2.0)); projection.open_runs
0
"""

from __future__ import annotations

import traceback
from typing import Final, final

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.trace import Span, Status, StatusCode, Tracer

from combinators.integrations.otel import semconv
from combinators.integrations.otel.attach import Attached
from combinators.integrations.otel.capture import input_item, output_item, place
from combinators.integrations.otel.config import OtelConfig
from combinators.integrations.otel.metrics import FAILURES
from combinators.integrations.otel.metrics import GenAiMetrics
from combinators.integrations.otel.response import (
    Attributes,
    finish_reason,
    provider,
    response_attributes,
    tool_call_id,
)
from combinators.integrations.otel.spans import MODEL_OPERATIONS, SpanShapes, run_id_text
from effects.projections.jsonable import to_jsonable
from effects.projections.recording import RecordedError
from effects.effect_values import NOTHING, CustomEmitted, Effect, RunEnded, RunFailed, RunInfo, RunStarted, RunStreamed

MAX_CHUNK_EVENTS: Final = 128
"""Chunk events per span (the SDK keeps 128 events per span by default)."""

_METRIC_NAMES: Final = (semconv.OPERATION_NAME, semconv.PROVIDER_NAME, semconv.REQUEST_MODEL)
"""The start attributes a model run's metrics carry."""
_METRIC_END_NAMES: Final = (semconv.PROVIDER_NAME, semconv.RESPONSE_MODEL, semconv.ERROR_TYPE)
"""The end attributes they carry (the reply may name the provider)."""

_CANCELLED: Final = frozenset({"CancelledError", "GeneratorExit"})
"""Error types of runs that were stopped, not failed (by name: replays keep only names)."""


def _ns(at: float) -> int:
    return round(at * 1_000_000_000)


@final
class _Open:
    """A run whose span is open."""

    __slots__ = (
        "span", "root_id", "operation", "started_at", "chunks", "first_chunk_at", "context", "attached", "captured",
        "metered",
    )  # fmt: skip

    def __init__(self, span: Span, root_id: int, operation: str | None, started_at: float) -> None:
        self.span = span
        self.root_id = root_id
        self.operation = operation
        self.started_at = started_at
        self.chunks = 0
        self.first_chunk_at: float
        """Set with the first chunk (read only when ``chunks``)."""
        self.context: Context | None = None
        self.attached: Attached
        """With ``attach_context`` only: how this span was made current."""
        self.captured: bool
        """With capture on only: whether the input is recorded already."""
        self.metered: Attributes
        """With metrics, for model runs only: the attributes their metrics start with."""

    def child_context(self) -> Context:
        known = self.context
        if known is None:
            known = self.context = trace.set_span_in_context(self.span, Context())
        return known


@final
class OtelProjection:
    """An observer that turns the runs it sees into spans (see the module docstring)."""

    __slots__ = (
        "_tracer", "_config", "_open", "_shapes", "_captures", "_attach", "_quiet_ends", "_ended", "_metrics"
    )  # fmt: skip

    def __init__(
        self,
        tracer: Tracer,
        config: OtelConfig | None = None,
        shapes: SpanShapes | None = None,
        metrics: GenAiMetrics | None = None,
    ) -> None:
        self._tracer = tracer
        self._metrics = metrics
        self._config = config = OtelConfig() if config is None else config
        self._shapes = SpanShapes(config.redactor, config.metadata_keys) if shapes is None else shapes
        self._open: dict[int, _Open] = {}
        """Open runs by the integer of their run id (hashed without a Python call)."""
        # Read once: every run asks.
        self._captures = config.captures
        self._attach = config.attach_context
        self._quiet_ends = not config.captures and not config.attach_context
        self._ended: set[object] = set()
        """With ``attach_context``: spans that ended while a run of this trace is open."""

    @property
    def open_runs(self) -> int:
        """How many runs have started and not yet ended."""
        return len(self._open)

    def emit(self, effect: Effect) -> None:
        """Fold one effect into spans; never raises."""
        try:
            if type(effect) is RunStreamed:
                self._streamed(effect)
            elif type(effect) is RunStarted:
                self._started(effect)
            elif type(effect) is RunEnded or type(effect) is RunFailed:
                self._finished(effect)
            elif type(effect) is CustomEmitted:
                self._custom(effect)
        except Exception as error:
            FAILURES.record(effect, error)

    def close(self, at: float | None = None) -> None:
        """End every span still open, marked incomplete (after replaying a cut recording)."""
        for run_id in list(self._open):
            record = self._open.pop(run_id, None)
            if record is not None:
                self._incomplete(record, record.started_at if at is None else at)

    # ---------------------------------------------------------------- effects

    def _parent(self, run: RunInfo) -> _Open | None:
        for parent_id in reversed(run.parent_ids):
            found = self._open.get(parent_id.int)
            if found is not None:
                return found
        return None

    def _started(self, effect: RunStarted) -> None:
        run = effect.run
        run_key = run.run_id.int
        opened = self._open
        if run_key in opened:
            return
        parents = run.parent_ids
        # Usually the immediate parent; an untraced one in between sends us further up.
        parent = opened.get(parents[-1].int) if parents else None
        if parent is None and len(parents) > 1:
            parent = self._parent(run)
        shape = self._shapes.shape(run, parent is None)
        attributes: Attributes = {semconv.RUN_ID: run_id_text(run.run_id), **shape.attributes}
        at_ns = round(effect.at * 1_000_000_000)
        captured = self._captures and effect.input is not NOTHING
        if captured and self._config.on_spans:
            name, text = input_item(shape.operation, effect.input, self._config)
            attributes[name] = text
        span = self._tracer.start_span(
            shape.name,
            context=None if parent is None else parent.child_context(),
            kind=shape.kind,
            attributes=attributes,
            start_time=at_ns,
        )
        record = opened[run_key] = _Open(
            span, run_key if parent is None else parent.root_id, shape.operation, effect.at
        )
        if self._captures:
            record.captured = captured
            if captured and self._config.on_events:
                item = input_item(shape.operation, effect.input, self._config)
                place(span, item, at_ns, shape.operation, on_spans=False, on_events=True)
        if self._attach:
            record.attached = Attached(span)
            record.attached.attach(None if parent is None else parent.attached)
        if self._metrics is not None and shape.operation in MODEL_OPERATIONS:
            record.metered = {name: shape.attributes[name] for name in _METRIC_NAMES if name in shape.attributes}

    def _streamed(self, effect: RunStreamed) -> None:
        record = self._open.get(effect.run.run_id.int)
        if record is None:
            return
        record.chunks += 1
        if record.chunks == 1:
            record.first_chunk_at = effect.at
        if self._config.stream_events and record.chunks <= MAX_CHUNK_EVENTS:
            record.span.add_event(
                semconv.CHUNK_EVENT, {semconv.CHUNK_INDEX: record.chunks - 1}, timestamp=_ns(effect.at)
            )

    def _finished(self, effect: RunEnded | RunFailed) -> None:
        key = effect.run.run_id.int
        record = self._open.pop(key, None)
        if record is None:
            return
        try:
            if self._quiet_ends and record.operation is None and not record.chunks and type(effect) is RunEnded:
                record.span.end(end_time=round(effect.at * 1_000_000_000))  # the common case
            else:
                self._end(record, effect)
        finally:
            if record.root_id == key and self._open:
                self._end_children(key, effect.at)

    def _end(self, record: _Open, effect: RunEnded | RunFailed) -> None:
        span, config, at_ns = record.span, self._config, _ns(effect.at)
        found: Attributes = {}
        if record.chunks:
            found[semconv.CHUNK_COUNT] = record.chunks
            first = max(record.first_chunk_at - record.started_at, 0.0)
            found[semconv.TIME_TO_FIRST_CHUNK] = first
            if record.operation in MODEL_OPERATIONS:
                found[semconv.RESPONSE_TIME_TO_FIRST_CHUNK] = first
        if self._captures and not record.captured and effect.input is not NOTHING:
            item = input_item(record.operation, effect.input, config)
            place(span, item, at_ns, record.operation, on_spans=config.on_spans, on_events=config.on_events)
        if isinstance(effect, RunEnded):
            found.update(self._output(record, effect, at_ns))
        else:
            found.update(self._error(span, effect.error, at_ns))
        if found:
            span.set_attributes(found)
        self._detach(record)
        span.end(end_time=at_ns)
        if self._metrics is not None and record.operation in MODEL_OPERATIONS:
            self._measure(self._metrics, record, effect, found)

    def _measure(self, metrics: GenAiMetrics, record: _Open, effect: RunEnded | RunFailed, found: Attributes) -> None:
        attributes = dict(record.metered)
        for name in _METRIC_END_NAMES:
            if name in found:
                attributes[name] = found[name]
        usage = found if type(effect) is RunEnded else {}  # a failed run used no tokens we know of
        metrics.record(attributes, max(effect.at - record.started_at, 0.0), usage)

    def _output(self, record: _Open, effect: RunEnded, at_ns: int) -> Attributes:
        operation, config = record.operation, self._config
        if operation not in MODEL_OPERATIONS and operation != semconv.EXECUTE_TOOL and not self._captures:
            return {}
        data = to_jsonable(effect.output)
        found: Attributes = {}
        if operation in MODEL_OPERATIONS:
            found = response_attributes(data)
            if semconv.RESPONSE_ID in found:
                found[semconv.RESPONSE_ID] = config.redactor.text(str(found[semconv.RESPONSE_ID]))
            named = provider(data)
            if named is not None:
                found[semconv.PROVIDER_NAME] = named
        elif operation == semconv.EXECUTE_TOOL:
            call = tool_call_id(data)
            if call is not None:
                found[semconv.TOOL_CALL_ID] = config.redactor.text(call)
        if config.captures:
            item = output_item(operation, data, finish_reason(data), config)
            place(record.span, item, at_ns, operation, on_spans=config.on_spans, on_events=config.on_events)
        return found

    def _error(self, span: Span, error: BaseException, at_ns: int) -> Attributes:
        config = self._config
        kind = _error_type(error)
        cancelled = kind in _CANCELLED
        if cancelled:
            kind = semconv.CANCELLED_ERROR_TYPE
        span.set_status(Status(StatusCode.ERROR, kind))
        event: Attributes = {semconv.EXCEPTION_TYPE: _error_type(error)}
        if config.captures:
            shown = to_jsonable(error)
            message = shown.get("message", "") if isinstance(shown, dict) else ""
            event[semconv.EXCEPTION_MESSAGE] = _cut(config.redactor.text(str(message)), config.max_content_chars)
            if error.__traceback__ is not None:
                stack = "".join(traceback.format_exception(error))
                event[semconv.EXCEPTION_STACKTRACE] = _cut(config.redactor.text(stack), config.max_content_chars)
        span.add_event(semconv.EXCEPTION_EVENT, event, timestamp=at_ns)
        found: Attributes = {semconv.ERROR_TYPE: kind}
        if cancelled:
            found[semconv.CANCELLED] = True
        return found

    def _custom(self, effect: CustomEmitted) -> None:
        record = self._open.get(effect.run.run_id.int)
        if record is None:
            return
        config = self._config
        data: Attributes = {}
        if config.captures:
            data[semconv.CUSTOM_DATA] = config.redactor.json(effect.data, max_chars=config.max_content_chars)
        name = semconv.CUSTOM_EVENT_PREFIX + config.redactor.text(effect.name)
        record.span.add_event(name, data, timestamp=_ns(effect.at))

    def _end_children(self, root_id: int, at: float) -> None:
        for run_id, record in list(self._open.items()):
            if record.root_id == root_id and self._open.pop(run_id, None) is not None:
                self._incomplete(record, at)

    def _incomplete(self, record: _Open, at: float) -> None:
        try:
            record.span.set_attribute(semconv.INCOMPLETE, True)
            self._detach(record)
            record.span.end(end_time=_ns(max(at, record.started_at)))
        except Exception as error:
            FAILURES.record(record, error)

    def _detach(self, record: _Open) -> None:
        if self._attach:
            record.attached.restore(self._ended)
            if not self._open:
                self._ended.clear()


def _error_type(error: BaseException) -> str:
    # A replayed error keeps only the live one's type name.
    return error.error_type if isinstance(error, RecordedError) else type(error).__qualname__


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
