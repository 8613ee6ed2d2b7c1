"""Where a public call starts: the entry scope of its root run (or, inside a running
step, of a child of that step's run).

>>> from effects.config import EMPTY_CONFIG
>>> entry_scope(EMPTY_CONFIG) is PLAIN_SCOPE
True
"""

from __future__ import annotations

from typing import Final, final

import attrs

from effects.clock import current_clock
from effects.config import EMPTY_CONFIG, RunConfig, merge_configs
from effects.hooks import callbacks_observer_factory, tracing_observer_factory
from effects.step import OBSERVERS_BOUND
from effects.effect_values import Effect
from effects._runtime.context import CURRENT_SCOPE
from effects._runtime.bindings import Deadline, earlier, watched_inside
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

__all__ = ["IDS_ONLY", "entry_scope"]
