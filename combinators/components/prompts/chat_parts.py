"""The parts a chat prompt is made of: message templates, ``MessagesPlaceholder``, and the
message-likes ``ChatPromptTemplate.from_messages`` takes (``to_part``).

A part renders a mapping of variable values into messages. Templates are parsed when
the part is built (``templates.Template``), so a bad or unsafe one fails there.

>>> HumanMessagePromptTemplate.from_template("Hi {name}").format(name="Bo")
HumanMessage('Hi Bo')
>>> to_part(("placeholder", "{history}"))
MessagesPlaceholder('history', optional=True)

``ChatPromptTemplate`` itself is in ``prompts``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Final, Self, TypeAlias, final

import attrs

from combinators.authoring import changed_fields

from combinators.components.messages.values import (
    MESSAGE_TYPES,
    AIMessage,
    HumanMessage,
    Message,
    SystemMessage,
    coerce_to_messages,
)
from combinators.components.prompts.values import ChatPromptValue
from combinators.components.prompts.formats import PartialValue, Template, TemplateFormat
from effects.authoring import is_a, is_list_or_tuple, is_mapping



def to_partials(values: Mapping[str, PartialValue] | None) -> Mapping[str, PartialValue]:
    """A private copy of partial variables (``None`` is none).

    >>> to_partials(None), to_partials({"a": 1})
    ({}, {'a': 1})
    """
    return {} if values is None else dict(values)


def resolve_partials(
    partials: Mapping[str, PartialValue], values: Mapping[str, object]
) -> dict[str, object]:
    """``values`` over the partial ones; a callable partial is called unless overridden.

    >>> resolve_partials({"a": 1, "b": lambda: 2, "c": 3}, {"c": 0})
    {'a': 1, 'b': 2, 'c': 0}
    """
    merged: dict[str, object] = {
        name: value() if callable(value) else value
        for name, value in partials.items()
        if name not in values
    }
    merged.update(values)
    return merged


def shown_fields(value: attrs.AttrsInstance, first: str) -> str:
    """``Class(first, name=value, ...)``: the constructor call, with only non-default fields.

    >>> shown_fields(MessagesPlaceholder("h", n_messages=2), "variable_name")
    "MessagesPlaceholder('h', n_messages=2)"
    """
    shown = [repr(getattr(value, first)), *changed_fields(value, skip=(first,))]
    return f"{type(value).__name__}({', '.join(shown)})"


@attrs.frozen(repr=False)
class BaseMessagePromptTemplate:
    """A template for one message of a role (abstract: build a concrete one).

    >>> SystemMessagePromptTemplate("Be {style}.").input_variables
    ('style',)
    """

    role: ClassVar[str] = "base"

    template: str
    template_format: TemplateFormat = attrs.field(default="f-string", kw_only=True)
    partial_variables: Mapping[str, PartialValue] = attrs.field(
        factory=dict[str, PartialValue], converter=to_partials, kw_only=True, hash=False
    )
    _parsed: Template = attrs.field(init=False, repr=False, eq=False, hash=False)

    def __attrs_pre_init__(self) -> None:
        if type(self) is BaseMessagePromptTemplate:
            raise TypeError(
                "BaseMessagePromptTemplate is abstract; build a SystemMessagePromptTemplate, "
                "HumanMessagePromptTemplate or AIMessagePromptTemplate"
            )

    def __attrs_post_init__(self) -> None:
        parsed = Template(self.template, self.template_format, self.partial_variables)
        object.__setattr__(self, "_parsed", parsed)

    @classmethod
    def from_template(
        cls,
        template: str,
        *,
        template_format: TemplateFormat = "f-string",
        partial_variables: Mapping[str, PartialValue] | None = None,
    ) -> Self:
        """A message template from the text of its content (a bad one raises ``ValueError``).

        >>> HumanMessagePromptTemplate.from_template("{a}{b}", partial_variables={"b": "!"}).format(a="hi")
        HumanMessage('hi!')
        """
        return cls(template, template_format=template_format, partial_variables=to_partials(partial_variables))

    @property
    def input_variables(self) -> tuple[str, ...]:
        """The variables its content reads (sorted, partial ones left out).

        >>> HumanMessagePromptTemplate("{b} {a}").input_variables
        ('a', 'b')
        """
        return self._parsed.input_variables

    @property
    def optional_variables(self) -> tuple[str, ...]:
        """None: every variable of a message template is needed.

        >>> HumanMessagePromptTemplate("{a}").optional_variables
        ()
        """
        return ()

    def render(self, values: Mapping[str, object]) -> list[Message]:
        """The one message these values make (in a list, as every part gives).

        >>> AIMessagePromptTemplate("{n}!").render({"n": 1})
        [AIMessage('1!')]
        """
        text = self._parsed.format(values, owner=type(self).__name__)
        if self.role == "system":
            return [SystemMessage(text)]
        if self.role == "ai":
            return [AIMessage(text)]
        return [HumanMessage(text)]

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

    def __repr__(self) -> str:
        return shown_fields(self, "template")


@final
@attrs.frozen(repr=False)
class SystemMessagePromptTemplate(BaseMessagePromptTemplate):
    """A template for a system message.

    >>> SystemMessagePromptTemplate.from_template("Be {style}.").format(style="brief")
    SystemMessage('Be brief.')
    """

    role: ClassVar[str] = "system"


@final
@attrs.frozen(repr=False)
class HumanMessagePromptTemplate(BaseMessagePromptTemplate):
    """A template for a human message.

    >>> HumanMessagePromptTemplate("{{q}}", template_format="mustache")
    HumanMessagePromptTemplate('{{q}}', template_format='mustache')
    """

    role: ClassVar[str] = "human"


@final
@attrs.frozen(repr=False)
class AIMessagePromptTemplate(BaseMessagePromptTemplate):
    """A template for an AI message (a scripted turn of the model).

    >>> AIMessagePromptTemplate.from_template("{n} apples").format_messages(n=2)
    [AIMessage('2 apples')]
    """

    role: ClassVar[str] = "ai"


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
        return () if self.optional else (self.variable_name,)

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
            raise ValueError(
                f"variable {name} should be a list of base messages, got {value!r} of type {type(value)}"
            )
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


# -- message-likes -------------------------------------------------------------------------

ChatPromptPart: TypeAlias = "BaseMessagePromptTemplate | MessagesPlaceholder | Message"
"""One part of a chat prompt, as it is kept once built."""

MessageLike: TypeAlias = "ChatPromptPart | tuple[str, str] | Mapping[str, str] | str"
"""What ``ChatPromptTemplate.from_messages`` takes for one message."""

_TEMPLATES: Final[dict[str, type[BaseMessagePromptTemplate]]] = {
    "system": SystemMessagePromptTemplate,
    "human": HumanMessagePromptTemplate,
    "user": HumanMessagePromptTemplate,
    "ai": AIMessagePromptTemplate,
    "assistant": AIMessagePromptTemplate,
}
_PARTS: Final = (BaseMessagePromptTemplate, MessagesPlaceholder, *MESSAGE_TYPES)


def _placeholder(template: str) -> MessagesPlaceholder:
    name = template[1:-1]
    if not (template.startswith("{") and template.endswith("}") and name.isidentifier()):
        raise ValueError(
            f"Invalid placeholder template: {template}. Expected a variable name surrounded by curly braces."
        )
    return MessagesPlaceholder(name, optional=True)


def _from_role(role: object, template: object, template_format: TemplateFormat, source: object) -> ChatPromptPart:
    if not isinstance(role, str) or not isinstance(template, str):
        raise TypeError(f"a message template needs a str role and a str template, got {source!r}")
    if role == "placeholder":
        return _placeholder(template)
    kind = _TEMPLATES.get(role)
    if kind is None:
        raise ValueError(
            f"Unexpected message type: {role}. Use one of 'human', 'user', 'ai', 'assistant', 'system' or 'placeholder'."
        )
    return kind.from_template(template, template_format=template_format)


def to_part(message: object, template_format: TemplateFormat = "f-string") -> ChatPromptPart:
    """One message-like as the part of a chat prompt it stands for.

    ``(role, template)`` pairs (roles ``system``, ``human``/``user``, ``ai``/``assistant``,
    and ``placeholder`` with ``"{name}"``: an optional placeholder), ``{"role": ...,
    "content": ...}`` dicts and bare strs (human) become templates in
    ``template_format``; messages (kept as they are, never formatted), message templates
    and placeholders are parts already.

    >>> to_part(("human", "Hi {name}"))
    HumanMessagePromptTemplate('Hi {name}')
    >>> to_part(("robot", "x"))
    Traceback (most recent call last):
    ...
    ValueError: Unexpected message type: robot. Use one of 'human', 'user', 'ai', 'assistant', 'system' or 'placeholder'.
    """
    if isinstance(message, _PARTS):
        part: ChatPromptPart = message  # type: ignore[assignment]  # _PARTS is exactly these types
        return part
    if isinstance(message, str):
        return HumanMessagePromptTemplate.from_template(message, template_format=template_format)
    if is_list_or_tuple(message):
        pair = message
        if len(pair) != 2:
            raise ValueError(f"a message template as a sequence must be a (role, template) pair, got {pair!r}")
        return _from_role(pair[0], pair[1], template_format, pair)
    if is_mapping(message):
        return _from_role(message.get("role"), message.get("content"), template_format, message)
    raise TypeError(
        f"cannot make a message template from a {type(message).__name__}: expected a (role, template) "
        "pair, a str, a {'role': ..., 'content': ...} dict, a message, a message template or a MessagesPlaceholder"
    )
