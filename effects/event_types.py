"""The types of ``astream_events`` events: TypedDicts tagged by their event name.

A v2 event's ``"event"`` key is a ``Literal`` (``"on_chat_model_stream"``, ...), so
comparing it narrows the event to its kind and its ``data`` to the keys that kind has:

>>> def chunks(events: list[StreamEvent]) -> list[object]:
...     return [e["data"]["chunk"] for e in events if e["event"] == "on_chat_model_stream"]

``input``, ``output`` and ``chunk`` are the user's values (``Any``, as in the peer: a
chunk's type depends on the step that streamed it).
"""

from __future__ import annotations

from typing import Any, Final, Literal, NotRequired, TypeAlias, TypedDict, cast

from effects.effect_values import RUN_TYPES, RunType

StartEventName: TypeAlias = Literal[
    "on_chain_start", "on_prompt_start", "on_parser_start", "on_chat_model_start",
    "on_llm_start", "on_retriever_start", "on_tool_start",
]  # fmt: skip
StreamEventName: TypeAlias = Literal[
    "on_chain_stream", "on_prompt_stream", "on_parser_stream", "on_chat_model_stream",
    "on_llm_stream", "on_retriever_stream", "on_tool_stream",
]  # fmt: skip
EndEventName: TypeAlias = Literal[
    "on_chain_end", "on_prompt_end", "on_parser_end", "on_chat_model_end",
    "on_llm_end", "on_retriever_end", "on_tool_end",
]  # fmt: skip
ErrorEventName: TypeAlias = Literal[
    "on_chain_error", "on_prompt_error", "on_parser_error", "on_chat_model_error",
    "on_llm_error", "on_retriever_error", "on_tool_error",
]  # fmt: skip


class StartData(TypedDict, total=False):
    """A start event's data: the input, when it is known at the start.

    >>> StartData(input="hi")
    {'input': 'hi'}
    """

    input: Any


class ChunkData(TypedDict):
    """A stream event's data: one chunk.

    >>> ChunkData(chunk="h")["chunk"]
    'h'
    """

    chunk: Any


class EndData(TypedDict):
    """An end event's data: the output (and a child run's input).

    >>> EndData(output=2)
    {'output': 2}
    """

    output: Any
    input: NotRequired[Any]


class ErrorData(TypedDict):
    """An error event's data (our extension of the peer's events): the error, and a child
    run's input.

    >>> ErrorData(error=ValueError("x"))["error"]
    ValueError('x')
    """

    error: BaseException
    input: NotRequired[Any]
    tool_call_id: NotRequired[str | None]
    """A tool run's: the id of the tool call it answered."""


class RunStartEvent(TypedDict):
    """``on_<type>_start``.

    >>> RunStartEvent(event="on_chain_start", data={}, name="n", tags=[], run_id="1",
    ...               metadata={}, parent_ids=[])["event"]
    'on_chain_start'
    """

    event: StartEventName
    data: StartData
    name: str
    tags: list[str]
    run_id: str
    metadata: dict[str, object]
    parent_ids: list[str]


class RunStreamEvent(TypedDict):
    """``on_<type>_stream``.

    >>> RunStreamEvent(event="on_llm_stream", run_id="1", name="n", tags=[], metadata={},
    ...                data={"chunk": "a"}, parent_ids=[])["data"]
    {'chunk': 'a'}
    """

    event: StreamEventName
    run_id: str
    name: str
    tags: list[str]
    metadata: dict[str, object]
    data: ChunkData
    parent_ids: list[str]


class RunEndEvent(TypedDict):
    """``on_<type>_end``.

    >>> RunEndEvent(event="on_tool_end", data={"output": 3}, run_id="1", name="n", tags=[],
    ...             metadata={}, parent_ids=[])["data"]["output"]
    3
    """

    event: EndEventName
    data: EndData
    run_id: str
    name: str
    tags: list[str]
    metadata: dict[str, object]
    parent_ids: list[str]


class RunErrorEvent(TypedDict):
    """``on_<type>_error``.

    >>> RunErrorEvent(event="on_tool_error", data={"error": KeyError("k")}, run_id="1",
    ...               name="n", tags=[], metadata={}, parent_ids=[])["event"]
    'on_tool_error'
    """

    event: ErrorEventName
    data: ErrorData
    run_id: str
    name: str
    tags: list[str]
    metadata: dict[str, object]
    parent_ids: list[str]


class CustomStreamEvent(TypedDict):
    """A custom event dispatched from inside a run (``run_id`` is that run's).

    >>> CustomStreamEvent(event="on_custom_event", run_id="1", name="progress", tags=[],
    ...                   metadata={}, data=0.5, parent_ids=[])["data"]
    0.5
    """

    event: Literal["on_custom_event"]
    run_id: str
    name: str
    tags: list[str]
    metadata: dict[str, object]
    data: Any
    """The user's payload, of any type (as in the peer)."""
    parent_ids: list[str]


StandardStreamEvent: TypeAlias = RunStartEvent | RunStreamEvent | RunEndEvent | RunErrorEvent
"""A start, stream, end or error event of a run."""

StreamEvent: TypeAlias = StandardStreamEvent | CustomStreamEvent
"""One event of ``astream_events`` v2; ``event["event"]`` tells which kind (and narrows)."""


class EventData(TypedDict, total=False):
    """The ``data`` of a v1 event: which keys appear depends on the event.

    >>> EventData(output=1, input=0)
    {'output': 1, 'input': 0}
    """

    input: Any
    output: Any
    chunk: Any
    error: BaseException
    tool_call_id: str | None


class V1StreamEvent(TypedDict):
    """One event of ``astream_events(version="v1")`` (the peer's older, untagged shape).

    >>> V1StreamEvent(event="on_chain_end", data={"output": 1}, name="n", tags=[], run_id="1",
    ...               metadata={}, parent_ids=[])["data"]
    {'output': 1}
    """

    event: str
    data: EventData
    name: str
    tags: list[str]
    run_id: str
    metadata: dict[str, object]
    parent_ids: list[str]


EventNames: TypeAlias = tuple[StartEventName, StreamEventName, EndEventName, ErrorEventName]


def _names_of(run_type: str) -> EventNames:
    names = tuple(f"on_{run_type}_{phase}" for phase in ("start", "stream", "end", "error"))
    return cast(EventNames, names)  # each is one of the Literal names for a known run type


_NAMES: Final[dict[str, EventNames]] = {run_type: _names_of(run_type) for run_type in RUN_TYPES}


def event_names(run_type: RunType | str) -> EventNames:
    """The start, stream, end and error event names of a run of ``run_type``.

    >>> event_names("chat_model")[1]
    'on_chat_model_stream'
    """
    # A run type the library does not know (an untyped runnable's own) is named the same way.
    return _NAMES.get(run_type) or _names_of(run_type)


__all__ = [
    "ChunkData",
    "CustomStreamEvent",
    "EndData",
    "EndEventName",
    "ErrorData",
    "ErrorEventName",
    "EventData",
    "RunEndEvent",
    "RunErrorEvent",
    "RunStartEvent",
    "RunStreamEvent",
    "StandardStreamEvent",
    "StartData",
    "StartEventName",
    "StreamEvent",
    "StreamEventName",
    "V1StreamEvent",
    "event_names",
]
