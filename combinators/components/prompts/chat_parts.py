"""The parts a chat prompt is made of: message templates and ``MessagesPlaceholder``.

A part renders a mapping of variable values into messages. Templates are parsed when
the part is built (``formats.Template``, ``content.ContentTemplate``), so a bad or
unsafe one fails there. The message-likes ``ChatPromptTemplate.from_messages`` takes
become parts in ``message_likes``.

>>> HumanMessagePromptTemplate.from_template("Hi {name}").format(name="Bo")
HumanMessage('Hi Bo')
>>> MessagesPlaceholder("history", optional=True).render({})
[]
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Self, final

import attrs

from combinators.authoring import changed_fields

from combinators.components.messages.message_classes import (
    AIMessage,
    ChatMessage,
    HumanMessage,
    Message,
    SystemMessage,
    coerce_to_messages,
)
from combinators.components.prompts.formats import ListTuple
from combinators.components.prompts.content import (
    ContentLike,
    ContentPartLike,
    ContentTemplate,
    Rendered,
    to_content,
)
from combinators.components.prompts.formats import (
    PartialValue,
    TemplateFormat,
    missing_variables_error,
    resolve_partials,
    to_partials,
)
from combinators.components.prompts.inputs import check_declared
from combinators.components.prompts.prompt_values import ChatPromptValue
from effects.authoring import is_a, is_list_or_tuple

if TYPE_CHECKING:  # string_prompt and chat_prompt import this module
    from combinators.components.prompts.chat_prompt import ChatPromptTemplate
    from combinators.components.prompts.string_prompt import PromptTemplate


def shown_fields(value: attrs.AttrsInstance, first: str) -> str:
    """``Class(first, name=value, ...)``: the constructor call, with only non-default fields.

    >>> shown_fields(MessagesPlaceholder("h", n_messages=2), "variable_name")
    "MessagesPlaceholder('h', n_messages=2)"
    """
    shown = [repr(getattr(value, first)), *changed_fields(value, skip=(first,))]
    return f"{type(value).__name__}({', '.join(shown)})"


def _read(path: str | PathLike[str]) -> str:
    return Path(path).read_text(encoding="utf-8")


def _from_prompt(
    template: ContentLike | None,
    prompt: PromptTemplate | None,
    template_format: TemplateFormat,
    partial_variables: Mapping[str, PartialValue] | None,
    owner: str,
) -> tuple[ContentLike, TemplateFormat, Mapping[str, PartialValue]]:
    """The content, format and partials of a message template given its text or the
    peer's ``prompt=PromptTemplate(...)`` (exactly one of the two)."""
    if (template is None) == (prompt is None):
        raise TypeError(f"{owner} takes its content as template= or prompt=PromptTemplate(...), exactly one of them")
    if prompt is not None:
        from combinators.components.prompts.string_prompt import PromptTemplate

        if not is_a(prompt, PromptTemplate):
            raise TypeError(f"{owner}(prompt=...) expects a PromptTemplate, got {type(prompt).__name__}")
        return prompt.template, prompt.template_format, {**prompt.partial_variables, **(partial_variables or {})}
    assert template is not None
    return template, template_format, to_partials(partial_variables)


