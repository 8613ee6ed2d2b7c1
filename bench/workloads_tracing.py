"""W11: the cost of tracing the W2 chain (a 10-step sequence: 11 runs per call).

Sides, timed in one interleaved comparison:

* ``plain``: the untraced chain;
* ``unconfigured``: ``with_tracing()`` while no SDK tracer provider is installed (the
  bench never installs one globally): the runs must cost what untraced runs cost;
* ``noop``: ``with_tracing(NoOpTracer())``;
* ``effects``: the chain watched by an observer that does nothing (what building the
  effect stream costs, before any span);
* ``projection``: ``with_tracing`` with a tracer whose spans are non-recording stubs
  (the effects and our projection, without the SDK's span objects);
* ``sdk``: ``with_tracing`` with an SDK tracer, ``SimpleSpanProcessor`` and
  ``InMemorySpanExporter`` (cleared after each call);
* ``raw``: the floor, 11 spans made with the SDK directly, shaped as ours are: a root and
  10 children parented to it, INTERNAL, 4 and 3 attributes, explicit start and end
  times, ended through the same processor and exporter (cleared after each call).

The per-run figures divide the difference to ``plain`` by 11.
"""

from __future__ import annotations

import time
from typing import Any

from bench.chains import sequence
from bench.harness import Outcome, Stat, compare_sync
from bench.record import Results

US = 1e6
RUNS = 11  # the sequence and its 10 steps


class _Idle:
    """An observer that does nothing: the cost of the effects themselves."""

    def make_observer(self, config: object = None) -> _Idle:
        return self

    def emit(self, effect: object) -> None:
        return None


def _stub_tracer() -> Any:
    from opentelemetry.trace import INVALID_SPAN_CONTEXT, NonRecordingSpan, Span, Tracer

    class StubTracer(Tracer):
        """Hands out one non-recording span: what our projection costs without the SDK."""

        span = NonRecordingSpan(INVALID_SPAN_CONTEXT)

        def start_span(self, *args: Any, **kwargs: Any) -> Span:
            return self.span

        def start_as_current_span(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    return StubTracer()


def _added(side: Outcome, plain: Outcome, per: int = 1) -> Outcome | float:
    if isinstance(side, Stat) and isinstance(plain, Stat):
        return (side.median - plain.median) / per * US
    return side if not isinstance(side, Stat) else plain


def _sides(ours: Any) -> dict[str, Any]:
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import NoOpTracer, SpanKind

    from combinators.nodes.binding import RunnableBinding

    chain = sequence(ours, 10)
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("bench")
    unconfigured = chain.with_tracing()
    noop = chain.with_tracing(NoOpTracer())
    watched = RunnableBinding.over(chain, observers=(_Idle(),))
    stubbed = chain.with_tracing(_stub_tracer())
    traced = chain.with_tracing(tracer)

    def sdk() -> object:
        out = traced.invoke(0)
        exporter.clear()
        return out

    def raw() -> object:
        now = time.time_ns()
        root = tracer.start_span(
            "invoke_workflow RunnableSequence",
            kind=SpanKind.INTERNAL,
            attributes={"lcel.run.id": "0190c5d2-0000-7000-8000-000000000000", "lcel.run.type": "chain",
                        "gen_ai.operation.name": "invoke_workflow", "gen_ai.workflow.name": "RunnableSequence"},
            start_time=now,
        )  # fmt: skip
        context = trace.set_span_in_context(root)
        for i in range(10):
            child = tracer.start_span(
                f"inc{i}",
                context=context,
                kind=SpanKind.INTERNAL,
                attributes={"lcel.run.id": "0190c5d2-0000-7000-8000-000000000001", "lcel.run.type": "chain",
                            "lcel.tags": (f"seq:step:{i + 1}",)},
                start_time=now,
            )  # fmt: skip
            child.end(end_time=now)
        root.end(end_time=now)
        exporter.clear()
        return 10

    return {
        "plain": lambda: chain.invoke(0),
        "unconfigured": lambda: unconfigured.invoke(0),
        "noop": lambda: noop.invoke(0),
        "effects": lambda: watched.invoke(0),
        "projection": lambda: stubbed.invoke(0),
        "sdk": sdk,
        "raw": raw,
    }


def w11_tracing(res: Results) -> None:
    s = res.settings
    if isinstance(res.ours, str):
        res.add("W11", "tracing the W2 chain", "µs", {"ours": None})
        return
    try:
        sides = _sides(res.ours)
    except Exception as exc:  # the otel packages missing, or our side broken
        res.add("W11", "tracing the W2 chain", "µs", {"ours": f"error: {type(exc).__name__}: {exc}"})
        return
    out = compare_sync(sides, repeat=s.repeat, target=s.target)
    plain = out["plain"]
    res.add("W11", "W2 chain invoke, untraced, µs/call", "µs", {"ours": plain}, US)
    row = res.add("W11", "with_tracing(), no tracer configured: added µs/call", "µs",
                  {"ours": _added(out["unconfigured"], plain)},
                  note="no SDK provider installed globally: nothing is built")  # fmt: skip
    res.budget("W11", "with_tracing(), no tracer configured: added µs per call (ours)", row.ours, "<", 2.0,
               unit="µs")  # fmt: skip
    row = res.add("W11", "with_tracing(NoOpTracer()): added µs/call", "µs", {"ours": _added(out["noop"], plain)})
    res.budget("W11", "with_tracing(NoOpTracer()): added µs per call (ours)", row.ours, "<", 2.0, unit="µs")
    res.add("W11", "effects alone (an idle observer): added µs/run", "µs",
            {"ours": _added(out["effects"], plain, RUNS)},
            note="what the runtime's effect stream costs per run, before any span")  # fmt: skip
    res.add("W11", "effects + our projection, no SDK spans: added µs/run", "µs",
            {"ours": _added(out["projection"], plain, RUNS)},
            note="a tracer whose spans are non-recording stubs")  # fmt: skip
    raw = out["raw"]
    floor = raw.median / RUNS * US if isinstance(raw, Stat) else raw
    row = res.add("W11", "SDK + in-memory exporter: added µs/run", "µs",
                  {"ours": _added(out["sdk"], plain, RUNS), "floor": floor},
                  note="floor: one raw SDK span per run (same kind, parent, attribute count, processor, exporter)")  # fmt: skip
    res.budget("W11", "SDK + in-memory exporter: added per run / raw SDK span", row.ratio("floor"), "<=", 1.2)
