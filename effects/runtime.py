"""The runtime: the only place where runs start and end.

A ``Scope`` is where a step runs: its config, the observers watching it, its run
(when observed), and the limits it inherits. Nodes run their children through
``scope.invoke / ainvoke / stream / astream``; the scope decides whether the child
is a run of its own, builds effect values for the observers, and takes
concurrency permits for leaves.

Nothing is materialised when nobody observes: a plain scope hands itself to its
children, builds no id, no timestamp and no effect.

>>> entry_scope(EMPTY_CONFIG) is PLAIN_SCOPE
True

True
"""

from __future__ import annotations

import inspect
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator, Mapping
from contextlib import AsyncExitStack, ExitStack
from contextvars import ContextVar
from types import CodeType, FrameType
from typing import Any, Final, Protocol, final
from uuid import UUID

import attrs

from effects.clock import Clock, current_clock
from effects.config import EMPTY_CONFIG, RunConfig, merge_configs
from effects.errors import InputError, StepTimeout
from effects.limiter import Limiter
from effects.step import Step
from effects.total import NOTHING, Total, aadded_up, added_up
from effects.total import add_chunks as add_chunks  # re-exported for node authors
from effects.streams import closing
from effects.values import (
    NO_INPUT,
    CustomEmitted,
    Effect,
    RunEnded,
    RunFailed,
    RunInfo,
    RunStarted,
    RunStreamed,
)

NO_KWARGS: Final[Mapping[str, Any]] = {}


class Observer(Protocol):
    """Receives every effect of the runs it watches, in order."""

    def emit(self, effect: Effect) -> None: ...


_NOTHING: Final = NOTHING

def new_run_id() -> UUID:
    """A time-ordered run id (UUID version 7).

    >>> new_run_id().version
    7
    """
    ms = time.time_ns() // 1_000_000
    bits = (ms & 0xFFFF_FFFF_FFFF) << 80 | random.getrandbits(80)
    bits = (bits & ~(0xF << 76)) | (7 << 76)  # version
    bits = (bits & ~(0x3 << 62)) | (0x2 << 62)  # variant
    return UUID(int=bits)


@final
class _Deadline:
    __slots__ = ("at", "owner", "seconds")

    def __init__(self, at: float, owner: str, seconds: float) -> None:
        self.at = at
        self.owner = owner
        self.seconds = seconds

    def error(self) -> StepTimeout:
        return StepTimeout(f"{self.owner} timed out after {self.seconds:g} s")


CURRENT_SCOPE: ContextVar[Scope | None] = ContextVar("combinators_scope", default=None)


def current_scope() -> Scope | None:
    """The scope of the step running here, if any (nested calls become its children)."""
    return CURRENT_SCOPE.get()


