"""The lower layer: effect values, the runtime that emits them, config and clock.

``effects`` never imports ``combinators``; it runs anything that implements the
small ``Step`` protocol.

>>> from effects import RunConfig, FakeClock
>>> RunConfig(tags=("a",)).tags
('a',)

The types a program annotates with are here too: the events of ``astream_events``
(``StreamEvent``, tagged by their ``"event"`` name), the run log's ``RunLogPatch``,
``RunLog`` and ``PatchOp``, ``JsonValue``, ``ConfigLike``, ``RunType``. The run log's and
JSON's load on first use, which keeps ``import effects`` cheap.
"""

from effects.lazy import lazy_exports as _lazy_exports
from typing import TYPE_CHECKING as _TYPE_CHECKING

from effects.clock import Clock as Clock
from effects.clock import FakeClock as FakeClock
from effects.clock import SystemClock as SystemClock
from effects.clock import current_clock as current_clock
from effects.clock import use_clock as use_clock
from effects.config import ConfigLike as ConfigLike
from effects.config import RunConfig as RunConfig
from effects.config import RunConfigDict as RunConfigDict
from effects.config import merge_configs as merge_configs
from effects.errors import CombinatorsError as CombinatorsError
from effects.errors import EmptyStreamError as EmptyStreamError
from effects.errors import InputError as InputError
from effects.errors import InputValueError as InputValueError
from effects.errors import StepTimeout as StepTimeout
from effects.executors import BatchJob as BatchJob
from effects.executors import Executor as Executor
from effects.executors import ExecutorError as ExecutorError
from effects.executors import ItemOutcome as ItemOutcome
from effects.executors import RemoteError as RemoteError
from effects.executors import ShippedItem as ShippedItem
from effects.executors import Submission as Submission
from effects._runtime.observers import Observer as Observer
from effects.scope import Scope as Scope
from effects._runtime.custom_events import adispatch_custom_event as adispatch_custom_event
from effects._runtime.custom_events import dispatch_custom_event as dispatch_custom_event
from effects.hooks import MissingExtraError as MissingExtraError
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
from effects.step import Step as Step
from effects.step import StepBinding as StepBinding
from effects.values import NO_INPUT as NO_INPUT
from effects.values import NOTHING as NOTHING
from effects.values import CustomEmitted as CustomEmitted
from effects.values import Effect as Effect
from effects.values import RunEnded as RunEnded
from effects.values import RunFailed as RunFailed
from effects.values import RunInfo as RunInfo
from effects.values import RunStarted as RunStarted
from effects.values import RunStreamed as RunStreamed
from effects.values import RunType as RunType

if _TYPE_CHECKING:
    from effects.projections.jsonable import JsonValue as JsonValue
    from effects.patch_ops import AddOp as AddOp
    from effects.patch_ops import CopyOp as CopyOp
    from effects.patch_ops import MoveOp as MoveOp
    from effects.patch_ops import PatchOp as PatchOp
    from effects.patch_ops import RemoveOp as RemoveOp
    from effects.patch_ops import ReplaceOp as ReplaceOp
    from effects.patch_ops import CheckOp as CheckOp
    from effects.projections.run_log import RunLog as RunLog
    from effects.projections.run_log import RunLogPatch as RunLogPatch

_LAZY: dict[str, str] = {
    "JsonValue": "effects.projections.jsonable",
    **dict.fromkeys(
        ("AddOp", "CopyOp", "MoveOp", "PatchOp", "RemoveOp", "ReplaceOp", "CheckOp"),
        "effects.patch_ops",
    ),
    "RunLog": "effects.projections.run_log",
    "RunLogPatch": "effects.projections.run_log",
}
"""Exported names loaded on first use (the run log needs jsonpatch)."""


__getattr__ = _lazy_exports(__name__, _LAZY)

__all__ = [
    "NOTHING",
    "NO_INPUT",
    "AddOp",
    "BatchJob",
    "CheckOp",
    "ChunkData",
    "Clock",
    "CombinatorsError",
    "ConfigLike",
    "CopyOp",
    "CustomEmitted",
    "CustomStreamEvent",
    "Effect",
    "EmptyStreamError",
    "EndData",
    "ErrorData",
    "EventData",
    "Executor",
    "ExecutorError",
    "FakeClock",
    "InputError",
    "InputValueError",
    "ItemOutcome",
    "JsonValue",
    "MissingExtraError",
    "MoveOp",
    "Observer",
    "PatchOp",
    "RemoteError",
    "RemoveOp",
    "ReplaceOp",
    "RunConfig",
    "RunConfigDict",
    "RunEndEvent",
    "RunEnded",
    "RunErrorEvent",
    "RunFailed",
    "RunInfo",
    "RunLog",
    "RunLogPatch",
    "RunStartEvent",
    "RunStarted",
    "RunStreamEvent",
    "RunStreamed",
    "RunType",
    "Scope",
    "ShippedItem",
    "StandardStreamEvent",
    "StartData",
    "Step",
    "StepBinding",
    "StepTimeout",
    "StreamEvent",
    "Submission",
    "SystemClock",
    "V1StreamEvent",
    "adispatch_custom_event",
    "current_clock",
    "dispatch_custom_event",
    "merge_configs",
    "use_clock",
]
