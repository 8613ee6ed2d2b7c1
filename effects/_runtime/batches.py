"""Batches, as the runtime runs them: ``batch`` and ``abatch`` (results in input order),
``batch_as_completed`` and ``abatch_as_completed`` (as items finish), on the shared pool,
under a task group, or on an executor's workers.

>>> from combinators import RunnableLambda
>>> batch(RunnableLambda(abs), [-1, 2], None, {}, False)
[1, 2]
"""

from __future__ import annotations

# asyncio is imported where it is used: `import combinators` stays cheap for sync code.

import itertools
import queue
import threading
import warnings
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar, cast, final

import attrs

from effects.config import config_list, is_config_list, RunConfig
from effects._runtime.closing import aclose_all
from effects._runtime.calls import ashown, call_scope, gather_structured, progress_view, shown, viewed_by
from effects._runtime.context import CURRENT_SCOPE
from effects._runtime.context import RUN_FRAMES
from effects._runtime.native_batch import NativeBatch, abatch_hook, batch_hook
from effects.step import Observer
from effects._runtime.scope import RunScope
from effects._runtime.thread_pool import run_indexed, shared_pool
from effects.step import Step

if TYPE_CHECKING:
    from effects.executors import Executor
    from effects.scope import Scope

In = TypeVar("In")
Out = TypeVar("Out")


def batch_scopes(
    node: Step[In, Out],
    config: object,
    count: int,
    observers: tuple[Observer, ...] = (),
    executor: Executor | None = None,
) -> list[RunScope]:
    """One entry scope per input: one per config of a list, a config given once shared."""
    configs = config_list(config, count)
    if is_config_list(config):
        return [call_scope(node, _on(one, executor), observers) for one in configs]
    if not configs:
        return []
    shared = call_scope(node, _on(configs[-1], executor), observers)
    if configs[0] is configs[-1]:
        return [shared] * count
    # The config's run_id went to the first input only.
    warnings.warn("a run_id in a batch config applies to the first input only", RuntimeWarning, stacklevel=4)
    return [call_scope(node, _on(configs[0], executor), observers), *([shared] * (count - 1))]


def _on(config: object, executor: Executor | None) -> RunConfig:
    coerced = RunConfig.coerce(config)
    return coerced if executor is None else attrs.evolve(coerced, executor=executor)


def _executor(scopes: list[RunScope]) -> Executor | None:
    """The executor the batch's items run on (None: here, the default)."""
    return scopes[0].config.executor if scopes else None


def _limit(scopes: list[RunScope]) -> int | None:
    limits = [lim.size for s in scopes[:1] for lim in s.limiters]
    return min(limits) if limits else None


def batch(
    node: Step[In, Out],
    inputs: Sequence[In],
    config: object,
    kwargs: Mapping[str, object],
    return_exceptions: bool,
    progress: bool = False,
    executor: Executor | None = None,
) -> list[Out | Exception]:
    """Run ``node`` on every input on the shared pool; one result per input, in order."""
    count = len(inputs)
    view = progress_view(node, config, progress, count)
    scopes = batch_scopes(node, config, count, viewed_by(view), executor)
    executor = _executor(scopes)

    def work(i: int) -> Out:
        scope = scopes[i]
        token = CURRENT_SCOPE.set(scope)
        try:
            return scope.invoke(node, inputs[i], None, kwargs)
        finally:
            CURRENT_SCOPE.reset(token)

    try:
        if executor is not None:
            from effects._runtime.remote_batch import RemoteBatch

            return RemoteBatch(executor, node, inputs, scopes, kwargs, return_exceptions, False).in_order()
        own = batch_hook(node)
        if own is not None:  # a step that batches by itself: one call for every item
            return NativeBatch(node, inputs, scopes, kwargs, return_exceptions).run(own)
        return run_indexed(work, count, limit=_limit(scopes), return_exceptions=return_exceptions)
    finally:
        if view is not None:
            view.close()


