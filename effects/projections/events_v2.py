"""Effects -> ``astream_events(version="v2")`` events, one effect at a time.

Each effect gives at most one event: ``RunStarted`` -> ``on_<type>_start``,
``RunStreamed`` -> ``on_<type>_stream``, ``RunEnded`` -> ``on_<type>_end``,
``CustomEmitted`` -> ``on_custom_event``, and (our documented extension; the peer has
none) ``RunFailed`` -> ``on_<type>_error`` with ``data = {"error": e, "input": i}``.
The first event shown carries the call's input (the root's, whatever run it belongs
to: the peer's rule, which matters under filters that hide the root), and that run's
end and error events carry no ``input``.

Dict key order follows the peer per kind of event (it only shows in serialized bytes):
start ``event, data, name, tags, run_id, metadata, parent_ids``; end/error and a
sub-run model's token stream ``event, data, run_id, name, tags, metadata, parent_ids``;
other streams and custom events ``event, run_id, name, tags, metadata, data,
parent_ids``.

A tool run shows its start and its end (or ``on_tool_error``, whose data carries the
``tool_call_id`` it answered, ``None`` without one), never stream events, as the peer's.
A root run streams only when it is a chain or a model: a prompt, retriever or parser
called alone shows its start and end only, as the peer's (inside a chain, a parser's
chunks are ``on_parser_stream`` events). Nor does a root whose step does not stream by
itself (``RunInfo.whole_output``: a model without a token stream, called alone): its
whole output reaches the stream after its run ended, where the peer shows no stream
events (v1 and the run log show it as the root's stream, as the peer's do).
The stream events of one run share its ``tags`` and ``parent_ids`` lists and its
``metadata`` dict, as the peer's do: copy them before changing them.

Differences from the peer: a custom event carries all tags of its enclosing run, the
step tag (``seq:step:N``) included (the peer drops the non-inherited step tag there).

>>> from uuid import UUID
>>> from effects.effect_values import RunInfo, RunStarted
>>> run = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
>>> [e["event"] for e in EventsV2().feed(RunStarted(run, "hi", 0.0))]
['on_chain_start']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Final, final
from uuid import UUID

from effects.projections.filters import expect_effect, expect_filter
from effects.event_types import CustomStreamEvent as CustomStreamEvent
from effects.event_types import EndData, ErrorData, StartData
from effects.event_types import RunEndEvent, RunErrorEvent, RunStartEvent, RunStreamEvent
from effects.event_types import StandardStreamEvent as StandardStreamEvent
from effects.event_types import StreamEvent as StreamEvent
from effects.event_types import event_names
from effects.projections.filters import NO_FILTER, EventFilter
from effects.projections.shapes import MODEL_TYPES
from effects.effect_values import NOTHING, CustomEmitted, Effect, RunEnded, RunFailed, RunInfo, RunStarted, RunStreamed


_ROOT_STREAMS: Final = frozenset({"chain", *MODEL_TYPES})
"""The run types whose stream events show when they are the root of the call."""


@final
class _Seen:
    """What a projection remembers about a run it has shown, until that run ends: the
    parts of its events that never change, made once (events are built per chunk)."""

    __slots__ = ("run", "run_id", "parent_ids", "shown", "streams", "stream_template", "shows_chunk")

    def __init__(self, run: RunInfo, shown: bool, runs: dict[int, _Seen]) -> None:
        self.run = run
        self.run_id = str(run.run_id)
        # The parents' ids as text: those of runs still open are known already.
        self.parent_ids = tuple(_text(parent, runs) for parent in run.parent_ids)
        self.shown = shown
        # A tool's result is its end's output; the peer shows no stream for it. Nor does
        # it for a root that is not a chain or a model (a prompt, retriever or parser
        # called alone): there the peer taps no output stream; nor for a root whose whole
        # output came after it ended (a model without a token stream, called alone): the
        # peer taps a root's output only while its run is live.
        self.streams = (
            shown
            and run.run_type != "tool"
            and not run.whole_output
            and (bool(run.parent_ids) or run.run_type in _ROOT_STREAMS)
        )
        self.stream_template: RunStreamEvent | None = None
        """Made at the run's first chunk (most runs of a chain stream none)."""
        # A sub-run text model's tokens reach the peer as token callbacks' GenerationChunks.
        self.shows_chunk = _TEXT_MODEL_CHUNKS.get("make") if run.run_type == "llm" and run.parent_ids else None

    def template(self) -> RunStreamEvent | None:
        """The template of this run's stream events (None: it shows no stream)."""
        template = self.stream_template
        if template is None and self.streams:
            template = self.stream_template = _stream_template(self.run, self)
        return template


