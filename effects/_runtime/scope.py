"""The runtime: the only place where runs start and end.


A ``RunScope`` is where a step runs: its config, the observers watching it, its run
(when observed), and the limits it inherits. Nodes run their children through
``scope.invoke / ainvoke / stream / astream``; the scope decides whether the child
is a run of its own, builds effect values for the observers, and takes
concurrency permits for leaves. Steps see it as the public ``effects.Scope`` protocol
(which it satisfies structurally: no wrapper, no extra frame); the rest of it
(observers, limiters, deadline, effect building) is the runtime's own.


Nothing is materialised when nobody observes: a plain scope hands itself to its
children, builds no id, no timestamp and no effect (``PLAIN_SCOPE``; a public call
starts in the scope ``effects._runtime.entry.entry_scope`` makes).

>>> PLAIN_SCOPE.plain, PLAIN_SCOPE.run is None
(True, True)
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Final, TypeVar, final

import attrs

from effects._runtime.building import adopted
from effects._runtime.bindings import bound_observers, unwrap, watched_inside
from effects.clock import Clock, current_clock
from effects.config import EMPTY_CONFIG, RunConfig, merge_configs
from effects._runtime.bindings import Deadline
from effects.errors import InputError
from effects._runtime.limiter import Lease, Limiter, aholding, holding
from effects._runtime.building import new_run_id
from effects._runtime.context import CURRENT_SCOPE
from effects.step import AwaitingObserver, Observer, finish_in_sync
from effects.step import OBSERVERS_BOUND, Step
from effects._runtime import building
from effects._runtime.streaming import StreamWatch, astream_run, stream_run
from effects.effect_values import (
    NO_PARAMS,
    NOTHING,
    Nothing,
    CustomEmitted,
    Effect,
    RunFailed,
    RunInfo,
)


NO_KWARGS: Final[Mapping[str, object]] = {}

In = TypeVar("In")
Out = TypeVar("Out")
T = TypeVar("T")


def _wants_chunks(observer: Observer) -> bool:
    # Optional: observers that show a run as it happens (events, the run log,
    # recordings) set ``wants_chunks = True``; listeners see whole runs only.
    return getattr(observer, "wants_chunks", False) is True


@final
class RunScope:
    """Where a step runs. Built by the runtime only; steps receive it as an
    ``effects.Scope``."""

    __slots__ = (
        "config",
        "observers",
        "run",
        "limiters",
        "deadline",
        "plain",
        "listeners",
        "listening",
        "_root_config",
        "place_tag",
    )

    def __init__(
        self,
        config: RunConfig,
        observers: tuple[Observer, ...],
        run: RunInfo | None,
        limiters: tuple[Limiter, ...],
        deadline: Deadline | None,
        root_config: RunConfig | None = None,
        listeners: tuple[AwaitingObserver, ...] = (),
        place_tag: str | None = None,
    ) -> None:
        self.config = config
        """The effective config of this run, as its functions see it."""
        self.observers = observers
        self.run = run
        self.limiters = limiters
        self.deadline = deadline
        self._root_config = root_config
        self.listeners = listeners
        """The observers among ``observers`` whose reactions the runtime awaits."""
        self.listening = bool(listeners)
        self.place_tag = place_tag
        """The step tag of a step streamed in place (``streams_in_place``): its runs take it."""
        # A plain scope hands itself to children: nobody observes, nothing limits,
        # and the config is the default one, so nested calls need no context either.
        self.plain = (
            not observers and not limiters and deadline is None and root_config is None and config is EMPTY_CONFIG
        )

    @property
    def clock(self) -> Clock:
        """The clock in force (``effects.clock.use_clock``), for waits and timestamps."""
        return current_clock()

    def __repr__(self) -> str:
        run = f", run={self.run.name!r}" if self.run else ""
        return f"RunScope({self.config!r}{run})"

    # ---------------------------------------------------------------- children

    def invoke(
        self,
        node: Step[In, Out],
        input: In,
        tag: str | None = None,
        kwargs: Mapping[str, object] = NO_KWARGS,
    ) -> Out:
        """Run ``node`` on ``input`` as a child of this scope's run."""
        if self.plain and node.step_binding is None:
            return node.step_invoke(input, self, kwargs)
        node, child, kwargs = self._descend(node, tag, kwargs)
        if child.run is None:
            if not node.is_leaf or (child is self and self.plain):  # bindings that added nothing
                return node.step_invoke(input, child, kwargs)
            child.check_deadline()
            token = CURRENT_SCOPE.set(child)
            try:
                if not child.limiters:
                    return node.step_invoke(input, child, kwargs)
                with child.permits():
                    return node.step_invoke(input, child, kwargs)
            finally:
                CURRENT_SCOPE.reset(token)
        run = child.run_info()
        shown = child._start(node, input)
        child.refuse_async_listeners()
        token = CURRENT_SCOPE.set(child)
        try:
            if child.deadline is not None:
                child.check_deadline()
            if node.is_leaf and child.limiters:
                with child.permits():
                    output = node.step_invoke(input, child, kwargs)
            else:
                output = node.step_invoke(input, child, kwargs)
        except BaseException as error:
            child.emit_effect(child.failure(node, input, shown, error))
            child.refuse_async_listeners()
            raise
        finally:
            CURRENT_SCOPE.reset(token)
        child.emit_effect(building.ended(run, shown, node.describe_output(output), current_clock().now()))
        child.refuse_async_listeners()
        return output

    def ainvoke(
        self,
        node: Step[In, Out],
        input: In,
        tag: str | None = None,
        kwargs: Mapping[str, object] = NO_KWARGS,
    ) -> Awaitable[Out]:
        """Async ``invoke`` (the node's own coroutine when nothing is in between)."""
        if self.plain and node.step_binding is None:
            return node.step_ainvoke(input, self, kwargs)
        return self._ainvoke(node, input, tag, kwargs)

    async def _ainvoke(self, node: Step[In, Out], input: In, tag: str | None, kwargs: Mapping[str, object]) -> Out:
        node, child, kwargs = self._descend(node, tag, kwargs)
        if child.run is None:
            if not node.is_leaf or (child is self and self.plain):  # bindings that added nothing
                return await child.bounded(node.step_ainvoke(input, child, kwargs), node)
            child.check_deadline()
            token = CURRENT_SCOPE.set(child)
            try:
                if not child.limiters:
                    return await child.bounded(node.step_ainvoke(input, child, kwargs), node)
                async with aholding(child.limiters):
                    return await child.bounded(node.step_ainvoke(input, child, kwargs), node)
            finally:
                CURRENT_SCOPE.reset(token)
        run = child.run_info()
        shown = child._start(node, input)
        # Awaits only where there is something to wait for: an observed child run is
        # the common case under events, and each await of a coroutine costs a frame.
        listening = child.listening
        if listening:
            await child.await_listeners()
        token = CURRENT_SCOPE.set(child)
        try:
            if child.deadline is not None:
                child.check_deadline()
            if node.is_leaf and child.limiters:
                async with aholding(child.limiters):
                    output = await child.bounded(node.step_ainvoke(input, child, kwargs), node)
            else:
                output = await child.bounded(node.step_ainvoke(input, child, kwargs), node)
        except BaseException as error:
            child.emit_effect(child.failure(node, input, shown, error))
            if listening:
                await child.await_listeners()
            raise
        finally:
            CURRENT_SCOPE.reset(token)
        child.emit_effect(building.ended(run, shown, node.describe_output(output), current_clock().now()))
        if listening:
            await child.await_listeners()
        return output

    def stream(
        self,
        node: Step[In, Out],
        inputs: Iterator[In],
        tag: str | None = None,
        kwargs: Mapping[str, object] = NO_KWARGS,
        *,
        known_input: In | Nothing = NOTHING,
    ) -> Iterator[Out]:
        """Run ``node`` as a stream transform over ``inputs``, as a child run.

        ``known_input`` is the whole input when it is known up front (a root
        ``stream`` call); otherwise the run reports its input at its end.
        """
        if self.plain and node.step_binding is None:
            return node.step_stream(inputs, self, kwargs)
        node, child, kwargs = self._descend(node, tag, kwargs)
        if child.run is None and (child.plain or not node.is_leaf):
            return node.step_stream(inputs, child, kwargs)
        if node.streams_in_place and self.run is not None:
            return node.step_stream(inputs, child.in_place(self.run, tag), kwargs)
        return stream_run(StreamWatch(child, node, known_input), inputs, kwargs)

    def astream(
        self,
        node: Step[In, Out],
        inputs: AsyncIterator[In],
        tag: str | None = None,
        kwargs: Mapping[str, object] = NO_KWARGS,
        *,
        known_input: In | Nothing = NOTHING,
    ) -> AsyncIterator[Out]:
        """Async ``stream``."""
        if self.plain and node.step_binding is None:
            return node.step_astream(inputs, self, kwargs)
        node, child, kwargs = self._descend(node, tag, kwargs)
        if child.run is None and (child.plain or not node.is_leaf):
            return node.step_astream(inputs, child, kwargs)
        if node.streams_in_place and self.run is not None:
            return node.step_astream(inputs, child.in_place(self.run, tag), kwargs)
        return astream_run(StreamWatch(child, node, known_input), inputs, kwargs)

    def with_recursion_step(self, returned: object = None) -> RunScope:
        """The scope for a runnable that a function returned: one less level allowed.

        When ``returned`` (the runnable it will run) has a step bound to observers and the
        function's own run has no id (nothing watches it), the function's run gets one: the
        watched step's handlers see it as their parent, as LangChain's do.

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
            executor=self.config.executor,
        )
        run = self.run
        if run is None and returned is not None and OBSERVERS_BOUND and _watched_at_or_below(returned):
            # Only its id shows (a parent's): nothing watches the function's own run.
            run = building.run_info(new_run_id(), (), "", "chain", (), {}, NO_PARAMS)
        return RunScope(config, self.observers, run, self.limiters, self.deadline, listeners=self.listeners)

    @property
    def runs_inline(self) -> bool:
        """Whether children may run one after the other in the step's own task with the
        outcome a task group would give: no listener, permit or deadline in force.

        >>> PLAIN_SCOPE.runs_inline
        True
        """
        return not self.listening and not self.limiters and self.deadline is None

    # ---------------------------------------------------------------- live chunks

    @property
    def wants_chunks(self) -> bool:
        """Whether someone watches this run as it happens (events, the run log, a
        recording): a step that computes its output in one go may then produce it
        piece by piece with ``stream_chunk`` (a chat model streams its tokens)."""
        return self.run is not None and any(_wants_chunks(o) for o in self.observers)

    def stream_chunk(self, chunk: object) -> None:
        """Show one piece of this run's output as it is produced (a stream effect of the
        run), from a step that returns its whole output at the end.

        >>> PLAIN_SCOPE.stream_chunk("tok")  # nobody watches: nothing happens
        """
        run = self.run
        if run is not None:
            effect = building.streamed(run, chunk, current_clock().now())
            for observer in self.observers:
                observer.emit(effect)

    # ---------------------------------------------------------------- custom events

    def emit_custom(self, name: str, data: object) -> None:
        """Surface a user's custom event from the run of this scope."""
        run = self.run
        if run is None:
            return
        if run.tags != self.config.tags:  # the step tag is the run's own, not its events'
            run = attrs.evolve(run, tags=self.config.tags)
        self.emit_effect(CustomEmitted(run, name, data, self.clock.now()))

    def adopt(self, effects: Iterable[Effect], metadata: Mapping[str, object] | None = None) -> None:
        """Emit the effects of runs made by another interpreter (a worker, a server) as
        descendants of this scope's run: a foreign root becomes its child, and
        ``metadata`` (where the runs happened) is added to every foreign run.

        Nothing is built when nobody observes.

        >>> import attrs
        >>> from uuid import UUID
        >>> from combinators import Runnable
        >>> from effects import RunEnded, RunInfo, RunStarted
        >>> far = RunInfo(UUID(int=7), (), "far", "chain", (), {})
        >>> @attrs.frozen
        ... class Relay(Runnable[str, str]):
        ...     def step_invoke(self, input, scope, kwargs):
        ...         scope.adopt([RunStarted(far, input, 0.0), RunEnded(far, input, "!", 1.0)], {"on": "w1"})
        ...         return input
        >>> [(e.run.name, len(e.run.parent_ids)) for e in Relay().stream_effects("x")]
        [('Relay', 0), ('far', 1), ('far', 1), ('Relay', 0), ('Relay', 0)]
        """
        if not self.observers:
            return
        for effect in adopted(effects, self.run, metadata or {}):
            self.emit_effect(effect)

    # ---------------------------------------------------------------- internals

    def _descend(
        self, node: Step[In, Out], tag: str | None, kwargs: Mapping[str, object]
    ) -> tuple[Step[In, Out], RunScope, Mapping[str, object]]:
        """Unwrap bindings and make the scope of ``node``'s run."""
        config = self.config
        observers = self.observers
        listeners = self.listeners
        limiters = self.limiters
        deadline = self.deadline
        root = self._root_config
        if root is not None:
            config = merge_configs(config, root)
        if node.step_binding is not None:
            node, (config, kwargs, observers, listeners, limiters, deadline) = unwrap(
                node, (config, kwargs, observers, listeners, limiters, deadline)
            )
        run = self._run_of(node, config, tag, kwargs) if observers else None
        config = config.for_children()
        if (
            run is None
            and config is self.config
            and observers is self.observers
            and limiters is self.limiters
            and deadline is self.deadline
        ):
            return node, self, kwargs
        return node, RunScope(config, observers, run, limiters, deadline, listeners=listeners), kwargs

    def _run_of(self, node: Step[In, Out], config: RunConfig, tag: str | None, kwargs: Mapping[str, object]) -> RunInfo:
        """The ``RunInfo`` of ``node``'s observed run below this scope's run."""
        parent = self.run
        tags = config.tags if tag is None else (tag, *config.tags)
        place = self.place_tag
        if place is not None:  # a run of a step streamed in place takes its step tag
            tags = (place, *tags)
        own_tags = getattr(node, "run_tags", None)
        if own_tags is not None:  # tags a node adds to its own run only (a vector store's names)
            tags = (*tags, *(t for t in own_tags() if t not in tags))
        params = node.describe_params(kwargs)
        return building.run_info(
            config.run_id or new_run_id(),
            () if parent is None else (*parent.parent_ids, parent.run_id),
            config.run_name or node.name,
            node.run_type,
            tags,
            _with_own_metadata(node, config.metadata, params),
            params,
            # A root that does not stream by itself gives its whole output on after it
            # ran: its chunk is the call's output, not a stream of its run.
            parent is None and not node.emits_stream_events,
        )

    def in_place(self, parent: RunInfo, tag: str | None) -> RunScope:
        """This scope as the place of a step streamed in place: no run of its own, its
        runs are ``parent``'s children and carry its step ``tag``."""
        return RunScope(
            self.config, self.observers, parent, self.limiters, self.deadline, listeners=self.listeners, place_tag=tag
        )

    def run_info(self) -> RunInfo:
        """This scope's run (only observed scopes have one)."""
        run = self.run
        assert run is not None
        return run

    def emit_effect(self, effect: Effect) -> None:
        """Hand one effect to every observer (runtime use)."""
        for observer in self.observers:
            observer.emit(effect)

    def failure(self, node: Step[In, Out], input: In | Nothing, shown: object, error: BaseException) -> RunFailed:
        """The effect of this run failing (a tool run names the tool call it answered)."""
        run = self.run_info()
        call_id = node.tool_call_id(input) if run.run_type == "tool" and input is not NOTHING else None
        return RunFailed(run, shown, error, self.clock.now(), tool_call_id=call_id)

    def _start(self, node: Step[In, Out], input: In) -> object:
        run = self.run_info()
        # The root shows its raw input, as the peer does; children show what the
        # node says its input is (a model: {"messages": [[...]]}).
        shown = input if not run.parent_ids else node.describe_input(input)
        effect = building.started(run, shown, current_clock().now())
        for observer in self.observers:
            observer.emit(effect)
        return shown

    async def await_listeners(self) -> None:
        """Await async listeners due so far (the peer awaits them before going on)."""
        for observer in self.listeners:
            for pending in observer.take_pending():
                await pending

    def refuse_async_listeners(self) -> None:
        for observer in self.listeners:
            pending = observer.take_pending()
            if not pending:
                continue
            if not finish_in_sync(observer, pending):  # async listeners are refused
                raise InputError(f"{self.run_info().name} has async listeners: run it with ainvoke or astream")

    def check_deadline(self) -> None:
        deadline = self.deadline
        if deadline is not None and self.clock.monotonic() >= deadline.at:
            raise deadline.error()

    def permits(self) -> AbstractContextManager[Lease]:
        """Hold a permit of every limiter above (lent to nested work) for the block."""
        return holding(self.limiters)

    def bounded(self, awaitable: Awaitable[T], node: Step[In, Out]) -> Awaitable[T]:
        """``awaitable`` cut short at this scope's deadline (itself when there is none:
        no coroutine in between)."""
        deadline = self.deadline
        if deadline is None:
            return awaitable
        return self._bounded(awaitable, deadline)

    async def _bounded(self, awaitable: Awaitable[T], deadline: Deadline) -> T:
        import asyncio

        remaining = deadline.at - self.clock.monotonic()
        try:
            async with asyncio.timeout(max(remaining, 0.0)):
                return await awaitable
        except TimeoutError as error:
            raise deadline.error() from error


PLAIN_SCOPE: Final = RunScope(EMPTY_CONFIG, (), None, (), None)

if TYPE_CHECKING:
    from effects.scope import Scope

    # The private class is the public protocol, structurally: both checkers verify it here.
    _IS_A_SCOPE: Scope = PLAIN_SCOPE


def _watched_at_or_below(node: object) -> bool:
    return bound_observers(node) or watched_inside(node)


def _with_own_metadata(
    node: object, metadata: Mapping[str, object], params: Mapping[str, object]
) -> Mapping[str, object]:
    """The run's metadata: the config's, plus what the node adds about its own run (a
    model's ``ls_*`` keys, as the peer's; ``run_metadata(params)``), never inherited."""
    own = getattr(node, "run_metadata", None)
    if own is None:
        return metadata
    added: Mapping[str, object] = own(params)
    return {**added, **metadata} if added else metadata
