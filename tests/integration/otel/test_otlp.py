"""The real OTLP/HTTP exporters, sending to a receiver on 127.0.0.1 that decodes the
protobuf payload: the spans that arrive carry the same names, parents and attributes,
and the metrics the same histograms."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
from opentelemetry.sdk.trace.export import SimpleSpanProcessor

from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate
from combinators.integrations.otel.metrics import DURATION_BUCKETS
from tests.integration.otel.models import ChatAcme
from tests.integration.otel.support import Traced


class Receiver(ThreadingHTTPServer):
    """A tiny OTLP/HTTP receiver of traces and metrics: keeps every decoded request."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: list[ExportTraceServiceRequest] = []
        self.metric_requests: list[ExportMetricsServiceRequest] = []
        self.paths: list[str] = []

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1/traces"

    @property
    def metrics_endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1/metrics"


class _Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.paths.append(self.path)
        if self.path == "/v1/metrics":
            metrics = ExportMetricsServiceRequest()
            metrics.ParseFromString(body)
            self.server.metric_requests.append(metrics)
            reply = ExportMetricsServiceResponse().SerializeToString()
        else:
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            self.server.requests.append(request)
            reply = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def plain(value: AnyValue) -> object:
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return tuple(plain(item) for item in value.array_value.values)
    return getattr(value, kind)


def test_spans_arrive_over_otlp_http_as_they_were_made(receiver: Receiver) -> None:
    traced = Traced()
    traced.provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(endpoint=receiver.endpoint, timeout=5)))
    prompt = ChatPromptTemplate.from_messages([("human", "{question}")])
    chain = (prompt | ChatAcme() | StrOutputParser()).with_tracing(traced.tracer)
    assert chain.invoke({"question": "fog?"}) == "FOG?"
    traced.provider.shutdown()

    received = [
        span
        for request in receiver.requests
        for resource in request.resource_spans
        for scope in resource.scope_spans
        for span in scope.spans
    ]
    assert set(receiver.paths) == {"/v1/traces"}
    assert len(received) == len(traced.spans) == 4
    local = {span.context.span_id: span for span in traced.spans}
    for wire in received:
        span = local[int.from_bytes(wire.span_id, "big")]
        assert wire.name == span.name
        assert int.from_bytes(wire.trace_id, "big") == span.context.trace_id
        parent = int.from_bytes(wire.parent_span_id, "big") if wire.parent_span_id else None
        assert parent == (span.parent.span_id if span.parent else None)
        assert {kv.key: plain(kv.value) for kv in wire.attributes} == dict(span.attributes or {})
        assert (wire.start_time_unix_nano, wire.end_time_unix_nano) == (span.start_time, span.end_time)
    model = next(wire for wire in received if wire.name == "chat acme-large")
    assert model.kind == 3  # SPAN_KIND_CLIENT
    attributes = {kv.key: plain(kv.value) for kv in model.attributes}
    assert attributes["gen_ai.usage.input_tokens"] == 7
    assert attributes["gen_ai.response.finish_reasons"] == ("stop",)


def test_metrics_arrive_over_otlp_http(receiver: Receiver) -> None:
    exporter = OTLPMetricExporter(endpoint=receiver.metrics_endpoint, timeout=5)
    provider = MeterProvider(metric_readers=[PeriodicExportingMetricReader(exporter, export_interval_millis=3_600_000)])
    prompt = ChatPromptTemplate.from_messages([("human", "{question}")])
    chain = (prompt | ChatAcme() | StrOutputParser()).with_tracing(Traced().tracer, meter=provider.get_meter("app"))
    assert chain.batch([{"question": "fog?"}, {"question": "rain?"}]) == ["FOG?", "RAIN?"]
    provider.shutdown()  # exports what was recorded, once

    assert set(receiver.paths) == {"/v1/metrics"}
    received = {
        metric.name: metric
        for request in receiver.metric_requests
        for resource in request.resource_metrics
        for scope in resource.scope_metrics
        for metric in scope.metrics
    }
    assert set(received) == {"gen_ai.client.operation.duration", "gen_ai.client.token.usage"}
    duration = received["gen_ai.client.operation.duration"]
    assert duration.unit == "s"
    (point,) = duration.histogram.data_points
    assert point.count == 2 and point.sum >= 0.0
    assert tuple(point.explicit_bounds) == DURATION_BUCKETS
    assert {kv.key: plain(kv.value) for kv in point.attributes} == {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "acme",
        "gen_ai.request.model": "acme-large",
        "gen_ai.response.model": "acme-large-2026",
    }
    tokens = received["gen_ai.client.token.usage"]
    assert tokens.unit == "{token}"
    by_type = {
        str(plain(next(kv.value for kv in p.attributes if kv.key == "gen_ai.token.type"))): (p.count, p.sum)
        for p in tokens.histogram.data_points
    }
    assert by_type == {"input": (2, 14.0), "output": (2, 6.0)}  # ChatAcme reports 7 and 3 per call
