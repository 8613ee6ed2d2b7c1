"""Listener support: ``Run`` trees built by a fold over effects, and the calls they are due.

``RunTree`` folds effects into ``Run`` values and returns ``ListenerCall`` values: an
``on_start`` call when an observed root run starts (no children, no end yet), and an
``on_end`` or ``on_error`` call when it finishes, with its whole finished subtree.
It never calls anything itself, so the runtime decides how: ``ListenerSpec.dispatch`` calls
the matching callback and returns what it returned; an awaitable result (an async
listener) is for the runtime to await before it goes on::

    tree, spec = RunTree(root_id), ListenerSpec(on_start=f, on_end=g)
    for call in tree.feed(effect):
        result = spec.dispatch(call, config)
        if inspect.isawaitable(result):
            await result

``ListenerSpec.make_observer()`` packages this as an observer (``emit(effect)``) for
one run of a ``with_listeners`` binding.

``inputs``/``outputs`` are shaped as the peer's tracer shapes them (``shapes``): a dict
input is kept, anything else is ``{"input": x}`` (``{"input": ""}`` while a streaming
run's input is unknown); outputs are ``{"output": x}`` unless a dict, ``{"documents":
x}`` for retrievers, the LLMResult dict for models. Unlike the peer, ``outputs`` is
``None`` until a run ends and for a failed run, and ``error`` is the exception itself,
not its traceback text.

>>> from uuid import UUID
>>> from effects.effect_values import RunInfo, RunStarted, RunEnded
>>> root = RunInfo(UUID(int=1), (), "seq", "chain", (), {})
>>> tree = RunTree()
>>> [call.kind for call in tree.feed(RunStarted(root, "q", 0.0))]
['on_start']
>>> [(c.kind, c.run.outputs) for c in tree.feed(RunEnded(root, "q", "Q", 1.0))]
[('on_end', {'output': 'Q'})]
"""

from __future__ import annotations

import datetime as dt
import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Literal, TypeAlias, cast, final
from uuid import UUID

import attrs

from effects.config import EMPTY_CONFIG, RunConfig
from effects.projections.filters import expect_effect
from effects.projections.shapes import traced_inputs, traced_outputs
from effects.effect_values import NOTHING, Effect, RunEnded, RunFailed, RunInfo, RunStarted, RunStreamed
from effects.guards import is_a


@final
@attrs.frozen
class Run:
    """One run as listeners see it, with the runs it started (in start order).

    >>> from datetime import datetime, timezone
    >>> Run(UUID(int=1), "seq", "chain", {"input": 1}, None, None,
    ...     datetime(2025, 1, 1, tzinfo=timezone.utc), None, (), {}).end_time is None
    True
    """

    id: UUID
    name: str
    run_type: str
    inputs: Mapping[str, object]
    outputs: Mapping[str, object] | None
    error: BaseException | None
    start_time: dt.datetime
    end_time: dt.datetime | None
    tags: tuple[str, ...]
    metadata: Mapping[str, object]
    child_runs: tuple[Run, ...] = ()
    parent_run_id: UUID | None = None


ListenerKind: TypeAlias = Literal["on_start", "on_end", "on_error"]


@final
@attrs.frozen
class ListenerCall:
    """A listener call that is due: which callback, with which run.

    >>> from datetime import datetime, timezone
    >>> run = Run(UUID(int=1), "r", "chain", {}, None, None, datetime.now(timezone.utc), None, (), {})
    >>> ListenerCall("on_start", run).kind
    'on_start'
    """

    kind: ListenerKind
    run: Run


def _moment(at: float) -> dt.datetime:
    try:
        return dt.datetime.fromtimestamp(at, tz=dt.UTC)
    except (OverflowError, OSError, ValueError) as error:
        raise ValueError(f"effect time must be seconds since the epoch, got {at!r}") from error


@final
class _Node:
    __slots__ = ("info", "inputs", "outputs", "error", "start", "end", "children", "streamed")

    def __init__(self, info: RunInfo, input: object, at: float) -> None:
        self.info = info
        self.inputs = traced_inputs(input)
        self.outputs: Mapping[str, object] | None = None
        self.error: BaseException | None = None
        self.start = _moment(at)
        self.end: dt.datetime | None = None
        self.children: list[_Node] = []
        self.streamed = False

    def freeze(self) -> Run:
        info = self.info
        return Run(
            id=info.run_id,
            name=info.name,
            run_type=info.run_type,
            inputs=self.inputs,
            outputs=self.outputs,
            error=self.error,
            start_time=self.start,
            end_time=self.end,
            tags=info.tags,
            metadata=info.metadata,
            child_runs=tuple(child.freeze() for child in self.children),
            parent_run_id=info.parent_id,
        )

    def forget(self, nodes: dict[UUID, _Node]) -> None:
        nodes.pop(self.info.run_id, None)
        for child in self.children:
            child.forget(nodes)