@attrs.frozen(repr=False, init=False)
class BaseMessagePromptTemplate:
    """A template for one message of a role (abstract: build a concrete one).

    Its content is text with variables, or a list of content parts (text blocks, image
    URL blocks, any provider block) with variables in their text (see ``content``).
    As in LangChain, the content may be given as ``prompt=PromptTemplate(...)``; the
    ``prompt`` attribute reads it back as a ``PromptTemplate`` (text content only).

    >>> SystemMessagePromptTemplate("Be {style}.").input_variables
    ('style',)
    >>> from combinators.prompts import PromptTemplate
    >>> t = SystemMessagePromptTemplate(prompt=PromptTemplate(template="Be {style}.", input_variables=["style"]))
    >>> t == SystemMessagePromptTemplate("Be {style}."), t.prompt.template
    (True, 'Be {style}.')
    """

    # Content parts hold dicts (unhashable): the hash leaves the content out, which keeps
    # it consistent with equality.
    template: str | tuple[ContentPartLike, ...] = attrs.field(converter=to_content, hash=False)
    template_format: TemplateFormat = attrs.field(default="f-string", kw_only=True)
    partial_variables: Mapping[str, PartialValue] = attrs.field(
        factory=dict[str, PartialValue], converter=to_partials, kw_only=True, hash=False
    )
    _parsed: ContentTemplate = attrs.field(init=False, repr=False, eq=False)

    def __init__(
        self,
        template: ContentLike | None = None,
        *,
        prompt: PromptTemplate | None = None,
        template_format: TemplateFormat = "f-string",
        partial_variables: Mapping[str, PartialValue] | None = None,
    ) -> None:
        content, form, partials = _from_prompt(
            template, prompt, template_format, partial_variables, type(self).__name__
        )
        getattr(self, "__attrs_init__")(content, template_format=form, partial_variables=partials)

    def __attrs_pre_init__(self) -> None:
        if type(self) is BaseMessagePromptTemplate:
            raise TypeError(
                "BaseMessagePromptTemplate is abstract; build a SystemMessagePromptTemplate, "
                "HumanMessagePromptTemplate, AIMessagePromptTemplate or ChatMessagePromptTemplate"
            )

    def __attrs_post_init__(self) -> None:
        parsed = ContentTemplate.parse(self.template, self.template_format)
        object.__setattr__(self, "_parsed", parsed)

    @classmethod
    def from_template(
        cls,
        template: ContentLike,
        template_format: TemplateFormat = "f-string",
        *,
        partial_variables: Mapping[str, PartialValue] | None = None,
        input_variables: Sequence[str] | None = None,
    ) -> Self:
        """A message template from its content: text, or a list of content parts.

        ``input_variables``, when given, must be the variables the content reads (the
        peer's check; a jinja2 template only warns). A bad template raises ``ValueError``.

        >>> HumanMessagePromptTemplate.from_template("{a}{b}", partial_variables={"b": "!"}).format(a="hi")
        HumanMessage('hi!')
        """
        built = cls(template, template_format=template_format, partial_variables=to_partials(partial_variables))
        check_declared(cls.__name__, input_variables, built.input_variables, (), template_format)
        return built

    @classmethod
    def from_template_file(
        cls,
        template_file: str | PathLike[str],
        input_variables: Sequence[str] | None = None,
        *,
        template_format: TemplateFormat = "f-string",
        partial_variables: Mapping[str, PartialValue] | None = None,
    ) -> Self:
        """A message template from a UTF-8 file's text.

        >>> import tempfile, os
        >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        ...     _ = f.write("Summarise {text}")
        >>> SystemMessagePromptTemplate.from_template_file(f.name, ["text"]).format(text="x")
        SystemMessage('Summarise x')
        >>> os.unlink(f.name)
        """
        return cls.from_template(
            _read(template_file),
            template_format,
            partial_variables=partial_variables,
            input_variables=input_variables,
        )

    @property
    def prompt(self) -> PromptTemplate:
        """The content as the peer's ``PromptTemplate`` (for a text template).

        >>> HumanMessagePromptTemplate("Hi {name}").prompt.input_variables
        ('name',)
        """
        if not isinstance(self.template, str):
            raise TypeError(f"{type(self).__name__}.prompt: a template of content parts is no single PromptTemplate")
        from combinators.components.prompts.string_prompt import PromptTemplate

        return PromptTemplate(
            self.template, template_format=self.template_format, partial_variables=self.partial_variables
        )

    @functools.cached_property
    def input_variables(self) -> tuple[str, ...]:
        """The variables its content reads (sorted, partial ones left out).

        >>> HumanMessagePromptTemplate("{b} {a}").input_variables
        ('a', 'b')
        """
        return ListTuple(sorted(self._parsed.variables - self.partial_variables.keys()))

    @property
    def optional_variables(self) -> tuple[str, ...]:
        """None: every variable of a message template is needed.

        >>> HumanMessagePromptTemplate("{a}").optional_variables
        ()
        """
        return ()

    def _message(self, content: Rendered) -> Message:
        raise NotImplementedError  # every concrete template says which message it makes

    def render(self, values: Mapping[str, object]) -> list[Message]:
        """The one message these values make (in a list, as every part gives).

        >>> AIMessagePromptTemplate("{n}!").render({"n": 1})
        [AIMessage('1!')]
        """
        missing = [name for name in self.input_variables if name not in values]
        if missing:
            raise missing_variables_error(type(self).__name__, self.input_variables, list(values))
        return self.fill(values)

    def fill(self, values: Mapping[str, object]) -> list[Message]:
        """``render`` for values already checked to hold every input variable (a chat
        prompt checks once for all its parts)."""
        merged = resolve_partials(self.partial_variables, values) if self.partial_variables else values
        return [self._message(self._parsed.fill(merged))]

    def format(self, **values: object) -> Message:
        """The message these values make.

        >>> SystemMessagePromptTemplate("{x}").format(x=1)
        SystemMessage('1')
        """
        return self.render(values)[0]

    def format_messages(self, **values: object) -> list[Message]:
        """The message these values make, in a list.

        >>> HumanMessagePromptTemplate("{x}").format_messages(x=1)
        [HumanMessage('1')]
        """
        return self.render(values)

    async def aformat_messages(self, **values: object) -> list[Message]:
        """Async ``format_messages`` (formatting never waits; for ported code).

        >>> import asyncio
        >>> asyncio.run(HumanMessagePromptTemplate("{x}").aformat_messages(x=2))
        [HumanMessage('2')]
        """
        return self.render(values)

    def __add__(self, other: object) -> ChatPromptTemplate:
        """A chat prompt of this message, then ``other`` (as ``ChatPromptTemplate`` + other).

        >>> (SystemMessagePromptTemplate("Be {style}.") + "Hi {name}").input_variables
        ('name', 'style')
        """
        from combinators.components.prompts.chat_prompt import ChatPromptTemplate

        return ChatPromptTemplate.from_messages([self]) + other

    def __repr__(self) -> str:
        return shown_fields(self, "template")