def _text(run_id: UUID, runs: dict[int, _Seen]) -> str:
    seen = runs.get(run_id.int)
    return str(run_id) if seen is None else seen.run_id


def _stream_template(run: RunInfo, seen: _Seen) -> RunStreamEvent:
    # The stream events of a run share its tags, metadata and parent ids, as the peer's do.
    name = event_names(run.run_type)[1]
    tags, metadata, parents = list(run.tags), dict(run.metadata), list(seen.parent_ids)
    if run.parent_ids and run.run_type in MODEL_TYPES:
        # A sub-run model's chunks reach the peer as token callbacks, in this key order.
        return {
            "event": name, "data": {"chunk": None}, "run_id": seen.run_id, "name": run.name,
            "tags": tags, "metadata": metadata, "parent_ids": parents,
        }  # fmt: skip
    return {
        "event": name, "run_id": seen.run_id, "name": run.name, "tags": tags,
        "metadata": metadata, "data": {"chunk": None}, "parent_ids": parents,
    }  # fmt: skip


@final
class EventsV2:
    """The v2 projection as a fold: ``feed`` one effect, get the events it gives.

    >>> from uuid import UUID
    >>> from effects.effect_values import RunInfo, RunEnded
    >>> run = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
    >>> EventsV2().feed(RunEnded(run, "hi", "hi", 1.0))[0]["data"]
    {'output': 'hi'}
    """

    __slots__ = ("_filter", "_runs", "_first", "_call_input")

    def __init__(self, filter: EventFilter = NO_FILTER) -> None:
        expect_filter("EventsV2 filter", filter)
        self._filter = filter
        self._runs: dict[int, _Seen] = {}  # by the run id's int: UUID's hash is Python code
        self._first: object = None  # the run of the first event shown (_CUSTOM: a custom event)
        self._call_input: object = NOTHING

    def feed(self, effect: Effect) -> list[StreamEvent]:
        """The events for one effect (none when the filter hides its run).

        >>> EventsV2().feed("start")
        Traceback (most recent call last):
        ...
        TypeError: EventsV2.feed expects an effect value (RunStarted, RunStreamed, RunEnded, RunFailed or CustomEmitted), got str
        """
        event = self.event(effect)
        return [] if event is None else [event]

    def event(self, effect: Effect) -> StreamEvent | None:
        """The one event an effect gives, or ``None`` (``feed`` without the list).

        >>> from uuid import UUID
        >>> from effects.effect_values import RunInfo, RunStarted
        >>> EventsV2().event(RunStarted(RunInfo(UUID(int=1), (), "r", "chain", (), {}), 1, 0.0))["data"]
        {'input': 1}
        """
        # Effect classes are final: ``type(effect) is X`` says which one it is (and is
        # cheaper than isinstance, once per effect).
        if type(effect) is RunStreamed:  # the hot path: one event per chunk per run
            streamed = self._runs.get(effect.run.run_id.int)
            if streamed is not None:
                template = streamed.stream_template or streamed.template()
                if template is None:
                    return None
                shows = streamed.shows_chunk
                return _stream(effect, template) if shows is None else _shown_stream(effect, template, shows)
        elif type(effect) is CustomEmitted:
            return self._custom(effect)
        elif type(effect) not in _RUN_EFFECTS:
            expect_effect("EventsV2.feed", effect)  # raises: not an effect (untyped callers)
        run = effect.run
        seen = self._runs.get(run.run_id.int)
        if seen is None:
            seen = _Seen(run, self._filter.includes(run.name, run.run_type, run.tags), self._runs)
            self._runs[run.run_id.int] = seen
            if not run.parent_ids and type(effect) is RunStarted:
                self._call_input = effect.input
        if type(effect) is RunEnded or type(effect) is RunFailed:
            del self._runs[run.run_id.int]
        if not seen.shown:
            return None
        if type(effect) is RunStarted:
            started = _start(effect, seen)
            if self._first is None:
                self._first = run.run_id
                if self._call_input is not NOTHING:
                    started["data"]["input"] = self._call_input
            return started
        if type(effect) is RunStreamed:
            template = seen.template()
            if template is None:
                return None
            shows = seen.shows_chunk
            return _stream(effect, template) if shows is None else _shown_stream(effect, template, shows)
        with_input = bool(run.parent_ids) and run.run_id != self._first
        if type(effect) is RunEnded:
            return _end(effect, seen, with_input)
        return _error(effect, seen, with_input)

    def _custom(self, effect: CustomEmitted) -> CustomStreamEvent | None:
        run = effect.run
        # For custom events the filter's "type" is the event's own name, as in the peer.
        if not self._filter.includes(effect.name, effect.name, run.tags):
            return None
        if self._first is None:
            self._first = _CUSTOM
        seen = self._runs.get(run.run_id.int) or _Seen(run, True, self._runs)
        event: CustomStreamEvent = {
            "event": "on_custom_event",
            "run_id": seen.run_id,
            "name": effect.name,
            "tags": list(run.tags),
            "metadata": dict(run.metadata),
            "data": effect.data,
            "parent_ids": list(seen.parent_ids),
        }
        return event


