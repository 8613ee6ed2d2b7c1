"""Projections: pure folds over the effect stream (events v1/v2, run log, SSE, listeners, recordings).

Each projection is a small class whose ``feed(effect)`` returns what that effect gives,
so it runs inline in the consumer's own iteration, plus a generator function over an
iterable of effects. None of them imports ``combinators``.

>>> from uuid import UUID
>>> from effects.effect_values import RunInfo, RunStarted
>>> run = RunInfo(UUID(int=1), (), "echo", "chain", (), {})
>>> EventsV2().feed(RunStarted(run, "hi", 0.0))[0]["data"]
{'input': 'hi'}
"""

from effects.projections.events_v1 import EventsV1 as EventsV1
from effects.projections.events_v1 import stream_events_v1 as stream_events_v1
from effects.event_types import ChunkData as ChunkData
from effects.event_types import CustomStreamEvent as CustomStreamEvent
from effects.event_types import EndData as EndData
from effects.event_types import ErrorData as ErrorData
from effects.event_types import EventData as EventData
from effects.event_types import RunEndEvent as RunEndEvent
from effects.event_types import RunErrorEvent as RunErrorEvent
from effects.event_types import RunStartEvent as RunStartEvent
from effects.event_types import RunStreamEvent as RunStreamEvent
from effects.event_types import StandardStreamEvent as StandardStreamEvent
from effects.event_types import StartData as StartData
from effects.event_types import StreamEvent as StreamEvent
from effects.event_types import V1StreamEvent as V1StreamEvent
from effects.projections.events_v2 import EventsV2 as EventsV2
from effects.projections.events_v2 import stream_events_v2 as stream_events_v2
from effects.projections.filters import NO_FILTER as NO_FILTER
from effects.projections.filters import EventFilter as EventFilter
from effects.projections.jsonable import REDACTED as REDACTED
from effects.projections.jsonable import HasJsonForm as HasJsonForm
from effects.projections.jsonable import JsonValue as JsonValue
from effects.projections.jsonable import Redacted as Redacted
from effects.projections.jsonable import is_secret as is_secret
from effects.projections.jsonable import safe_repr as safe_repr
from effects.projections.jsonable import to_jsonable as to_jsonable
from effects.projections.listeners import Listener as Listener
from effects.projections.listeners import ListenerCall as ListenerCall
from effects.projections.listeners import ListenerObserver as ListenerObserver
from effects.projections.listeners import ListenerSpec as ListenerSpec
from effects.projections.listeners import Run as Run
from effects.projections.listeners import RunTree as RunTree
from effects.projections.recording import RecordedError as RecordedError
from effects.projections.recording import Recorder as Recorder
from effects.projections.recording import record as record
from effects.projections.recording import replay as replay
from effects.projections.replayed import Replayed as Replayed
from effects.projections.run_log import PatchOp as PatchOp
from effects.projections.run_log import RunLog as RunLog
from effects.projections.run_log import RunLogPatch as RunLogPatch
from effects.projections.run_log import RunLogPatches as RunLogPatches
from effects.projections.run_log import RunLogStates as RunLogStates
from effects.projections.run_log import apply_ops as apply_ops
from effects.projections.run_log import run_log_patches as run_log_patches
from effects.projections.run_log import run_logs as run_logs
from effects.projections.sse import SSE_END as SSE_END
from effects.projections.sse import EventNotEncodable as EventNotEncodable
from effects.projections.sse import EventStreamFailed as EventStreamFailed
from effects.projections.sse import SseFrame as SseFrame
from effects.projections.sse import SseFrameParser as SseFrameParser
from effects.projections.sse import SseParser as SseParser
from effects.projections.sse import compact_json as compact_json
from effects.projections.sse import encode_event_stream as encode_event_stream
from effects.projections.sse import encode_sse_event as encode_sse_event
from effects.projections.sse import parse_event_stream as parse_event_stream
from effects.projections.sse import safe_error_form as safe_error_form
from effects.projections.sse import safe_jsonable as safe_jsonable
from effects.projections.sse import sse_comment as sse_comment
from effects.projections.sse import sse_frame as sse_frame

__all__ = [
    "NO_FILTER",
    "REDACTED",
    "SSE_END",
    "ChunkData",
    "CustomStreamEvent",
    "EndData",
    "ErrorData",
    "EventData",
    "EventFilter",
    "EventsV1",
    "EventsV2",
    "HasJsonForm",
    "JsonValue",
    "Listener",
    "ListenerCall",
    "ListenerObserver",
    "ListenerSpec",
    "PatchOp",
    "RecordedError",
    "Recorder",
    "Redacted",
    "Replayed",
    "Run",
    "RunLog",
    "RunLogPatch",
    "RunLogPatches",
    "RunEndEvent",
    "RunErrorEvent",
    "RunLogStates",
    "RunStartEvent",
    "RunStreamEvent",
    "RunTree",
    "SseFrame",
    "SseFrameParser",
    "SseParser",
    "StandardStreamEvent",
    "StartData",
    "StreamEvent",
    "V1StreamEvent",
    "apply_ops",
    "compact_json",
    "encode_event_stream",
    "encode_sse_event",
    "EventNotEncodable",
    "EventStreamFailed",
    "safe_error_form",
    "safe_jsonable",
    "is_secret",
    "parse_event_stream",
    "record",
    "replay",
    "run_log_patches",
    "run_logs",
    "safe_repr",
    "sse_comment",
    "sse_frame",
    "stream_events_v1",
    "stream_events_v2",
    "to_jsonable",
]