@final
class RunTree:
    """Folds effects into ``Run`` trees; ``feed`` returns the listener calls now due.

    With ``root_id``, only that run and the runs under it are observed; without, every
    run whose parent is not observed is a root of its own.

    >>> from uuid import UUID
    >>> from effects.effect_values import RunInfo, RunStarted
    >>> other = RunInfo(UUID(int=9), (), "other", "chain", (), {})
    >>> RunTree(UUID(int=1)).feed(RunStarted(other, "q", 0.0))
    []
    """

    __slots__ = ("_root_id", "_nodes")

    def __init__(self, root_id: UUID | None = None) -> None:
        if root_id is not None and not is_a(root_id, UUID):
            raise TypeError(f"RunTree root_id must be a UUID or None, got {type(root_id).__name__}")
        self._root_id = root_id
        self._nodes: dict[UUID, _Node] = {}

    def feed(self, effect: Effect) -> list[ListenerCall]:
        """The listener calls this effect makes due (root start, end or error only).

        >>> RunTree().feed(1.5)
        Traceback (most recent call last):
        ...
        TypeError: RunTree.feed expects an effect value (RunStarted, RunStreamed, RunEnded, RunFailed or CustomEmitted), got float
        """
        expect_effect("RunTree.feed", effect)
        if isinstance(effect, RunStarted):
            return self._started(effect)
        if isinstance(effect, RunStreamed):
            node = self._nodes.get(effect.run.run_id)
            if node is not None:
                node.streamed = True
            return []
        if isinstance(effect, RunEnded | RunFailed):
            return self._finished(effect)
        return []  # custom events are not part of a run tree

    def _started(self, effect: RunStarted) -> list[ListenerCall]:
        run = effect.run
        if run.run_id in self._nodes:
            return []
        parent = self._nodes.get(run.parent_id) if run.parent_id is not None else None
        if parent is not None:
            node = _Node(run, effect.input, effect.at)
            parent.children.append(node)
            self._nodes[run.run_id] = node
            return []
        if self._root_id is not None and run.run_id != self._root_id:
            return []
        node = _Node(run, effect.input, effect.at)
        self._nodes[run.run_id] = node
        return [ListenerCall("on_start", node.freeze())]

    def _finished(self, effect: RunEnded | RunFailed) -> list[ListenerCall]:
        node = self._nodes.get(effect.run.run_id)
        if node is None or node.end is not None:
            return []
        node.end = _moment(effect.at)
        if effect.input is not NOTHING:
            node.inputs = traced_inputs(effect.input)
        kind: ListenerKind
        if isinstance(effect, RunEnded):
            node.outputs = traced_outputs(node.info.run_type, effect.output, streamed=node.streamed)
            kind = "on_end"
        else:
            node.error = effect.error
            kind = "on_error"
        parent_id = node.info.parent_id
        if parent_id is not None and parent_id in self._nodes:
            return []  # a sub-run: it shows up in its root's tree
        node.forget(self._nodes)
        return [ListenerCall(kind, node.freeze())]


Listener: TypeAlias = Callable[[Run], object] | Callable[[Run, RunConfig], object]
"""A listener: called with the ``Run``, plus the config when it takes one (see ``dispatch``)."""

_log = logging.getLogger(__name__)


def _config_style(listener: Listener | None) -> Literal["none", "keyword", "positional"]:
    """How a listener takes the config: by a ``config`` parameter, as a 2nd argument, or not."""
    if listener is None:
        return "none"
    try:
        parameters = inspect.signature(listener).parameters
    except (TypeError, ValueError):  # builtins without a signature take no config
        return "none"
    if "config" in parameters:
        return "keyword"
    required = [
        p
        for p in parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]
    return "positional" if len(required) == 2 else "none"


def _check_listener(_instance: object, attribute: attrs.Attribute[Listener | None], value: Listener | None) -> None:
    if value is not None and not callable(value):
        raise TypeError(f"with_listeners {attribute.name} must be callable or None, got {type(value).__name__}")


