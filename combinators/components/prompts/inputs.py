"""What a prompt takes: its input as variable values, the check of declared variables,
the JSON Schema of its input, and a prompt typed by its variables (``with_variables``).

>>> prompt_values("PromptTemplate", "cats", ["topic"])
{'topic': 'cats'}
>>> variables_schema("PromptTemplate", ["a", "b"], [])["required"]
['a', 'b']
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeAlias, TypeVar

from combinators import Runnable
from combinators.components.prompts.formats import TemplateFormat
from effects.errors import InputError

PromptInput: TypeAlias = "Mapping[str, Any] | str"
"""What a prompt takes: variable values by name, or the bare value of its one variable."""


def prompt_values(owner: str, input: object, input_variables: Sequence[str]) -> Mapping[str, object]:
    """The variable values a prompt input stands for (a bare value fills the one variable).

    >>> prompt_values("PromptTemplate", "cats", ["a", "b"])
    Traceback (most recent call last):
    ...
    effects.errors.InputError: Expected mapping type as input to PromptTemplate. Received <class 'str'>.
    """
    if isinstance(input, Mapping):
        values: Mapping[str, object] = input  # pyright: ignore[reportUnknownVariableType]
        return values
    if len(input_variables) == 1:
        return {input_variables[0]: input}
    raise InputError(f"Expected mapping type as input to {owner}. Received {type(input)}.")


def _shown(names: set[str]) -> str:
    return "{" + ", ".join(repr(n) for n in sorted(names)) + "}"


def check_declared(
    owner: str,
    declared: Sequence[str] | None,
    actual: Sequence[str],
    optional: Sequence[str],
    template_format: TemplateFormat,
) -> None:
    """Check the ``input_variables`` a caller declared against those the template reads.

    A mismatch is a ``ValueError`` naming the missing and the extra ones; for jinja2,
    whose variables cannot all be known statically, a ``UserWarning`` (as the peer warns).
    Optional variables (of optional placeholders) may be declared or not.

    >>> check_declared("PromptTemplate", ["a", "c"], ["a", "b"], [], "f-string")
    Traceback (most recent call last):
    ...
    ValueError: Invalid prompt schema; check for mismatched or missing input parameters from ['a', 'c']. PromptTemplate declares input_variables ['a', 'c'], but its template reads ['a', 'b']: missing {'b'}, extra {'c'}
    """
    if declared is None:
        return
    if isinstance(declared, str):
        raise TypeError(f"{owner}'s input_variables must be a list of names, got the str {declared!r}")
    missing = set(actual) - set(declared)
    extra = set(declared) - set(actual) - set(optional)
    if not missing and not extra:
        return
    if template_format == "jinja2":
        # One warning, in the peer's words.
        said = [
            f"{label} variables: {_shown(names)}" for label, names in (("Missing", missing), ("Extra", extra)) if names
        ]
        warnings.warn(" ".join(said), UserWarning, stacklevel=3)
        return
    problems = [f"{label} {_shown(names)}" for label, names in (("missing", missing), ("extra", extra)) if names]
    raise ValueError(
        f"{peer_words(owner, declared, actual)}{owner} declares input_variables {sorted(declared)}, but its template"
        f" reads {sorted(actual)}: " + ", ".join(problems)
    )


def peer_words(owner: str, declared: Sequence[str], actual: Sequence[str]) -> str:
    """The peer's words for declared variables that do not fit, which our message starts
    with (ported code matches on them).

    >>> peer_words("PromptTemplate", [""], [])
    "Invalid prompt schema; check for mismatched or missing input parameters from ['']. "
    """
    if owner == "ChatPromptTemplate":
        expected = set(actual)
        return f"Got mismatched input_variables. Expected: {_shown(expected) if expected else set()}. Got: {list(declared)}. "
    return f"Invalid prompt schema; check for mismatched or missing input parameters from {list(declared)}. "


def variables_schema(
    title: str, required: Sequence[str], optional: Sequence[str], lists: Sequence[str] = ()
) -> dict[str, Any]:
    """The JSON Schema of a prompt's input: an object of its variables, text except for
    placeholders (``lists`` and the optional ones), which take message lists.

    >>> variables_schema("PromptInput", ["q"], ["history"])["properties"]["history"]
    {'title': 'History', 'type': 'array', 'items': {'type': 'object'}}
    """
    properties: dict[str, Any] = {}
    for name in (*required, *optional):
        title_case = name.replace("_", " ").title()
        if name in lists or name in optional:
            properties[name] = {"title": title_case, "type": "array", "items": {"type": "object"}}
        else:
            properties[name] = {"title": title_case, "type": "string"}
    return {"title": title, "type": "object", "properties": properties, "required": list(required)}


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
    """``prompt`` taking ``variables`` (a ``TypedDict`` of its variables), checked both ways.

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
