"""Batches on an executor, the caller's side: ship the items, adopt what comes back.

Each item's run is made here exactly as for a local batch (its bindings unwrapped, its
observers made, its id and name chosen), then shipped as a foreign root. When the item's
outcome comes back, its effects are adopted below the local run (the running step's run,
or none for a top-level batch) with the executor's name and the worker's address as
metadata, so every projection shows it where a local item would be. Results keep their
positions; ``max_concurrency`` is the number of items in flight; the first error
(without ``return_exceptions``) cancels the rest and is raised, and so does leaving early.

Runs an outcome names as watched (``ItemOutcome.watched``: a step inside the shipped one
was bound to an observer factory that stayed here, such as LangChain callback handlers)
are replayed, with their subtrees, into a fresh observer of that factory.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from typing import Generic, TypeVar, cast, final

import attrs

from effects._runtime.building import adopted
from effects._runtime.closing import closing
from effects._runtime.scope import RunScope
from effects.config import RunConfig
from effects.errors import CombinatorsError
from effects.executors import BatchJob, Executor, ItemOutcome, ShippedItem, Submission, kept_factory
from effects.step import AwaitingObserver, Step, finish_in_sync, hands_out_awaitables

In = TypeVar("In")
Out = TypeVar("Out")
T = TypeVar("T")


def ship(
    node: Step[In, Out],
    inputs: Sequence[In],
    scopes: Sequence[RunScope],
    kwargs: Mapping[str, object],
    asynchronous: bool,
) -> tuple[BatchJob, list[RunScope]]:
    """The job for ``inputs`` (one scope each), and the scope that adopts each item."""
    items: list[ShippedItem] = []
    adopters: list[RunScope] = []
    step: Step[In, Out] = node
    shared: Mapping[str, object] = kwargs
    window: int | None = None
    seen: tuple[RunConfig, RunConfig] | None = None
    for index, (scope, input) in enumerate(zip(scopes, inputs, strict=True)):
        step, item, shared = scope._descend(node, None, kwargs)  # pyright: ignore[reportPrivateUsage]
        if seen is None or seen[0] is not item.config:
            seen = (item.config, attrs.evolve(item.config, executor=None))
        run = item.run
        deadline = item.deadline
        items.append(
            ShippedItem(
                index,
                input,
                None if run is None else attrs.evolve(run, parent_ids=()),
                run is None or not run.parent_ids,
                seen[1],
                None if deadline is None else (deadline.at - scope.clock.monotonic(), deadline.owner, deadline.seconds),
            )
        )
        if index == 0 and item.limiters:
            window = min(limiter.size for limiter in item.limiters)
        # Observers a binding added (listeners) watch the item's run too.
        adopters.append(
            scope if item.observers is scope.observers else RunScope(scope.config, item.observers, scope.run, (), None)
        )
    return BatchJob(step, tuple(items), shared, window, asynchronous), adopters


@final
class RemoteBatch(Generic[In, Out]):
    """One batch on an executor as the caller drives it: shipped when made, then its
    results in completion order (``completed``) or in input order (``in_order``)."""

    __slots__ = ("executor", "job", "adopters", "return_exceptions", "pending")

    def __init__(
        self,
        executor: Executor,
        node: Step[In, Out],
        inputs: Sequence[In],
        scopes: Sequence[RunScope],
        kwargs: Mapping[str, object],
        return_exceptions: bool,
        asynchronous: bool,
    ) -> None:
        self.executor = executor
        self.job, self.adopters = ship(node, inputs, scopes, kwargs, asynchronous)
        self.return_exceptions = return_exceptions
        self.pending: list[tuple[AwaitingObserver, list[Awaitable[object]]]] = []

    def in_order(self) -> list[Out | Exception]:
        """``batch``: one result per input, in input order."""
        return _ordered(dict(self.completed()), len(self.job.items))

    async def ain_order(self) -> list[Out | Exception]:
        """``abatch``."""
        async with closing(self.acompleted()) as outcomes:
            found = {index: value async for index, value in outcomes}
        return _ordered(found, len(self.job.items))

    def completed(self) -> Iterator[tuple[int, Out | Exception]]:
        """``(index, result)`` in completion order; leaving early cancels what is left."""
        if not self.job.items:
            return
        submission = self.executor.submit(self.job)
        count = 0
        try:
            for outcome in submission:
                count += 1
                try:
                    settled = self._settled(outcome)
                finally:
                    self._run_pending()
                yield settled
        finally:
            if count < len(self.job.items):
                submission.cancel()
        self._check_count(count)

    async def acompleted(self) -> AsyncIterator[tuple[int, Out | Exception]]:
        """Async ``completed``: a thread waits on the executor, effects are adopted here."""
        if not self.job.items:
            return
        pump = _Pump(asyncio.get_running_loop(), self.executor, self.job)
        threading.Thread(target=pump.run, name=f"combinators-{self.executor.name}", daemon=True).start()
        count = 0
        try:
            while True:
                arrival = await pump.arrivals.get()
                if arrival is None:  # the submission is over
                    break
                if isinstance(arrival, _Raised):
                    raise arrival.error
                count += 1
                try:
                    settled = self._settled(arrival)
                finally:
                    pending, self.pending = self.pending, []
                    for _, awaitables in pending:
                        for awaitable in awaitables:
                            await awaitable
                yield settled
        finally:
            if count < len(self.job.items):
                await asyncio.to_thread(pump.cancel)
            await pump.ended
        self._check_count(count)

    def _settled(self, outcome: ItemOutcome) -> tuple[int, Out | Exception]:
        """Adopt an outcome's effects; its index and value (or error, raised when errors
        are not results)."""
        from returns.result import Success

        if outcome.effects:
            where = {"executor": self.executor.name, "worker": outcome.where}
            self.adopters[outcome.index].adopt(outcome.effects, where)
            if outcome.watched:
                self._replay(outcome, where)
        result = outcome.result
        if isinstance(result, Success):
            # A worker ran the job's step on the item: the value is that step's output.
            return outcome.index, cast("Out", result.unwrap())
        error: BaseException = result.failure()
        # Only Exceptions are results (an interrupt always propagates).
        if not isinstance(error, Exception) or not self.return_exceptions:
            raise error
        return outcome.index, error

    def _replay(self, outcome: ItemOutcome, where: Mapping[str, object]) -> None:
        """Tell each factory that stayed here about the run it watched on the worker (and
        that run's subtree), as adopted here."""
        effects = list(adopted(outcome.effects, self.adopters[outcome.index].run, where))
        for run_id, key in outcome.watched:
            factory = kept_factory(key)
            observer = None if factory is None else factory.make_observer(None)
            if observer is None:
                continue
            for effect in effects:
                run = effect.run
                if run.run_id == run_id or run_id in run.parent_ids:
                    observer.emit(effect)
            if hands_out_awaitables(observer):
                self.pending.append((observer, observer.take_pending()))

    def _run_pending(self) -> None:
        """A sync batch's turn at the replayed observers' awaitables (LangChain's async
        handlers run them to completion themselves; others are closed unawaited)."""
        pending, self.pending = self.pending, []
        for observer, awaitables in pending:
            finish_in_sync(observer, awaitables)

    def _check_count(self, count: int) -> None:
        if count != len(self.job.items):
            raise CombinatorsError(
                f"executor {self.executor.name!r} returned {count} outcomes for {len(self.job.items)} items"
            )


def _ordered(found: dict[int, T], count: int) -> list[T]:
    # Each index arrived exactly once (``_check_count``).
    return [found[index] for index in range(count)]


@final
class _Raised:
    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


@final
class _Pump:
    """Submits a job and iterates its submission on a thread; arrivals go to the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, executor: Executor, job: BatchJob) -> None:
        self.loop = loop
        self.executor = executor
        self.job = job
        self.arrivals: asyncio.Queue[ItemOutcome | _Raised | None] = asyncio.Queue()
        self.ended: asyncio.Future[None] = loop.create_future()
        self.lock = threading.Lock()
        self.submission: Submission | None = None
        self.cancelled = False

    def run(self) -> None:
        try:
            submission = self.executor.submit(self.job)
            with self.lock:
                self.submission = submission
                cancelled = self.cancelled
            if cancelled:
                submission.cancel()
                return
            for outcome in submission:
                self._post(self.arrivals.put_nowait, outcome)
        except BaseException as error:  # handed to the consumer, which raises it
            self._post(self.arrivals.put_nowait, _Raised(error))
        finally:
            self._post(self.arrivals.put_nowait, None)
            self._post(self.ended.set_result, None)

    def cancel(self) -> None:
        with self.lock:
            self.cancelled = True
            submission = self.submission
        if submission is not None:
            submission.cancel()

    def _post(self, put: Callable[[T], object], value: T) -> None:
        try:
            self.loop.call_soon_threadsafe(put, value)
        except RuntimeError:  # the loop is closed: nobody is waiting any more
            pass