@final
class Scope:
    """Where a step runs. Built by the runtime only; nodes receive it."""

    __slots__ = (
        "config",
        "observers",
        "run",
        "limiters",
        "deadline",
        "plain",
        "listening",
        "_root_config",
    )

    def __init__(
        self,
        config: RunConfig,
        observers: tuple[Observer, ...],
        run: RunInfo | None,
        limiters: tuple[Limiter, ...],
        deadline: _Deadline | None,
        root_config: RunConfig | None = None,
    ) -> None:
        self.config = config
        """The effective config of this run, as its functions see it."""
        self.observers = observers
        self.run = run
        self.limiters = limiters
        self.deadline = deadline
        self._root_config = root_config
        self.listening = any(hasattr(o, "take_pending") for o in observers)
        # A plain scope hands itself to children: nobody observes, nothing limits,
        # and the config is the default one, so nested calls need no context either.
        self.plain = (
            not observers
            and not limiters
            and deadline is None
            and root_config is None
            and config is EMPTY_CONFIG
        )

    @property
    def clock(self) -> Clock:
        """The clock in force (``effects.clock.use_clock``), for waits and timestamps."""
        return current_clock()

    def __repr__(self) -> str:
        run = f", run={self.run.name!r}" if self.run else ""
        return f"Scope({self.config!r}{run})"

    # ---------------------------------------------------------------- children

    def invoke(
        self, node: Step, input: Any, tag: str | None = None, kwargs: Mapping[str, Any] = NO_KWARGS
    ) -> Any:
        """Run ``node`` on ``input`` as a child of this scope's run."""
        if self.plain and node.step_binding is None:
            return node.step_invoke(input, self, kwargs)
        node, child, kwargs = self._descend(node, tag, kwargs)
        if child.run is None:
            if not node.is_leaf:
                return node.step_invoke(input, child, kwargs)
            child._check_deadline()
            token = CURRENT_SCOPE.set(child)
            try:
                if not child.limiters:
                    return node.step_invoke(input, child, kwargs)
                with child._permits():
                    return node.step_invoke(input, child, kwargs)
            finally:
                CURRENT_SCOPE.reset(token)
        shown = child._start(node, input)
        child._refuse_async_listeners()
        token = CURRENT_SCOPE.set(child)
        try:
            child._check_deadline()
            if node.is_leaf and child.limiters:
                with child._permits():
                    output = node.step_invoke(input, child, kwargs)
            else:
                output = node.step_invoke(input, child, kwargs)
        except BaseException as error:
            child.emit_effect(RunFailed(child.run_info(), shown, error, child.clock.now()))
            child._refuse_async_listeners()
            raise
        finally:
            CURRENT_SCOPE.reset(token)
        child.emit_effect(RunEnded(child.run_info(), shown, node.describe_output(output), child.clock.now()))
        child._refuse_async_listeners()
        return output

    def ainvoke(
        self, node: Step, input: Any, tag: str | None = None, kwargs: Mapping[str, Any] = NO_KWARGS
    ) -> Coroutine[Any, Any, Any]:
        """Async ``invoke`` (the node's own coroutine when nothing is in between)."""
        if self.plain and node.step_binding is None:
            return node.step_ainvoke(input, self, kwargs)
        return self._ainvoke(node, input, tag, kwargs)

    async def _ainvoke(
        self, node: Step, input: Any, tag: str | None, kwargs: Mapping[str, Any]
    ) -> Any:
        node, child, kwargs = self._descend(node, tag, kwargs)
        if child.run is None:
            if not node.is_leaf:
                return await child._abounded(node.step_ainvoke(input, child, kwargs), node)
            child._check_deadline()
            token = CURRENT_SCOPE.set(child)
            try:
                if not child.limiters:
                    return await child._abounded(node.step_ainvoke(input, child, kwargs), node)
                async with AsyncExitStack() as stack:
                    for limiter in child.limiters:
                        await stack.enter_async_context(limiter.ahold())
                    return await child._abounded(node.step_ainvoke(input, child, kwargs), node)
            finally:
                CURRENT_SCOPE.reset(token)
        shown = child._start(node, input)
        await child.await_listeners()
        token = CURRENT_SCOPE.set(child)
        try:
            child._check_deadline()
            if node.is_leaf and child.limiters:
                async with AsyncExitStack() as stack:
                    for limiter in child.limiters:
                        await stack.enter_async_context(limiter.ahold())
                    output = await child._abounded(node.step_ainvoke(input, child, kwargs), node)
            else:
                output = await child._abounded(node.step_ainvoke(input, child, kwargs), node)
        except BaseException as error:
            child.emit_effect(RunFailed(child.run_info(), shown, error, child.clock.now()))
            await child.await_listeners()
            raise
        finally:
            CURRENT_SCOPE.reset(token)
        child.emit_effect(RunEnded(child.run_info(), shown, node.describe_output(output), child.clock.now()))
        await child.await_listeners()
        return output

    def stream(
        self,
        node: Step,
        inputs: Iterator[Any],
        tag: str | None = None,
        kwargs: Mapping[str, Any] = NO_KWARGS,
        *,
        known_input: object = NO_INPUT,
    ) -> Iterator[Any]:
        """Run ``node`` as a stream transform over ``inputs``, as a child run.

        ``known_input`` is the whole input when it is known up front (a root
        ``stream`` call); otherwise the run reports its input at its end.
        """
        if self.plain and node.step_binding is None:
            return node.step_stream(inputs, self, kwargs)
        node, child, kwargs = self._descend(node, tag, kwargs)
        if child.run is None and (child.plain or not node.is_leaf):
            return node.step_stream(inputs, child, kwargs)
        return child._stream_run(node, inputs, kwargs, known_input)

    def astream(
        self,
        node: Step,
        inputs: AsyncIterator[Any],
        tag: str | None = None,
        kwargs: Mapping[str, Any] = NO_KWARGS,
        *,
        known_input: object = NO_INPUT,
    ) -> AsyncIterator[Any]:
        """Async ``stream``."""
        if self.plain and node.step_binding is None:
            return node.step_astream(inputs, self, kwargs)
        node, child, kwargs = self._descend(node, tag, kwargs)
        if child.run is None and (child.plain or not node.is_leaf):
            return node.step_astream(inputs, child, kwargs)
        return child._astream_run(node, inputs, kwargs, known_input)

    def with_recursion_step(self) -> Scope:
        """The scope for a runnable that a function returned: one less level allowed.

        >>> PLAIN_SCOPE.with_recursion_step().config.recursion_limit
        24
        """
        limit = self.config.recursion_limit
        if limit <= 0:
            raise RecursionError(
                "Recursion limit reached: a function returned a runnable"
                f" {self.config.recursion_limit or 0} levels deep is too deep"
                " (raise config recursion_limit if this is intended)"
            )
        config = RunConfig(
            tags=self.config.tags,
            metadata=self.config.metadata,
            max_concurrency=self.config.max_concurrency,
            recursion_limit=limit - 1,
            configurable=self.config.configurable,
            timeout=self.config.timeout,
        )
        return Scope(config, self.observers, self.run, self.limiters, self.deadline)

    # ---------------------------------------------------------------- custom events

    def emit_custom(self, name: str, data: object) -> None:
        """Surface a user's custom event from the run of this scope."""
        run = self.run
        if run is None:
            return
        if run.tags != self.config.tags:  # the step tag is the run's own, not its events'
            run = attrs.evolve(run, tags=self.config.tags)
        self.emit_effect(CustomEmitted(run, name, data, self.clock.now()))

    # ---------------------------------------------------------------- internals

    def _descend(
        self, node: Step, tag: str | None, kwargs: Mapping[str, Any]
    ) -> tuple[Step, Scope, Mapping[str, Any]]:
        """Unwrap bindings and make the scope of ``node``'s run."""
        config = self.config
        observers = self.observers
        limiters = self.limiters
        deadline = self.deadline
        root = self._root_config
        clock = current_clock()
        if root is not None:
            config = merge_configs(config, root)
        binding = node.step_binding
        while binding is not None:
            bound_config = binding.config
            if bound_config is not EMPTY_CONFIG:
                config = merge_configs(bound_config, config)
                if bound_config.max_concurrency is not None:
                    limiters = (*limiters, Limiter(bound_config.max_concurrency))
                if bound_config.timeout is not None:
                    deadline = _earlier(
                        deadline,
                        _Deadline(
                            clock.monotonic() + bound_config.timeout,
                            binding.bound.name,
                            bound_config.timeout,
                        ),
                    )
            if binding.kwargs:
                kwargs = {**binding.kwargs, **kwargs}
            for factory in binding.observers:
                observers = (*observers, factory.make_observer(config.for_children()))
            node = binding.bound
            binding = node.step_binding
        run: RunInfo | None = None
        if observers:
            parent = self.run
            tags = config.tags if tag is None else (tag, *config.tags)
            run = RunInfo(
                config.run_id or new_run_id(),
                () if parent is None else (*parent.parent_ids, parent.run_id),
                config.run_name or node.name,
                node.run_type,
                tags,
                config.metadata,
            )
        config = config.for_children()
        if (
            run is None
            and config is self.config
            and observers is self.observers
            and limiters is self.limiters
            and deadline is self.deadline
        ):
            return node, self, kwargs
        return node, Scope(config, observers, run, limiters, deadline), kwargs

    def run_info(self) -> RunInfo:
        """This scope's run (only observed scopes have one)."""
        run = self.run
        assert run is not None
        return run

    def emit_effect(self, effect: Effect) -> None:
        """Hand one effect to every observer (runtime use)."""
        for observer in self.observers:
            observer.emit(effect)

    def _start(self, node: Step, input: Any) -> object:
        run = self.run_info()
        # The root shows its raw input, as the peer does; children show what the
        # node says its input is (a model: {"messages": [[...]]}).
        shown = input if not run.parent_ids else node.describe_input(input)
        self.emit_effect(RunStarted(run, shown, self.clock.now()))
        return shown

    async def await_listeners(self) -> None:
        """Await async listeners due so far (the peer awaits them before going on)."""
        if not self.listening:
            return
        for observer in self.observers:
            take: Callable[[], list[Awaitable[object]]] | None = getattr(observer, "take_pending", None)
            if take is not None:
                for pending in take():
                    await pending

    def _refuse_async_listeners(self) -> None:
        if not self.listening:
            return
        for observer in self.observers:
            take: Callable[[], list[Awaitable[object]]] | None = getattr(observer, "take_pending", None)
            if take is None:
                continue
            pending = take()
            for awaitable in pending:
                close: Callable[[], object] | None = getattr(awaitable, "close", None)
                if close is not None:
                    close()
            if pending:
                raise InputError(
                    f"{self.run_info().name} has async listeners: run it with ainvoke or astream"
                )

    def _check_deadline(self) -> None:
        deadline = self.deadline
        if deadline is not None and self.clock.monotonic() >= deadline.at:
            raise deadline.error()

    def _permits(self) -> ExitStack:
        stack = ExitStack()
        for limiter in self.limiters:
            stack.enter_context(limiter.hold())
        return stack

    async def _abounded(self, awaitable: Awaitable[Any], node: Step) -> Any:
        deadline = self.deadline
        if deadline is None:
            return await awaitable
        import asyncio

        remaining = deadline.at - self.clock.monotonic()
        try:
            async with asyncio.timeout(max(remaining, 0.0)):
                return await awaitable
        except TimeoutError as error:
            raise deadline.error() from error

    def _stream_run(
        self, node: Step, inputs: Iterator[Any], kwargs: Mapping[str, Any], known_input: object
    ) -> Iterator[Any]:
        upstream = inputs
        if self.run is not None and known_input is NO_INPUT and node.input_known_at_start:
            # Its events show the whole input at its start, as the peer's do.
            known_input = added_up(inputs)
            inputs = iter(()) if known_input is _NOTHING else iter((known_input,))
            if known_input is _NOTHING:
                known_input = NO_INPUT
        watch = _StreamWatch(self, node, known_input)
        if watch.observed and known_input is NO_INPUT:
            inputs = watch.tap(inputs)
        with ExitStack() as stack:
            token = CURRENT_SCOPE.set(self)
            try:
                self._check_deadline()
                if node.is_leaf and self.limiters:
                    stack.enter_context(self._permits())
                chunks = node.step_stream(inputs, self, kwargs)
            finally:
                CURRENT_SCOPE.reset(token)
            try:
                while True:
                    token = CURRENT_SCOPE.set(self)
                    try:
                        chunk = next(chunks)
                    except StopIteration:
                        break
                    finally:
                        CURRENT_SCOPE.reset(token)
                    if watch.observed:
                        watch.streamed(chunk)
                        self._refuse_async_listeners()
                    yield chunk
            except BaseException as error:
                _close(chunks)
                if watch.observed:
                    watch.failed(error)
                    self._refuse_async_listeners()
                # Upstream runs end now, not whenever the garbage collector gets to them.
                _close(upstream)
                raise
        _close(upstream)
        if watch.observed:
            watch.ended()
            self._refuse_async_listeners()

    async def _astream_run(
        self,
        node: Step,
        inputs: AsyncIterator[Any],
        kwargs: Mapping[str, Any],
        known_input: object,
    ) -> AsyncIterator[Any]:
        upstream = inputs
        if self.run is not None and known_input is NO_INPUT and node.input_known_at_start:
            known_input = await aadded_up(inputs)
            inputs = _aiter_of(() if known_input is _NOTHING else (known_input,))
            if known_input is _NOTHING:
                known_input = NO_INPUT
        watch = _StreamWatch(self, node, known_input)
        if watch.observed and known_input is NO_INPUT:
            inputs = watch.atap(inputs)
        async with AsyncExitStack() as stack:
            token = CURRENT_SCOPE.set(self)
            try:
                self._check_deadline()
                if node.is_leaf and self.limiters:
                    for limiter in self.limiters:
                        await stack.enter_async_context(limiter.ahold())
                chunks = node.step_astream(inputs, self, kwargs)
            finally:
                CURRENT_SCOPE.reset(token)
            bounded = self.deadline is not None
            listening = self.listening
            try:
                while True:
                    token = CURRENT_SCOPE.set(self)
                    try:
                        if bounded:
                            chunk = await self._abounded(chunks.__anext__(), node)
                        else:
                            chunk = await chunks.__anext__()
                    except StopAsyncIteration:
                        break
                    finally:
                        CURRENT_SCOPE.reset(token)
                    if watch.observed:
                        watch.streamed(chunk)
                        if listening:
                            await self.await_listeners()
                    yield chunk
            except BaseException as error:
                await _aclose(chunks)
                if watch.observed:
                    watch.failed(error)
                    await self.await_listeners()
                await _aclose(upstream)
                raise
        await _aclose(upstream)
        if watch.observed:
            watch.ended()
            await self.await_listeners()


