"""Where a public call starts: the entry scope of its root run (or, inside a running
step, of a child of that step's run).

>>> from effects.config import EMPTY_CONFIG
>>> entry_scope(EMPTY_CONFIG) is PLAIN_SCOPE
True
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Final, cast, final

import attrs

from effects.clock import current_clock
from effects.config import EMPTY_CONFIG, RunConfig, merge_configs
from effects.hooks import callbacks_observer_factory, tracing_observer_factory
from effects.lazy import remember
from effects.step import OBSERVERS_BOUND
from effects.effect_values import Effect
from effects._runtime.context import CURRENT_SCOPE
from effects._runtime.bindings import Deadline, earlier
from effects._runtime.limiter import Limiter
from effects.step import Observer, awaiting
from effects._runtime.scope import PLAIN_SCOPE, RunScope


def entry_scope(
    config: RunConfig, observers: tuple[Observer, ...] = (), owner: str = "the call", node: object = None
) -> RunScope:
    """The scope a public call (``invoke``, ``stream``, ...) starts its root run in.

    Inside a running step, the call becomes a child of that step's run and
    inherits its config, observers and limits. A call of a ``node`` with a watched step
    inside (``watched_inside``) and nothing else watching gives its runs ids all the same.
    """
    if config.tracing is not None or config.progress or config.callbacks is not None:
        config, observers = _traced(config, observers, owner)
    ambient = CURRENT_SCOPE.get()
    if not observers and OBSERVERS_BOUND and (ambient is None or not ambient.observers) and watched_inside(node):
        observers = (IDS_ONLY,)
    clock = current_clock()
    listeners = awaiting(observers) if observers else ()
    if ambient is None:
        if config is EMPTY_CONFIG and not observers:
            return PLAIN_SCOPE
        base = EMPTY_CONFIG
        limiters: tuple[Limiter, ...] = ()
        deadline: Deadline | None = None
    else:
        if config is EMPTY_CONFIG and not observers:
            return ambient
        base = ambient.config
        limiters = ambient.limiters
        deadline = ambient.deadline
        observers = (*ambient.observers, *observers)
        listeners = (*ambient.listeners, *listeners)
    if config.max_concurrency is not None:
        limiters = (*limiters, Limiter(config.max_concurrency))
    if config.timeout is not None:
        deadline = earlier(deadline, Deadline(clock.monotonic() + config.timeout, owner, config.timeout))
    run = None if ambient is None else ambient.run
    merged = merge_configs(base, config.for_children())
    root = config if (config.run_name or config.run_id) else None
    return RunScope(merged, observers, run, limiters, deadline, root, listeners)


def _traced(config: RunConfig, observers: tuple[Observer, ...], owner: str) -> tuple[RunConfig, tuple[Observer, ...]]:
    """Turn ``tracing`` and ``callbacks`` entries into their observers; the entries never
    reach the runs (nor a worker or server the runs are shipped to).

    (``progress`` is shown by the batch or stream call that read it.)
    """
    for factory in (
        tracing_observer_factory(config.tracing, f"{owner} with config tracing"),
        callbacks_observer_factory(config.callbacks, f"{owner} with config callbacks"),
    ):
        if factory is not None:
            observer = factory.make_observer(config.for_children())
            if observer is not None:
                observers = (*observers, observer)
    stripped = attrs.evolve(config, tracing=None, progress=False, callbacks=None)
    return (EMPTY_CONFIG if stripped == EMPTY_CONFIG else stripped), observers


@final
class _IdsOnly:
    """Watches nothing: its presence gives the runs of a call ids (and effects nobody reads),
    so a handler bound to a step inside sees that step's parent run, as LangChain's do."""

    __slots__ = ()

    def emit(self, effect: Effect) -> None:
        """Nothing."""


IDS_ONLY: Final = _IdsOnly()

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


def _bound_observers(node: object) -> bool:
    binding = getattr(node, "step_binding", None)
    while binding is not None:
        if binding.observers:
            return True
        binding = getattr(binding.bound, "step_binding", None)
    return False


def _held(value: object, depth: int = 0) -> Iterator[object]:
    # Steps held by a field, in a dict, tuple or list (concrete types only: a walk's cost).
    if callable(getattr(type(value), "step_invoke", None)):
        yield value
    elif depth < 3 and type(value) in (dict, MappingProxyType):
        for item in cast("Mapping[object, object]", value).values():
            yield from _held(item, depth + 1)
    elif depth < 3 and type(value) in (tuple, list):
        for item in cast("Sequence[object]", value):
            yield from _held(item, depth + 1)


def _walk(root: object) -> bool:
    own: set[int] = set()  # the root and what it binds: their observers watch the root run
    at: object = root
    while True:
        own.add(id(at))
        binding = getattr(at, "step_binding", None)
        if binding is None:
            break
        at = binding.bound
    seen: set[int] = set()
    stack = [root, at]
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if id(current) not in own and _bound_observers(current):
            return True
        kind = type(current)
        if attrs.has(kind):
            for field in attrs.fields(kind):
                if field.name != "step_binding":
                    stack.extend(_held(getattr(current, field.name)))
    return False


__all__ = ["IDS_ONLY", "entry_scope", "watched_inside"]
