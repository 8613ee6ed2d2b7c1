"""Executors: where a batch's items run when they do not run in this process.

By default ``batch``, ``abatch``, ``batch_as_completed``, ``abatch_as_completed`` and
``each()`` run their items here (threads or tasks). Given an ``Executor`` (``executor=``,
or ``executor`` in the config), they ship the items to it instead. The executor runs this
library's interpreter where the work goes (``run_items`` on a cluster's worker) and hands
back, per item, its index, a ``returns`` ``Result`` and the effects of the item's run, as
values. The caller's side adopts those effects below its own run (``Scope.adopt``), so
every projection shows the remote items as if they had run here; nothing observes on the
workers.

An executor is two small protocols: ``Executor.submit(job)`` checks that it can run the
``BatchJob`` (raising before anything is submitted) and starts it; the ``Submission`` it
returns yields ``ItemOutcome``s in completion order and ``cancel()``s what is left.

>>> from combinators import RunnableLambda
>>> class Finished:
...     def __init__(self, outcomes): self.left = iter(outcomes)
...     def __iter__(self): return self
...     def __next__(self): return next(self.left)
...     def cancel(self): self.left = iter(())
>>> class Inline:
...     name = "inline"
...     def submit(self, job):
...         return Finished(run_items(job.step, job.items, job.kwargs, where="here"))
>>> RunnableLambda(lambda x: 10 // x).batch([5, 0], return_exceptions=True, executor=Inline())
[2, ZeroDivisionError('integer division or modulo by zero')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, final

import attrs

from effects.config import RunConfig
from effects.errors import CombinatorsError
from effects.step import Step
from effects.values import Effect, RunInfo

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