@final
class _StreamWatch:
    """The effects of one run in streaming mode.

    A run whose input is not known up front starts when its first input chunk
    arrives (or when it produces or ends without reading any), as the peer's
    events show; it reports its input, added up, at its end. One that fails
    before it started is not reported at all.
    """

    __slots__ = ("scope", "node", "known", "observed", "started", "seen", "total", "emits")

    def __init__(self, scope: Scope, node: Step, known: object) -> None:
        self.scope = scope
        self.node = node
        self.known = known
        self.observed = scope.run is not None
        # The root's chunks are the output stream; a child shows its chunks only if
        # it streams them itself (as in the peer: no stream events for a retriever,
        # a prompt or a model without a token stream).
        self.emits = self.observed and (
            not scope.run_info().parent_ids or node.emits_stream_events
        )
        self.started = False
        self.seen = Total()
        self.total = Total()
        if self.observed and known is not NO_INPUT:
            self.start()

    def start(self) -> None:
        self.started = True
        shown = self.known if self.known is NO_INPUT else self.shown_input()
        self.scope.emit_effect(RunStarted(self.scope.run_info(), shown, self.scope.clock.now()))

    def tap(self, inputs: Iterator[Any]) -> Iterator[Any]:
        for item in inputs:
            self.saw(item)
            yield item

    async def atap(self, inputs: AsyncIterator[Any]) -> AsyncIterator[Any]:
        async with closing(inputs) as stream:
            async for item in stream:
                self.saw(item)
                if self.scope.listening:
                    await self.scope.await_listeners()
                yield item

    def saw(self, item: object) -> None:
        if not self.started:
            self.start()
        self.seen.add(item)

    def streamed(self, chunk: object) -> None:
        if not self.started:
            self.start()
        self.total.add(chunk)
        if self.emits:
            self.scope.emit_effect(RunStreamed(self.scope.run_info(), chunk, self.scope.clock.now()))

    def shown_input(self) -> object:
        run = self.scope.run_info()
        if self.known is not NO_INPUT:
            return self.known if not run.parent_ids else self.node.describe_input(self.known)
        seen = self.seen.value()
        return None if seen is _NOTHING else self.node.describe_input(seen)

    def failed(self, error: BaseException) -> None:
        if not self.started:
            # It never got an input (the error came from upstream) and produced
            # nothing: as in the peer, a run that never started is not reported.
            return
        self.scope.emit_effect(
            RunFailed(self.scope.run_info(), self.shown_input(), error, self.scope.clock.now())
        )

    def ended(self) -> None:
        if not self.started:
            self.start()
        total = self.total.value()
        output = None if total is _NOTHING else self.node.describe_output(total)
        self.scope.emit_effect(RunEnded(self.scope.run_info(), self.shown_input(), output, self.scope.clock.now()))


