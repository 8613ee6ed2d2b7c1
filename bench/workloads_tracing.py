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
  times, ended through the same processor and exporter (cleared after each call);
* ``effects_then_raw``: ``effects`` followed by ``raw``: what no projection could beat,
  the effect stream plus the floor's spans made straight after in a tight loop;
* the peer's OpenTelemetry routes on its own W2 chain, with content capture off as ours
  is by default, each handler passed as the call's callback (so nothing is patched
  globally and the other workloads stay untraced): ``peer_plain`` untraced,
  ``peer_openinference`` (``openinference-instrumentation-langchain``'s tracer, which
  builds a span from each finished run) and ``peer_openllmetry``
  (``opentelemetry-instrumentation-langchain``'s callback handler), both on the same
  SDK processor and exporter.

The per-run figures divide the difference to the untraced call by 11.
"""

from __future__ import annotations

import os
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


def _peer_sides(peer: Any, tracer: Any, clear: Any) -> dict[str, Any]:
    """The peer's W2 chain, untraced and traced by each installed OpenTelemetry route."""
    chain = sequence(peer, 10)
    sides: dict[str, Any] = {"peer_plain": lambda: chain.invoke(0)}

    def traced(handler: Any) -> Any:
        config = {"callbacks": [handler]}

        def call() -> object:
            out = chain.invoke(0, config)
            clear()
            return out

        return call

    try:
        from openinference.instrumentation import OITracer, TraceConfig
        from openinference.instrumentation.langchain._tracer import OpenInferenceTracer
    except ImportError as exc:
        sides["peer_openinference"] = f"not installed: {exc}"
    else:
        hidden = TraceConfig(hide_inputs=True, hide_outputs=True)
        sides["peer_openinference"] = traced(OpenInferenceTracer(OITracer(tracer, config=hidden), False))
    try:
        from opentelemetry.instrumentation.langchain.callback_handler import TraceloopCallbackHandler
        from opentelemetry.metrics import NoOpMeter
    except ImportError as exc:
        sides["peer_openllmetry"] = f"not installed: {exc}"
    else:
        os.environ["TRACELOOP_TRACE_CONTENT"] = "false"  # read at each run
        meter = NoOpMeter("bench")
        handler = TraceloopCallbackHandler(tracer, meter.create_histogram("d"), meter.create_histogram("t"))
        sides["peer_openllmetry"] = traced(handler)
    return sides


def _added(side: Outcome, plain: Outcome, per: int = 1) -> Outcome | float:
    if isinstance(side, Stat) and isinstance(plain, Stat):
        return (side.median - plain.median) / per * US
    return side if not isinstance(side, Stat) else plain


def _sides(ours: Any, peer: Any) -> dict[str, Any]:
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

    peers = {} if isinstance(peer, str) else _peer_sides(peer, tracer, exporter.clear)
    return peers | {
        "plain": lambda: chain.invoke(0),
        "unconfigured": lambda: unconfigured.invoke(0),
        "noop": lambda: noop.invoke(0),
        "effects": lambda: watched.invoke(0),
        "projection": lambda: stubbed.invoke(0),
        "sdk": sdk,
        "raw": raw,
        "effects_then_raw": lambda: (watched.invoke(0), raw()),
    }


def w11_tracing(res: Results) -> None:
    s = res.settings
    if isinstance(res.ours, str):
        res.add("W11", "tracing the W2 chain", "µs", {"ours": None})
        return
    try:
        sides = _sides(res.ours, res.peer)
    except Exception as exc:  # the otel packages missing, or our side broken
        res.add("W11", "tracing the W2 chain", "µs", {"ours": f"error: {type(exc).__name__}: {exc}"})
        return
    out = compare_sync(sides, repeat=s.repeat, target=s.target)
    plain, peer_plain = out["plain"], out.get("peer_plain")
    res.add("W11", "W2 chain invoke, untraced, µs/call", "µs", {"ours": plain, "peer": peer_plain}, US)
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
    added = _added(out["sdk"], plain, RUNS)
    row = res.add("W11", "SDK + in-memory exporter: added µs/run", "µs",
                  {"ours": added, "peer": _added(out.get("peer_openinference"), peer_plain, RUNS), "floor": floor},
                  note="peer: OpenInference's LangChain tracer; floor: one raw SDK span per run "
                       "(same kind, parent, attribute count, processor, exporter)")  # fmt: skip
    res.add("W11", "effects alone, then the floor's raw spans: added µs/run", "µs",
            {"ours": _added(out["effects_then_raw"], plain, RUNS), "floor": floor},
            note="no projection at all: the least any projection of the effect stream could add")  # fmt: skip
    openllmetry = _added(out.get("peer_openllmetry"), peer_plain, RUNS)
    res.add("W11", "SDK + in-memory exporter: added µs/run (peer: OpenLLMetry)", "µs",
            {"ours": added, "peer": openllmetry},
            note="peer: opentelemetry-instrumentation-langchain's callback handler")  # fmt: skip
    best, route = _best_peer_route({"OpenInference": row.peer, "OpenLLMetry": openllmetry})
    res.add("W11", "SDK + exporter: added µs/run (peer: best OTel route)", "µs",
            {"ours": added, "peer": best},
            note=f"the peer's cheaper OpenTelemetry route in this run: {route}")  # fmt: skip
    best_ratio = added / best if isinstance(added, float) and best else None
    res.budget("W11", "SDK + exporter, per run: ours / peer's best OTel route", best_ratio,
               "<=", 0.5, context=f"best route: {route}")  # fmt: skip
    # Reported beside the budget, no longer a budget: the effect stream alone costs more
    # than 1.2x a raw span (see the README's W11 notes).
    res.add("W11", "SDK + exporter: added per run / raw SDK span (no limit)", "x",
            {"ours": row.ratio("floor")}, note="the former 1.2x budget; no limit")  # fmt: skip


def _best_peer_route(routes: dict[str, object]) -> tuple[float | None, str]:
    """The cheapest peer route measured in this run (lowest added µs/run), with its name.

    >>> _best_peer_route({"OpenInference": 167.0, "OpenLLMetry": 68.0})
    (68.0, 'OpenLLMetry')
    >>> _best_peer_route({"OpenInference": "not installed: x", "OpenLLMetry": None})
    (None, 'none measured')
    """
    measured = {name: value for name, value in routes.items() if isinstance(value, float)}
    if not measured:
        return None, "none measured"
    name = min(measured, key=lambda n: measured[n])
    return measured[name], name
