"""``stream_events`` as projected in the consumer's loop: the sync projection gives the async one's events."""

from __future__ import annotations

from typing import Any

from combinators import RunnableLambda, RunnableParallel, RunnablePassthrough
from tests.unit.effects.projections.test_projections_live_events import check_well_nested, events_v2


def test_sync_stream_events_equals_async() -> None:
    chain = RunnableLambda(abs) | RunnableParallel(a=RunnablePassthrough[int](), b=RunnableLambda(str))

    def shape(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
        # Sync parallel branches stream one after another, async ones interleave:
        # the same events, in an order that may differ between the two.
        return sorted((e["event"], e["name"]) for e in events)

    sync_events = [dict(e) for e in chain.stream_events(-3)]
    assert shape(sync_events) == shape(events_v2(chain, -3))
    check_well_nested(sync_events)
    assert sync_events[-1]["data"]["output"] == {"a": 3, "b": "3"}
