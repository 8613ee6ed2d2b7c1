"""A run recorded as JSON lines, replayed into the projection, gives the live run's spans."""

from __future__ import annotations

from typing import Any

from combinators import RunnableLambda
from combinators.nodes.binding import RunnableBinding
from combinators.messages import ToolCall
from combinators.output_parsers import StrOutputParser
from combinators.tools import tool
from combinators.integrations.otel import OtelTracing, trace_effects
from effects.projections.recording import record, replay
from tests.integration.otel.models import ChatAcme
from tests.integration.otel.support import Recorder, Traced, shapes


class Unavailable(Exception):
    pass


def unavailable(x: object) -> str:
    raise Unavailable(f"down for {x}")


@tool
def shout(text: str) -> str:
    """Shout."""
    return text.upper()


def ask(text: str) -> ToolCall:
    return ToolCall("shout", {"text": text}, id="call_9")


def test_a_replayed_recording_exports_the_live_spans() -> None:
    chain: Any = RunnableLambda(unavailable).with_fallbacks([ChatAcme() | StrOutputParser()]) | {
        "tool": RunnableLambda(ask) | shout,
        "length": RunnableLambda(len),
    }
    for call in ("invoke", "stream"):
        live, replayed = Traced(), Traced()
        recorder = Recorder()
        watched = RunnableBinding.over(chain, observers=(recorder, OtelTracing(live.tracer)))
        if call == "invoke":
            watched.invoke("quiet please")
        else:
            list(watched.stream("quiet please"))
        lines = list(record(recorder.effects))
        assert trace_effects(replay(lines), tracer=replayed.tracer) == len(live.spans) == 11
        assert shapes(replayed.spans) == shapes(live.spans)
        names = sorted(span.name for span in live.spans)
        assert "chat acme-large" in names and "execute_tool shout" in names