async def abatch(
    node: Step[In, Out],
    inputs: Sequence[In],
    config: object,
    kwargs: Mapping[str, object],
    return_exceptions: bool,
    progress: bool = False,
    executor: Executor | None = None,
) -> list[Out | Exception]:
    """Run ``node`` on every input concurrently under a task group; results in order.

    A failure (without ``return_exceptions``) cancels the other items and is
    raised as itself once they have stopped.
    """
    count = len(inputs)
    view = progress_view(node, config, progress, count)
    scopes = batch_scopes(node, config, count, viewed_by(view), executor)
    executor = _executor(scopes)
    # Every slot is set before the results are returned (an item that fails without
    # return_exceptions raises instead): a list holds them in less memory than a dict.
    results = cast("list[Out | Exception]", [None] * count)

    async def one(i: int) -> None:
        scope = scopes[i]
        token = CURRENT_SCOPE.set(scope)
        try:
            output = await scope.ainvoke(node, inputs[i], None, kwargs)  # inferred from node, not results
            results[i] = output
        except Exception as error:
            if not return_exceptions:
                raise
            results[i] = error
        finally:
            CURRENT_SCOPE.reset(token)

    try:
        if executor is not None:
            from effects._runtime.remote_batch import RemoteBatch

            remote = RemoteBatch(executor, node, inputs, scopes, kwargs, return_exceptions, True)
            return await remote.ain_order()
        own = abatch_hook(node)
        if own is not None:  # a step that batches by itself: one call for every item
            return await NativeBatch(node, inputs, scopes, kwargs, return_exceptions).arun(own)
        limit = _limit(scopes)
        if count == 1:
            await one(0)
        elif limit is not None and count > limit:
            # No more than `limit` items can have a leaf running; the others would only
            # wait, each holding a task, a coroutine and its frame (about 1 KiB an input).
            # `limit` workers pull the items instead, as the sync pool does.
            pull = itertools.count().__next__

            async def worker() -> None:
                while (i := pull()) < count:
                    await one(i)

            await gather_structured([worker() for _ in range(limit)])
        else:
            await gather_structured([one(i) for i in range(count)])
    finally:
        if view is not None:
            view.close()
    return results


@final
class _Failed:
    """An item's error, kept apart from outputs that are exceptions themselves."""

    __slots__ = ("error",)

    def __init__(self, error: Exception) -> None:
        self.error = error


def _outcome(value: Out | _Failed, return_exceptions: bool) -> Out | Exception:
    if not isinstance(value, _Failed):
        return value
    if not return_exceptions:
        raise value.error
    return value.error


def batch_as_completed(
    node: Step[In, Out],
    inputs: Sequence[In],
    config: object,
    kwargs: Mapping[str, object],
    return_exceptions: bool,
    progress: bool = False,
    executor: Executor | None = None,
) -> Iterator[tuple[int, Out | Exception]]:
    """Yield ``(index, result)`` as items finish (on the shared pool)."""
    count = len(inputs)
    view = progress_view(node, config, progress, count)
    scopes = batch_scopes(node, config, count, viewed_by(view), executor)
    executor = _executor(scopes)
    if executor is not None:
        from effects._runtime.remote_batch import RemoteBatch

        pairs = RemoteBatch(executor, node, inputs, scopes, kwargs, return_exceptions, False).completed()
        yield from pairs if view is None else shown(view, pairs)
        return
    done: queue.SimpleQueue[tuple[int, Out | _Failed]] = queue.SimpleQueue()
    stop = threading.Event()

    def work(i: int) -> None:
        if stop.is_set():
            return
        scope = scopes[i]
        token = CURRENT_SCOPE.set(scope)
        try:
            done.put((i, scope.invoke(node, inputs[i], None, kwargs)))
        except Exception as error:
            done.put((i, _Failed(error)))
        finally:
            CURRENT_SCOPE.reset(token)

    runner = shared_pool().submit(run_indexed, work, count, limit=_limit(scopes), return_exceptions=True)
    try:
        for _ in range(count):
            i, value = done.get()
            yield i, _outcome(value, return_exceptions)
    finally:
        stop.set()
        runner.result()
        if view is not None:
            view.close()


