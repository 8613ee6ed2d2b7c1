"""The real OTLP/HTTP exporter, sending to a receiver on 127.0.0.1 that decodes the
protobuf payload: the spans that arrive carry the same names, parents and attributes."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from opentelemetry.sdk.trace.export import SimpleSpanProcessor

from combinators.components import ChatPromptTemplate, StrOutputParser
from tests.integration.otel.models import ChatAcme
from tests.integration.otel.support import Traced


class Receiver(ThreadingHTTPServer):
    """A tiny OTLP/HTTP trace receiver: keeps every decoded request."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: list[ExportTraceServiceRequest] = []
        self.paths: list[str] = []

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1/traces"


class _Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        self.server.requests.append(request)
        self.server.paths.append(self.path)
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
