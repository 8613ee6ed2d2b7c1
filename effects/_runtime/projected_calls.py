"""``stream_events`` and ``stream_log``: projections of a watched run, in the consumer's loop.

The run's effects come from ``observe`` / ``aobserve``; each projection is a fold
applied effect by effect as the consumer iterates, so no event is built ahead of
being asked for and nothing runs after the consumer stops.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import Literal, Protocol, TypeVar

from effects._runtime.effect_stream import aobserve, aobserve_projected, observe
from effects.projections.events_v1 import EventsV1
from effects.event_types import StreamEvent, V1StreamEvent
from effects.projections.events_v2 import EventsV2
from effects.projections.filters import EventFilter
from effects.projections.run_log import RunLog, RunLogPatch, RunLogPatches, RunLogStates
from effects.projections.sse import SSE_END, EventNotEncodable, encode_sse_event
from effects.step import Step
from effects._runtime.closing import closing
from effects.effect_values import Effect

EventsVersion = Literal["v1", "v2"]

T_co = TypeVar("T_co", covariant=True)
In = TypeVar("In")
Out = TypeVar("Out")


class _Fold(Protocol[T_co]):
    def feed(self, effect: Effect) -> Sequence[T_co]: ...


def _unknown_version(version: str) -> ValueError:
    return ValueError(f"stream_events version must be 'v1' or 'v2', got {version!r}")


def _log_fold(diff: bool, with_streamed_output_list: bool, filter: EventFilter) -> RunLogPatches | RunLogStates:
    kind = RunLogPatches if diff else RunLogStates
    return kind(filter, with_streamed_output_list=with_streamed_output_list)


def check_encoding(encoding: str | None) -> None:
    """Only ``None`` (event dicts) and ``"text/event-stream"`` (SSE bytes) are encodings.

    >>> check_encoding("json")
    Traceback (most recent call last):
    ...
    ValueError: stream_events encoding must be 'text/event-stream' or None, got 'json'
    """
    if encoding not in (None, "text/event-stream"):
        raise ValueError(f"stream_events encoding must be 'text/event-stream' or None, got {encoding!r}")


async def _aprojected(
    fold: _Fold[T_co], node: Step[In, Out], input: In, config: object, kwargs: Mapping[str, object]
) -> AsyncIterator[T_co]:
    async with closing(aobserve(node, input, config, kwargs)) as effects:
        async for effect in effects:
            for item in fold.feed(effect):
                yield item


def _projected(
    fold: _Fold[T_co], node: Step[In, Out], input: In, config: object, kwargs: Mapping[str, object]
) -> Iterator[T_co]:
    for effect in observe(node, input, config, kwargs):
        yield from fold.feed(effect)


def aevents(
    node: Step[In, Out],
    input: In,
    config: object,
    kwargs: Mapping[str, object],
    version: str,
    filter: EventFilter,
) -> AsyncIterator[StreamEvent] | AsyncIterator[V1StreamEvent]:
    """The run's events (v1 or v2), as they happen.

    >>> import asyncio
    >>> from combinators import RunnableLambda
    >>> from effects.projections.filters import EventFilter
    >>> async def main():
    ...     return [e["event"] async for e in aevents(RunnableLambda(abs), -1, None, {}, "v2", EventFilter())]
    >>> asyncio.run(main())
    ['on_chain_start', 'on_chain_stream', 'on_chain_end']
    """
    if version == "v2":
        # v2 gives at most one event per effect: folded in the hand-off loop itself.
        project: Callable[[Effect], StreamEvent | None] = EventsV2(filter).event
        v2: AsyncIterator[StreamEvent] = aobserve_projected(node, input, config, kwargs, project)
        return v2
    if version == "v1":
        return _aprojected(EventsV1(filter), node, input, config, kwargs)
    raise _unknown_version(version)


def events(
    node: Step[In, Out],
    input: In,
    config: object,
    kwargs: Mapping[str, object],
    version: str,
    filter: EventFilter,
) -> Iterator[StreamEvent] | Iterator[V1StreamEvent]:
    """Sync ``aevents``.

    >>> from combinators import RunnableLambda
    >>> from effects.projections.filters import EventFilter
    >>> [e["event"] for e in events(RunnableLambda(abs), -1, None, {}, "v1", EventFilter())]
    ['on_chain_start', 'on_chain_stream', 'on_chain_end']
    """
    if version == "v2":
        return _projected(EventsV2(filter), node, input, config, kwargs)
    if version == "v1":
        return _projected(EventsV1(filter), node, input, config, kwargs)
    raise _unknown_version(version)


async def aevent_stream_bytes(
    node: Step[In, Out],
    input: In,
    config: object,
    kwargs: Mapping[str, object],
    version: str,
    filter: EventFilter,
) -> AsyncIterator[bytes]:
    """``text/event-stream`` frames of the events (``encode_sse_event``: no exception
    text, no ``repr``), then the end frame; an event that cannot be sent ends the stream
    with its ``event: error`` frame, and the run is closed.

    >>> import asyncio
    >>> from combinators import RunnableLambda
    >>> from effects.projections.filters import EventFilter
    >>> async def main():
    ...     return [f async for f in aevent_stream_bytes(RunnableLambda(abs), -1, None, {}, "v2", EventFilter())]
    >>> asyncio.run(main())[-1] == SSE_END
    True
    """
    async with closing(aevents(node, input, config, kwargs, version, filter)) as stream:
        async for event in stream:
            try:
                frame = encode_sse_event(event)
            except EventNotEncodable as error:  # its error frame ends the stream (and the run)
                yield error.frame
                return
            yield frame
    yield SSE_END


def event_stream_bytes(
    node: Step[In, Out],
    input: In,
    config: object,
    kwargs: Mapping[str, object],
    version: str,
    filter: EventFilter,
) -> Iterator[bytes]:
    """Sync ``aevent_stream_bytes``.

    >>> from combinators import RunnableLambda
    >>> from effects.projections.filters import EventFilter
    >>> len(list(event_stream_bytes(RunnableLambda(abs), -1, None, {}, "v2", EventFilter())))
    4
    """
    stream = events(node, input, config, kwargs, version, filter)
    try:
        for event in stream:
            try:
                frame = encode_sse_event(event)
            except EventNotEncodable as error:  # its error frame ends the stream (and the run)
                yield error.frame
                return
            yield frame
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    yield SSE_END


def alog(
    node: Step[In, Out],
    input: In,
    config: object,
    kwargs: Mapping[str, object],
    diff: bool,
    with_streamed_output_list: bool,
    filter: EventFilter,
) -> AsyncIterator[RunLogPatch | RunLog]:
    """The run log: patches (``diff=True``) or the accumulated log after each patch.

    >>> import asyncio
    >>> from combinators import RunnableLambda
    >>> from effects.projections.filters import EventFilter
    >>> async def main():
    ...     return [p async for p in alog(RunnableLambda(abs), -1, None, {}, False, False, EventFilter())][-1]
    >>> asyncio.run(main()).state["final_output"]
    1
    """
    fold: _Fold[RunLogPatch | RunLog] = _log_fold(diff, with_streamed_output_list, filter)
    return _aprojected(fold, node, input, config, kwargs)


def log(
    node: Step[In, Out],
    input: In,
    config: object,
    kwargs: Mapping[str, object],
    diff: bool,
    with_streamed_output_list: bool,
    filter: EventFilter,
) -> Iterator[RunLogPatch | RunLog]:
    """Sync ``alog``.

    >>> from combinators import RunnableLambda
    >>> from effects.projections.filters import EventFilter
    >>> list(log(RunnableLambda(abs), -1, None, {}, False, False, EventFilter()))[-1].state["final_output"]
    1
    """
    fold: _Fold[RunLogPatch | RunLog] = _log_fold(diff, with_streamed_output_list, filter)
    return _projected(fold, node, input, config, kwargs)


__all__ = ["EventsVersion", "aevents", "alog", "check_encoding", "events", "log"]
