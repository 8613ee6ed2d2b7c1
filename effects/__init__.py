"""The lower layer: effect values, the runtime that emits them, config and clock.

``effects`` never imports ``combinators``; it runs anything that implements the
small ``Step`` protocol.

>>> from effects import RunConfig, FakeClock
>>> RunConfig(tags=("a",)).tags
('a',)
"""

from effects.clock import Clock as Clock
from effects.clock import FakeClock as FakeClock
from effects.clock import SystemClock as SystemClock
from effects.clock import current_clock as current_clock
from effects.clock import use_clock as use_clock
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
from effects._runtime.scope import Scope as Scope
from effects._runtime.custom_events import adispatch_custom_event as adispatch_custom_event
from effects._runtime.custom_events import dispatch_custom_event as dispatch_custom_event
from effects.hooks import MissingExtraError as MissingExtraError
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

__all__ = [
    "NOTHING",
    "NO_INPUT",
    "BatchJob",
    "Clock",
    "CombinatorsError",
    "CustomEmitted",
    "Effect",
    "EmptyStreamError",
    "Executor",
    "ExecutorError",
    "FakeClock",
    "InputError",
    "InputValueError",
    "ItemOutcome",
    "MissingExtraError",
    "Observer",
    "RunConfig",
    "RunConfigDict",
    "RunEnded",
    "RunFailed",
    "RunInfo",
    "RunStarted",
    "RunStreamed",
    "RemoteError",
    "Scope",
    "ShippedItem",
    "Step",
    "StepBinding",
    "StepTimeout",
    "Submission",
    "SystemClock",
    "adispatch_custom_event",
    "current_clock",
    "dispatch_custom_event",
    "merge_configs",
    "use_clock",
]
