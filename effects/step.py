"""The small protocol the runtime runs: anything with these members is a step; and who
watches a run: observers receive its effects, some hand back awaitables (async listeners)
that the runtime awaits before the run goes on.

``effects`` never imports ``combinators``; ``combinators.Runnable`` implements this.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, Generic, Protocol, TypeGuard, TypeVar, cast, final, runtime_checkable

import attrs

from effects.config import RunConfig

if TYPE_CHECKING:
    from effects.scope import Scope
    from effects.effect_values import Effect

In = TypeVar("In", contravariant=True)
# Invariant: the runtime hands a step's output back to its own ``describe_output``.
Out = TypeVar("Out")
BoundIn = TypeVar("BoundIn", contravariant=True)
BoundOut = TypeVar("BoundOut")


class Step(Protocol[In, Out]):
    """What the runtime needs of a node (every ``combinators.Runnable[In, Out]`` is one).

    >>> from combinators import RunnableLambda
    >>> step: Step[int, int] = RunnableLambda(abs)
    >>> step.run_type, step.step_binding is None
    ('chain', True)
    """

    @property
    def name(self) -> str: ...

    @property
    def run_type(self) -> str: ...

    @property
    def is_leaf(self) -> bool: ...

    @property
    def input_known_at_start(self) -> bool: ...

    @property
    def emits_stream_events(self) -> bool: ...

    @property
    def streams_in_place(self) -> bool: ...

    @property
    def relays_chunks(self) -> bool: ...

    @property
    def step_binding(self) -> StepBinding[In, Out] | None: ...

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out: ...

    def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Awaitable[Out]: ...

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]: ...

    def step_astream(
        self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[Out]: ...

    def describe_input(self, input: In) -> object: ...

    def describe_output(self, output: Out) -> object: ...

    def check_config(self, config: RunConfig) -> None:
        """Refuse a root call's config this step cannot run with (unknown configurable ids)."""
        ...

    def tool_call_id(self, input: In) -> str | None: ...

    def describe_params(self, kwargs: Mapping[str, object]) -> Mapping[str, object]: ...


@runtime_checkable
class ObserverFactory(Protocol):
    """Makes a fresh observer for one run of a binding (for example listeners).

    ``None`` means there is nothing to observe this time (a tracer that records
    nothing): the run then costs what an unobserved run costs.
    """

    def make_observer(self, config: RunConfig | None = None) -> Observer | None: ...


@final
@attrs.frozen(hash=False)
class StepBinding(Generic[BoundIn, BoundOut]):
    """A node that is not a run of its own: it adjusts how ``bound`` runs.

    ``config`` merges over the caller's config for ``bound``'s run; ``kwargs`` are
    passed to ``bound`` (the caller's keyword arguments win); ``observers`` watch
    ``bound``'s run and its subtree. With ``choose``, the step that runs is
    ``choose(config)`` instead of ``bound`` (a configurable step picks it by the
    call's ``configurable``).

    >>> from combinators import RunnableLambda
    >>> StepBinding(bound=RunnableLambda(abs), config=RunConfig(tags=("x",))).kwargs
    {}
    """

    bound: Step[BoundIn, BoundOut]
    config: RunConfig = RunConfig()
    kwargs: Mapping[str, object] = attrs.field(factory=dict[str, object])
    observers: tuple[ObserverFactory, ...] = ()
    choose: Callable[[RunConfig], Step[BoundIn, BoundOut]] | None = None

    def __hash__(self) -> int:
        return hash((self.bound, self.config, tuple(self.kwargs), self.observers))

    def __attrs_post_init__(self) -> None:
        if self.observers and not OBSERVERS_BOUND:
            OBSERVERS_BOUND.append(True)


OBSERVERS_BOUND: Final[list[bool]] = []
"""Not empty once a binding with observers was made in this process (a handler bound to a
step): until then no call looks for watched steps inside the one it runs
(``effects._runtime.entry.watched_inside``)."""


