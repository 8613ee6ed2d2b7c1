"""The ambient context: an application's span contains the chain, and stays current."""

from __future__ import annotations

import asyncio

import pytest

from opentelemetry import trace

from combinators import RunnableLambda
from combinators.integrations.otel import OtelConfig
from tests.integration.otel.support import Traced, parent_of


def test_the_application_span_becomes_the_root_parent_and_stays_current(traced: Traced) -> None:
    chain = (RunnableLambda(abs) | RunnableLambda(str)).with_tracing(traced.tracer)
    with traced.tracer.start_as_current_span("request") as request:
        assert chain.invoke(-5) == "5"
        assert list(chain.stream(-6)) == ["6"]
        assert chain.batch([-7, -8]) == ["7", "8"]
        assert asyncio.run(chain.ainvoke(-9)) == "9"
        assert trace.get_current_span() is request
    assert trace.get_current_span() is trace.INVALID_SPAN
    roots = [span for span in traced.spans if span.name == "invoke_workflow RunnableSequence"]
    app = traced.named("request")
    assert len(roots) == 5
    assert all(parent_of(root, traced.spans) is app for root in roots)
    assert {span.context.trace_id for span in traced.spans} == {app.context.trace_id}


def test_without_an_application_span_each_call_is_its_own_trace(traced: Traced) -> None:
    chain = RunnableLambda(abs).with_tracing(traced.tracer)
    chain.invoke(-1)
    chain.invoke(-2)
    assert [span.parent for span in traced.spans] == [None, None]
    assert len({span.context.trace_id for span in traced.spans}) == 2


def test_our_spans_are_made_current_only_when_asked(traced: Traced) -> None:
    seen: list[str] = []

    def inner(x: int) -> int:
        # what another instrumentation (an HTTP client, say) would parent its span to
        with traced.tracer.start_as_current_span(f"http {x}"):
            seen.append(trace.get_current_span().name)  # type: ignore[attr-defined]
        return x

    with traced.tracer.start_as_current_span("request"):
        RunnableLambda(inner).with_tracing(traced.tracer).invoke(1)
        RunnableLambda(inner).with_tracing(traced.tracer, OtelConfig(attach_context=True)).invoke(2)
        assert trace.get_current_span().name == "request"  # type: ignore[attr-defined]
    detached, attached = traced.named("http 1"), traced.named("http 2")
    assert parent_of(detached, traced.spans) is traced.named("request")
    roots = [span for span in traced.spans if span.name == "invoke_workflow inner"]
    assert parent_of(attached, traced.spans) is roots[1]
    assert seen == ["http 1", "http 2"]


def test_attached_spans_are_handed_back_when_runs_end_out_of_order(
    traced: Traced, caplog: pytest.LogCaptureFixture
) -> None:
    from collections.abc import Iterator

    from combinators import RunnableParallel

    def words(text: str) -> Iterator[str]:
        yield from text.split()

    # the streamed step ends after the parallel step it feeds has started
    chain = (RunnableLambda(words) | RunnableParallel(a=RunnableLambda(str.upper), b=RunnableLambda(len))).with_tracing(
        traced.tracer, OtelConfig(attach_context=True)
    )

    async def calls() -> object:
        out = ([c async for c in chain.astream("d e")], await chain.ainvoke("f"), await chain.abatch(["g", "h i"]))
        assert trace.get_current_span() is request
        return out

    with traced.tracer.start_as_current_span("request") as request:
        assert list(chain.stream("a b c")) == [{"a": "ABC"}, {"b": 3}]
        assert trace.get_current_span() is request
        assert chain.invoke("x y") == {"a": "XY", "b": 2}
        asyncio.run(calls())
        assert trace.get_current_span() is request
    assert trace.get_current_span() is trace.INVALID_SPAN
    assert not [record for record in caplog.records if "detach" in record.getMessage()]
    assert len(traced.spans) == 1 + 6 * 5