async def _aiter_of(items: tuple[object, ...]) -> AsyncIterator[Any]:
    for item in items:
        yield item


def _earlier(a: _Deadline | None, b: _Deadline) -> _Deadline:
    return b if a is None or b.at < a.at else a


def _close(chunks: Iterator[Any]) -> None:
    close: Callable[[], object] | None = getattr(chunks, "close", None)
    if close is not None:
        close()


async def _aclose(chunks: AsyncIterator[Any]) -> None:
    aclose: Callable[[], Awaitable[object]] | None = getattr(chunks, "aclose", None)
    if aclose is not None:
        await aclose()


PLAIN_SCOPE: Final = Scope(EMPTY_CONFIG, (), None, (), None)


def entry_scope(
    config: RunConfig, observers: tuple[Observer, ...] = (), owner: str = "the call"
) -> Scope:
    """The scope a public call (``invoke``, ``stream``, ...) starts its root run in.

    Inside a running step, the call becomes a child of that step's run and
    inherits its config, observers and limits.
    """
    ambient = CURRENT_SCOPE.get()
    clock = current_clock()
    if ambient is None:
        if config is EMPTY_CONFIG and not observers:
            return PLAIN_SCOPE
        base = EMPTY_CONFIG
        limiters: tuple[Limiter, ...] = ()
        deadline: _Deadline | None = None
    else:
        if config is EMPTY_CONFIG and not observers:
            return ambient
        base = ambient.config
        limiters = ambient.limiters
        deadline = ambient.deadline
        observers = (*ambient.observers, *observers)
    if config.max_concurrency is not None:
        limiters = (*limiters, Limiter(config.max_concurrency))
    if config.timeout is not None:
        deadline = _earlier(
            deadline, _Deadline(clock.monotonic() + config.timeout, owner, config.timeout)
        )
    run = None if ambient is None else ambient.run
    merged = merge_configs(base, config.for_children())
    root = config if (config.run_name or config.run_id) else None
    return Scope(merged, observers, run, limiters, deadline, root)