class Observer(Protocol):
    """Receives every effect of the runs it watches, in order.

    An observer that shows runs as they happen may set ``wants_chunks = True``: chat
    models invoked under it then stream their tokens to it (``Scope.wants_chunks``).

    >>> from effects._runtime import calls as entry
    >>> from combinators import RunnableLambda
    >>> class Names:
    ...     def __init__(self): self.seen = []
    ...     def emit(self, effect): self.seen.append(type(effect).__name__)
    >>> names = Names()
    >>> list(entry.stream(RunnableLambda(abs), -1, None, {}, observers=(names,)))
    [1]
    >>> names.seen
    ['RunStarted', 'RunStreamed', 'RunEnded']
    """

    def emit(self, effect: Effect) -> None: ...


@runtime_checkable
class AwaitingObserver(Observer, Protocol):
    """An observer whose reactions may be coroutines (async listeners): the runtime
    awaits them before the run goes on (``ainvoke``/``astream``), and refuses them in a
    sync call.

    >>> from effects.projections.listeners import ListenerSpec
    >>> isinstance(ListenerSpec().make_observer(), AwaitingObserver)
    True
    """

    def take_pending(self) -> list[Awaitable[object]]:
        """The awaitables due so far (each handed out once)."""
        ...


def awaiting(observers: tuple[Observer, ...]) -> tuple[AwaitingObserver, ...]:
    """The observers among ``observers`` that hand out awaitables."""
    return tuple(o for o in observers if hands_out_awaitables(o))


def hands_out_awaitables(observer: Observer) -> TypeGuard[AwaitingObserver]:
    """Whether ``observer`` is an ``AwaitingObserver``."""
    # Not isinstance(observer, AwaitingObserver): a runtime-checkable protocol walks its
    # members at every check (tens of microseconds, paid by every watched call).
    return callable(getattr(observer, "take_pending", None))


def finish_in_sync(observer: object, pending: list[Awaitable[object]]) -> bool:
    """Awaitables an observer handed out during a sync call, which nothing will await:
    an observer that can finish them itself (LangChain's async callback handlers) does so
    (True); otherwise each coroutine is closed, or Python warns that it was never awaited
    (False).

    >>> async def later() -> None: ...
    >>> finish_in_sync(object(), [later()])
    False
    """
    run_pending = getattr(observer, "run_pending", None)
    if run_pending is not None:
        run_pending(pending)
        return True
    for awaitable in pending:
        if isinstance(awaitable, Coroutine):
            awaitable.close()
    return False


def _held_steps(value: object, depth: int) -> Iterator[object]:
    # Steps held by a field, in a dict, tuple or list (concrete types only: an ABC check
    # per field is what a walk would cost).
    if callable(getattr(type(value), "step_invoke", None)):
        yield value
    elif depth < 3 and type(value) in (dict, MappingProxyType):
        for item in cast("Mapping[object, object]", value).values():
            yield from _held_steps(item, depth + 1)
    elif depth < 3 and type(value) in (tuple, list):
        for item in cast("Sequence[object]", value):
            yield from _held_steps(item, depth + 1)


def steps_inside(*roots: object) -> Iterator[object]:
    """``roots`` and every step their attrs fields hold (directly, or in a dict, tuple or
    list), depth first in field order, each once: the walk over a chain's structure that
    its configurable ids and its watched steps are found by.

    >>> from combinators import RunnableLambda
    >>> chain = RunnableLambda(abs) | {"n": RunnableLambda(str)}
    >>> [type(step).__name__ for step in steps_inside(chain)]
    ['RunnableSequence', 'RunnableLambda', 'RunnableParallel', 'RunnableLambda']
    """
    seen: set[int] = set()
    stack = list(reversed(roots))
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        kind = type(current)
        if attrs.has(kind):
            held = [step for field in attrs.fields(kind) for step in _held_steps(getattr(current, field.name), 0)]
            stack.extend(reversed(held))
