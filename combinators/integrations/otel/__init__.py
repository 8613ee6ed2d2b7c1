"""OpenTelemetry traces of chains: one span per run, from the effect stream (extra ``otel``).

``chain.with_tracing()`` (or the config entry ``{"tracing": True}``) traces every run
with the global tracer provider's tracer; pass ``tracer=`` and ``config=OtelConfig(...)``
to choose. Span names and attributes follow OpenTelemetry's GenAI conventions
(``chat {model}``, ``execute_tool {tool}``, ``invoke_workflow {chain}``, ...); content is
not recorded unless ``OtelConfig.capture`` says so, and is always redacted. Model runs
also record the GenAI client metrics (``gen_ai.client.operation.duration``,
``gen_ai.client.token.usage``) with ``meter=`` or the global meter provider's.

Importing this module fills the ``effects.hooks.TRACING`` hook; ``with_tracing`` loads
it by itself, so users never need to.

>>> from opentelemetry.sdk.trace import TracerProvider
>>> from opentelemetry.sdk.trace.export import SimpleSpanProcessor
>>> from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
>>> from combinators import RunnableLambda
>>> exporter = InMemorySpanExporter()
>>> provider = TracerProvider()
>>> provider.add_span_processor(SimpleSpanProcessor(exporter))
>>> chain = (RunnableLambda(str.strip) | RunnableLambda(str.title)).with_tracing(provider.get_tracer("app"))
>>> chain.invoke(" hello there ")
'Hello There'
>>> [span.name for span in exporter.get_finished_spans()]
['strip', 'title', 'invoke_workflow RunnableSequence']
"""

from combinators.integrations.otel.config import CaptureMode as CaptureMode
from combinators.integrations.otel.config import OtelConfig as OtelConfig
from combinators.integrations.otel.projection import OtelProjection as OtelProjection
from combinators.integrations.otel.metrics import failure_count as failure_count
from combinators.integrations.otel.redact import Redactor as Redactor
from combinators.integrations.otel.tracing import PROVIDER as _PROVIDER
from combinators.integrations.otel.tracing import OtelTracing as OtelTracing
from combinators.integrations.otel.tracing import trace_effects as trace_effects
from effects.hooks import TRACING as _TRACING

_TRACING.fill(_PROVIDER)

__all__ = [
    "CaptureMode",
    "OtelConfig",
    "OtelProjection",
    "OtelTracing",
    "Redactor",
    "failure_count",
    "trace_effects",
]
