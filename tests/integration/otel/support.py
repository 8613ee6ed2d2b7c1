"""Shared set-up for the tracing tests: an explicit SDK provider (never the global one)
with deterministic ids and an in-memory exporter, and helpers to read its spans."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.id_generator import IdGenerator
from opentelemetry.trace import Tracer

from effects import Observer
from effects.effect_values import Effect


class SequentialIds(IdGenerator):
    """Span ids 1, 2, 3, ...; trace ids 1, 2, 3, ... (deterministic traces)."""

    def __init__(self) -> None:
        self._spans = itertools.count(1)
        self._traces = itertools.count(1)

    def generate_span_id(self) -> int:
        return next(self._spans)

    def generate_trace_id(self) -> int:
        return next(self._traces)


class Traced:
    """A provider of our own, its tracer and the spans it exported."""

    def __init__(self) -> None:
        self.exporter = InMemorySpanExporter()
        self.provider = TracerProvider(id_generator=SequentialIds())
        self.provider.add_span_processor(SimpleSpanProcessor(self.exporter))
        self.tracer: Tracer = self.provider.get_tracer("tests")

    @property
    def spans(self) -> tuple[ReadableSpan, ...]:
        return self.exporter.get_finished_spans()

    def named(self, name: str) -> ReadableSpan:
        found = [span for span in self.spans if span.name == name]
        assert len(found) == 1, (name, [span.name for span in self.spans])
        return found[0]

    def by_run_id(self) -> dict[str, ReadableSpan]:
        return {str(span.attributes["lcel.run.id"]): span for span in self.spans if span.attributes}


def parent_of(span: ReadableSpan, spans: Sequence[ReadableSpan]) -> ReadableSpan | None:
    if span.parent is None:
        return None
    found = [other for other in spans if other.context.span_id == span.parent.span_id]
    return found[0] if found else None


def texts(span: ReadableSpan) -> Iterator[str]:
    """Every text a span carries: name, attributes, events, status, links."""
    yield span.name
    for key, value in (span.attributes or {}).items():
        yield f"{key}={value!r}"
    for event in span.events:
        yield event.name
        for key, value in (event.attributes or {}).items():
            yield f"{key}={value!r}"
    yield repr(span.status.description)


class Recorder:
    """An observer factory that keeps every effect it sees (next to the tracer's)."""

    def __init__(self) -> None:
        self.effects: list[Effect] = []

    def make_observer(self, config: Any = None) -> Observer:
        return self

    def emit(self, effect: Effect) -> None:
        self.effects.append(effect)


def ns(at: float) -> int:
    return round(at * 1_000_000_000)


def shapes(spans: Sequence[ReadableSpan]) -> list[tuple[object, ...]]:
    """The spans as comparable values, ids replaced by run ids (for live vs replay)."""
    run_of = {span.context.span_id: (span.attributes or {}).get("lcel.run.id") for span in spans}
    shaped = [
        (
            (span.attributes or {}).get("lcel.run.id"),
            span.name,
            span.kind,
            None if span.parent is None else run_of.get(span.parent.span_id, "?"),
            sorted((span.attributes or {}).items()),
            (span.status.status_code, span.status.description),
            [(event.name, sorted((event.attributes or {}).items()), event.timestamp) for event in span.events],
            span.start_time,
            span.end_time,
        )
        for span in spans
    ]
    return sorted(shaped, key=lambda shape: str(shape[0]))