def _start(effect: RunStarted, seen: _Seen) -> RunStartEvent:
    run = effect.run
    data: StartData = {} if effect.input is NOTHING else {"input": effect.input}
    return {
        "event": event_names(run.run_type)[0],
        "data": data,
        "name": run.name,
        "tags": list(run.tags),
        "run_id": seen.run_id,
        "metadata": dict(run.metadata),
        "parent_ids": list(seen.parent_ids),
    }


def _stream(effect: RunStreamed, template: RunStreamEvent) -> RunStreamEvent:
    event = template.copy()  # a copy of a small dict: a third of the cost of a dict display
    event["data"] = {"chunk": effect.chunk}
    return event


def _shown_stream(effect: RunStreamed, template: RunStreamEvent, shows: Callable[[str], object]) -> RunStreamEvent:
    event = template.copy()
    chunk = effect.chunk
    event["data"] = {"chunk": shows(chunk) if isinstance(chunk, str) else chunk}
    return event


_TEXT_MODEL_CHUNKS: Final[dict[str, Callable[[str], object]]] = {}


def show_text_model_chunks_with(make: Callable[[str], object]) -> None:
    """How v2 shows a text model's tokens inside a chain: the peer shows them as its token
    callbacks' ``GenerationChunk``. The text models' module sets it as it loads (``effects``
    never imports ``combinators``); until then they show as text.

    >>> before = dict(_TEXT_MODEL_CHUNKS)
    >>> show_text_model_chunks_with(str.upper)
    >>> _TEXT_MODEL_CHUNKS["make"]("a")
    'A'
    >>> _TEXT_MODEL_CHUNKS.clear(); _TEXT_MODEL_CHUNKS.update(before)
    """
    _TEXT_MODEL_CHUNKS["make"] = make


_CUSTOM: Final = object()
_RUN_EFFECTS: Final = frozenset({RunStarted, RunEnded, RunFailed})


def _end(effect: RunEnded, seen: _Seen, with_input: bool) -> RunEndEvent:
    run = effect.run
    data: EndData = {"output": effect.output}
    if with_input and effect.input is not NOTHING:
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


def _error(effect: RunFailed, seen: _Seen, with_input: bool) -> RunErrorEvent:
    run = effect.run
    data: ErrorData = {"error": effect.error}
    if with_input and effect.input is not NOTHING:
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


def stream_events_v2(effects: Iterable[Effect], filter: EventFilter = NO_FILTER) -> Iterator[StreamEvent]:
    """The v2 events of a sequence of effects, lazily.

    >>> from uuid import UUID
    >>> from effects.effect_values import RunInfo, RunStarted, RunStreamed
    >>> run = RunInfo(UUID(int=1), (), "echo", "chain", ("t",), {})
    >>> [e["event"] for e in stream_events_v2([RunStarted(run, 1, 0.0), RunStreamed(run, 1, 0.1)])]
    ['on_chain_start', 'on_chain_stream']
    """
    fold = EventsV2(filter)
    for effect in effects:
        yield from fold.feed(effect)
