"""Executors: where a batch's items run when they do not run in this process.

By default ``batch``, ``abatch``, ``batch_as_completed``, ``abatch_as_completed`` and
``each()`` run their items here (threads or tasks). Given an ``Executor`` (``executor=``,
or ``executor`` in the config), they ship the items to it instead. The executor runs this
library's interpreter where the work goes (``run_items`` on a cluster's worker) and hands
back, per item, its index, a ``returns`` ``Result`` and the effects of the item's run, as
values. The caller's side adopts those effects below its own run (``Scope.adopt``), so
every projection shows the remote items as if they had run here; nothing observes on the
workers. An observer factory bound inside the shipped step that must not travel (it holds
this process's LangChain callback handlers) pickles as a stand-in
(``kept_by_the_caller``): on the worker it marks the runs it would watch, and the caller
replays their effects into the factory's own observer.

An executor is two small protocols: ``Executor.submit(job)`` checks that it can run the
``BatchJob`` (raising before anything is submitted) and starts it; the ``Submission`` it
returns yields ``ItemOutcome``s in completion order and ``cancel()``s what is left.
``InlineExecutor`` below is a whole one (it runs the items here, through the same path):

>>> from combinators import RunnableLambda
>>> RunnableLambda(lambda x: 10 // x).batch([5, 0], return_exceptions=True, executor=InlineExecutor())
[2, ZeroDivisionError('integer division or modulo by zero')]
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol, final
from uuid import UUID

import attrs

from effects.config import RunConfig
from effects.errors import CombinatorsError
from effects.step import Observer, ObserverFactory, Step
from effects.effect_values import Effect, RunInfo

if TYPE_CHECKING:
    from returns.result import Result


@final
@attrs.frozen
class ShippedItem:
    """One input of a batch as it travels to where it runs.

    ``run`` is the item's run as a foreign root (the caller adopts it below its own
    run), or None when nobody observes; ``shows_raw_input`` says whether that run is a
    root on the caller's side (a root's start shows its raw input); ``config`` is what
    the item's children inherit; ``deadline`` is the caller's timeout as
    ``(seconds left when shipped, whose limit, the limit)``.

    >>> ShippedItem(3, "x").config
    RunConfig()
    """

    index: int
    input: object
    run: RunInfo | None = None
    shows_raw_input: bool = True
    config: RunConfig = RunConfig()
    deadline: tuple[float, str, float] | None = None


@final
@attrs.frozen(eq=False)
class BatchJob:
    """A batch as an executor receives it: one step, its items, and how to run them.

    ``max_concurrency`` is the number of items allowed in flight at once (None: no
    limit); ``asynchronous`` says whether the caller is async (workers then run the
    step's async hooks in an event loop of their own).

    >>> from combinators import RunnableLambda
    >>> job = BatchJob(RunnableLambda(abs), (ShippedItem(0, -1),), {}, max_concurrency=2)
    >>> len(job.items), job.asynchronous
    (1, False)
    """

    step: Step[Any, Any]
    items: tuple[ShippedItem, ...]
    kwargs: Mapping[str, object]
    max_concurrency: int | None = None
    asynchronous: bool = False


@final
@attrs.frozen(eq=False)
class ItemOutcome:
    """What an executor hands back for one item: its index, how it went, what it emitted.

    >>> from returns.result import Success
    >>> ItemOutcome(0, Success(1), (), "tcp://127.0.0.1:8786").result.unwrap()
    1
    """

    index: int
    result: Result[object, BaseException]
    effects: tuple[Effect, ...]
    where: str
    """The address of the worker that ran the item (metadata on its adopted runs)."""
    watched: tuple[tuple[UUID, str], ...] = ()
    """Runs watched on the worker for observers that stayed with the caller: each run's id
    and the key of its factory (``kept_by_the_caller``); the caller replays each run's
    subtree into that factory's observer."""


class Submission(Protocol):
    """A batch on its way: outcomes in completion order, each index exactly once.

    ``cancel()`` may be called from any thread, more than once: items not started never
    start, running items stop at their next step boundary, and iteration ends.
    """

    def __iter__(self) -> Iterator[ItemOutcome]: ...

    def __next__(self) -> ItemOutcome: ...

    def cancel(self) -> None: ...


class Executor(Protocol):
    """Runs a batch's items elsewhere (see the module's example; ``DaskExecutor`` in
    ``combinators.integrations.dask``).

    ``submit`` raises, before anything is submitted, when the executor cannot run the
    job (a closed client, a resource no worker has, a step that cannot be shipped).
    """

    @property
    def name(self) -> str: ...

    def submit(self, job: BatchJob) -> Submission: ...


@final
class RemoteError(CombinatorsError):
    """An item's error that could not travel back as itself (it did not pickle): its
    type's qualified name, message and traceback text, as it was raised on the worker.

    >>> error = RemoteError("app.Locked", "held", "Traceback ...")
    >>> str(error), error.type_name
    ('app.Locked: held', 'app.Locked')
    """

    def __init__(self, type_name: str, message: str, traceback: str) -> None:
        super().__init__(type_name, message, traceback)
        self.type_name = type_name
        self.message = message
        self.traceback = traceback

    def __str__(self) -> str:
        return f"{self.type_name}: {self.message}"


class ExecutorError(CombinatorsError, RuntimeError):
    """An executor cannot run a batch, said before anything is submitted (a closed client,
    a resource no worker has, a step or an input that cannot be shipped).

    >>> issubclass(ExecutorError, RuntimeError)
    True
    """


_KEPT: Final[weakref.WeakValueDictionary[str, ObserverFactory]] = weakref.WeakValueDictionary()
"""The factories that stayed with the caller, by key, while they live."""


def kept_by_the_caller(factory: ObserverFactory) -> tuple[Callable[[str], ObserverFactory], tuple[str]]:
    """What ``factory.__reduce__`` returns for a factory that must not travel: pickled,
    it becomes a `StandIn` naming it, and it stays here to be told about the runs the
    stand-in watched wherever the step ran (the caller replays their effects into it).

    >>> import pickle
    >>> class Mine:
    ...     def make_observer(self, config=None): return None
    ...     def __reduce__(self): return kept_by_the_caller(self)
    >>> mine = Mine()
    >>> shipped = pickle.loads(pickle.dumps(mine))
    >>> type(shipped).__name__, kept_factory(shipped.key) is mine
    ('StandIn', True)
    """
    key = f"{os.getpid()}-{id(factory)}"
    _KEPT[key] = factory
    return (StandIn, (key,))


def kept_factory(key: str) -> ObserverFactory | None:
    """The factory a stand-in names, if it still lives in this process.

    >>> kept_factory("nobody") is None
    True
    """
    return _KEPT.get(key)


@final
@attrs.frozen
class StandIn:
    """A factory kept by the caller, as it travels: where a shipped item runs, its observer
    marks the run it watches (the caller replays that run's subtree into the factory);
    anywhere else it watches nothing.

    >>> StandIn("k").make_observer() is None
    True
    """

    key: str

    def make_observer(self, config: RunConfig | None = None) -> Observer | None:
        """A marker of the run this binding starts, inside a shipped item; else None."""
        from effects._runtime.remote_items import mark_for_the_caller

        return mark_for_the_caller(self.key)


def run_items(
    step: Step[Any, Any],
    items: Sequence[ShippedItem],
    kwargs: Mapping[str, object],
    *,
    asynchronous: bool = False,
    where: str = "",
    cancelled: Callable[[], bool] | None = None,
) -> list[ItemOutcome]:
    """Run shipped items one after another with this library's interpreter (worker side).

    ``cancelled`` is checked each time a run starts: once it says yes, the next run
    (an item, or a step inside one) raises ``asyncio.CancelledError`` instead of starting.

    >>> from combinators import RunnableLambda
    >>> [o.result for o in run_items(RunnableLambda(abs), [ShippedItem(0, -2)], {})]
    [<Success: 2>]
    """
    from effects._runtime.remote_items import run_shipped

    return run_shipped(step, items, kwargs, asynchronous, where, cancelled or _never)


def _never() -> bool:
    return False


@final
class InlineExecutor:
    """An executor that runs a batch's items right here, one after another, shipped and
    adopted as a remote executor's are (the smallest executor: for examples and tests).

    >>> from combinators import RunnableLambda
    >>> RunnableLambda(abs).batch([-1, -2], executor=InlineExecutor())
    [1, 2]
    """

    name: Final = "inline"

    def submit(self, job: BatchJob) -> Submission:
        """Run every item of ``job`` now; the outcomes are handed over as they are read."""
        return _Finished(run_items(job.step, job.items, job.kwargs, where="here"))


@final
class _Finished:
    # The outcomes of a batch already run: cancelling drops those not yet read.
    __slots__ = ("left",)

    def __init__(self, outcomes: list[ItemOutcome]) -> None:
        self.left: Iterator[ItemOutcome] = iter(outcomes)

    def __iter__(self) -> Iterator[ItemOutcome]:
        return self

    def __next__(self) -> ItemOutcome:
        return next(self.left)

    def cancel(self) -> None:
        self.left = iter(())