RUN_FRAMES: Final[set[CodeType]] = set()
"""Code objects of the runtime's entry points (filled by ``effects.entry``)."""


def _inside_a_run() -> bool:
    # Unobserved calls and streams carry no context of their own (that is what keeps
    # them fast), so only on this rare path do we look up the stack for one of the
    # runtime's entry frames.
    frame: FrameType | None = inspect.currentframe()
    while frame is not None:
        if frame.f_code in RUN_FRAMES:
            return True
        frame = frame.f_back
    return False


def dispatch_custom_event(name: str, data: object) -> None:
    """Emit a custom event from inside a running step (no config needed).

    Inside an unobserved run it does nothing; outside any run it is a misuse and
    raises.

    >>> dispatch_custom_event("progress", 1)
    Traceback (most recent call last):
    ...
    RuntimeError: dispatch_custom_event('progress') must be called from inside a running step
    """
    scope = CURRENT_SCOPE.get()
    if scope is None:
        if _inside_a_run():
            return  # an unobserved run: nobody to tell
        raise RuntimeError(f"dispatch_custom_event({name!r}) must be called from inside a running step")
    scope.emit_custom(name, data)


async def adispatch_custom_event(name: str, data: object) -> None:
    """Async ``dispatch_custom_event``."""
    dispatch_custom_event(name, data)
