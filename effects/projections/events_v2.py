"""Effects -> ``astream_events(version="v2")`` events, one effect at a time.

Each effect gives at most one event: ``RunStarted`` -> ``on_<type>_start``,
``RunStreamed`` -> ``on_<type>_stream``, ``RunEnded`` -> ``on_<type>_end``,
``CustomEmitted`` -> ``on_custom_event``, and (our documented extension; the peer has
none) ``RunFailed`` -> ``on_<type>_error`` with ``data = {"error": e, "input": i}``.
The root's end and error events carry no ``input``.

Dict key order follows the peer per kind of event (it only shows in serialized bytes):
start ``event, data, name, tags, run_id, metadata, parent_ids``; end/error and a
sub-run model's token stream ``event, data, run_id, name, tags, metadata, parent_ids``;
other streams and custom events ``event, run_id, name, tags, metadata, data,
parent_ids``.

A tool run shows its start and its end (or ``on_tool_error``, whose data carries the
``tool_call_id`` it answered, ``None`` without one), never stream events, as the peer's.

Differences from the peer: a custom event carries all tags of its enclosing run, the
step tag (``seq:step:N``) included (the peer drops the non-inherited step tag there).

>>> from uuid import UUID
>>> from effects.values import RunInfo, RunStarted
>>> run = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
>>> [e["event"] for e in EventsV2().feed(RunStarted(run, "hi", 0.0))]
['on_chain_start']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import final
from uuid import UUID

from effects.projections.argument_checks import expect_effect, expect_filter
from effects.event_types import CustomStreamEvent as CustomStreamEvent
from effects.event_types import EndData, ErrorData, StartData
from effects.event_types import RunEndEvent, RunErrorEvent, RunStartEvent, RunStreamEvent
from effects.event_types import StandardStreamEvent as StandardStreamEvent
from effects.event_types import StreamEvent as StreamEvent
from effects.event_types import event_names
from effects.projections.filters import NO_FILTER, EventFilter
from effects.projections.shapes import MODEL_TYPES
from effects.values import (
    NO_INPUT,
    CustomEmitted,
    Effect,
    RunEnded,
    RunFailed,
    RunInfo,
    RunStarted,
    RunStreamed,
)


@final
class _Seen:
    """What a projection remembers about a run it has shown, until that run ends."""

    __slots__ = ("run_id", "parent_ids", "shown")

    def __init__(self, run: RunInfo, shown: bool) -> None:
        self.run_id = str(run.run_id)
        self.parent_ids = tuple(str(parent) for parent in run.parent_ids)
        self.shown = shown


@final
class EventsV2:
    """The v2 projection as a fold: ``feed`` one effect, get the events it gives.

    >>> from uuid import UUID
    >>> from effects.values import RunInfo, RunEnded
    >>> run = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
    >>> EventsV2().feed(RunEnded(run, "hi", "hi", 1.0))[0]["data"]
    {'output': 'hi'}
    """

    __slots__ = ("_filter", "_runs")

    def __init__(self, filter: EventFilter = NO_FILTER) -> None:
        expect_filter("EventsV2 filter", filter)
        self._filter = filter
        self._runs: dict[UUID, _Seen] = {}

    def feed(self, effect: Effect) -> list[StreamEvent]:
        """The events for one effect (none when the filter hides its run).

        >>> EventsV2().feed("start")
        Traceback (most recent call last):
        ...
        TypeError: EventsV2.feed expects an effect value (RunStarted, RunStreamed, RunEnded, RunFailed or CustomEmitted), got str
        """
        if isinstance(effect, CustomEmitted):
            return self._custom(effect)
        expect_effect("EventsV2.feed", effect)
        run = effect.run
        seen = self._runs.get(run.run_id)
        if seen is None:
            seen = _Seen(run, self._filter.includes(run.name, run.run_type, run.tags))
            self._runs[run.run_id] = seen
        if isinstance(effect, RunEnded | RunFailed):
            del self._runs[run.run_id]
        if not seen.shown:
            return []
        if isinstance(effect, RunStarted):
            return [_start(effect, seen)]
        if isinstance(effect, RunStreamed):
            # A tool's result is its end's output; the peer shows no stream for it.
            return [] if run.run_type == "tool" else [_stream(effect, seen)]
        if isinstance(effect, RunEnded):
            return [_end(effect, seen)]
        return [_error(effect, seen)]

    def _custom(self, effect: CustomEmitted) -> list[StreamEvent]:
        run = effect.run
        # For custom events the filter's "type" is the event's own name, as in the peer.
        if not self._filter.includes(effect.name, effect.name, run.tags):
            return []
        seen = self._runs.get(run.run_id) or _Seen(run, True)
        event: CustomStreamEvent = {
            "event": "on_custom_event",
            "run_id": seen.run_id,
            "name": effect.name,
            "tags": list(run.tags),
            "metadata": dict(run.metadata),
            "data": effect.data,
            "parent_ids": list(seen.parent_ids),
        }
        return [event]


def _start(effect: RunStarted, seen: _Seen) -> RunStartEvent:
    run = effect.run
    data: StartData = {} if effect.input is NO_INPUT else {"input": effect.input}
    return {
        "event": event_names(run.run_type)[0],
        "data": data,
        "name": run.name,
        "tags": list(run.tags),
        "run_id": seen.run_id,
        "metadata": dict(run.metadata),
        "parent_ids": list(seen.parent_ids),
    }


def _stream(effect: RunStreamed, seen: _Seen) -> RunStreamEvent:
    run = effect.run
    name = event_names(run.run_type)[1]
    if run.parent_ids and run.run_type in MODEL_TYPES:
        # A sub-run model's chunks reach the peer as token callbacks, in this key order.
        return {
            "event": name,
            "data": {"chunk": effect.chunk},
            "run_id": seen.run_id,
            "name": run.name,
            "tags": list(run.tags),
            "metadata": dict(run.metadata),
            "parent_ids": list(seen.parent_ids),
        }
    return {
        "event": name,
        "run_id": seen.run_id,
        "name": run.name,
        "tags": list(run.tags),
        "metadata": dict(run.metadata),
        "data": {"chunk": effect.chunk},
        "parent_ids": list(seen.parent_ids),
    }


def _end(effect: RunEnded, seen: _Seen) -> RunEndEvent:
    run = effect.run
    data: EndData = {"output": effect.output}
    if run.parent_ids and effect.input is not NO_INPUT:
        data["input"] = effect.input
    return {
        "event": event_names(run.run_type)[2],
        "data": data,
        "run_id": seen.run_id,
        "name": run.name,
        "tags": list(run.tags),
        "metadata": dict(run.metadata),
        "parent_ids": list(seen.parent_ids),
    }


def _error(effect: RunFailed, seen: _Seen) -> RunErrorEvent:
    run = effect.run
    data: ErrorData = {"error": effect.error}
    if run.parent_ids and effect.input is not NO_INPUT:
        data["input"] = effect.input
    if run.run_type == "tool":
        data["tool_call_id"] = effect.tool_call_id
    return {
        "event": event_names(run.run_type)[3],
        "data": data,
        "run_id": seen.run_id,
        "name": run.name,
        "tags": list(run.tags),
        "metadata": dict(run.metadata),
        "parent_ids": list(seen.parent_ids),
    }


def stream_events_v2(
    effects: Iterable[Effect], filter: EventFilter = NO_FILTER
) -> Iterator[StreamEvent]:
    """The v2 events of a sequence of effects, lazily.

    >>> from uuid import UUID
    >>> from effects.values import RunInfo, RunStarted, RunStreamed
    >>> run = RunInfo(UUID(int=1), (), "echo", "chain", ("t",), {})
    >>> [e["event"] for e in stream_events_v2([RunStarted(run, 1, 0.0), RunStreamed(run, 1, 0.1)])]
    ['on_chain_start', 'on_chain_stream']
    """
    fold = EventsV2(filter)
    for effect in effects:
        yield from fold.feed(effect)
