"""``Scope``: where a step runs, as its author sees it (the public side of the runtime).

A step's hooks (``step_invoke``, ``step_stream``, ...) receive a scope. Through it the
step reads its config and the clock, runs its children as child runs, shows chunks of an
output it computes in one go, adopts runs made elsewhere and emits custom events. The
runtime hands over its own private class (``effects._runtime.scope.RunScope``), which
satisfies this protocol structurally: the protocol is a static description only, so no
call goes through a wrapper.

>>> import attrs
>>> from combinators import Runnable, RunnableLambda
>>> @attrs.frozen
... class Twice(Runnable[int, int]):
...     inner: Runnable[int, int]
...     def step_invoke(self, input: int, scope: Scope, kwargs: object) -> int:
...         return scope.invoke(self.inner, scope.invoke(self.inner, input))
>>> Twice(RunnableLambda(lambda x: x + 1)).invoke(1)
3
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Final, Protocol, TypeVar

from effects.effect_values import NOTHING, Nothing

if TYPE_CHECKING:
    from effects.clock import Clock
    from effects.config import RunConfig
    from effects.step import Step
    from effects.effect_values import Effect, RunInfo

In = TypeVar("In")
Out = TypeVar("Out")

_NO_KWARGS: Final[Mapping[str, object]] = {}  # a default only: a protocol runs no code


class Scope(Protocol):
    """Where a step runs: its config, its clock, its run, and the calls of its children.

    Children run through ``invoke``/``ainvoke``/``stream``/``astream`` become child runs
    (a ``tag`` such as ``seq:step:2`` reaches only that child); a step never emits its own
    start or end. Nothing here is built when nobody observes the run: ``run`` is then
    ``None`` and ``stream_chunk``, ``emit_custom`` and ``adopt`` do nothing.
    """

    @property
    def config(self) -> RunConfig:
        """The effective config of this run (tags, metadata, configurable, ...).

        >>> from combinators import RunnableLambda
        >>> from effects.authoring import current_scope
        >>> RunnableLambda(lambda x: current_scope().config.tags).invoke(0, {"tags": ["t"]})
        ('t',)
        """
        ...

    @property
    def clock(self) -> Clock:
        """The clock in force (``effects.use_clock``), for waits and timestamps.

        >>> from effects import FakeClock, use_clock
        >>> from combinators import RunnableLambda
        >>> from effects.authoring import current_scope
        >>> with use_clock(FakeClock(start=5.0)):
        ...     RunnableLambda(lambda x: current_scope().clock.now()).invoke(0, {"tags": ["t"]})
        5.0
        """
        ...

    @property
    def run(self) -> RunInfo | None:
        """This run (its ``run_id``, ``name``, ``tags``, ``parent_ids``, ...) when someone
        observes it; ``None`` when nobody does (no id is ever made then).

        >>> import attrs
        >>> from combinators import Runnable
        >>> @attrs.frozen
        ... class Named(Runnable[int, str]):
        ...     def step_invoke(self, input: int, scope: Scope, kwargs: object) -> str:
        ...         return "unobserved" if scope.run is None else scope.run.name
        >>> Named().invoke(0), [e.run.name for e in Named().stream_effects(0)][:1]
        ('unobserved', ['Named'])
        """
        ...

    @property
    def plain(self) -> bool:
        """Whether nothing is asked of this run: nobody observes it, nothing limits it and
        its config is the default one. A child with no binding of its own (``step_binding``
        None) then runs as a direct call of its hook: ``scope.stream(child, inputs)`` is
        ``child.step_stream(inputs, scope, {})``, which a step may call itself.

        >>> import attrs
        >>> from combinators import Runnable
        >>> @attrs.frozen
        ... class Plain(Runnable[int, bool]):
        ...     def step_invoke(self, input: int, scope: Scope, kwargs: object) -> bool:
        ...         return scope.plain
        >>> Plain().invoke(0), Plain().invoke(0, {"tags": ["t"]})
        (True, False)
        """
        ...

    # ---------------------------------------------------------------- children

    def invoke(
        self, node: Step[In, Out], input: In, tag: str | None = None, kwargs: Mapping[str, object] = _NO_KWARGS
    ) -> Out:
        """Run ``node`` on ``input`` as a child run of this one; its output."""
        ...

    def ainvoke(
        self, node: Step[In, Out], input: In, tag: str | None = None, kwargs: Mapping[str, object] = _NO_KWARGS
    ) -> Awaitable[Out]:
        """Async ``invoke``."""
        ...

    def stream(
        self,
        node: Step[In, Out],
        inputs: Iterator[In],
        tag: str | None = None,
        kwargs: Mapping[str, object] = _NO_KWARGS,
        *,
        known_input: In | Nothing = NOTHING,
    ) -> Iterator[Out]:
        """Run ``node`` as a stream transform over ``inputs``, as a child run.

        ``known_input`` is the whole input when it is known up front; otherwise the
        child reports its input at its end.
        """
        ...

    def astream(
        self,
        node: Step[In, Out],
        inputs: AsyncIterator[In],
        tag: str | None = None,
        kwargs: Mapping[str, object] = _NO_KWARGS,
        *,
        known_input: In | Nothing = NOTHING,
    ) -> AsyncIterator[Out]:
        """Async ``stream``."""
        ...

    def with_recursion_step(self, returned: object = None) -> Scope:
        """The scope for a runnable that a function returned at run time: one level less
        of ``recursion_limit`` allowed (``RecursionError`` when none is left). Given the
        ``returned`` runnable, a function's run that nothing watches gets an id when a
        step in it is bound to observers (its handlers see their parent run)."""
        ...

    @property
    def runs_inline(self) -> bool:
        """Whether children started here may run one after the other in this step's own
        task with the outcome they would have under a task group: nothing in force makes
        them wait (no listener whose reactions the runtime awaits, no ``max_concurrency``
        permit to take, no deadline to cut them short). An agent runs its plain-function
        tool calls inline then, without a task each.

        >>> import attrs
        >>> from combinators import Runnable
        >>> @attrs.frozen
        ... class Inline(Runnable[int, bool]):
        ...     def step_invoke(self, input: int, scope: Scope, kwargs: object) -> bool:
        ...         return scope.runs_inline
        >>> Inline().invoke(0), Inline().invoke(0, {"max_concurrency": 2}), Inline().invoke(0, {"timeout": 9})
        (True, False, False)
        """
        ...

    # ---------------------------------------------------------------- what observers see

    @property
    def wants_chunks(self) -> bool:
        """Whether someone watches this run as it happens (events, the run log, a
        recording): a step that computes its output in one go may then show it piece by
        piece with ``stream_chunk`` (a chat model streams its tokens)."""
        ...

    def stream_chunk(self, chunk: object) -> None:
        """Show one piece of this run's output as it is produced (nothing when nobody
        watches)."""
        ...

    def emit_custom(self, name: str, data: object) -> None:
        """A custom event from this run (``effects.dispatch_custom_event`` finds the
        running step's scope and calls this)."""
        ...

    def adopt(self, effects: Iterable[Effect], metadata: Mapping[str, object] | None = None) -> None:
        """Emit the effects of runs made by another interpreter (a worker, a server) as
        descendants of this run: a foreign root becomes its child, and ``metadata`` (where
        the runs happened) is added to every foreign run."""
        ...


__all__ = ["Scope"]
