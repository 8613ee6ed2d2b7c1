"""``GenAiMetrics``: the GenAI conventions' client metrics, recorded as model runs end.

Two histograms, with the conventions' names, units and advised buckets:
``gen_ai.client.operation.duration`` (seconds, from the run's own start and end times)
and ``gen_ai.client.token.usage`` (one point per ``gen_ai.token.type``, ``input`` and
``output``, from the typed reply's usage). They are recorded for chat, text completion
and embeddings runs only, with ``gen_ai.operation.name``, ``gen_ai.provider.name``,
``gen_ai.request.model`` and ``gen_ai.response.model``; a failed run adds ``error.type``
to its duration and records no tokens. No content is ever an attribute.

The meter is the one given to ``with_tracing(meter=...)``, else the global meter
provider's while an SDK one is installed; with neither, nothing is recorded (or built).

>>> from opentelemetry.sdk.metrics import MeterProvider
>>> from opentelemetry.sdk.metrics.export import InMemoryMetricReader
>>> reader = InMemoryMetricReader()
>>> metrics = GenAiMetrics(MeterProvider(metric_readers=[reader]).get_meter("app"))
>>> attributes = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": "acme"}
>>> metrics.record(attributes, 0.25, {"gen_ai.usage.input_tokens": 7, "gen_ai.usage.output_tokens": 3})
>>> found = reader.get_metrics_data().resource_metrics[0].scope_metrics[0].metrics
>>> [(m.name, [(p.attributes.get("gen_ai.token.type"), p.sum) for p in m.data.data_points]) for m in found]
[('gen_ai.client.operation.duration', [(None, 0.25)]), ('gen_ai.client.token.usage', [('input', 7), ('output', 3)])]

The integration also counts what it failed on itself (``failure_count``): effects the
projection could not fold, metrics it could not set up; each is logged, never raised into
a run.

>>> before = failure_count()
>>> FAILURES.note("a meter's histograms", RuntimeError("gone"))
>>> failure_count() - before
1
"""

from __future__ import annotations

import logging
import os
import weakref
from collections.abc import Mapping
from typing import Final, final

from opentelemetry import metrics
from opentelemetry.metrics import Meter, MeterProvider, NoOpMeter, NoOpMeterProvider
from opentelemetry.metrics import _internal as _api  # the installed provider, read without a call

from combinators.integrations.otel import semconv
from combinators.integrations.otel.response import Attributes
from combinators.integrations.otel.semconv import INSTRUMENTATION_NAME, remembered, scope_version
from effects.hooks import FailureCount

DURATION_BUCKETS: Final = (0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92)
"""The conventions' advised boundaries for operation durations, in seconds."""
TOKEN_BUCKETS: Final = tuple(float(4**power) for power in range(14))
"""The conventions' advised boundaries for token counts: 1, 4, 16, ... 67108864."""

_TOKEN_TYPES: Final = ((semconv.USAGE_INPUT_TOKENS, "input"), (semconv.USAGE_OUTPUT_TOKENS, "output"))


@final
class GenAiMetrics:
    """The two histograms of one meter (see the module docstring)."""

    __slots__ = ("_duration", "_tokens")

    def __init__(self, meter: Meter) -> None:
        self._duration = meter.create_histogram(
            semconv.CLIENT_OPERATION_DURATION,
            unit="s",
            description="GenAI operation duration.",
            explicit_bucket_boundaries_advisory=DURATION_BUCKETS,
        )
        self._tokens = meter.create_histogram(
            semconv.CLIENT_TOKEN_USAGE,
            unit="{token}",
            description="Number of input and output tokens used.",
            explicit_bucket_boundaries_advisory=TOKEN_BUCKETS,
        )

    def record(self, attributes: Attributes, seconds: float, usage: Mapping[str, object]) -> None:
        """One operation: its duration, and its token counts found in ``usage``."""
        self._duration.record(seconds, attributes)
        for key, kind in _TOKEN_TYPES:
            count = usage.get(key)
            if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
                self._tokens.record(count, {**attributes, semconv.TOKEN_TYPE: kind})


_known: weakref.WeakKeyDictionary[Meter, GenAiMetrics] = weakref.WeakKeyDictionary()
_meters: weakref.WeakKeyDictionary[MeterProvider, Meter] = weakref.WeakKeyDictionary()
_UNKNOWN: Final = object()
_PROVIDER_FROM_ENV: Final = "OTEL_PYTHON_METER_PROVIDER" in os.environ
"""Whether the environment names a meter provider for the API to load (read once)."""


def _global_provider() -> MeterProvider | None:
    """The installed global meter provider, or None while only the API's proxy is there
    (read directly, as ``tracing._global_provider`` reads the tracer provider: the API's
    getter looks the environment up at each call, and every traced call asks)."""
    installed: object = getattr(_api, "_METER_PROVIDER", _UNKNOWN)
    if installed is None and not _PROVIDER_FROM_ENV:
        return None
    if not isinstance(installed, MeterProvider):
        installed = metrics.get_meter_provider()
    return None if isinstance(installed, NoOpMeterProvider | _api._ProxyMeterProvider) else installed  # pyright: ignore[reportPrivateUsage]


def _our_meter(provider: MeterProvider) -> Meter:
    return provider.get_meter(INSTRUMENTATION_NAME, scope_version())


def recording_metrics(meter: Meter | None) -> GenAiMetrics | None:
    """The histograms of ``meter`` (else of the global provider's), or None when
    nothing would record: a ``NoOpMeter``, or the API's proxy meter while no SDK
    provider is installed.

    >>> recording_metrics(NoOpMeter("x")) is None
    True
    """
    if meter is None or isinstance(meter, _api._ProxyMeter):  # pyright: ignore[reportPrivateUsage]
        provider = _global_provider()
        if provider is None:
            return None
        if meter is None:
            meter = remembered(_meters, provider, _our_meter)
    if meter is None or isinstance(meter, NoOpMeter):
        return None
    return remembered(_known, meter, _made)


def _made(meter: Meter) -> GenAiMetrics | None:
    try:
        return GenAiMetrics(meter)
    except Exception as error:  # a meter that cannot make histograms: the runs go on unmeasured
        FAILURES.note("the GenAI metrics (the meter could not make their histograms)", error)
        return None


_log = logging.getLogger("combinators.integrations.otel")


@final
class _Failures(FailureCount):
    """Failures of the projection and its metrics: counted for ``failure_count``, logged."""

    __slots__ = ()

    def record(self, effect: object, error: Exception) -> None:
        """The projection could not fold ``effect``."""
        self.add()
        run = getattr(effect, "run", None)
        name = getattr(run, "name", "?")
        _log.warning("tracing dropped %s of run %r: %s: %s", type(effect).__name__, name, type(error).__name__, error)

    def note(self, what: str, error: Exception) -> None:
        """Something else failed (``what`` names it); the runs go on without it."""
        self.add()
        _log.warning("tracing left out %s: %s: %s", what, type(error).__name__, error)


FAILURES: Final = _Failures()


def failure_count() -> int:
    """How many times tracing failed (since the process started): effects it could not
    fold, metrics it could not set up.

    >>> failure_count() >= 0
    True
    """
    return FAILURES.count