@final
@attrs.frozen(repr=False, init=False)
class SystemMessagePromptTemplate(BaseMessagePromptTemplate):
    """A template for a system message.

    >>> SystemMessagePromptTemplate.from_template("Be {style}.").format(style="brief")
    SystemMessage('Be brief.')
    """

    def _message(self, content: Rendered) -> Message:
        return SystemMessage(content)


@final
@attrs.frozen(repr=False, init=False)
class HumanMessagePromptTemplate(BaseMessagePromptTemplate):
    """A template for a human message (text, or content parts such as images).

    >>> HumanMessagePromptTemplate("{{q}}", template_format="mustache")
    HumanMessagePromptTemplate('{{q}}', template_format='mustache')
    >>> HumanMessagePromptTemplate([{"type": "image_url", "image_url": "{url}"}]).format(url="u").content
    ({'type': 'image_url', 'image_url': {'url': 'u'}},)
    """

    def _message(self, content: Rendered) -> Message:
        return HumanMessage(content)


@final
@attrs.frozen(repr=False, init=False)
class AIMessagePromptTemplate(BaseMessagePromptTemplate):
    """A template for an AI message (a scripted turn of the model).

    >>> AIMessagePromptTemplate.from_template("{n} apples").format_messages(n=2)
    [AIMessage('2 apples')]
    """

    def _message(self, content: Rendered) -> Message:
        return AIMessage(content)


