"""Properties of the projection: one span per run, all ended, parented and timed as the
effects say, for generated chains and for generated (and recorded) effect streams."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from opentelemetry.sdk.trace import ReadableSpan

from combinators.nodes.binding import RunnableBinding
from combinators.integrations.otel import OtelProjection, OtelTracing, failure_count, trace_effects
from combinators.testing import inputs_for, runnables
from effects.clock import FakeClock, use_clock
from effects.projections.recording import record, replay
from effects.effect_values import Effect, RunEnded, RunFailed, RunStarted
from tests.integration.otel.support import Recorder, Traced, ns, shapes
from tests.unit.effects.projections.strategies import effect_trees


def check_spans_follow_effects(effects: Sequence[Effect], spans: Sequence[ReadableSpan]) -> None:
    starts = {e.run.run_id: e for e in effects if isinstance(e, RunStarted)}
    ends = {e.run.run_id: e for e in effects if isinstance(e, RunEnded | RunFailed)}
    by_run = {str((span.attributes or {})["lcel.run.id"]): span for span in spans}
    # one span per started run, and every span ended
    assert len(spans) == len(starts) == len(by_run)
    assert set(by_run) == {str(run_id) for run_id in starts}
    for run_id, started in starts.items():
        span = by_run[str(run_id)]
        ended = ends[run_id]
        # times are the effects' own, start before end
        assert span.start_time == ns(started.at)
        assert span.end_time == ns(ended.at)
        assert span.start_time <= span.end_time
        # parents are the runs' parents
        parent_id = started.run.parent_id
        if parent_id is None or parent_id not in starts:
            assert span.parent is None
        else:
            assert span.parent is not None
            assert span.parent.span_id == by_run[str(parent_id)].context.span_id
            assert span.context.trace_id == by_run[str(parent_id)].context.trace_id


@settings(max_examples=40, deadline=None)
@given(runnables(int, str, max_leaves=6), st.data(), st.sampled_from(["invoke", "stream", "ainvoke"]))
def test_generated_chains_get_one_span_per_run(chain: Any, data: st.DataObject, mode: str) -> None:
    traced = Traced()
    recorder = Recorder()
    watched = RunnableBinding.over(chain, observers=(recorder, OtelTracing(traced.tracer)))
    value = data.draw(inputs_for(chain))
    failures = failure_count()
    clock = FakeClock(start=1_700_000_000.0)
    with use_clock(clock):
        try:
            if mode == "invoke":
                watched.invoke(value)
            elif mode == "stream":
                for _ in watched.stream(value):
                    clock.advance(0.25)
            else:
                asyncio.run(watched.ainvoke(value))
        except Exception:
            pass  # scripted failures: their spans are checked like any other
    assert recorder.effects
    check_spans_follow_effects(recorder.effects, traced.spans)
    assert failure_count() == failures


@settings(max_examples=60, deadline=None)
@given(effect_trees())
def test_generated_effect_streams_get_one_span_per_run(effects: list[Effect]) -> None:
    traced = Traced()
    failures = failure_count()
    projection = OtelProjection(traced.tracer)
    for effect in effects:
        projection.emit(effect)
    assert projection.open_runs == 0
    check_spans_follow_effects(effects, traced.spans)
    assert failure_count() == failures


@settings(max_examples=60, deadline=None)
@given(effect_trees())
def test_a_recording_replays_into_the_same_spans(effects: list[Effect]) -> None:
    live, replayed = Traced(), Traced()
    assert trace_effects(effects, tracer=live.tracer) == sum(isinstance(e, RunStarted) for e in effects)
    trace_effects(replay(record(effects)), tracer=replayed.tracer)
    assert shapes(replayed.spans) == shapes(live.spans)
