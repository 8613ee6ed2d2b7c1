"""``OtelTracing``: the value behind ``with_tracing``, and where its tracer comes from.

``OtelTracing(tracer, config, meter)`` is an observer factory: for each run of the
chain it traces it makes an ``OtelProjection``, or nothing at all when neither the
tracer nor the meter records anything (none given and no SDK provider installed
globally, a ``NoOpTracer``, a ``NoOpMeter``), so an unconfigured ``with_tracing`` costs
what an untraced run costs. With a meter and no tracer, the runs are measured and
their spans are no-ops.

>>> from opentelemetry.trace import NoOpTracer
>>> OtelTracing(NoOpTracer()).make_observer() is None
True
>>> OtelTracing(config=OtelConfig(capture="span")).fluent_repr()
".with_tracing(config=OtelConfig(capture='span'))"
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Iterable
from typing import Final, final

import attrs
from opentelemetry import trace
from opentelemetry.metrics import Meter
from opentelemetry.trace import NoOpTracer, ProxyTracer, ProxyTracerProvider, Tracer, TracerProvider

from combinators.integrations.otel.config import OtelConfig
from combinators.integrations.otel.metrics import recording_metrics
from combinators.integrations.otel.projection import OtelProjection
from combinators.integrations.otel.semconv import INSTRUMENTATION_NAME, remembered, scope_version
from combinators.integrations.otel.spans import SpanShapes
from effects.config import RunConfig
from effects.effect_values import Effect, RunStarted
from effects.authoring import is_a

_tracers: weakref.WeakKeyDictionary[TracerProvider, Tracer] = weakref.WeakKeyDictionary()


def _our_tracer(provider: TracerProvider) -> Tracer:
    return provider.get_tracer(INSTRUMENTATION_NAME, scope_version())


_UNKNOWN: Final = object()
_PROVIDER_FROM_ENV: Final = "OTEL_PYTHON_TRACER_PROVIDER" in os.environ
"""Whether the environment names a provider for the API to load (read once)."""


def _global_provider() -> TracerProvider | None:
    """The installed global provider, or None while only the API's proxy is there.

    ``trace.get_tracer_provider()`` looks ``OTEL_PYTHON_TRACER_PROVIDER`` up in
    ``os.environ`` at each call while none is installed (about 1 µs): we read the
    installed provider (set once per process) directly, and the variable once.
    """
    installed: object = getattr(trace, "_TRACER_PROVIDER", _UNKNOWN)
    if installed is None and not _PROVIDER_FROM_ENV:
        return None
    if not isinstance(installed, TracerProvider):
        installed = trace.get_tracer_provider()
    return None if isinstance(installed, ProxyTracerProvider) else installed


def recording_tracer(tracer: Tracer | None) -> Tracer | None:
    """The tracer to use now, or None when it would record nothing.

    >>> recording_tracer(NoOpTracer()) is None
    True
    """
    if tracer is None:
        provider = _global_provider()
        if provider is None:
            return None  # the API alone: no SDK provider installed globally
        tracer = remembered(_tracers, provider, _our_tracer)
    if isinstance(tracer, NoOpTracer):
        return None
    if isinstance(tracer, ProxyTracer) and _global_provider() is None:
        return None  # a proxy from the API that no SDK provider backs (yet)
    return tracer


def _wrong(what: str, expected: str, value: object) -> TypeError:
    return TypeError(f"with_tracing {what} must be {expected}, got {type(value).__name__}")


def _check_tracer(_instance: object, _attribute: object, value: Tracer | None) -> None:
    if value is not None and not is_a(value, Tracer):  # untyped callers
        raise _wrong("tracer", "an OpenTelemetry Tracer or None", value)


def _check_meter(_instance: object, _attribute: object, value: Meter | None) -> None:
    if value is not None and not is_a(value, Meter):  # untyped callers
        raise _wrong("meter", "an OpenTelemetry Meter or None", value)


_NO_SPANS: Final = NoOpTracer()
"""The tracer of a run that is measured and not traced."""


def _check_config(_instance: object, _attribute: object, value: OtelConfig) -> None:
    if not is_a(value, OtelConfig):  # untyped callers
        raise _wrong("config", "an OtelConfig", value)


@final
@attrs.frozen
class OtelTracing:
    """Traces every run it watches as OpenTelemetry spans (see the module docstring).

    >>> OtelTracing()
    OtelTracing(tracer=None, config=OtelConfig(), meter=None)
    """

    tracer: Tracer | None = attrs.field(default=None, validator=_check_tracer)
    config: OtelConfig = attrs.field(factory=OtelConfig, validator=_check_config)
    meter: Meter | None = attrs.field(default=None, validator=_check_meter)
    _shapes: SpanShapes = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        # Shared by the projections of every run: span starts by run shape.
        object.__setattr__(self, "_shapes", SpanShapes(self.config.redactor, self.config.metadata_keys))

    def make_observer(self, config: RunConfig | None = None) -> OtelProjection | None:
        """A projection for one run of the traced chain, or None when nothing records."""
        tracer = recording_tracer(self.tracer)
        metrics = recording_metrics(self.meter)
        if tracer is None and metrics is None:
            return None
        return OtelProjection(_NO_SPANS if tracer is None else tracer, self.config, self._shapes, metrics)

    def fluent_repr(self) -> str:
        """How a traced runnable's repr shows this: the call that added it."""
        shown: list[str] = []
        if self.tracer is not None:
            shown.append("tracer=...")
        if self.config != OtelConfig(capture="none"):
            shown.append(f"config={self.config!r}")
        if self.meter is not None:
            shown.append("meter=...")
        return f".with_tracing({', '.join(shown)})"


def trace_effects(
    effects: Iterable[Effect],
    *,
    tracer: Tracer | None = None,
    config: OtelConfig | None = None,
    meter: Meter | None = None,
) -> int:
    """Build the spans of recorded effects (``replay(lines)``) after the fact; the count.

    Spans take the effects' own times, so a run recorded as JSON lines exports the
    same spans it would have exported live (and, with a meter, records the same
    durations and token counts). Runs left open at the end of the effects end as
    incomplete.

    >>> trace_effects([], tracer=NoOpTracer())
    0
    """
    chosen, metrics = recording_tracer(tracer), recording_metrics(meter)
    if chosen is None and metrics is None:
        return 0
    projection = OtelProjection(_NO_SPANS if chosen is None else chosen, config, metrics=metrics)
    count = 0
    last = 0.0
    for effect in effects:
        projection.emit(effect)
        count += isinstance(effect, RunStarted)
        last = effect.at
    projection.close(last)
    return count


class _Provider:
    """What fills the ``TRACING`` hook: ``with_tracing`` and the ``tracing`` config entry."""

    def tracing(self, tracer: object = None, config: object = None, meter: object = None) -> OtelTracing:
        if tracer is not None and not isinstance(tracer, Tracer):
            raise _wrong("tracer", "an OpenTelemetry Tracer or None", tracer)
        if config is None:
            config = OtelConfig()
        if not isinstance(config, OtelConfig):
            raise _wrong("config", "an OtelConfig", config)
        if meter is not None and not isinstance(meter, Meter):
            raise _wrong("meter", "an OpenTelemetry Meter or None", meter)
        return OtelTracing(tracer, config, meter)


PROVIDER: Final = _Provider()
