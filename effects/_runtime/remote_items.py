"""Running shipped items where they landed (a worker), each as the run the caller named.

The item's run was made on the caller's side (``ShippedItem.run``, a foreign root); here
it starts, the step runs under this process's interpreter, and the effects are kept as
values for the caller to adopt. A collector always watches, even when the caller does
not: it is where cancellation is checked, each time a run starts, so a cancelled batch
stops at the next step boundary (a step already running finishes).

An observer factory that stayed with the caller (``effects.executors.StandIn``) marks the
run it watches here (``mark_for_the_caller``): the item then keeps its effects from there
on, and its outcome names the marked runs for the caller to replay.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Final, final
from uuid import UUID

from effects._runtime.context import CURRENT_SCOPE
from effects._runtime.bindings import Deadline
from effects._runtime.scope import RunScope
from effects.clock import current_clock
from effects.executors import ItemOutcome, ShippedItem
from effects.step import Step
from effects.effect_values import Effect, RunEnded, RunFailed, RunStarted

if TYPE_CHECKING:
    from returns.result import Result


@final
class _Collector:
    """Keeps an item's effects (when the caller observes) and refuses runs once cancelled."""

    __slots__ = ("effects", "keep", "cancelled", "watched")

    def __init__(self, keep: bool, cancelled: Callable[[], bool]) -> None:
        self.effects: list[Effect] = []
        self.keep = keep
        self.cancelled = cancelled
        self.watched: list[tuple[UUID, str]] = []

    def emit(self, effect: Effect) -> None:
        if type(effect) is RunStarted:
            self.check()
        if self.keep:
            self.effects.append(effect)

    def check(self) -> None:
        if self.cancelled():
            raise asyncio.CancelledError("the batch was cancelled")


_ITEM: Final[ContextVar[_Collector | None]] = ContextVar("combinators_shipped_item", default=None)
"""The collector of the shipped item running here (None outside one)."""


@final
class _Mark:
    """Notes the first run it sees (the bound step's) for the caller to replay."""

    __slots__ = ("collector", "key", "marked")

    def __init__(self, collector: _Collector, key: str) -> None:
        self.collector = collector
        self.key = key
        self.marked = False

    def emit(self, effect: Effect) -> None:
        if not self.marked and type(effect) is RunStarted:
            self.marked = True
            self.collector.watched.append((effect.run.run_id, self.key))


def mark_for_the_caller(key: str) -> _Mark | None:
    """Inside a shipped item, an observer marking the run it watches for the caller's
    factory ``key`` (the item keeps its effects from now on); None anywhere else.

    >>> mark_for_the_caller("k") is None
    True
    """
    collector = _ITEM.get()
    if collector is None:
        return None
    collector.keep = True
    return _Mark(collector, key)


def run_shipped(
    step: Step[Any, Any],
    items: Sequence[ShippedItem],
    kwargs: Mapping[str, object],
    asynchronous: bool,
    where: str,
    cancelled: Callable[[], bool],
) -> list[ItemOutcome]:
    """``effects.executors.run_items``."""
    if asynchronous:
        return asyncio.run(_arun_all(step, items, kwargs, where, cancelled))
    runs = [_ItemRun(step, item, cancelled) for item in items]
    return [run.outcome(_run_one(run, kwargs), where) for run in runs]


async def _arun_all(
    step: Step[Any, Any],
    items: Sequence[ShippedItem],
    kwargs: Mapping[str, object],
    where: str,
    cancelled: Callable[[], bool],
) -> list[ItemOutcome]:
    runs = [_ItemRun(step, item, cancelled) for item in items]
    return [run.outcome(await _arun_one(run, kwargs), where) for run in runs]


@final
class _ItemRun:
    """One shipped item's run here: its scope, its start, and how it settles."""

    __slots__ = ("step", "item", "collector", "scope", "shown")

    def __init__(self, step: Step[Any, Any], item: ShippedItem, cancelled: Callable[[], bool]) -> None:
        self.step = step
        self.item = item
        self.collector = collector = _Collector(item.run is not None, cancelled)
        deadline = None
        if item.deadline is not None:
            left, owner, seconds = item.deadline
            deadline = Deadline(current_clock().monotonic() + left, owner, seconds)
        self.scope = RunScope(item.config, (collector,), item.run, (), deadline)
        self.shown: object = None

    def outcome(self, result: Result[object, BaseException], where: str) -> ItemOutcome:
        collector = self.collector
        return ItemOutcome(self.item.index, result, tuple(collector.effects), where, tuple(collector.watched))

    @contextmanager
    def current(self) -> Generator[None]:
        token = CURRENT_SCOPE.set(self.scope)
        item = _ITEM.set(self.collector)
        try:
            yield
        finally:
            _ITEM.reset(item)
            CURRENT_SCOPE.reset(token)

    def refused(self) -> Result[object, BaseException] | None:
        """Start the item's run; a ``Failure`` if the batch was cancelled first (then
        there is no run to end) or if the caller's deadline has passed (the run fails)."""
        from returns.result import Failure

        item, run = self.item, self.item.run
        try:
            if run is None:
                self.collector.check()
            else:
                self.shown = item.input if item.shows_raw_input else self.step.describe_input(item.input)
                self.collector.emit(RunStarted(run, self.shown, self.scope.clock.now()))
        except BaseException as error:
            return Failure(error)
        try:
            self.scope.check_deadline()
        except BaseException as error:
            return self.failed(error)
        return None

    def failed(self, error: BaseException) -> Result[object, BaseException]:
        from returns.result import Failure

        if self.item.run is not None:
            self.collector.effects.append(RunFailed(self.item.run, self.shown, error, self.scope.clock.now()))
        return Failure(error)

    def ended(self, output: object) -> Result[object, BaseException]:
        from returns.result import Success

        run = self.item.run
        if run is not None:
            shown = self.step.describe_output(output)
            self.collector.effects.append(RunEnded(run, self.shown, shown, self.scope.clock.now()))
        return Success(output)


def _run_one(run: _ItemRun, kwargs: Mapping[str, object]) -> Result[object, BaseException]:
    with run.current():
        refused = run.refused()
        if refused is not None:
            return refused
        try:
            output = run.step.step_invoke(run.item.input, run.scope, kwargs)
        except BaseException as error:  # every outcome travels back as a value
            return run.failed(error)
        return run.ended(output)


async def _arun_one(run: _ItemRun, kwargs: Mapping[str, object]) -> Result[object, BaseException]:
    step = run.step
    with run.current():
        refused = run.refused()
        if refused is not None:
            return refused
        try:
            output = await run.scope.bounded(step.step_ainvoke(run.item.input, run.scope, kwargs), step)
        except BaseException as error:
            return run.failed(error)
        return run.ended(output)
