"""Prompt templates, runnables of run type ``prompt``: ``PromptTemplate`` formats text
into a ``StringPromptValue``, ``ChatPromptTemplate`` formats messages into a
``ChatPromptValue``.

Templates are parsed once, when built (``templates.Template``: f-string, mustache or the
sandboxed, opt-in jinja2), so a bad or unsafe template fails there, never at run time.

>>> prompt = PromptTemplate.from_template("Tell me a joke about {topic}")
>>> prompt.invoke({"topic": "cats"})
StringPromptValue(text='Tell me a joke about cats')
>>> prompt.invoke("dogs").text
'Tell me a joke about dogs'
>>> chat = ChatPromptTemplate.from_messages([
...     ("system", "You are {persona}."),
...     ("placeholder", "{history}"),
...     ("human", "{question}"),
... ])
>>> chat.input_variables, chat.optional_variables
(('persona', 'question'), ('history',))
>>> print(chat.invoke({"persona": "a poet", "question": "Why?"}).to_string())
System: You are a poet.
Human: Why?

A prompt takes its whole input: a mapping of variable values, or, for a prompt with
exactly one input variable, the bare value. It ignores call keyword arguments. The
parts of a chat prompt (message templates, ``MessagesPlaceholder``) are in
``chat_prompts`` and importable from here. Difference from the peer: an optional
placeholder's default ``[]`` is not listed among ``partial_variables``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias, TypeVar, final

import attrs

from combinators.components.prompts.chat_parts import AIMessagePromptTemplate as AIMessagePromptTemplate
from combinators.components.prompts.chat_parts import BaseMessagePromptTemplate as BaseMessagePromptTemplate
from combinators.components.prompts.chat_parts import ChatPromptPart as ChatPromptPart
from combinators.components.prompts.chat_parts import HumanMessagePromptTemplate as HumanMessagePromptTemplate
from combinators.components.prompts.chat_parts import MessageLike as MessageLike
from combinators.components.prompts.chat_parts import MessagesPlaceholder as MessagesPlaceholder
from combinators.components.prompts.chat_parts import SystemMessagePromptTemplate as SystemMessagePromptTemplate
from combinators.components.prompts.chat_parts import resolve_partials, shown_fields, to_part, to_partials
from combinators.components.messages.coercion import get_buffer_string
from combinators.components.messages.values import BaseMessage, Message
from combinators.components.prompts.typed import with_variables
from combinators.components.prompts.values import ChatPromptValue, StringPromptValue
from combinators.components.prompts.formats import (
    PartialValue,
    Template,
    TemplateFormat,
    missing_variables_error,
)
from combinators import Runnable
from effects.errors import InputError
from effects.authoring import Scope

V = TypeVar("V", bound=Mapping[str, Any])

PromptInput: TypeAlias = "Mapping[str, Any] | str"
"""What a prompt takes: variable values by name, or the bare value of its one variable."""


def prompt_values(owner: str, input: object, input_variables: Sequence[str]) -> Mapping[str, object]:
    """The variable values a prompt input stands for (a bare value fills the one variable).

    >>> prompt_values("PromptTemplate", "cats", ["topic"])
    {'topic': 'cats'}
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


