"""``RunnableConfigurableAlternatives``: one of several runnables, chosen per call by id.

The node is not a run of its own: the runtime runs the chosen alternative in its
place, so events and logs show that alternative's own run. A key that is none of the
alternatives is a ``ConfigurableError`` listing them.

>>> from combinators import ConfigurableField, RunnableLambda
>>> def shout(text: str) -> str:
...     return text.upper()
>>> def whisper(text: str) -> str:
...     return text.lower()
>>> voice = RunnableLambda(shout).configurable_alternatives(
...     ConfigurableField(id="voice"), default_key="shout", whisper=RunnableLambda(whisper))
>>> voice.invoke("Hi"), voice.invoke("Hi", {"configurable": {"voice": "whisper"}})
('HI', 'hi')
>>> lazy = RunnableLambda(shout).configurable_alternatives(
...     ConfigurableField(id="voice"), whisper=lambda: RunnableLambda(whisper))  # a factory, as the peer's
>>> lazy.invoke("Hi", {"configurable": {"voice": "whisper"}})
'hi'
>>> voice.invoke("Hi", {"configurable": {"voice": "sing"}})
Traceback (most recent call last):
...
combinators.nodes.configurable.ConfigurableError: configurable 'voice' of shout takes one of 'shout', 'whisper', got 'sing'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypeVar, final

import typing

import attrs

from combinators.nodes.binding import StandIn
from combinators.nodes.configurable import ConfigurableError, ConfigurableField, ConfigurableFieldSpec
from combinators.runnable.composing import Runnable
from effects.config import RunConfig
from effects.step import StepBinding
from effects.guards import is_a

if TYPE_CHECKING:
    from combinators.graph import Fragment, GraphBuilder, RunPlace

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)
A = TypeVar("A")
B = TypeVar("B")


def _made(alternative: Runnable[A, B] | Callable[[], Runnable[A, B]], key: str) -> Runnable[A, B]:
    """The alternative itself, or the runnable its factory makes (checked)."""
    if not callable(alternative) or is_a(alternative, Runnable):
        return alternative  # pyright: ignore[reportUnknownVariableType]  # is_a erases its type arguments
    made = alternative()
    if not is_a(made, Runnable):
        raise TypeError(f"the factory of alternative {key!r} must return a runnable, got {type(made).__name__}")
    return made


@final
@attrs.frozen(repr=False)
class RunnableConfigurableAlternatives(StandIn[In, Out]):
    """``default`` (under ``default_key``) or one of ``alternatives``, by ``configurable[which.id]``."""

    which: ConfigurableField
    default: Runnable[In, Out]
    # A runnable, or a factory making it when chosen (the peer's ``Callable[[], Runnable]``).
    alternatives: tuple[tuple[str, Runnable[In, Out] | Callable[[], Runnable[In, Out]]], ...]
    default_key: str = "default"
    step_binding: StepBinding[In, Out] | None = attrs.field(init=False, eq=False, repr=False)

    @staticmethod
    def of(
        default: Runnable[A, B],
        which: ConfigurableField,
        alternatives: Mapping[str, Runnable[A, B] | Callable[[], Runnable[A, B]]],
        default_key: str = "default",
    ) -> RunnableConfigurableAlternatives[A, B]:
        """Declare the alternatives (the keys must differ from ``default_key``)."""
        if default_key in alternatives:
            raise ConfigurableError(
                f"configurable_alternatives: {default_key!r} is the default's key and an alternative's"
            )
        if not alternatives:
            raise ConfigurableError("configurable_alternatives needs at least one alternative")
        for key, alternative in alternatives.items():
            if not (is_a(alternative, Runnable) or callable(alternative)):
                raise TypeError(
                    f"alternative {key!r} must be a runnable or a function making one, got {type(alternative).__name__}"
                )
        return RunnableConfigurableAlternatives(which, default, tuple(alternatives.items()), default_key)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "step_binding", StepBinding(self.default, choose=self.chosen))

    def stands_for(self) -> Runnable[In, Out]:
        """The default, as the peer's (what runs when a call chooses nothing).

        >>> from combinators import ConfigurableField
        >>> from combinators.output_parsers import StrOutputParser
        >>> chosen = StrOutputParser().configurable_alternatives(ConfigurableField(id="p"), other=StrOutputParser())
        >>> chosen.output_schema()
        {'title': 'StrOutputParserOutput', 'type': 'string'}
        """
        return self.default

    @property
    def keys(self) -> tuple[str, ...]:
        """The default's key, then the alternatives' keys."""
        return (self.default_key, *(key for key, _ in self.alternatives))

    def __repr__(self) -> str:
        shown = ", ".join(f"{key}={alternative!r}" for key, alternative in self.alternatives)
        return (
            f"{self.default.receiver_repr()}.configurable_alternatives({self.which!r},"
            f" default_key={self.default_key!r}, {shown})"
        )

    def own_config_specs(self) -> tuple[ConfigurableFieldSpec, ...]:
        """One spec: the id, its keys as a ``Literal``, the default key."""
        # A Literal of the keys, built at run time: no type expression, so read off the module.
        keys: object = getattr(typing, "Literal")[self.keys]
        return (
            ConfigurableFieldSpec(
                id=self.which.id,
                annotation=keys,
                name=self.which.name,
                description=self.which.description,
                default=self.default_key,
                is_shared=self.which.is_shared,
            ),
        )

    def chosen(self, config: RunConfig) -> Runnable[In, Out]:
        """The alternative this call runs."""
        from combinators._support.config_specs import check_value

        key = config.configurable.get(self.which.id, self.default_key)
        if key == self.default_key:
            return self.default
        for name, alternative in self.alternatives:
            if name == key:
                return _made(alternative, name)
        check_value(self.name, self.own_config_specs()[0], key)
        raise AssertionError("unreachable: a key that is no alternative fails the check")

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """A fork with one conditional edge per key; each alternative in this node's place."""
        options = [(self.default_key, self.default), *((k, _made(a, k)) for k, a in self.alternatives)]
        arms = [
            (
                f"{self.which.id}={key}" + (" (default)" if key == self.default_key else ""),
                graph.at(alternative, place.replaced_by(alternative)),
            )
            for key, alternative in options
        ]
        return graph.fork(self, None, arms, conditional=True)
