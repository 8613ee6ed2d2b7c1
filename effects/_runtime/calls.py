"""Public calls, as the runtime runs them: invoke, stream, batch, in sync and async.

``combinators.Runnable``'s methods are thin doors onto these functions, so that the
runtime stays the one place where runs start and end.
"""

from __future__ import annotations

# asyncio is imported where it is used: `import combinators` stays cheap for sync code.

import itertools
import queue
import threading
import warnings
from collections.abc import AsyncIterable, AsyncIterator, Coroutine, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar, final

import attrs

from effects.config import EMPTY_CONFIG, RunConfig
from effects._runtime.closing import aclose_all, close_iterator
from effects._runtime.context import CURRENT_SCOPE
from effects._runtime.custom_events import RUN_FRAMES
from effects._runtime.thread_pool import run_indexed, shared_pool
from effects._runtime.observers import Observer
from effects._runtime.scope import PLAIN_SCOPE, Scope, entry_scope
from effects.hooks import PROGRESS, ProgressView
from effects.step import Step

if TYPE_CHECKING:
    from effects.executors import Executor

In = TypeVar("In")
Out = TypeVar("Out")
T = TypeVar("T")

def invoke(node: Step[In, Out], input: In, config: object, kwargs: Mapping[str, object]) -> Out:
    """Run ``node`` once, synchronously."""
    if config is None and CURRENT_SCOPE.get() is None:
        # The hot path: nothing to observe, limit or propagate.
        return PLAIN_SCOPE.invoke(node, input, None, kwargs)
    scope = entry_scope(_checked(node, RunConfig.coerce(config)), owner=node.name)
    token = CURRENT_SCOPE.set(scope)
    try:
        return scope.invoke(node, input, None, kwargs)
    finally:
        CURRENT_SCOPE.reset(token)


async def ainvoke(node: Step[In, Out], input: In, config: object, kwargs: Mapping[str, object]) -> Out:
    """Run ``node`` once, in the running event loop."""
    if config is None and CURRENT_SCOPE.get() is None:
        return await PLAIN_SCOPE.ainvoke(node, input, None, kwargs)
    scope = entry_scope(_checked(node, RunConfig.coerce(config)), owner=node.name)
    token = CURRENT_SCOPE.set(scope)
    try:
        return await scope.ainvoke(node, input, None, kwargs)
    finally:
        CURRENT_SCOPE.reset(token)


def stream(
    node: Step[In, Out],
    input: In,
    config: object,
    kwargs: Mapping[str, object],
    observers: tuple[Observer, ...] = (),
) -> Iterator[Out]:
    """Stream ``node``'s output chunks for one input."""
    view = progress_view(node, config, False, None)
    if view is not None:
        observers = (*observers, view)
    scope = _entry(node, config, observers)
    chunks = _in_scope(scope, scope.stream(node, iter((input,)), None, kwargs, known_input=input))
    return chunks if view is None else _showing(view, chunks)


def transform(
    node: Step[In, Out], inputs: Iterable[In], config: object, kwargs: Mapping[str, object]
) -> Iterator[Out]:
    """Stream ``node``'s output over a stream of input chunks."""
    scope = _entry(node, config, ())
    return _in_scope(scope, scope.stream(node, iter(inputs), None, kwargs))


def astream(
    node: Step[In, Out],
    input: In,
    config: object,
    kwargs: Mapping[str, object],
    observers: tuple[Observer, ...] = (),
) -> AsyncIterator[Out]:
    """Async ``stream``."""
    view = progress_view(node, config, False, None)
    if view is not None:
        observers = (*observers, view)
    scope = _entry(node, config, observers)
    chunks = _ain_scope(scope, scope.astream(node, _one(input), None, kwargs, known_input=input))
    return chunks if view is None else _ashowing(view, chunks)


def atransform(
    node: Step[In, Out], inputs: AsyncIterable[In], config: object, kwargs: Mapping[str, object]
) -> AsyncIterator[Out]:
    """Async ``transform``."""
    scope = _entry(node, config, ())
    return _ain_scope(scope, scope.astream(node, aiter(inputs), None, kwargs))


