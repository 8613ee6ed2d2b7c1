"""The projection never changes a run's result: failures are logged and counted."""

from __future__ import annotations

import logging
from uuid import UUID

import pytest
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult

from combinators import RunnableLambda
from combinators.integrations.otel import OtelProjection, failure_count
from effects.effect_values import RunEnded, RunFailed, RunInfo, RunStreamed
from tests.integration.otel.support import Traced


class Exploding(SpanProcessor):
    def on_end(self, span: ReadableSpan) -> None:
        raise RuntimeError("processor down")


class Refusing(SpanExporter):
    def export(self, spans: object) -> SpanExportResult:
        raise ConnectionError("collector down")


def test_a_processor_that_raises_is_logged_and_counted_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    provider = TracerProvider()
    provider.add_span_processor(Exploding())
    chain = (RunnableLambda(abs) | RunnableLambda(str)).with_tracing(provider.get_tracer("t"))
    before = failure_count()
    with caplog.at_level(logging.WARNING, logger="combinators.integrations.otel"):
        assert chain.invoke(-3) == "3"
        assert list(chain.stream(-4)) == ["4"]
    assert failure_count() - before == 6
    assert len(caplog.records) == 6
    assert "processor down" in caplog.records[0].getMessage()


def test_an_exporter_that_raises_does_not_change_the_result(caplog: pytest.LogCaptureFixture) -> None:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(Refusing()))
    with caplog.at_level(logging.ERROR):
        assert RunnableLambda(abs).with_tracing(provider.get_tracer("t")).invoke(-2) == 2
    assert any("Exception while exporting" in record.getMessage() for record in caplog.records)


def test_unknown_runs_and_odd_effects_are_ignored(traced: Traced) -> None:
    projection = OtelProjection(traced.tracer)
    stranger = RunInfo(UUID(int=99), (UUID(int=98),), "x", "chain", (), {})
    before = failure_count()
    projection.emit(RunStreamed(stranger, 1, 1.0))
    projection.emit(RunEnded(stranger, 1, 2, 2.0))
    projection.emit(RunFailed(stranger, 1, ValueError("x"), 2.0))
    projection.emit("not an effect")  # type: ignore[arg-type]
    assert traced.spans == () and failure_count() == before


def test_a_root_that_ends_first_ends_its_open_children_as_incomplete(traced: Traced) -> None:
    from effects.effect_values import RunStarted

    projection = OtelProjection(traced.tracer)
    root = RunInfo(UUID(int=1), (), "root", "chain", (), {})
    child = RunInfo(UUID(int=2), (root.run_id,), "child", "chain", (), {})
    projection.emit(RunStarted(root, 1, 1.0))
    projection.emit(RunStarted(child, 1, 1.5))
    projection.emit(RunEnded(root, 1, 2, 3.0))
    assert projection.open_runs == 0
    ended = {span.name: span for span in traced.spans}
    assert ended["child"].end_time == 3_000_000_000
    assert (ended["child"].attributes or {})["lcel.incomplete"] is True
    assert "lcel.incomplete" not in (ended["invoke_workflow root"].attributes or {})