@final
@attrs.frozen
class ListenerSpec:
    """The ``on_start``/``on_end``/``on_error`` callbacks of ``with_listeners``.

    A value (equal by its callbacks, picklable when they are); ``make_observer`` makes
    the observer that watches one run of the binding.

    >>> seen = []
    >>> spec = ListenerSpec(on_end=lambda run: seen.append(run.name))
    >>> from datetime import datetime, timezone
    >>> run = Run(UUID(int=1), "r", "chain", {}, None, None, datetime.now(timezone.utc), None, (), {})
    >>> spec.dispatch(ListenerCall("on_end", run)), seen
    (None, ['r'])
    """

    on_start: Listener | None = attrs.field(default=None, validator=_check_listener)
    on_end: Listener | None = attrs.field(default=None, validator=_check_listener)
    on_error: Listener | None = attrs.field(default=None, validator=_check_listener)

    def dispatch(self, call: ListenerCall, config: RunConfig = EMPTY_CONFIG) -> object:
        """Call the callback for ``call`` (if any) and return its result.

        A callback with a ``config`` parameter is called as ``f(run, config=config)`` (as
        the peer does), one with exactly two required positional parameters as
        ``f(run, config)``, any other as ``f(run)``. An async callback's awaitable is
        returned for the caller to await.

        >>> from datetime import datetime, timezone
        >>> run = Run(UUID(int=1), "r", "chain", {}, None, None, datetime.now(timezone.utc), None, (), {})
        >>> spec = ListenerSpec(on_start=lambda run, config: config)
        >>> spec.dispatch(ListenerCall("on_start", run), RunConfig(tags=("t",)))
        RunConfig(tags=('t',))
        """
        listener = self.on_start if call.kind == "on_start" else self.on_end if call.kind == "on_end" else self.on_error
        if listener is None:
            return None
        style = _config_style(listener)
        # The style was read off the signature, which the static union cannot express.
        call_it = cast(Callable[..., object], listener)
        if style == "keyword":
            return call_it(call.run, config=config)
        if style == "positional":
            return call_it(call.run, config)
        return call_it(call.run)

    def make_observer(self, config: RunConfig | None = None) -> ListenerObserver:
        """A fresh observer for one run of the binding (its first started run is the root).

        >>> ListenerSpec().make_observer().take_pending()
        []
        """
        return ListenerObserver(self, EMPTY_CONFIG if config is None else config)


@final
class ListenerObserver:
    """Watches one run and its subtree, and calls the listeners as effects arrive.

    Sync listeners run inside ``emit``. An async listener's awaitable is kept in
    ``take_pending()`` for the runtime to await (the peer awaits ``on_start`` before the
    run goes on). A listener that raises is logged and ignored, as the peer does.

    >>> from effects.effect_values import RunInfo, RunStarted
    >>> names = []
    >>> observer = ListenerSpec(on_start=lambda run: names.append(run.name)).make_observer()
    >>> observer.emit(RunStarted(RunInfo(UUID(int=1), (), "seq", "chain", (), {}), 1, 0.0))
    >>> names
    ['seq']
    """

    __slots__ = ("_spec", "_config", "_tree", "_pending")

    def __init__(self, spec: ListenerSpec, config: RunConfig = EMPTY_CONFIG) -> None:
        self._spec = spec
        self._config = config
        self._tree = RunTree()
        self._pending: list[Awaitable[object]] = []

    def emit(self, effect: Effect) -> None:
        """Take one effect; call the listeners it makes due.

        >>> from effects.effect_values import CustomEmitted, RunInfo
        >>> run = RunInfo(UUID(int=1), (), "seq", "chain", (), {})
        >>> ListenerSpec().make_observer().emit(CustomEmitted(run, "progress", 1, 0.0))
        """
        for call in self._tree.feed(effect):
            try:
                result = self._spec.dispatch(call, self._config)
            except Exception:
                _log.warning("Error in %s listener for run %s", call.kind, call.run.name, exc_info=True)
                continue
            if inspect.isawaitable(result):
                self._pending.append(result)

    def take_pending(self) -> list[Awaitable[object]]:
        """The async listeners' awaitables since the last call, for the runtime to await.

        >>> import asyncio
        >>> from effects.effect_values import RunInfo, RunStarted
        >>> async def on_start(run: Run) -> str:
        ...     return run.name
        >>> observer = ListenerSpec(on_start=on_start).make_observer()
        >>> observer.emit(RunStarted(RunInfo(UUID(int=1), (), "seq", "chain", (), {}), 1, 0.0))
        >>> async def settle(pending: list[Awaitable[object]]) -> list[object]:
        ...     return [await item for item in pending]
        >>> asyncio.run(settle(observer.take_pending()))
        ['seq']
        >>> observer.take_pending()
        []
        """
        pending, self._pending = self._pending, []
        return pending