def _entry(node: Step[In, Out], config: object, observers: tuple[Observer, ...]) -> Scope:
    coerced = RunConfig.coerce(config)
    if coerced is EMPTY_CONFIG and not observers and CURRENT_SCOPE.get() is None:
        return PLAIN_SCOPE
    return entry_scope(_checked(node, coerced), observers, owner=node.name)


def _checked(node: Step[In, Out], config: RunConfig) -> RunConfig:
    # Once, at the root of a call: inside a run, a nested call is handed its caller's
    # config, whose configurable ids belong to the whole chain, not to this node.
    if config.configurable and CURRENT_SCOPE.get() is None:
        node.check_config(config)
    return config


def _in_scope(scope: Scope, chunks: Iterator[T]) -> Iterator[T]:
    if scope is PLAIN_SCOPE:
        return _plain(chunks)
    return _scoped(scope, chunks)


def _plain(chunks: Iterator[T]) -> Iterator[T]:
    # Nothing to propagate: delegate without a per-chunk context switch (free with
    # `yield from`); this frame marks the stream as a run (see dispatch_custom_event).
    yield from chunks


def _scoped(scope: Scope, chunks: Iterator[T]) -> Iterator[T]:
    # The scope is current only while the chain works, never while the consumer runs.
    try:
        while True:
            token = CURRENT_SCOPE.set(scope)
            try:
                chunk = next(chunks)
            except StopIteration:
                return
            finally:
                CURRENT_SCOPE.reset(token)
            yield chunk
    finally:
        close_iterator(chunks)


def _ain_scope(scope: Scope, chunks: AsyncIterator[T]) -> AsyncIterator[T]:
    if scope is PLAIN_SCOPE:
        return _aplain(chunks)
    return _ascoped(scope, chunks)


async def _aplain(chunks: AsyncIterator[T]) -> AsyncIterator[T]:
    try:
        async for chunk in chunks:
            yield chunk
    finally:
        await aclose_all((chunks,))


async def _ascoped(scope: Scope, chunks: AsyncIterator[T]) -> AsyncIterator[T]:
    try:
        while True:
            token = CURRENT_SCOPE.set(scope)
            try:
                chunk = await anext(chunks)
            except StopAsyncIteration:
                return
            finally:
                CURRENT_SCOPE.reset(token)
            yield chunk
    finally:
        await aclose_all((chunks,))


async def _one(input: T) -> AsyncIterator[T]:
    yield input


# ------------------------------------------------------------------------- batches


# ------------------------------------------------------------------------- progress


def _flagged(config: object) -> bool:
    if config is None:
        return False
    if isinstance(config, Sequence) and not isinstance(config, str | bytes):
        configs: Sequence[object] = config  # pyright: ignore[reportUnknownVariableType]
        return any(RunConfig.coerce(c).progress for c in configs)
    return RunConfig.coerce(config).progress


def progress_view(node: Step[In, Out], config: object, asked: bool, total: int | None) -> ProgressView | None:
    """The progress bar a call asked for (``progress=True`` or its config flag), or None."""
    if not asked and not _flagged(config):
        return None
    return PROGRESS.get("progress=True").view(total, node.name)


def _viewing(view: ProgressView | None) -> tuple[Observer, ...]:
    return () if view is None else (view,)


def _showing(view: ProgressView, chunks: Iterator[T]) -> Iterator[T]:
    try:
        yield from chunks
    finally:
        view.close()


async def _ashowing(view: ProgressView, chunks: AsyncIterator[T]) -> AsyncIterator[T]:
    try:
        async for chunk in chunks:
            yield chunk
    finally:
        await aclose_all((chunks,))
        view.close()


