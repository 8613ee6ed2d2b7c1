"""A prompt typed by its variables: a ``TypedDict`` declares them, and both sides are checked.

The type checkers check the dicts given to the prompt against the ``TypedDict`` (a
misspelled or missing key is a type error); building checks the ``TypedDict`` against
the template (a variable it does not declare, or a key the template does not use, is an
``InputError`` here, not a ``KeyError`` at run time).

>>> from typing import TypedDict
>>> from combinators.prompts import PromptTemplate
>>> class Topic(TypedDict):
...     topic: str
>>> typed = with_variables(PromptTemplate.from_template("Tell me about {topic}"), Topic)
>>> typed.invoke({"topic": "fog"}).to_string()
'Tell me about fog'
>>> class Misspelled(TypedDict):
...     topik: str
>>> with_variables(PromptTemplate.from_template("Tell me about {topic}"), Misspelled)
Traceback (most recent call last):
...
effects.errors.InputError: PromptTemplate takes the variables 'topic' but Misspelled declares 'topik'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

from combinators import Runnable
from effects.errors import InputError

Variables = TypeVar("Variables", bound=Mapping[str, Any])
Value = TypeVar("Value", covariant=True)


class Prompt(Protocol[Value]):
    """What a typed prompt is made of: a prompt template (string or chat)."""

    @property
    def name(self) -> str: ...

    @property
    def input_variables(self) -> tuple[str, ...]: ...

    def with_types(
        self, *, input_type: type[object] | None = None, output_type: type[object] | None = None
    ) -> Runnable[Mapping[str, Any] | str, Value]: ...


def with_variables(prompt: Prompt[Value], variables: type[Variables]) -> Runnable[Variables, Value]:
    """``prompt`` taking ``variables`` (a ``TypedDict`` of its variables), checked both ways."""
    declared = set(getattr(variables, "__annotations__", {}))
    required = set(prompt.input_variables)
    optional: tuple[str, ...] = getattr(prompt, "optional_variables", ())
    known = required | set(optional)
    if not required <= declared or not declared <= known:
        raise InputError(
            f"{prompt.name} takes the variables {', '.join(repr(v) for v in sorted(known))}"
            f" but {getattr(variables, '__name__', variables)} declares"
            f" {', '.join(repr(v) for v in sorted(declared)) or 'none'}"
        )
    # A prompt takes any mapping, so it takes the narrower ``variables`` too.
    return prompt.with_types(input_type=variables)


__all__ = ["Prompt", "with_variables"]
