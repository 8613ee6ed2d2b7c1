"""Public calls, as the runtime runs them: invoke and stream, in sync and async (batches
are in ``batches``).

``combinators.Runnable``'s methods are thin doors onto these functions, so that the
runtime stays the one place where runs start and end.
"""

from __future__ import annotations

# asyncio is imported where it is used: `import combinators` stays cheap for sync code.

from collections.abc import AsyncIterable, AsyncIterator, Coroutine, Iterable, Iterator, Mapping, Sequence
from typing import TypeVar

from effects.config import EMPTY_CONFIG, RunConfig
from effects._runtime.context import CURRENT_SCOPE
from effects._runtime.context import RUN_FRAMES
from effects._runtime.closing import aclose_all, close_iterator
from effects.step import Observer
from effects._runtime.bindings import watched_inside
from effects._runtime.entry import entry_scope
from effects._runtime.scope import PLAIN_SCOPE, RunScope
from effects.hooks import PROGRESS, ProgressView
from effects.step import OBSERVERS_BOUND, Step
from effects.effect_values import NOTHING, Nothing

In = TypeVar("In")
Out = TypeVar("Out")
T = TypeVar("T")


def invoke(node: Step[In, Out], input: In, config: object, kwargs: Mapping[str, object]) -> Out:
    """Run ``node`` once, synchronously.

    >>> from combinators import RunnableLambda
    >>> invoke(RunnableLambda(abs), -2, {"tags": ["t"]}, {})
    2
    """
    if config is None and CURRENT_SCOPE.get() is None and (not OBSERVERS_BOUND or not watched_inside(node)):
        # The hot path: nothing to observe, limit or propagate (nor a watched step inside).
        return PLAIN_SCOPE.invoke(node, input, None, kwargs)
    scope = entry_scope(_checked(node, RunConfig.coerce(config)), owner=node.name, node=node)
    token = CURRENT_SCOPE.set(scope)
    try:
        return scope.invoke(node, input, None, kwargs)
    finally:
        CURRENT_SCOPE.reset(token)


async def ainvoke(node: Step[In, Out], input: In, config: object, kwargs: Mapping[str, object]) -> Out:
    """Run ``node`` once, in the running event loop.

    >>> import asyncio
    >>> from combinators import RunnableLambda
    >>> asyncio.run(ainvoke(RunnableLambda(abs), -2, None, {}))
    2
    """
    if config is None and CURRENT_SCOPE.get() is None and (not OBSERVERS_BOUND or not watched_inside(node)):
        return await PLAIN_SCOPE.ainvoke(node, input, None, kwargs)
    scope = entry_scope(_checked(node, RunConfig.coerce(config)), owner=node.name, node=node)
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
    """Stream ``node``'s output chunks for one input.

    >>> from combinators import RunnableLambda
    >>> list(stream(RunnableLambda(str.upper), "ab", None, {}))
    ['AB']
    """
    if (
        config is None
        and not observers
        and CURRENT_SCOPE.get() is None
        and (not OBSERVERS_BOUND or not watched_inside(node))
    ):
        # The hot path, as invoke's: no progress bar, the plain scope, a root run (its input
        # known at its start). Its first chunk touches nothing more than the chain needs.
        return _plain(PLAIN_SCOPE.stream(node, iter((input,)), None, kwargs, known_input=input))
    view = progress_view(node, config, False, None)
    if view is not None:
        observers = (*observers, view)
    known = _known_at_start(node, input)
    scope = call_scope(node, config, observers)
    chunks = _in_scope(scope, scope.stream(node, iter((input,)), None, kwargs, known_input=known))
    return chunks if view is None else shown(view, chunks)


def transform(node: Step[In, Out], inputs: Iterable[In], config: object, kwargs: Mapping[str, object]) -> Iterator[Out]:
    """Stream ``node``'s output over a stream of input chunks.

    >>> from combinators import RunnablePassthrough
    >>> list(transform(RunnablePassthrough(), iter("ab"), None, {}))
    ['a', 'b']
    """
    scope = call_scope(node, config, ())
    return _in_scope(scope, scope.stream(node, iter(inputs), None, kwargs))


def astream(
    node: Step[In, Out],
    input: In,
    config: object,
    kwargs: Mapping[str, object],
    observers: tuple[Observer, ...] = (),
    *,
    own_task: bool = False,
) -> AsyncIterator[Out]:
    """Async ``stream``. ``own_task``: the caller runs it in a task of its own (a watched
    run's producer), so the call's scope is made current once, in that task's context,
    instead of around every chunk.

    >>> import asyncio
    >>> from combinators import RunnableLambda
    >>> async def main():
    ...     return [c async for c in astream(RunnableLambda(str.upper), "ab", None, {})]
    >>> asyncio.run(main())
    ['AB']
    """
    view = progress_view(node, config, False, None)
    if view is not None:
        observers = (*observers, view)
    known = _known_at_start(node, input)
    scope = call_scope(node, config, observers)
    if own_task:
        CURRENT_SCOPE.set(scope)  # the task's own context: nobody else runs in it
        chunks = scope.astream(node, _one(input), None, kwargs, known_input=known)
    else:
        chunks = _ain_scope(scope, scope.astream(node, _one(input), None, kwargs, known_input=known))
    return chunks if view is None else ashown(view, chunks)