def batch_scopes(
    node: Step[In, Out],
    config: object,
    count: int,
    observers: tuple[Observer, ...] = (),
    executor: Executor | None = None,
) -> list[Scope]:
    """One entry scope per input: a shared one, or one per config of a list."""
    if isinstance(config, Sequence) and not isinstance(config, str | bytes):
        configs: Sequence[object] = config  # pyright: ignore[reportUnknownVariableType]
        if len(configs) != count:
            raise ValueError(
                f"batch got {len(configs)} configs for {count} inputs; give one config"
                " or one per input"
            )
        return [_entry(node, _on(c, executor), observers) for c in configs]
    coerced = _on(config, executor)
    if coerced.run_id is not None and count > 1:
        warnings.warn(
            "a run_id in a batch config applies to the first input only",
            RuntimeWarning,
            stacklevel=4,
        )
        first = _entry(node, coerced, observers)
        rest = _entry(node, attrs.evolve(coerced, run_id=None), observers)
        return [first, *([rest] * (count - 1))]
    shared = _entry(node, coerced, observers)
    return [shared] * count


def _on(config: object, executor: Executor | None) -> RunConfig:
    coerced = RunConfig.coerce(config)
    return coerced if executor is None else attrs.evolve(coerced, executor=executor)


def _executor(scopes: list[Scope]) -> Executor | None:
    """The executor the batch's items run on (None: here, the default)."""
    return scopes[0].config.executor if scopes else None


def _limit(scopes: list[Scope]) -> int | None:
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
    scopes = batch_scopes(node, config, count, _viewing(view), executor)
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
    scopes = batch_scopes(node, config, count, _viewing(view), executor)
    executor = _executor(scopes)
    results: dict[int, Out | Exception] = {}

    async def one(i: int) -> None:
        scope = scopes[i]
        token = CURRENT_SCOPE.set(scope)
        try:
            output = await scope.ainvoke(node, inputs[i], None, kwargs)
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
    return [results[i] for i in range(count)]


async def gather_structured(coroutines: list[Coroutine[object, object, object]]) -> None:
    """Await all under a task group; raise the first failure itself, not a group.

    When one fails the others are cancelled and awaited before the error
    propagates: nothing is left running.
    """
    import asyncio

    try:
        async with asyncio.TaskGroup() as group:
            for coroutine in coroutines:
                group.create_task(coroutine)
    except BaseExceptionGroup as group_error:
        raise _first_error(group_error) from None


def _first_error(group: BaseExceptionGroup[BaseException]) -> BaseException:
    import asyncio

    for error in group.exceptions:
        if isinstance(error, BaseExceptionGroup):
            return _first_error(error)  # pyright: ignore[reportUnknownArgumentType]
        if not isinstance(error, asyncio.CancelledError):
            return error
    return group.exceptions[0]


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
    scopes = batch_scopes(node, config, count, _viewing(view), executor)
    executor = _executor(scopes)
    if executor is not None:
        from effects._runtime.remote_batch import RemoteBatch

        pairs = RemoteBatch(executor, node, inputs, scopes, kwargs, return_exceptions, False).completed()
        yield from pairs if view is None else _showing(view, pairs)
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

    runner = shared_pool().submit(
        run_indexed, work, count, limit=_limit(scopes), return_exceptions=True
    )
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
    scopes = batch_scopes(node, config, count, _viewing(view), executor)
    executor = _executor(scopes)
    if executor is not None:
        from effects._runtime.closing import closing
        from effects._runtime.remote_batch import RemoteBatch

        remote = RemoteBatch(executor, node, inputs, scopes, kwargs, return_exceptions, True).acompleted()
        async with closing(remote if view is None else _ashowing(view, remote)) as pairs:
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


__all__ = [
    "abatch",
    "abatch_as_completed",
    "ainvoke",
    "astream",
    "atransform",
    "batch",
    "batch_as_completed",
    "gather_structured",
    "invoke",
    "stream",
    "transform",
]

# The frames that mark "inside a run" for dispatch_custom_event in unobserved runs.
RUN_FRAMES.update(f.__code__ for f in (invoke, ainvoke, _plain, _aplain, batch, abatch))