async def abatch_as_completed(
    node: Step[In, Out],
    inputs: Sequence[In],
    config: object,
    kwargs: Mapping[str, object],
    return_exceptions: bool,
    progress: bool = False,
    executor: Executor | None = None,
) -> AsyncIterator[tuple[int, Out | Exception]]:
    """Async ``batch_as_completed``; leaving early cancels the unfinished items."""
    import asyncio

    count = len(inputs)
    view = progress_view(node, config, progress, count)
    scopes = batch_scopes(node, config, count, viewed_by(view), executor)
    executor = _executor(scopes)
    if executor is not None:
        from effects._runtime.closing import closing
        from effects._runtime.remote_batch import RemoteBatch

        remote = RemoteBatch(executor, node, inputs, scopes, kwargs, return_exceptions, True).acompleted()
        async with closing(remote if view is None else ashown(view, remote)) as pairs:
            async for pair in pairs:
                yield pair
        return
    done: asyncio.Queue[tuple[int, Out | _Failed]] = asyncio.Queue()

    async def one(i: int) -> None:
        scope = scopes[i]
        token = CURRENT_SCOPE.set(scope)
        try:
            output = await scope.ainvoke(node, inputs[i], None, kwargs)
            done.put_nowait((i, output))
        except Exception as error:
            done.put_nowait((i, _Failed(error)))
        finally:
            CURRENT_SCOPE.reset(token)

    tasks = [asyncio.ensure_future(one(i)) for i in range(count)]
    try:
        for _ in range(count):
            i, value = await done.get()
            yield i, _outcome(value, return_exceptions)
    finally:
        try:
            await aclose_all(tasks=tasks)
        finally:
            if view is not None:
                view.close()


def each_on_executor(
    scope: Scope, executor: Executor, node: Step[In, Out], items: Sequence[In], kwargs: Mapping[str, object]
) -> list[Out]:
    """``node`` run on every item on ``executor`` as children of the running step's run
    (their effects adopted below it), outputs in input order; the first error cancels
    what is left and is raised (``RunnableEach`` given a config's ``executor``).

    >>> import attrs
    >>> from combinators import Runnable, RunnableLambda
    >>> from effects.executors import InlineExecutor
    >>> @attrs.frozen
    ... class Shipped(Runnable[list[int], list[int]]):
    ...     def step_invoke(self, input, scope, kwargs):
    ...         return each_on_executor(scope, InlineExecutor(), RunnableLambda(abs), input, kwargs)
    >>> Shipped().invoke([-1, -2])
    [1, 2]
    """
    from effects._runtime.remote_batch import RemoteBatch  # late: only batches on an executor load it

    return _outputs(
        RemoteBatch(executor, node, items, [_run_scope(scope)] * len(items), kwargs, False, False).in_order()
    )


async def aeach_on_executor(
    scope: Scope, executor: Executor, node: Step[In, Out], items: Sequence[In], kwargs: Mapping[str, object]
) -> list[Out]:
    """Async ``each_on_executor`` (a thread waits on the executor; effects are adopted in
    the caller's loop).

    >>> import asyncio, attrs
    >>> from combinators import Runnable, RunnableLambda
    >>> from effects.executors import InlineExecutor
    >>> @attrs.frozen
    ... class Shipped(Runnable[list[int], list[int]]):
    ...     async def step_ainvoke(self, input, scope, kwargs):
    ...         return await aeach_on_executor(scope, InlineExecutor(), RunnableLambda(abs), input, kwargs)
    >>> asyncio.run(Shipped().ainvoke([-1, -2]))
    [1, 2]
    """
    from effects._runtime.remote_batch import RemoteBatch

    remote = RemoteBatch(executor, node, items, [_run_scope(scope)] * len(items), kwargs, False, True)
    return _outputs(await remote.ain_order())


def _outputs(results: list[Out | Exception]) -> list[Out]:
    # Without return_exceptions an item's error is raised, never a result: each is an output.
    return cast("list[Out]", results)


def _run_scope(scope: Scope) -> RunScope:
    # Shipping reads the runtime's side of the scope (its observers, limits, deadline):
    # only the scope the runtime handed to the running step has it.
    if isinstance(scope, RunScope):
        return scope
    raise TypeError(f"expected the scope the runtime gave the running step, got {type(scope).__name__}")


__all__ = [
    "abatch", "abatch_as_completed", "aeach_on_executor", "batch", "batch_as_completed", "batch_scopes",
    "each_on_executor",
]  # fmt: skip

# The frames that mark "inside a run" for dispatch_custom_event in unobserved runs.
RUN_FRAMES.update(f.__code__ for f in (batch, abatch))
