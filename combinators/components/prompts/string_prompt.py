"""``PromptTemplate``: a text template filled with the input's values, a runnable of run
type ``prompt`` giving a ``StringPromptValue``.

>>> prompt = PromptTemplate.from_template("Tell me a joke about {topic}")
>>> prompt.invoke({"topic": "cats"})
StringPromptValue(text='Tell me a joke about cats')
>>> (prompt + ", in {n} words").format(topic="dogs", n=5)
'Tell me a joke about dogs, in 5 words'
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack, final

import attrs

from combinators.components.run_fields import NamedRunFields, RunFieldsKwargs, set_run_fields
from combinators import Runnable
from combinators.authoring import init_fields
from combinators.components.prompts.chat_parts import shown_fields
from combinators.components.prompts.formats import to_partials
from combinators.components.prompts.formats import PartialValue, Template, TemplateFormat
from combinators.components.prompts.inputs import (
    PromptInput,
    peer_words,
    check_declared,
    prompt_values,
    variables_schema,
)
from combinators.components.prompts.inputs import Variables, with_variables
from combinators.components.prompts.prompt_values import StringPromptValue
from combinators.components.prompts.traced import string_prompt_params
from effects.authoring import Scope, is_a
from effects.deprecation import note_deprecation

if TYPE_CHECKING:
    from combinators.authoring import InputDraw


@final
@attrs.frozen(init=False, repr=False)
class PromptTemplate(NamedRunFields, Runnable[PromptInput, StringPromptValue]):
    """A text prompt: a template filled with the input's values.

    Built from the template (``PromptTemplate.from_template(t)``, or the peer's keywords
    ``PromptTemplate(template=t, input_variables=[...], partial_variables={...},
    template_format=...)``). As in the peer, ``input_variables`` are those the template
    reads, less the partial ones, sorted: declared ones are checked against them only with
    ``validate_template=True`` (a mismatch is a ``ValueError`` naming them; for jinja2 a
    warning, as the peer gives). They compare equal to the peer's lists. A missing variable raises the peer's ``KeyError``;
    a template with several variables given a bare value raises ``InputError`` (a
    ``TypeError``).

    >>> PromptTemplate(template="{b} and {a}", input_variables=["a"]).input_variables == ["a", "b"]
    True
    >>> PromptTemplate(template="{a}", input_variables=["a", "b"], validate_template=True)
    Traceback (most recent call last):
    ...
    ValueError: Invalid prompt schema; check for mismatched or missing input parameters from ['a', 'b']. PromptTemplate declares input_variables ['a', 'b'], but its template reads ['a']: extra {'b'}
    """

    run_type = "prompt"

    template: str
    template_format: TemplateFormat = "f-string"
    partial_variables: Mapping[str, PartialValue] = attrs.field(factory=dict[str, PartialValue], hash=False)
    _parsed: Template = attrs.field(init=False, repr=False, eq=False, hash=False)

    def __init__(
        self,
        template: str,
        *,
        template_format: TemplateFormat = "f-string",
        partial_variables: Mapping[str, PartialValue] | None = None,
        input_variables: Sequence[str] | None = None,
        validate_template: bool = False,
        **run_fields: Unpack[RunFieldsKwargs],
    ) -> None:
        partials = to_partials(partial_variables)
        init_fields(self, template, template_format, partials)
        # Parsing is part of building: a bad template fails here, not when it runs.
        try:
            parsed = Template(template, template_format, partials)
        except ValueError as error:
            if not validate_template or input_variables is None:
                raise
            # Validated against declared variables, the peer says this first (ported code matches it).
            raise ValueError(f"{peer_words(self.name, input_variables, ())}{error}") from error
        object.__setattr__(self, "_parsed", parsed)
        if validate_template:
            check_declared(self.name, input_variables, self.input_variables, (), template_format)
        set_run_fields(self, **run_fields)

    def describe_params(self, kwargs: Mapping[str, object]) -> Mapping[str, object]:
        """Traces show the template, its format and its variables (``prompts.traced``).

        >>> PromptTemplate.from_template("Say {x}").describe_params({})["template"]
        'Say {x}'
        """
        return self._traced

    @functools.cached_property
    def _traced(self) -> Mapping[str, object]:
        return string_prompt_params(self)

    @classmethod
    def from_template(
        cls,
        template: str,
        *,
        template_format: TemplateFormat = "f-string",
        partial_variables: Mapping[str, PartialValue] | None = None,
        **run_fields: Unpack[RunFieldsKwargs],
    ) -> PromptTemplate:
        """Parse ``template`` (f-string by default); a bad template raises ``ValueError``.
        ``name``, ``tags``, ``metadata``, ``verbose`` and ``callbacks`` go to the prompt.

        >>> PromptTemplate.from_template("{{x}}!", template_format="mustache").format(x=1)
        '1!'
        """
        return cls(template, template_format=template_format, partial_variables=partial_variables, **run_fields)

    @classmethod
    def from_file(
        cls,
        template_file: str | PathLike[str],
        input_variables: Sequence[str] | None = None,
        *,
        encoding: str | None = None,
        template_format: TemplateFormat = "f-string",
        partial_variables: Mapping[str, PartialValue] | None = None,
    ) -> PromptTemplate:
        """A prompt from a file's text (UTF-8 unless ``encoding`` says otherwise).

        >>> import tempfile, os
        >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        ...     _ = f.write("Hello {name}")
        >>> PromptTemplate.from_file(f.name).format(name="Ann")
        'Hello Ann'
        >>> os.unlink(f.name)
        """
        text = Path(template_file).read_text(encoding=encoding or "utf-8")
        return cls(
            text,
            template_format=template_format,
            partial_variables=partial_variables,
            input_variables=input_variables,
        )

    @classmethod
    def from_examples(
        cls,
        examples: Sequence[str],
        suffix: str,
        input_variables: Sequence[str],
        example_separator: str = "\n\n",
        prefix: str = "",
        *,
        template_format: TemplateFormat = "f-string",
        partial_variables: Mapping[str, PartialValue] | None = None,
    ) -> PromptTemplate:
        """A few-shot prompt: ``prefix``, the examples and ``suffix``, joined by the separator.

        >>> PromptTemplate.from_examples(["2+2=4", "3+3=6"], "{q}=", ["q"], prefix="Add:").format(q="4+4")
        'Add:\\n\\n2+2=4\\n\\n3+3=6\\n\\n4+4='
        """
        template = example_separator.join([prefix, *examples, suffix])
        return cls(
            template,
            template_format=template_format,
            partial_variables=partial_variables,
            input_variables=input_variables,
        )

    @property
    def input_variables(self) -> tuple[str, ...]:
        """The variables a caller supplies, sorted.

        >>> PromptTemplate("{greeting} {name}", partial_variables={"greeting": "Hi"}).input_variables
        ('name',)
        """
        return self._parsed.input_variables

    def asdict(self) -> builtins.dict[str, Any]:
        """The prompt as the peer's dict of its fields, ``_type`` ``"prompt"`` (plain data:
        lists and dicts, a copy).

        >>> d = PromptTemplate.from_template("Hi {name}").asdict()
        >>> d["_type"], d["input_variables"], d["template"], d["template_format"]
        ('prompt', ['name'], 'Hi {name}', 'f-string')
        """
        return {
            "name": None,
            "input_variables": list(self.input_variables),
            "optional_variables": [],
            "output_parser": None,
            "partial_variables": dict(self.partial_variables),
            "metadata": None,
            "tags": None,
            "template": self.template,
            "template_format": self.template_format,
            "validate_template": False,
            "_type": "prompt",
        }

    def dict(self) -> builtins.dict[str, Any]:
        """``asdict()``, under the peer's deprecated name (it warns, as the peer's does).

        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     _ = PromptTemplate.from_template("{a}").dict()
        >>> "asdict" in str(caught[0].message)
        True
        """
        note_deprecation("PromptTemplate.dict() is deprecated: use asdict()", since="2026-12-02", removal="2027-06-01")
        return self.asdict()

    def with_variables(self, variables: type[Variables]) -> Runnable[Variables, StringPromptValue]:
        """This prompt taking ``variables``, a ``TypedDict`` of its variables: the type
        checkers check what is given to it, and building checks it against the template.

        >>> from typing import TypedDict
        >>> class Topic(TypedDict):
        ...     topic: str
        >>> PromptTemplate.from_template("On {topic}").with_variables(Topic).invoke({"topic": "fog"}).text
        'On fog'
        """
        return with_variables(self, variables)

    def input_draw(self) -> InputDraw:
        """A dict of a text for each of its variables (``combinators.testing.inputs_for`` asks)."""
        from combinators.authoring import DrawVariables  # loaded when asked

        return DrawVariables(tuple(self.input_variables))

    def input_schema(self) -> builtins.dict[str, Any]:
        """An object of the prompt's variables (text each), titled ``PromptInput`` as the peer's.

        >>> PromptTemplate("{topic}").input_schema()["properties"]
        {'topic': {'title': 'Topic', 'type': 'string'}}
        """
        return variables_schema("PromptInput", self.input_variables, ())

    def output_schema(self) -> builtins.dict[str, Any]:
        """The ``StringPromptValue`` it gives, titled after the prompt as the peer's.

        >>> PromptTemplate("{topic}").output_schema()["title"], PromptTemplate("{topic}").output_schema()["required"]
        ('PromptTemplateOutput', ['text'])
        """
        return super().output_schema() | {"title": f"{self.name}Output"}

    def partial(self, **values: PartialValue) -> PromptTemplate:
        """The same prompt with some variables filled (values, or callables called per format).

        >>> PromptTemplate("{a}{b}").partial(b="!").invoke("x").text
        'x!'
        """
        return attrs.evolve(self, partial_variables={**self.partial_variables, **values})

    def __add__(self, other: PromptTemplate | str) -> PromptTemplate:
        """The two templates one after the other (a str is parsed in this one's format).

        >>> (PromptTemplate("{a} ") + PromptTemplate("{b}")).input_variables
        ('a', 'b')
        """
        if isinstance(other, str):
            other = PromptTemplate(other, template_format=self.template_format)
        if not is_a(other, PromptTemplate):  # untyped callers
            return NotImplemented
        if other.template_format != self.template_format:
            raise ValueError(
                f"Cannot add templates of different formats: {self.template_format} and {other.template_format}"
            )
        twice = self.partial_variables.keys() & other.partial_variables.keys()
        if twice:
            raise ValueError(f"Cannot have same variable partialed twice: {sorted(twice)}")
        return PromptTemplate(
            self.template + other.template,
            template_format=self.template_format,
            partial_variables={**self.partial_variables, **other.partial_variables},
        )

    def format(self, **values: object) -> str:
        """The filled template as text.

        >>> PromptTemplate("Hi {name}").format(name="Bo")
        'Hi Bo'
        """
        return self._parsed.format(values, owner=self.name)

    async def aformat(self, **values: object) -> str:
        """Async ``format`` (formatting never waits; for ported code).

        >>> import asyncio
        >>> asyncio.run(PromptTemplate("Hi {name}").aformat(name="Bo"))
        'Hi Bo'
        """
        return self.format(**values)

    def format_prompt(self, **values: object) -> StringPromptValue:
        """The filled template as a prompt value.

        >>> PromptTemplate("Hi {name}").format_prompt(name="Bo")
        StringPromptValue(text='Hi Bo')
        """
        return StringPromptValue(self.format(**values))

    async def aformat_prompt(self, **values: object) -> StringPromptValue:
        """Async ``format_prompt``.

        >>> import asyncio
        >>> asyncio.run(PromptTemplate("{x}").aformat_prompt(x=1))
        StringPromptValue(text='1')
        """
        return self.format_prompt(**values)

    def step_invoke(self, input: PromptInput, scope: Scope, kwargs: Mapping[str, object]) -> StringPromptValue:
        values = prompt_values(self.name, input, self.input_variables)
        return StringPromptValue(self._parsed.format(values, owner=self.name))

    def __repr__(self) -> str:
        return shown_fields(self, "template")