@final
@attrs.frozen(repr=False)
class PromptTemplate(Runnable[PromptInput, StringPromptValue]):
    """A text prompt: a template filled with the input's values.

    ``input_variables`` are sorted and leave out the partial ones. A missing variable
    raises the peer's ``KeyError``; a template with several variables given a bare
    value raises ``InputError`` (a ``TypeError``).

    >>> PromptTemplate.from_template("{b} and {a}").input_variables
    ('a', 'b')
    """

    run_type = "prompt"

    template: str
    template_format: TemplateFormat = attrs.field(default="f-string", kw_only=True)
    partial_variables: Mapping[str, PartialValue] = attrs.field(
        factory=dict[str, PartialValue], converter=to_partials, kw_only=True, hash=False
    )
    _parsed: Template = attrs.field(init=False, repr=False, eq=False, hash=False)

    def __attrs_post_init__(self) -> None:
        # Parsing is part of building: a bad template fails here, not when it runs.
        parsed = Template(self.template, self.template_format, self.partial_variables)
        object.__setattr__(self, "_parsed", parsed)

    @classmethod
    def from_template(
        cls,
        template: str,
        *,
        template_format: TemplateFormat = "f-string",
        partial_variables: Mapping[str, PartialValue] | None = None,
    ) -> PromptTemplate:
        """Parse ``template`` (f-string by default); a bad template raises ``ValueError``.

        >>> PromptTemplate.from_template("{{x}}!", template_format="mustache").format(x=1)
        '1!'
        """
        return cls(template, template_format=template_format, partial_variables=to_partials(partial_variables))

    @property
    def input_variables(self) -> tuple[str, ...]:
        """The variables a caller supplies, sorted.

        >>> PromptTemplate("{greeting} {name}", partial_variables={"greeting": "Hi"}).input_variables
        ('name',)
        """
        return self._parsed.input_variables

    def with_variables(self, variables: type[V]) -> Runnable[V, StringPromptValue]:
        """This prompt taking ``variables``, a ``TypedDict`` of its variables: the type
        checkers check what is given to it, and building checks it against the template.

        >>> from typing import TypedDict
        >>> class Topic(TypedDict):
        ...     topic: str
        >>> PromptTemplate.from_template("On {topic}").with_variables(Topic).invoke({"topic": "fog"}).text
        'On fog'
        """
        return with_variables(self, variables)

    def partial(self, **values: PartialValue) -> PromptTemplate:
        """The same prompt with some variables filled (values, or callables called per format).

        >>> PromptTemplate("{a}{b}").partial(b="!").invoke("x").text
        'x!'
        """
        return attrs.evolve(self, partial_variables={**self.partial_variables, **values})

    def format(self, **values: object) -> str:
        """The filled template as text.

        >>> PromptTemplate("Hi {name}").format(name="Bo")
        'Hi Bo'
        """
        return self._parsed.format(values, owner=self.name)

    def format_prompt(self, **values: object) -> StringPromptValue:
        """The filled template as a prompt value.

        >>> PromptTemplate("Hi {name}").format_prompt(name="Bo")
        StringPromptValue(text='Hi Bo')
        """
        return StringPromptValue(self.format(**values))

    def step_invoke(
        self, input: PromptInput, scope: Scope, kwargs: Mapping[str, object]
    ) -> StringPromptValue:
        values = prompt_values(self.name, input, self.input_variables)
        return StringPromptValue(self._parsed.format(values, owner=self.name))

    def __repr__(self) -> str:
        return shown_fields(self, "template")


def _to_parts(messages: Sequence[MessageLike]) -> tuple[ChatPromptPart, ...]:
    return tuple(to_part(m) for m in messages)


def _part_key(part: ChatPromptPart) -> object:
    # Messages hold mappings (unhashable): hash them by kind and text, which equal
    # messages share, so the hash stays consistent with equality.
    return (type(part).__name__, part.text) if isinstance(part, BaseMessage) else part


