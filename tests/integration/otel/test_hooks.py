"""Turning tracing on: the hook, the config entry, the missing extra, and the free paths."""

from __future__ import annotations

import asyncio
import pathlib
import pickle
import subprocess
import sys
import tomllib

import cloudpickle  # type: ignore[import-untyped]
import pytest
from opentelemetry import trace
from opentelemetry.metrics import NoOpMeter
from opentelemetry.trace import NoOpTracer, ProxyTracerProvider

from combinators import RunnableLambda, RunnableParallel
from combinators.integrations.otel import OtelConfig, OtelTracing
from effects import MissingExtraError
from effects.hooks import PROGRESS, TRACING
from tests.integration.otel.support import Traced
from tests.unit.effects._runtime.test_building_nothing_materialised import built  # noqa: F401 - a fixture


def inc(x: int) -> int:
    return x + 1


def without(monkeypatch: pytest.MonkeyPatch, hook: object, package: str, module: str) -> None:
    """Make it look as if ``package`` (an extra's dependency) were not installed."""
    monkeypatch.setattr(hook, "_provider", None)
    for name in [n for n in sys.modules if n.startswith((module + ".", package + "."))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setitem(sys.modules, package, None)  # importing it now fails


def test_without_the_otel_extra_tracing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    without(monkeypatch, TRACING, "opentelemetry", "combinators.integrations.otel")
    with pytest.raises(
        MissingExtraError, match=r"with_tracing needs the optional extra 'otel': pip install 'lcel-combinators\[otel\]'"
    ):
        RunnableLambda(inc).with_tracing()
    with pytest.raises(ImportError, match="extra 'otel'"):
        RunnableLambda(inc).invoke(1, {"tracing": True})
    assert RunnableLambda(inc).invoke(1) == 2  # nothing else needs it


def test_the_otel_extra_is_the_api_alone() -> None:
    pyproject = pathlib.Path(__file__).resolve().parents[3] / "pyproject.toml"
    extra = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]["otel"]
    assert [requirement.split(">")[0] for requirement in extra] == ["opentelemetry-api"]
    # Importing the integration and tracing a call load no SDK or exporter module.
    code = (
        "import sys, combinators.integrations.otel\n"
        "from combinators import RunnableLambda\n"
        "assert RunnableLambda(abs).with_tracing().invoke(-1) == 1\n"
        "print(sorted(m for m in sys.modules if m.startswith(('opentelemetry.sdk', 'opentelemetry.exporter'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_without_the_progress_extra_a_progress_bar_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    without(monkeypatch, PROGRESS, "tqdm", "combinators.integrations.progress")
    with pytest.raises(MissingExtraError, match=r"needs the optional extra 'progress'"):
        RunnableLambda(inc).batch([1], progress=True)
    assert RunnableLambda(inc).batch([1]) == [2]


def test_with_no_tracer_configured_nothing_is_built(built: list[str]) -> None:  # noqa: F811 - the fixture imported above
    assert isinstance(trace.get_tracer_provider(), ProxyTracerProvider)  # no SDK installed globally
    chain = RunnableLambda(inc) | RunnableParallel(a=RunnableLambda(inc))
    for traced in (chain.with_tracing(), chain.with_tracing(NoOpTracer()), chain.with_tracing(trace.get_tracer("x"))):
        assert traced.invoke(1) == {"a": 3}
        assert traced.batch([1, 2]) == [{"a": 3}, {"a": 4}]
        assert list(traced.stream(1)) == [{"a": 3}]
        assert asyncio.run(traced.ainvoke(1)) == {"a": 3}
    assert chain.invoke(1, {"tracing": True}) == {"a": 3}
    assert chain.with_config(tracing=True).invoke(1) == {"a": 3}
    assert chain.batch([1], {"tracing": OtelConfig(capture="span")}) == [{"a": 3}]
    assert built == []


def test_the_config_entry_and_with_config_trace_like_with_tracing(traced: Traced) -> None:
    tracing = OtelTracing(traced.tracer)
    RunnableLambda(inc).with_tracing(traced.tracer).invoke(1)
    RunnableLambda(inc).invoke(1, {"tracing": tracing})
    RunnableLambda(inc).with_config(tracing=tracing).invoke(1)
    assert [span.name for span in traced.spans] == ["invoke_workflow inc"] * 3
    assert [dict(span.attributes or {}).keys() for span in traced.spans][0] == {
        "lcel.run.id",
        "lcel.run.type",
        "gen_ai.operation.name",
        "gen_ai.workflow.name",
    }


def test_a_traced_chain_is_a_value(traced: Traced) -> None:
    chain = RunnableLambda(inc).with_tracing(config=OtelConfig(capture="span"))
    assert repr(chain) == "RunnableLambda(inc).with_tracing(config=OtelConfig(capture='span'))"
    assert chain == RunnableLambda(inc).with_tracing(config=OtelConfig(capture="span"))
    assert chain != RunnableLambda(inc).with_tracing()
    for dumps in (pickle.dumps, cloudpickle.dumps):
        copy = pickle.loads(dumps(chain))
        assert copy == chain and copy.invoke(1) == 2
    assert repr(RunnableLambda(inc).with_tracing(traced.tracer)) == "RunnableLambda(inc).with_tracing(tracer=...)"
    metered = RunnableLambda(inc).with_tracing(meter=NoOpMeter("m"))
    assert repr(metered) == "RunnableLambda(inc).with_tracing(meter=...)"


def test_wrong_arguments_name_what_was_expected() -> None:
    with pytest.raises(TypeError, match="with_tracing tracer must be an OpenTelemetry Tracer or None, got str"):
        RunnableLambda(inc).with_tracing("tracer")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="with_tracing config must be an OtelConfig, got dict"):
        RunnableLambda(inc).with_tracing(config={"capture": "span"})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="OtelConfig capture must be one of none, span, event, span_and_event"):
        OtelConfig(capture="all")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="with_tracing config must be an OtelConfig, got int"):
        RunnableLambda(inc).invoke(1, {"tracing": 3})
    with pytest.raises(TypeError, match="with_tracing meter must be an OpenTelemetry Meter or None, got str"):
        RunnableLambda(inc).with_tracing(meter="meter")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="with_tracing meter must be an OpenTelemetry Meter or None, got str"):
        OtelTracing(meter="meter")  # type: ignore[arg-type]


def test_the_capture_mode_follows_the_environment_when_not_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "SPAN_AND_EVENT")
    assert OtelConfig().capture == "span_and_event"
    assert OtelConfig(capture="none").capture == "none"
    monkeypatch.setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
    assert OtelConfig().capture == "span"
    monkeypatch.delenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT")
    assert OtelConfig().capture == "none"


def test_without_a_tracer_the_global_provider_is_used_once_installed(
    traced: Traced, monkeypatch: pytest.MonkeyPatch
) -> None:
    chain = RunnableLambda(inc).with_tracing()
    assert chain.invoke(1) == 2 and traced.spans == ()
    # What trace.set_tracer_provider(provider) does, undone after the test.
    monkeypatch.setattr(trace, "_TRACER_PROVIDER", traced.provider)
    assert chain.invoke(1) == 2
    assert [span.name for span in traced.spans] == ["invoke_workflow inc"]
    assert traced.spans[0].instrumentation_scope is not None
    assert traced.spans[0].instrumentation_scope.name == "combinators"
