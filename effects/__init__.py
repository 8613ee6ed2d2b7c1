"""The lower layer: effect values, the runtime that emits them, config and clock.

``effects`` never imports ``combinators``; it runs anything that implements the
small ``Step`` protocol.

This is the authors' root: what a runnable of one's own, an executor or a projection is
written against (``Scope``, ``Step``, the effect values, clocks, observers, the executor
protocol). What users run and annotate with (``RunConfig``, ``StreamEvent``,
``RunLogPatch``, ``JsonValue``, the errors) has its home in ``combinators``.

>>> from effects import FakeClock
>>> clock = FakeClock()
>>> clock.sleep(2.0)
>>> clock.monotonic()
2.0
"""

from effects.deprecation import MOVED_TO_COMBINATORS as _MOVED_TO_COMBINATORS
from effects.deprecation import Moved as _Moved
from effects.deprecation import moved_exports as _moved_exports
from effects.deprecation import moved_modules as _moved_modules
from effects.deprecation import renamed_exports as _renamed_exports
from effects.lazy import lazy_exports as _lazy_exports
import typing as _typing

if _typing.TYPE_CHECKING:
    # This root's names, declared for the checkers; at run time each loads on first use
    # (``_LAZY``), so that importing ``effects`` (or ``combinators``) stays cheap.
    from effects.clock import Clock as Clock
    from effects.clock import FakeClock as FakeClock
    from effects.clock import SystemClock as SystemClock
    from effects.clock import current_clock as current_clock
    from effects.clock import use_clock as use_clock
    from effects.config import merge_configs as merge_configs
    from effects.executors import BatchJob as BatchJob
    from effects.executors import Executor as Executor
    from effects.executors import ExecutorError as ExecutorError
    from effects.executors import ItemOutcome as ItemOutcome
    from effects.executors import RemoteError as RemoteError
    from effects.executors import ShippedItem as ShippedItem
    from effects.executors import Submission as Submission
    from effects.step import Observer as Observer
    from effects.scope import Scope as Scope
    from effects.hooks import MissingExtraError as MissingExtraError
    from effects.event_types import ChunkData as ChunkData
    from effects.event_types import EndData as EndData
    from effects.event_types import ErrorData as ErrorData
    from effects.event_types import EventData as EventData
    from effects.event_types import StartData as StartData
    from effects.event_types import V1StreamEvent as V1StreamEvent
    from effects.step import Step as Step
    from effects.step import StepBinding as StepBinding
    from effects.effect_values import NOTHING as NOTHING
    from effects.effect_values import CustomEmitted as CustomEmitted
    from effects.effect_values import Effect as Effect
    from effects.effect_values import RunEnded as RunEnded
    from effects.effect_values import RunFailed as RunFailed
    from effects.effect_values import RunInfo as RunInfo
    from effects.effect_values import RunStarted as RunStarted
    from effects.effect_values import RunStreamed as RunStreamed

    # Deprecated here (their home is ``combinators``, the users' root, or they were renamed:
    # ``_RENAMED``); declared so that an old import is a warning at run time, not a type error.
    from effects.effect_values import NO_INPUT as NO_INPUT
    from effects.authoring import adispatch_custom_event as adispatch_custom_event
    from effects.authoring import dispatch_custom_event as dispatch_custom_event
    from effects.config import ConfigLike as ConfigLike
    from effects.config import RunConfig as RunConfig
    from effects.config import RunConfigDict as RunConfigDict
    from effects.errors import CombinatorsError as CombinatorsError
    from effects.errors import EmptyStreamError as EmptyStreamError
    from effects.errors import InputError as InputError
    from effects.errors import InputValueError as InputValueError
    from effects.errors import StepTimeout as StepTimeout
    from effects.event_types import CustomStreamEvent as CustomStreamEvent
    from effects.event_types import RunEndEvent as RunEndEvent
    from effects.event_types import RunErrorEvent as RunErrorEvent
    from effects.event_types import RunStartEvent as RunStartEvent
    from effects.event_types import RunStreamEvent as RunStreamEvent
    from effects.event_types import StandardStreamEvent as StandardStreamEvent
    from effects.event_types import StreamEvent as StreamEvent
    from effects.patch_ops import AddOp as AddOp
    from effects.patch_ops import CheckOp as CheckOp
    from effects.patch_ops import CopyOp as CopyOp
    from effects.patch_ops import MoveOp as MoveOp
    from effects.patch_ops import PatchOp as PatchOp
    from effects.patch_ops import RemoveOp as RemoveOp
    from effects.patch_ops import ReplaceOp as ReplaceOp
    from effects.projections.jsonable import JsonValue as JsonValue
    from effects.projections.run_log import RunLog as RunLog
    from effects.projections.run_log import RunLogPatch as RunLogPatch
    from effects.effect_values import RunType as RunType

_LAZY: dict[str, str] = {
    **dict.fromkeys(("Clock", "FakeClock", "SystemClock", "current_clock", "use_clock"), "effects.clock"),
    "merge_configs": "effects.config",
    **dict.fromkeys(
        ("BatchJob", "Executor", "ExecutorError", "ItemOutcome", "RemoteError", "ShippedItem", "Submission"),
        "effects.executors",
    ),
    "Observer": "effects.step",
    "Scope": "effects.scope",
    "MissingExtraError": "effects.hooks",
    **dict.fromkeys(
        ("ChunkData", "EndData", "ErrorData", "EventData", "StartData", "V1StreamEvent"), "effects.event_types"
    ),
    **dict.fromkeys(("Step", "StepBinding"), "effects.step"),
    **dict.fromkeys(
        (
            "NOTHING",
            "CustomEmitted",
            "Effect",
            "RunEnded",
            "RunFailed",
            "RunInfo",
            "RunStarted",
            "RunStreamed",
        ),
        "effects.effect_values",
    ),
}
"""Where each exported name lives (a structure test checks it agrees with the declarations)."""

_MOVED: dict[str, _Moved] = {name: _Moved("combinators", source=home) for name, home in _MOVED_TO_COMBINATORS.items()}
"""Names this root exported before each public name got one home (see CONTRIBUTING): they
are loaded from their own modules here, since ``effects`` never imports ``combinators``."""

# Old module paths, kept importable (with a dated warning) by one finder, no file each.
_moved_modules({"effects.values": _Moved("effects", source="effects.effect_values")})

_RENAMED: dict[str, str] = {"NO_INPUT": "NOTHING"}
"""Names that got one spelling (old -> new): ``NO_INPUT`` was ``NOTHING`` under a second name."""

if not _typing.TYPE_CHECKING:
    # Hidden from the checkers, so that a misspelled import from this root is an error.
    __getattr__ = _renamed_exports(
        __name__,
        _RENAMED,
        since="2026-12-02",
        removal="2027-03-01",
        fallback=_moved_exports(__name__, _MOVED, _lazy_exports(__name__, _LAZY)),
    )

# Every name of this root, composed from ``_LAZY`` (the one table of where each lives), not
# copied; the checkers read the ``X as X`` declarations above, and a structure test holds
# the declarations and ``_LAZY`` together.
__all__ = list(_LAZY)  # pyright: ignore[reportUnsupportedDunderAll]
