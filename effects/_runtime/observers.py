"""Who watches a run: observers receive its effects; some hand back awaitables (async
listeners) that the runtime awaits before the run goes on.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol, TypeGuard, runtime_checkable

from effects.values import Effect


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


__all__ = ["AwaitingObserver", "Observer", "awaiting", "hands_out_awaitables"]