@final
@attrs.frozen(repr=False, init=False)
class ChatMessagePromptTemplate(BaseMessagePromptTemplate):
    """A template for a ``ChatMessage`` of any ``role``.

    >>> ChatMessagePromptTemplate.from_template("{x}", role="critic").format(x="Too long.")
    ChatMessage('Too long.', role='critic')
    """

    # Required by __init__; the default keeps the attrs initialiser compatible with the base's.
    role: str = attrs.field(default="", kw_only=True)

    def __init__(
        self,
        template: ContentLike | None = None,
        *,
        role: str,
        prompt: PromptTemplate | None = None,
        template_format: TemplateFormat = "f-string",
        partial_variables: Mapping[str, PartialValue] | None = None,
    ) -> None:
        content, form, partials = _from_prompt(
            template, prompt, template_format, partial_variables, type(self).__name__
        )
        getattr(self, "__attrs_init__")(content, template_format=form, partial_variables=partials, role=role)

    @classmethod
    def from_template(  # type: ignore[override]  # role is required here
        cls,
        template: ContentLike,
        template_format: TemplateFormat = "f-string",
        *,
        role: str,
        partial_variables: Mapping[str, PartialValue] | None = None,
        input_variables: Sequence[str] | None = None,
    ) -> ChatMessagePromptTemplate:
        """A chat message template of ``role``.

        >>> ChatMessagePromptTemplate.from_template("{x}", role="judge").role
        'judge'
        """
        partials = to_partials(partial_variables)
        built = cls(template, template_format=template_format, partial_variables=partials, role=role)
        check_declared(cls.__name__, input_variables, built.input_variables, (), template_format)
        return built

    @classmethod
    def from_template_file(  # type: ignore[override]  # role is required here
        cls,
        template_file: str | PathLike[str],
        input_variables: Sequence[str] | None = None,
        *,
        role: str,
        template_format: TemplateFormat = "f-string",
        partial_variables: Mapping[str, PartialValue] | None = None,
    ) -> ChatMessagePromptTemplate:
        """A chat message template of ``role`` from a UTF-8 file's text.

        >>> import tempfile, os
        >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        ...     _ = f.write("{x}?")
        >>> ChatMessagePromptTemplate.from_template_file(f.name, role="judge").format(x="ok")
        ChatMessage('ok?', role='judge')
        >>> os.unlink(f.name)
        """
        return cls.from_template(
            _read(template_file),
            template_format,
            role=role,
            partial_variables=partial_variables,
            input_variables=input_variables,
        )

    def _message(self, content: Rendered) -> Message:
        return ChatMessage(content, role=self.role)


def _non_negative_or_none(_instance: object, _attribute: object, value: int | None) -> None:
    if value is not None and (not is_a(value, int) or value < 0):
        raise ValueError(f"n_messages must be a non-negative int or None, got {value!r}")


@final
@attrs.frozen(repr=False)
class MessagesPlaceholder:
    """Where a list of messages from the input goes (a chat history, say).

    An optional placeholder whose variable is missing inserts no messages; a required
    one is among the chat prompt's input variables. ``n_messages`` keeps the last n.

    >>> MessagesPlaceholder("history").format_messages(history=[("human", "hi"), ("ai", "hello")])
    [HumanMessage('hi'), AIMessage('hello')]
    """

    variable_name: str
    optional: bool = attrs.field(default=False, kw_only=True)
    n_messages: int | None = attrs.field(default=None, kw_only=True, validator=_non_negative_or_none)

    @property
    def input_variables(self) -> tuple[str, ...]:
        """Its variable, unless it is optional.

        >>> MessagesPlaceholder("h").input_variables, MessagesPlaceholder("h", optional=True).input_variables
        (('h',), ())
        """
        return ListTuple(() if self.optional else (self.variable_name,))

    @property
    def optional_variables(self) -> tuple[str, ...]:
        """Its variable, if it is optional.

        >>> MessagesPlaceholder("h", optional=True).optional_variables
        ('h',)
        """
        return (self.variable_name,) if self.optional else ()

    def render(self, values: Mapping[str, object]) -> list[Message]:
        """The messages its variable holds (``[]`` for a missing optional one).

        >>> MessagesPlaceholder("h", optional=True).render({})
        []
        >>> MessagesPlaceholder("h", n_messages=1).render({"h": ["a", "b"]})
        [HumanMessage('b')]
        """
        name = self.variable_name
        value = values.get(name, []) if self.optional else values[name]
        if isinstance(value, ChatPromptValue):
            messages = value.to_messages()
        elif is_list_or_tuple(value):
            messages = list(coerce_to_messages(value))
        else:
            raise ValueError(f"variable {name} should be a list of base messages, got {value!r} of type {type(value)}")
        if self.n_messages is not None:
            messages = messages[len(messages) - self.n_messages :] if self.n_messages else []
        return messages

    def format_messages(self, **values: object) -> list[Message]:
        """The messages its variable holds.

        >>> MessagesPlaceholder("h").format_messages(h=[("ai", "hi")])
        [AIMessage('hi')]
        """
        return self.render(values)

    def __repr__(self) -> str:
        return shown_fields(self, "variable_name")
