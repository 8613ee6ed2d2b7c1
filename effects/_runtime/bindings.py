"""Unwrapping a node's bindings: the config, limits, deadline, kwargs and observers that
each layer adds on the way to the node that runs.

A deadline is where ``timeout`` (a call's or ``with_timeout``'s) becomes a point in time:

>>> d = earlier(Deadline(5.0, "a", 5.0), Deadline(3.0, "b", 3.0))
>>> d.owner, str(d.error())
('b', 'b timed out after 3 s')
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import TypeAlias, TypeVar, final


from effects._runtime.limiter import Limiter
from effects.clock import current_clock
from effects.lazy import remember
from effects.config import EMPTY_CONFIG, RunConfig, merge_configs
from effects.errors import StepTimeout
from effects.step import OBSERVERS_BOUND, AwaitingObserver, Observer, Step, hands_out_awaitables, steps_inside

In = TypeVar("In")
Out = TypeVar("Out")


Unwrapped: TypeAlias = """tuple[
    RunConfig, Mapping[str, object], tuple[Observer, ...], tuple[AwaitingObserver, ...], tuple[Limiter, ...],
    Deadline | None,
]"""
"""What a child run gets from the bindings around its node: its config, keyword arguments,
observers, listeners (the observers whose reactions are awaited), limiters and deadline.
A plain tuple, not a named one: it is made at each bound call, and a named tuple's
constructor is a Python call."""


def unwrap(node: Step[In, Out], around: Unwrapped) -> tuple[Step[In, Out], Unwrapped]:
    """``node`` without its bindings, and ``around`` with what they add: where layers set
    the same key (config, keyword arguments), the caller's wins over any layer's, and an
    outer layer's over an inner one's (caller > outer > inner; tags add up).

    >>> from combinators import RunnableLambda
    >>> bound = RunnableLambda(str.upper).with_config(tags=["t"], max_concurrency=2)
    >>> inner, (config, _, _, _, limiters, _) = unwrap(bound, (EMPTY_CONFIG, {}, (), (), (), None))
    >>> inner.name, config.tags, len(limiters)
    ('upper', ('t',), 1)
    """
    config, kwargs, observers, listeners, limiters, deadline = around
    binding = node.step_binding
    while binding is not None:
        bound_config = binding.config
        if bound_config is not EMPTY_CONFIG:
            config = merge_configs(bound_config, config)
            if bound_config.max_concurrency is not None:
                limiters = (*limiters, Limiter(bound_config.max_concurrency))
            if bound_config.timeout is not None:
                at = current_clock().monotonic() + bound_config.timeout
                deadline = earlier(deadline, Deadline(at, binding.bound.name, bound_config.timeout))
        if binding.kwargs:
            kwargs = {**binding.kwargs, **kwargs}
        if binding.observers:
            inherited = config.for_children()  # what the runs the factories watch inherit
            for factory in binding.observers:
                observer = factory.make_observer(inherited)
                if observer is None:
                    continue
                observers = (*observers, observer)
                if hands_out_awaitables(observer):
                    listeners = (*listeners, observer)
        node = binding.bound if binding.choose is None else binding.choose(config)
        binding = node.step_binding
    return node, (config, kwargs, observers, listeners, limiters, deadline)


@final
class Deadline:
    __slots__ = ("at", "owner", "seconds")

    def __init__(self, at: float, owner: str, seconds: float) -> None:
        self.at = at
        self.owner = owner
        self.seconds = seconds

    def error(self) -> StepTimeout:
        return StepTimeout(f"{self.owner} timed out after {self.seconds:g} s")


def earlier(a: Deadline | None, b: Deadline) -> Deadline:
    return b if a is None or b.at < a.at else a


_WATCHED: dict[int, tuple[weakref.ref[object], bool]] = {}


def watched_inside(node: object) -> bool:
    """Whether a step below ``node`` (not ``node`` itself nor what it binds) is bound to
    observers (a LangChain handler given with ``with_config(callbacks=...)`` or a
    component's ``callbacks=``); worked out once per chain object (a value).

    >>> from combinators import RunnableLambda
    >>> watched = RunnableLambda(abs).with_listeners(on_start=lambda run: None)
    >>> watched_inside(watched), watched_inside(RunnableLambda(str) | watched)
    (False, True)
    """
    if node is None or not OBSERVERS_BOUND:
        return False
    key = id(node)
    hit = _WATCHED.get(key)
    if hit is not None and hit[0]() is node:
        return hit[1]
    return remember(_WATCHED, node, _walk(node))


def bound_observers(node: object) -> bool:
    """Whether ``node``'s own bindings add observers.

    >>> from combinators import RunnableLambda
    >>> bound_observers(RunnableLambda(abs)), bound_observers(RunnableLambda(abs).with_listeners(on_end=print))
    (False, True)
    """
    binding = getattr(node, "step_binding", None)
    while binding is not None:
        if binding.observers:
            return True
        binding = getattr(binding.bound, "step_binding", None)
    return False


def _walk(root: object) -> bool:
    own: set[int] = set()  # the root and what it binds: their observers watch the root run
    at: object = root
    while True:
        own.add(id(at))
        binding = getattr(at, "step_binding", None)
        if binding is None:
            break
        at = binding.bound
    return any(id(step) not in own and bound_observers(step) for step in steps_inside(root, at))