@final
@attrs.frozen(repr=False, hash=False)
class ChatPromptTemplate(Runnable[PromptInput, ChatPromptValue]):
    """A chat prompt: its parts filled in order with the input's values.

    ``input_variables`` (sorted) are every template variable and required placeholder,
    less the partial ones; a missing one raises the peer's ``KeyError``.

    >>> ChatPromptTemplate([HumanMessagePromptTemplate("{q}")]).invoke("hi").to_messages()
    [HumanMessage('hi')]
    """

    run_type = "prompt"

    messages: tuple[ChatPromptPart, ...] = attrs.field(converter=_to_parts)
    partial_variables: Mapping[str, PartialValue] = attrs.field(
        factory=dict[str, PartialValue], converter=to_partials, kw_only=True
    )

    @classmethod
    def from_messages(
        cls,
        messages: Sequence[MessageLike],
        template_format: TemplateFormat = "f-string",
    ) -> ChatPromptTemplate:
        """A chat prompt from message-likes (see ``chat_prompts.to_part``).

        >>> ChatPromptTemplate.from_messages([("ai", "{{n}} apples")], "mustache").format(n=2)
        'AI: 2 apples'
        """
        return cls(tuple(to_part(m, template_format) for m in messages))

    @classmethod
    def from_template(
        cls, template: str, *, template_format: TemplateFormat = "f-string"
    ) -> ChatPromptTemplate:
        """A chat prompt of one human message template.

        >>> ChatPromptTemplate.from_template("Hi {name}").input_variables
        ('name',)
        """
        return cls((HumanMessagePromptTemplate.from_template(template, template_format=template_format),))

    @property
    def input_variables(self) -> tuple[str, ...]:
        """The variables a caller supplies, sorted.

        >>> ChatPromptTemplate.from_messages([("system", "{b}"), ("placeholder", "{h}"), ("human", "{a}")]).input_variables
        ('a', 'b')
        """
        names: set[str] = set()
        for part in self.messages:
            if not isinstance(part, BaseMessage):
                names.update(part.input_variables)
        return tuple(sorted(names - self.partial_variables.keys()))

    @property
    def optional_variables(self) -> tuple[str, ...]:
        """The variables of optional placeholders, sorted.

        >>> ChatPromptTemplate.from_messages([("placeholder", "{h}"), ("human", "{a}")]).optional_variables
        ('h',)
        """
        names = {n for p in self.messages if isinstance(p, MessagesPlaceholder) for n in p.optional_variables}
        return tuple(sorted(names))

    def with_variables(self, variables: type[V]) -> Runnable[V, ChatPromptValue]:
        """This prompt taking ``variables``, a ``TypedDict`` of its variables (see
        ``PromptTemplate.with_variables``).

        >>> from typing import TypedDict
        >>> class Question(TypedDict):
        ...     question: str
        >>> chat = ChatPromptTemplate.from_template("{question}").with_variables(Question)
        >>> chat.invoke({"question": "why?"}).to_messages()
        [HumanMessage('why?')]
        """
        return with_variables(self, variables)

    def partial(self, **values: PartialValue) -> ChatPromptTemplate:
        """The same prompt with some variables filled (values, or callables called per format).

        >>> ChatPromptTemplate.from_template("{a}{b}").partial(b="!").format(a="x")
        'Human: x!'
        """
        return attrs.evolve(self, partial_variables={**self.partial_variables, **values})

    def _render(self, values: Mapping[str, object]) -> list[Message]:
        expected = self.input_variables
        if any(name not in values for name in expected):
            raise missing_variables_error(self.name, expected, list(values))
        resolved = resolve_partials(self.partial_variables, values)
        rendered: list[Message] = []
        for part in self.messages:
            if isinstance(part, BaseMessage):
                rendered.append(part)
            else:
                rendered.extend(part.render(resolved))
        return rendered

    def format_messages(self, **values: object) -> list[Message]:
        """The messages these values make.

        >>> ChatPromptTemplate.from_messages([("system", "s"), ("human", "{q}")]).format_messages(q="x")
        [SystemMessage('s'), HumanMessage('x')]
        """
        return self._render(values)

    def format_prompt(self, **values: object) -> ChatPromptValue:
        """The prompt value these values make.

        >>> ChatPromptTemplate.from_template("{q}").format_prompt(q="x")
        ChatPromptValue(messages=(HumanMessage('x'),))
        """
        return ChatPromptValue(self._render(values))

    def format(self, **values: object) -> str:
        """The messages these values make, as ``Speaker: text`` lines.

        >>> ChatPromptTemplate.from_messages([("system", "s"), ("human", "{q}")]).format(q="x")
        'System: s\\nHuman: x'
        """
        return get_buffer_string(self._render(values))

    def step_invoke(
        self, input: PromptInput, scope: Scope, kwargs: Mapping[str, object]
    ) -> ChatPromptValue:
        return ChatPromptValue(self._render(prompt_values(self.name, input, self.input_variables)))

    def __hash__(self) -> int:
        return hash((tuple(_part_key(p) for p in self.messages), tuple(self.partial_variables)))

    def __repr__(self) -> str:
        shown = repr(list(self.messages))
        if self.partial_variables:
            shown += f", partial_variables={dict(self.partial_variables)!r}"
        return f"ChatPromptTemplate({shown})"