def atransform(
    node: Step[In, Out], inputs: AsyncIterable[In], config: object, kwargs: Mapping[str, object]
) -> AsyncIterator[Out]:
    """Async ``transform``.

    >>> import asyncio
    >>> from combinators import RunnablePassthrough
    >>> from effects._runtime.closing import aiter_of
    >>> async def main():
    ...     return [c async for c in atransform(RunnablePassthrough(), aiter_of(("a", "b")), None, {})]
    >>> asyncio.run(main())
    ['a', 'b']
    """
    scope = call_scope(node, config, ())
    return _ain_scope(scope, scope.astream(node, aiter(inputs), None, kwargs))


def _known_at_start(node: Step[In, Out], input: In) -> In | Nothing:
    # A root run shows its input at its start; a stream transform streamed from inside
    # another step is a child run like any other: its input shows at its end (the peer's rule).
    if node.input_known_at_start or CURRENT_SCOPE.get() is None:
        return input
    return NOTHING


def call_scope(node: Step[In, Out], config: object, observers: tuple[Observer, ...]) -> RunScope:
    """The scope a call of ``node`` with ``config`` runs in (the plain one when nothing is asked)."""
    coerced = RunConfig.coerce(config)
    if (
        coerced is EMPTY_CONFIG
        and not observers
        and CURRENT_SCOPE.get() is None
        and (not OBSERVERS_BOUND or not watched_inside(node))
    ):
        return PLAIN_SCOPE
    return entry_scope(_checked(node, coerced), observers, owner=node.name, node=node)


def _checked(node: Step[In, Out], config: RunConfig) -> RunConfig:
    # Once, at the root of a call: inside a run, a nested call is handed its caller's
    # config, whose configurable ids belong to the whole chain, not to this node.
    if config.configurable and CURRENT_SCOPE.get() is None:
        node.check_config(config)
    return config


def _in_scope(scope: RunScope, chunks: Iterator[T]) -> Iterator[T]:
    if scope is PLAIN_SCOPE:
        return _plain(chunks)
    return _scoped(scope, chunks)


def _plain(chunks: Iterator[T]) -> Iterator[T]:
    # Nothing to propagate: delegate without a per-chunk context switch (free with
    # `yield from`); this frame marks the stream as a run (see dispatch_custom_event).
    yield from chunks


def _scoped(scope: RunScope, chunks: Iterator[T]) -> Iterator[T]:
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


def _ain_scope(scope: RunScope, chunks: AsyncIterator[T]) -> AsyncIterator[T]:
    if scope is PLAIN_SCOPE:
        return _aplain(chunks)
    return _ascoped(scope, chunks)


async def _aplain(chunks: AsyncIterator[T]) -> AsyncIterator[T]:
    try:
        async for chunk in chunks:
            yield chunk
    finally:
        await aclose_all((chunks,))


async def _ascoped(scope: RunScope, chunks: AsyncIterator[T]) -> AsyncIterator[T]:
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


def viewed_by(view: ProgressView | None) -> tuple[Observer, ...]:
    """The observers a progress view adds to a call (none without one)."""
    return () if view is None else (view,)


def shown(view: ProgressView, chunks: Iterator[T]) -> Iterator[T]:
    """``chunks``, closing ``view`` when they end."""
    try:
        yield from chunks
    finally:
        view.close()


async def ashown(view: ProgressView, chunks: AsyncIterator[T]) -> AsyncIterator[T]:
    """Async ``shown``."""
    try:
        async for chunk in chunks:
            yield chunk
    finally:
        await aclose_all((chunks,))
        view.close()


async def gather_structured(coroutines: list[Coroutine[object, object, object]]) -> None:
    """Await all under a task group; raise the first failure itself, not a group.

    When one fails the others are cancelled and awaited before the error
    propagates: nothing is left running.

    >>> import asyncio
    >>> async def fail():
    ...     raise ValueError("first")
    >>> async def main():
    ...     slow = asyncio.sleep(10)
    ...     try:
    ...         await gather_structured([fail(), slow])
    ...     except ValueError as error:
    ...         return repr(error)
    >>> asyncio.run(main())
    "ValueError('first')"
    """
    import asyncio

    failure: BaseException | None = None
    try:
        async with asyncio.TaskGroup() as group:
            for coroutine in coroutines:
                group.create_task(coroutine)
    except BaseExceptionGroup as group_error:
        failure = _first_error(group_error)
    if failure is not None:
        # Raised outside the handler: raised inside, the error's context would become the
        # group that holds it, a cycle that tblib (Dask's error shipping) recurses on forever.
        raise failure


def _first_error(group: BaseExceptionGroup[BaseException]) -> BaseException:
    import asyncio

    for error in group.exceptions:
        if isinstance(error, BaseExceptionGroup):
            return _first_error(error)  # pyright: ignore[reportUnknownArgumentType]
        if not isinstance(error, asyncio.CancelledError):
            return error
    return group.exceptions[0]


__all__ = [
    "ainvoke",
    "astream",
    "atransform",
    "call_scope",
    "gather_structured",
    "invoke",
    "progress_view",
    "shown",
    "ashown",
    "stream",
    "transform",
    "viewed_by",
]

# The frames that mark "inside a run" for dispatch_custom_event in unobserved runs.
RUN_FRAMES.update(f.__code__ for f in (invoke, ainvoke, _plain, _aplain))
