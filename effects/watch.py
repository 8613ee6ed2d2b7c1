"""``stream_events`` and ``stream_log``: projections of a watched run, in the consumer's loop.

The run's effects come from ``observe`` / ``aobserve``; each projection is a fold
applied effect by effect as the consumer iterates, so no event is built ahead of
being asked for and nothing runs after the consumer stops.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any, Literal

from effects.observe import aobserve, observe
from effects.projections.events_v1 import EventsV1
from effects.projections.events_v2 import EventsV2, StreamEvent
from effects.projections.filters import EventFilter
from effects.projections.run_log import RunLog, RunLogPatch, RunLogPatches, RunLogStates
from effects.projections.sse import SSE_END, encode_sse_event
from effects.step import Step
from effects.streams import closing

EventsVersion = Literal["v1", "v2"]


def _events_fold(version: str, filter: EventFilter) -> EventsV1 | EventsV2:
    if version == "v2":
        return EventsV2(filter)
    if version == "v1":
        return EventsV1(filter)
    raise ValueError(f"stream_events version must be 'v1' or 'v2', got {version!r}")


def check_encoding(encoding: str | None) -> None:
    if encoding not in (None, "text/event-stream"):
        raise ValueError(f"stream_events encoding must be 'text/event-stream' or None, got {encoding!r}")


async def aevents(
    node: Step,
    input: Any,
    config: object,
    kwargs: Mapping[str, Any],
    version: str,
    filter: EventFilter,
) -> AsyncIterator[StreamEvent]:
    """The run's events (v1 or v2), as they happen."""
    fold = _events_fold(version, filter)
    async with closing(aobserve(node, input, config, kwargs)) as effects:
        async for effect in effects:
            for event in fold.feed(effect):
                yield event


def events(
    node: Step,
    input: Any,
    config: object,
    kwargs: Mapping[str, Any],
    version: str,
    filter: EventFilter,
) -> Iterator[StreamEvent]:
    """Sync ``aevents``."""
    fold = _events_fold(version, filter)
    for effect in observe(node, input, config, kwargs):
        yield from fold.feed(effect)


async def aevent_stream_bytes(
    node: Step,
    input: Any,
    config: object,
    kwargs: Mapping[str, Any],
    version: str,
    filter: EventFilter,
) -> AsyncIterator[bytes]:
    """``text/event-stream`` frames of the events, then the end frame."""
    async with closing(aevents(node, input, config, kwargs, version, filter)) as events_:
        async for event in events_:
            yield encode_sse_event(event)
    yield SSE_END


def event_stream_bytes(
    node: Step,
    input: Any,
    config: object,
    kwargs: Mapping[str, Any],
    version: str,
    filter: EventFilter,
) -> Iterator[bytes]:
    """Sync ``aevent_stream_bytes``."""
    for event in events(node, input, config, kwargs, version, filter):
        yield encode_sse_event(event)
    yield SSE_END


async def alog(
    node: Step,
    input: Any,
    config: object,
    kwargs: Mapping[str, Any],
    diff: bool,
    with_streamed_output_list: bool,
    filter: EventFilter,
) -> AsyncIterator[RunLogPatch | RunLog]:
    """The run log: patches (``diff=True``) or the accumulated log after each patch."""
    fold = (RunLogPatches if diff else RunLogStates)(
        filter, with_streamed_output_list=with_streamed_output_list
    )
    async with closing(aobserve(node, input, config, kwargs)) as effects:
        async for effect in effects:
            for item in fold.feed(effect):
                yield item


def log(
    node: Step,
    input: Any,
    config: object,
    kwargs: Mapping[str, Any],
    diff: bool,
    with_streamed_output_list: bool,
    filter: EventFilter,
) -> Iterator[RunLogPatch | RunLog]:
    """Sync ``alog``."""
    fold = (RunLogPatches if diff else RunLogStates)(
        filter, with_streamed_output_list=with_streamed_output_list
    )
    for effect in observe(node, input, config, kwargs):
        yield from fold.feed(effect)


__all__ = ["EventsVersion", "aevents", "alog", "events", "log", "check_encoding"]
