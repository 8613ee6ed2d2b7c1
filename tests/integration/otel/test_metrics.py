"""The GenAI client metrics: a model run's duration and token usage, from the effect stream."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from opentelemetry import metrics
from opentelemetry.metrics import Histogram, Meter, NoOpMeter
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import HistogramDataPoint, InMemoryMetricReader
from opentelemetry.trace import NoOpTracer

from combinators import RunnableLambda
from combinators.language_models import BaseChatModel
from combinators.messages import AIMessage, Message
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate
from combinators.integrations.otel import failure_count, trace_effects
from combinators.integrations.otel.metrics import DURATION_BUCKETS, TOKEN_BUCKETS, recording_metrics
from combinators.integrations.otel.tracing import OtelTracing
from combinators.nodes.binding import RunnableBinding
from effects.projections.recording import record, replay
from tests.integration.otel.models import ChatAcme, ChatLocked
from tests.integration.otel.support import Recorder, Traced

DURATION = "gen_ai.client.operation.duration"
TOKENS = "gen_ai.client.token.usage"
ACME = {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": "acme",  # as the reply names it (the span says the same)
    "gen_ai.request.model": "acme-large",
    "gen_ai.response.model": "acme-large-2026",
}


class Measured:
    """A meter provider of our own (never the global one) and what it recorded."""

    def __init__(self) -> None:
        self.reader = InMemoryMetricReader()
        self.provider = MeterProvider(metric_readers=[self.reader])
        self.meter: Meter = self.provider.get_meter("tests")

    def points(self, name: str) -> list[HistogramDataPoint]:
        data = self.reader.get_metrics_data()
        if data is None:
            return []
        found: list[HistogramDataPoint] = []
        for resource in data.resource_metrics:
            for scope in resource.scope_metrics:
                for metric in scope.metrics:
                    if metric.name == name:
                        found += [p for p in metric.data.data_points if isinstance(p, HistogramDataPoint)]
        return found

    def tokens(self) -> dict[str, tuple[int, float]]:
        """Token usage by type: (count of points recorded, their sum)."""
        return {
            str(p.attributes["gen_ai.token.type"]): (p.count, p.sum)
            for p in self.points(TOKENS)
            if p.attributes is not None
        }


@pytest.fixture
def measured() -> Measured:
    return Measured()


def chain() -> Any:
    prompt = ChatPromptTemplate.from_messages([("human", "{question}")])
    return prompt | ChatAcme() | StrOutputParser()


def test_a_model_run_records_its_duration_and_tokens(traced: Traced, measured: Measured) -> None:
    assert chain().with_tracing(traced.tracer, meter=measured.meter).invoke({"question": "why so"}) == "WHY SO"
    (duration,) = measured.points(DURATION)
    assert dict(duration.attributes or {}) == ACME
    assert duration.count == 1
    model = traced.named("chat acme-large")
    assert model.attributes is not None and model.attributes["gen_ai.provider.name"] == "acme"
    assert model.start_time is not None and model.end_time is not None
    assert duration.sum == pytest.approx((model.end_time - model.start_time) / 1e9, abs=1e-6)
    assert tuple(duration.explicit_bounds) == DURATION_BUCKETS
    assert measured.tokens() == {"input": (1, 7), "output": (1, 3)}
    (tokens, _) = measured.points(TOKENS)
    assert tuple(tokens.explicit_bounds) == TOKEN_BUCKETS
    assert {k: v for k, v in (tokens.attributes or {}).items() if k != "gen_ai.token.type"} == ACME


def test_only_model_runs_are_measured(traced: Traced, measured: Measured) -> None:
    plain = RunnableLambda(str.upper) | RunnableLambda(str.strip)
    assert plain.with_tracing(traced.tracer, meter=measured.meter).invoke(" a ") == "A"
    assert len(traced.spans) == 3
    assert measured.points(DURATION) == [] and measured.points(TOKENS) == []


def test_a_stream_counts_its_output_tokens(measured: Measured) -> None:
    streamed = chain().with_tracing(NoOpTracer(), meter=measured.meter)
    assert "".join(streamed.stream({"question": "one two three four"})) == "ONE TWO THREE FOUR "
    assert measured.tokens() == {"input": (1, 7), "output": (1, 4)}  # the streamed reply's usage
    (duration,) = measured.points(DURATION)
    assert duration.count == 1 and duration.sum >= 0.0


def test_a_failed_run_records_its_error_type_and_no_tokens(traced: Traced, measured: Measured) -> None:
    failing = ChatLocked().with_tracing(traced.tracer, meter=measured.meter)
    with pytest.raises(PermissionError):
        failing.invoke("hi")
    (duration,) = measured.points(DURATION)
    attributes = dict(duration.attributes or {})
    assert attributes["error.type"] == "PermissionError"
    assert attributes["gen_ai.operation.name"] == "chat"
    assert measured.points(TOKENS) == []
    assert all("sk-live" not in json.dumps(value) for value in attributes.values())


def test_a_batch_records_each_run_and_async_runs_too(measured: Measured) -> None:
    measuring = chain().with_tracing(meter=measured.meter)  # no tracer: spans are no-ops
    assert measuring.batch([{"question": "a"}, {"question": "b"}, {"question": "c"}]) == ["A", "B", "C"]
    assert asyncio.run(measuring.ainvoke({"question": "d"})) == "D"
    (duration,) = measured.points(DURATION)
    assert duration.count == 4
    assert measured.tokens() == {"input": (4, 28), "output": (4, 12)}


def test_nothing_is_built_without_a_recording_tracer_or_meter() -> None:
    assert OtelTracing(NoOpTracer(), meter=NoOpMeter("x")).make_observer() is None
    assert OtelTracing().make_observer() is None  # no SDK provider installed globally
    assert OtelTracing(meter=MeterProvider().get_meter("x")).make_observer() is not None
    # The API's own meter while no SDK provider is installed records nothing either.
    assert OtelTracing(meter=metrics.get_meter("app")).make_observer() is None


def test_the_apis_meter_records_once_a_provider_is_installed(
    measured: Measured, monkeypatch: pytest.MonkeyPatch
) -> None:
    from opentelemetry.metrics import _internal as metrics_api

    proxy = metrics.get_meter("app")
    assert recording_metrics(proxy) is None
    monkeypatch.setattr(metrics_api, "_METER_PROVIDER", measured.provider)
    assert recording_metrics(proxy) is not None


def test_a_replayed_recording_records_the_live_durations_and_tokens() -> None:
    live, later = Measured(), Measured()
    recorder = Recorder()
    watched = RunnableBinding.over(chain(), observers=(recorder, OtelTracing(NoOpTracer(), meter=live.meter)))
    assert watched.invoke({"question": "why so"}) == "WHY SO"
    assert trace_effects(replay(list(record(recorder.effects))), meter=later.meter) == 4
    assert [p.sum for p in later.points(DURATION)] == [p.sum for p in live.points(DURATION)]
    assert later.tokens() == live.tokens() == {"input": (1, 7), "output": (1, 3)}


class _Broken(Histogram):
    def __init__(self, name: str) -> None:
        super().__init__(name)

    def record(self, amount: float, attributes: Any = None, context: Any = None) -> None:
        raise RuntimeError("the histogram broke")


class _BrokenMeter(Meter):
    """A meter whose histograms raise when they record, or when they are made
    (its other instruments are the API's no-ops)."""

    def __init__(self, *, when: str) -> None:
        super().__init__("broken")
        self._noop = NoOpMeter("broken")
        self._when = when

    def create_histogram(self, name: str, *args: Any, **kwargs: Any) -> Histogram:
        if self._when == "made":
            raise RuntimeError("no histograms here")
        return _Broken(name)

    def create_counter(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return self._noop.create_counter(name)

    def create_up_down_counter(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return self._noop.create_up_down_counter(name)

    def create_observable_counter(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return self._noop.create_observable_counter(name)

    def create_observable_gauge(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return self._noop.create_observable_gauge(name)

    def create_observable_up_down_counter(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return self._noop.create_observable_up_down_counter(name)


@pytest.mark.parametrize(("when", "message"), [("recorded", "the histogram broke"), ("made", "no histograms here")])
def test_a_meter_that_raises_is_counted_not_raised(
    traced: Traced, caplog: pytest.LogCaptureFixture, when: str, message: str
) -> None:
    before = failure_count()
    result = chain().with_tracing(traced.tracer, meter=_BrokenMeter(when=when)).invoke({"question": "ok"})
    assert result == "OK"
    assert failure_count() == before + 1
    assert message in caplog.text
    assert len(traced.spans) == 4 and "chat acme-large" in [span.name for span in traced.spans]


def test_without_a_meter_the_global_provider_is_used_once_installed(
    measured: Measured, monkeypatch: pytest.MonkeyPatch
) -> None:
    from opentelemetry.metrics import _internal as metrics_api

    traced = chain().with_tracing(NoOpTracer())
    assert traced.invoke({"question": "a"}) == "A" and measured.points(DURATION) == []
    # What metrics.set_meter_provider(provider) does, undone after the test.
    monkeypatch.setattr(metrics_api, "_METER_PROVIDER", measured.provider)
    assert traced.invoke({"question": "b"}) == "B"
    data = measured.reader.get_metrics_data()
    assert data is not None
    scopes = [scope.scope.name for resource in data.resource_metrics for scope in resource.scope_metrics]
    assert scopes == ["combinators"]
    assert measured.tokens() == {"input": (1, 7), "output": (1, 3)}


@attrs.frozen
class ChatMoody(BaseChatModel):
    """ChatAcme's replies, except that a question containing "fail" fails."""

    model: str = "acme-large"

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        if "fail" in messages[-1].text:
            raise TimeoutError("the model timed out")
        return ChatAcme()._generate(messages)  # pyright: ignore[reportPrivateUsage]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=6), st.sampled_from(["batch", "abatch"]))
def test_each_model_run_is_measured_once_whatever_fails(fails: list[bool], call: str) -> None:
    measured = Measured()
    measuring = (ChatMoody() | StrOutputParser()).with_tracing(NoOpTracer(), meter=measured.meter)
    inputs = ["fail" if fail else "ok" for fail in fails]
    if call == "batch":
        out = measuring.batch(inputs, return_exceptions=True)
    else:
        out = asyncio.run(measuring.abatch(inputs, return_exceptions=True))
    assert [isinstance(result, TimeoutError) for result in out] == fails
    points = measured.points(DURATION)
    by_error = {(p.attributes or {}).get("error.type"): p.count for p in points}
    failed, succeeded = sum(fails), len(fails) - sum(fails)
    assert by_error == {k: v for k, v in {"TimeoutError": failed, None: succeeded}.items() if v}
    expected_tokens = {"input": (succeeded, 7 * succeeded), "output": (succeeded, 3 * succeeded)}
    assert measured.tokens() == (expected_tokens if succeeded else {})
