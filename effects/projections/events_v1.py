"""Effects -> ``astream_events(version="v1")`` events (deprecated in the peer, kept for users).

Measured on langchain-core 1.8.3, where v1 is derived from the run log; what differs
from v2 (``events_v2``):

- ``parent_ids`` is always ``[]``; custom events are not shown.
- A failed sub-run ends with ``on_<type>_end`` (there is no error event) whose output is
  ``None`` (retriever: ``{}``; llm: ``{"generations": [], ...}``; chat model:
  ``{"generations": [[]], ...}``); a failed root shows nothing (the stream raises).
- Sub-run end data is ``{"input": i, "output": o}`` in that order (the input is left
  out when unknown or ``None``, at start too). The output is as given for chains,
  parsers, prompts and tools, but ``{"documents": o}`` for retrievers and the LLMResult dict
  ``{"generations": [[{text, generation_info, type[, message]}]], "llm_output": None,
  "run": None, "type": "LLMResult"}`` for llms and chat models.
- A sub-run llm streams its token text (v2: the chunk object); chat models stream the
  message chunk in both.
- The root end is ``{"output": o}`` where ``o`` is the sum of the root's chunks (a root
  llm's text, not its LLMResult), or ``None`` when the root streamed nothing.
- Key order: root start ``event, run_id, name, tags, metadata, data, parent_ids``; root
  stream ``event, run_id, tags, metadata, name, data, parent_ids``; root end and every
  sub-run event ``event, name, run_id, tags, metadata, data, parent_ids``.
- The peer's root event takes tags and metadata from the call's config, so metadata a
  model or retriever adds itself (``ls_provider``...) is missing there; here the root
  shows its run's tags and metadata, as sub-runs do.

Filters are the v2 ones; the root is not exempt. Chat models have type ``chat_model``
here (unlike the run log, where they are ``llm``).

>>> from uuid import UUID
>>> from effects.effect_values import RunInfo, RunStarted, RunFailed
>>> root = RunInfo(UUID(int=1), (), "seq", "chain", (), {})
>>> step = RunInfo(UUID(int=2), (UUID(int=1),), "bad", "chain", (), {})
>>> v1 = EventsV1()
>>> v1.feed(RunStarted(root, "q", 0.0))[0]["data"]
{'input': 'q'}
>>> v1.feed(RunFailed(step, "q", ValueError("boom"), 0.1))[0]["data"]
{'input': 'q', 'output': None}
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import final
from uuid import UUID

from effects.event_types import EventData, V1StreamEvent
from effects.projections.filters import expect_effect, expect_filter
from effects.projections.filters import NO_FILTER, EventFilter
from effects.projections.shapes import token_text, v1_end_output, v1_failed_output
from effects.effect_values import NOTHING, CustomEmitted, Effect, RunEnded, RunFailed, RunInfo, RunStarted, RunStreamed


@final
class _Seen:
    __slots__ = ("run_id", "shown", "streamed", "text")

    def __init__(self, run: RunInfo, shown: bool) -> None:
        self.run_id = str(run.run_id)
        self.shown = shown
        self.streamed = False
        self.text: list[str] = []  # a root llm's streamed text, its end output


@final
class EventsV1:
    """The v1 projection as a fold: ``feed`` one effect, get the events it gives.

    >>> from uuid import UUID
    >>> from effects.effect_values import RunInfo, RunStreamed
    >>> model = RunInfo(UUID(int=2), (UUID(int=1),), "llm", "llm", (), {})
    >>> EventsV1().feed(RunStreamed(model, "tok", 0.0))[0]["data"]
    {'chunk': 'tok'}
    """

    __slots__ = ("_filter", "_runs")

    def __init__(self, filter: EventFilter = NO_FILTER) -> None:
        expect_filter("EventsV1 filter", filter)
        self._filter = filter
        self._runs: dict[UUID, _Seen] = {}

    def feed(self, effect: Effect) -> list[V1StreamEvent]:
        """The events for one effect (custom events and hidden runs give none).

        >>> EventsV1().feed(None)
        Traceback (most recent call last):
        ...
        TypeError: EventsV1.feed expects an effect value (RunStarted, RunStreamed, RunEnded, RunFailed or CustomEmitted), got NoneType
        """
        expect_effect("EventsV1.feed", effect)
        if isinstance(effect, CustomEmitted):
            return []
        run = effect.run
        seen = self._runs.get(run.run_id)
        if seen is None:
            seen = _Seen(run, self._filter.includes(run.name, run.run_type, run.tags))
            self._runs[run.run_id] = seen
        if isinstance(effect, RunEnded | RunFailed):
            del self._runs[run.run_id]
        if isinstance(effect, RunStreamed):
            seen.streamed = True
        if not seen.shown:
            return []
        if not run.parent_ids:
            return _root_event(effect, seen)
        return [_sub_run_event(effect, seen)]


def _root_event(effect: RunStarted | RunStreamed | RunEnded | RunFailed, seen: _Seen) -> list[V1StreamEvent]:
    run = effect.run
    if isinstance(effect, RunStarted):
        data: EventData = {} if effect.input is NOTHING else {"input": effect.input}
        return [
            {
                "event": f"on_{run.run_type}_start",
                "run_id": seen.run_id,
                "name": run.name,
                "tags": list(run.tags),
                "metadata": dict(run.metadata),
                "data": data,
                "parent_ids": [],
            }
        ]
    if isinstance(effect, RunStreamed):
        if run.run_type == "llm":
            seen.text.append(token_text(effect.chunk))
        return [
            {
                "event": f"on_{run.run_type}_stream",
                "run_id": seen.run_id,
                "tags": list(run.tags),
                "metadata": dict(run.metadata),
                "name": run.name,
                "data": {"chunk": effect.chunk},
                "parent_ids": [],
            }
        ]
    if isinstance(effect, RunEnded):
        # The peer reports the root's summed chunks, which are None when it streamed none.
        # A root llm's chunks are its text: their sum is the text (not the LLMResult).
        output = ("".join(seen.text) if run.run_type == "llm" else effect.output) if seen.streamed else None
        return [_event(f"on_{run.run_type}_end", run, seen, {"output": output})]
    return []  # the peer's stream raises the root's error instead of an event


def _sub_run_event(effect: RunStarted | RunStreamed | RunEnded | RunFailed, seen: _Seen) -> V1StreamEvent:
    run = effect.run
    data: EventData = {}
    if isinstance(effect, RunStarted):
        if _known(effect.input):
            data["input"] = effect.input
        return _event(f"on_{run.run_type}_start", run, seen, data)
    if isinstance(effect, RunStreamed):
        chunk = token_text(effect.chunk) if run.run_type == "llm" else effect.chunk
        return _event(f"on_{run.run_type}_stream", run, seen, {"chunk": chunk})
    if _known(effect.input):
        data["input"] = effect.input
    if isinstance(effect, RunEnded):
        data["output"] = v1_end_output(run.run_type, effect.output, streamed=seen.streamed)
    else:
        data["output"] = v1_failed_output(run.run_type)
    return _event(f"on_{run.run_type}_end", run, seen, data)


def _known(input: object) -> bool:
    # The peer's v1 leaves out an input it holds as None, as well as one not known yet.
    return input is not NOTHING and input is not None


def _event(name: str, run: RunInfo, seen: _Seen, data: EventData) -> V1StreamEvent:
    return {
        "event": name,
        "name": run.name,
        "run_id": seen.run_id,
        "tags": list(run.tags),
        "metadata": dict(run.metadata),
        "data": data,
        "parent_ids": [],
    }


def stream_events_v1(effects: Iterable[Effect], filter: EventFilter = NO_FILTER) -> Iterator[V1StreamEvent]:
    """The v1 events of a sequence of effects, lazily.

    >>> from uuid import UUID
    >>> from effects.effect_values import RunInfo, RunStarted, RunEnded
    >>> run = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
    >>> [e["data"] for e in stream_events_v1([RunStarted(run, 1, 0.0), RunEnded(run, 1, 1, 0.1)])]
    [{'input': 1}, {'output': None}]
    """
    fold = EventsV1(filter)
    for effect in effects:
        yield from fold.feed(effect)
