"""The small protocol the runtime runs: anything with these members is a step.

``effects`` never imports ``combinators``; ``combinators.Runnable`` implements this.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Coroutine, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol, final, runtime_checkable

import attrs

from effects.config import RunConfig

if TYPE_CHECKING:
    from effects._runtime.scope import Observer, Scope


class Step(Protocol):
    """What the runtime needs of a node (every ``combinators.Runnable`` is one).

    >>> from combinators import RunnableLambda
    >>> step: Step = RunnableLambda(abs)
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
    def step_binding(self) -> StepBinding | None: ...

    def step_invoke(self, input: Any, scope: Scope, kwargs: Mapping[str, Any]) -> Any: ...

    def step_ainvoke(
        self, input: Any, scope: Scope, kwargs: Mapping[str, Any]
    ) -> Coroutine[Any, Any, Any]: ...

    def step_stream(
        self, inputs: Iterator[Any], scope: Scope, kwargs: Mapping[str, Any]
    ) -> Iterator[Any]: ...

    def step_astream(
        self, inputs: AsyncIterator[Any], scope: Scope, kwargs: Mapping[str, Any]
    ) -> AsyncIterator[Any]: ...

    def describe_input(self, input: Any) -> object: ...

    def describe_output(self, output: Any) -> object: ...

    def check_config(self, config: RunConfig) -> None:
        """Refuse a root call's config this step cannot run with (unknown configurable ids)."""
        ...

    def tool_call_id(self, input: Any) -> str | None: ...

    def describe_params(self, kwargs: Mapping[str, Any]) -> Mapping[str, object]: ...


@runtime_checkable
class ObserverFactory(Protocol):
    """Makes a fresh observer for one run of a binding (for example listeners).

    ``None`` means there is nothing to observe this time (a tracer that records
    nothing): the run then costs what an unobserved run costs.
    """

    def make_observer(self, config: RunConfig | None = None) -> Observer | None: ...


@final
@attrs.frozen(hash=False)
class StepBinding:
    """A node that is not a run of its own: it adjusts how ``bound`` runs.

    ``config`` merges over the caller's config for ``bound``'s run; ``kwargs`` are
    passed to ``bound`` (the caller's keyword arguments win); ``observers`` watch
    ``bound``'s run and its subtree. With ``choose``, the step that runs is
    ``choose(config)`` instead of ``bound`` (a configurable step picks it by the
    call's ``configurable``).

    >>> StepBinding(bound=None, config=RunConfig(tags=("x",))).kwargs
    {}
    """

    bound: Any
    config: RunConfig = RunConfig()
    kwargs: Mapping[str, Any] = attrs.field(factory=dict[str, Any])
    observers: tuple[ObserverFactory, ...] = ()
    choose: Callable[[RunConfig], Any] | None = None

    def __hash__(self) -> int:
        return hash((self.bound, self.config, tuple(self.kwargs), self.observers))
