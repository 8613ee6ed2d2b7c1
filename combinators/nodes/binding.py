"""``RunnableBinding``: a runnable with config, keyword arguments, types or listeners bound.

A binding is not a run of its own: the runtime unwraps it and runs ``bound`` with
the bound config merged under the caller's (tags are a union, the caller's
metadata wins, ``run_name`` names ``bound``'s run).

>>> from combinators import RunnableLambda
>>> r = RunnableLambda(abs).with_config(tags=["t"])
>>> r
RunnableLambda(abs).with_config(RunConfig(tags=('t',)))
>>> r.invoke(-1), r.name
(1, 'abs')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, final

import attrs

from combinators._support.reprs import callable_repr, keyword_reprs
from combinators.runnable.composing import Runnable
from effects.config import EMPTY_CONFIG, RunConfig
from effects.hooks import callbacks_observer_factory, tracing_observer_factory
from effects.step import ObserverFactory, StepBinding

if TYPE_CHECKING:
    from combinators.runnable.draws import InputDraw

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)
A = TypeVar("A")
B = TypeVar("B")

ListenerFn = Callable[..., object]
"""A listener: called with the ``Run`` (and, if it takes two arguments, the config)."""


class StandIn(Runnable[In, Out]):
    """A node that is not a run of its own: another runnable runs in its place.

    Its name, run type, declared types and schemas are those of ``stands_for()`` (a
    binding's ``bound``, configured fields' ``bound``, alternatives' ``default``).

    >>> from combinators import ConfigurableField, RunnableLambda
    >>> from combinators.prompts import PromptTemplate
    >>> alternatives = PromptTemplate("{topic}").configurable_alternatives(
    ...     ConfigurableField(id="p"), other=PromptTemplate("{x}"))
    >>> isinstance(alternatives, StandIn), alternatives.name, alternatives.input_schema()["required"]
    (True, 'PromptTemplate', ['topic'])
    """

    __slots__ = ()

    def stands_for(self) -> Runnable[In, Out]:
        """The runnable whose name, run type, types and schemas this node shows."""
        raise NotImplementedError

    @property
    def name(self) -> str:
        return self.stands_for().name

    @property
    def run_type(self) -> str:  # type: ignore[override]
        return self.stands_for().run_type

    def declared_type(self, which: Literal["input", "output"]) -> object:
        return self.stands_for().declared_type(which)

    def input_schema(self) -> dict[str, Any]:
        return self.stands_for().input_schema()

    def output_schema(self) -> dict[str, Any]:
        return self.stands_for().output_schema()

    def input_draw(self) -> InputDraw:
        """What ``stands_for()`` draws: alternatives over a prompt draw its variables.

        >>> from combinators import ConfigurableField
        >>> from combinators.prompts import PromptTemplate
        >>> prompt = PromptTemplate("{topic}")
        >>> prompt.configurable_alternatives(ConfigurableField(id="p"), other=prompt).input_draw()
        DrawThrough(steps=(PromptTemplate(...),))
        """
        from combinators.runnable.draws import DrawThrough  # loaded when asked

        return DrawThrough((self.stands_for(),))


@final
@attrs.frozen(repr=False, hash=False)
class RunnableBinding(StandIn[In, Out]):
    """``bound`` with a config, keyword arguments, observers or declared types."""

    bound: Runnable[In, Out]
    config: RunConfig = EMPTY_CONFIG
    kwargs: Mapping[str, object] = attrs.field(factory=dict[str, object])
    observers: tuple[ObserverFactory, ...] = ()
    input_type: type[object] | None = None
    output_type: type[object] | None = None

    def stands_for(self) -> Runnable[In, Out]:
        return self.bound

    def declared_type(self, which: Literal["input", "output"]) -> object:
        """What ``with_types`` declared, else what the bound runnable declares."""
        declared = self.input_type if which == "input" else self.output_type
        return declared if declared is not None else self.bound.declared_type(which)

    def input_draw(self) -> InputDraw:
        """What ``with_types`` declared, else what the bound runnable draws."""
        from combinators.runnable.draws import DrawValues  # loaded when asked

        return super().input_draw() if self.input_type is None else DrawValues(self.input_type)

    def input_schema(self) -> dict[str, Any]:
        """The bound runnable's input schema, unless ``with_types`` declared the input.

        >>> from combinators.prompts import PromptTemplate
        >>> PromptTemplate("{topic}").with_config(tags=["x"]).input_schema()["required"]
        ['topic']
        """
        # Past StandIn's: the schema Runnable derives from the declared types.
        return super(StandIn, self).input_schema() if self.input_type is not None else self.bound.input_schema()

    def output_schema(self) -> dict[str, Any]:
        """The bound runnable's output schema, unless ``with_types`` declared the output.

        >>> from combinators.output_parsers import StrOutputParser
        >>> StrOutputParser().with_config(tags=["x"]).output_schema()
        {'title': 'StrOutputParserOutput', 'type': 'string'}
        """
        return super(StandIn, self).output_schema() if self.output_type is not None else self.bound.output_schema()

    @staticmethod
    def over(
        bound: Runnable[A, B],
        *,
        config: RunConfig = EMPTY_CONFIG,
        kwargs: Mapping[str, object] | None = None,
        observers: tuple[ObserverFactory, ...] = (),
        input_type: type[object] | None = None,
        output_type: type[object] | None = None,
    ) -> RunnableBinding[A, B]:
        """Bind onto ``bound``; binding kwargs onto a kwargs-only binding merges them.

        A ``tracing`` config entry becomes the tracing observer (see ``with_tracing``), a
        ``callbacks`` entry the projection onto LangChain's callback handlers.
        """
        if config.tracing is not None:
            factory = tracing_observer_factory(config.tracing, "with_config(tracing=...)")
            observers = observers if factory is None else (*observers, factory)
            config = attrs.evolve(config, tracing=None)
            config = EMPTY_CONFIG if config == EMPTY_CONFIG else config
        if config.callbacks is not None:
            factory = callbacks_observer_factory(config.callbacks, "with_config(callbacks=...)")
            observers = observers if factory is None else (*observers, factory)
            config = attrs.evolve(config, callbacks=None)
            config = EMPTY_CONFIG if config == EMPTY_CONFIG else config
        if kwargs and isinstance(bound, RunnableBinding) and bound.config is EMPTY_CONFIG and not bound.observers:
            inner: RunnableBinding[A, B] = bound
            return attrs.evolve(inner, kwargs={**inner.kwargs, **kwargs})
        return RunnableBinding(bound, config, dict(kwargs or {}), observers, input_type, output_type)

    step_binding: StepBinding[In, Out] | None = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        binding = StepBinding(self.bound, self.config, self.kwargs, self.observers)
        object.__setattr__(self, "step_binding", binding)

    def __hash__(self) -> int:
        # kwargs may hold unhashable values; hashing their names keeps hash consistent with eq
        return hash((self.bound, self.config, tuple(self.kwargs), self.observers))

    def __repr__(self) -> str:
        parts: list[str] = []
        if self.config is not EMPTY_CONFIG:
            parts.append(f".with_config({self.config!r})")
        if self.kwargs:
            shown = ", ".join(f"{k}={v!r}" for k, v in self.kwargs.items())
            parts.append(f".with_kwargs({shown})")
        parts.extend(_fluent_repr(factory) for factory in self.observers)
        types = keyword_reprs(input_type=(self.input_type, None), output_type=(self.output_type, None))
        if types:
            parts.append(f".with_types({', '.join(types)})")
        return f"{self.bound.receiver_repr()}{''.join(parts)}"


def listeners(on_start: ListenerFn | None, on_end: ListenerFn | None, on_error: ListenerFn | None) -> ObserverFactory:
    """The observer factory behind ``with_listeners``."""
    from effects.projections.listeners import ListenerSpec

    return ListenerSpec(on_start, on_end, on_error)


def _fluent_repr(factory: ObserverFactory) -> str:
    """How an observer shows in a binding's repr: the call that added it."""
    from effects.projections.listeners import ListenerSpec

    if isinstance(factory, ListenerSpec):
        callbacks = {"on_start": factory.on_start, "on_end": factory.on_end, "on_error": factory.on_error}
        shown = ", ".join(f"{k}={callable_repr(f)}" for k, f in callbacks.items() if f is not None)
        return f".with_listeners({shown})"
    fluent: object = getattr(factory, "fluent_repr", None)
    return str(fluent()) if callable(fluent) else ".with_listeners(...)"
