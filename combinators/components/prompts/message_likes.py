"""What ``ChatPromptTemplate.from_messages`` takes for one message, and the part it becomes.

A message-like is a ``(role, template)`` pair (roles ``system``, ``human``/``user``,
``ai``/``assistant``, and ``placeholder`` with ``"{name}"``: an optional placeholder), a
``(MessageClass, template)`` pair (``SystemMessage``, ``HumanMessage``, ``AIMessage``), a
``{"role": ..., "content": ...}`` dict, or a bare str (a human template); a template is
text or a list of content parts (see ``content``). Messages (kept as they are, never
formatted), message templates and placeholders are parts already.

>>> to_part(("human", "Hi {name}"))
HumanMessagePromptTemplate('Hi {name}')
>>> to_part(("placeholder", "{history}"))
MessagesPlaceholder('history', optional=True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, TypeAlias, cast

from combinators.components.messages.message_classes import (
    MESSAGE_TYPES,
    AIMessage,
    HumanMessage,
    Message,
    SystemMessage,
)
from combinators.components.prompts.chat_parts import (
    AIMessagePromptTemplate,
    BaseMessagePromptTemplate,
    HumanMessagePromptTemplate,
    MessagesPlaceholder,
    SystemMessagePromptTemplate,
)
from combinators.components.prompts.content import ContentLike
from combinators.components.prompts.formats import TemplateFormat
from effects.authoring import is_list_or_tuple, is_mapping
from effects.errors import InputValueError

ChatPromptPart: TypeAlias = "BaseMessagePromptTemplate | MessagesPlaceholder | Message"
"""One part of a chat prompt, as it is kept once built."""

MessageLike: TypeAlias = "ChatPromptPart | tuple[str | type[Message], ContentLike] | tuple[str, tuple[str, bool]] | Mapping[str, ContentLike] | str"
"""What ``ChatPromptTemplate.from_messages`` takes for one message."""

_TEMPLATES: Final[dict[str, type[BaseMessagePromptTemplate]]] = {
    "system": SystemMessagePromptTemplate,
    "human": HumanMessagePromptTemplate,
    "user": HumanMessagePromptTemplate,
    "ai": AIMessagePromptTemplate,
    "assistant": AIMessagePromptTemplate,
}
_CLASS_ROLES: Final[dict[type, str]] = {SystemMessage: "system", HumanMessage: "human", AIMessage: "ai"}
_PARTS: Final = (BaseMessagePromptTemplate, MessagesPlaceholder, *MESSAGE_TYPES)


def _placeholder(template: object) -> MessagesPlaceholder:
    optional = True
    if is_list_or_tuple(template) and len(template) == 2:
        template, flag = template
        if not isinstance(flag, bool):
            raise ValueError(f"a placeholder's second item says whether it is optional (a bool), got {flag!r}")
        optional = flag
    name = template[1:-1] if isinstance(template, str) else ""
    if not (isinstance(template, str) and template.startswith("{") and template.endswith("}") and name.isidentifier()):
        raise ValueError(
            f"Invalid placeholder template: {template}. Expected a variable name surrounded by curly braces."
        )
    return MessagesPlaceholder(name, optional=optional)


def _from_role(role: object, template: object, template_format: TemplateFormat, source: object) -> ChatPromptPart:
    if isinstance(role, type) and role in _CLASS_ROLES:
        role = _CLASS_ROLES[role]
    elif isinstance(role, type) and role in MESSAGE_TYPES:
        kind_name = getattr(role, "type", role.__name__)
        raise ValueError(
            f"Unexpected message type: {kind_name}. Use one of 'human', 'user', 'ai', 'assistant', or 'system'."
        )
    if not isinstance(role, str):
        raise TypeError(f"a message template needs a str role (or a message class), got {source!r}")
    if role == "placeholder":
        return _placeholder(template)
    if not isinstance(template, (str, list, tuple)):
        raise InputValueError(
            f"Invalid template: {template}. A message template is a str or a list of content parts, got {source!r}"
        )
    kind = _TEMPLATES.get(role)
    if kind is None:
        raise ValueError(
            f"Unexpected message type: {role}. Use one of 'human', 'user', 'ai', 'assistant', 'system' or 'placeholder'."
        )
    return kind.from_template(cast(ContentLike, template), template_format)


def to_part(message: object, template_format: TemplateFormat = "f-string") -> ChatPromptPart:
    """One message-like as the part of a chat prompt it stands for (see the module docstring).

    >>> to_part((SystemMessage, "Be {style}."))
    SystemMessagePromptTemplate('Be {style}.')
    >>> to_part({"role": "user", "content": "{q}"})
    HumanMessagePromptTemplate('{q}')
    >>> to_part(("robot", "x"))
    Traceback (most recent call last):
    ...
    ValueError: Unexpected message type: robot. Use one of 'human', 'user', 'ai', 'assistant', 'system' or 'placeholder'.
    """
    if isinstance(message, _PARTS):
        part: ChatPromptPart = message  # type: ignore[assignment]  # _PARTS is exactly these types
        return part
    if isinstance(message, str):
        return HumanMessagePromptTemplate.from_template(message, template_format)
    if is_list_or_tuple(message):
        pair = message
        if len(pair) != 2:
            raise ValueError(f"a message template as a sequence must be a (role, template) pair, got {pair!r}")
        return _from_role(pair[0], pair[1], template_format, pair)
    if is_mapping(message):
        fields = message
        if set(fields) != {"role", "content"}:
            raise ValueError(f"Expected dict to have exact keys 'role' and 'content'. Got: {dict(fields)!r}")
        return _from_role(fields["role"], fields["content"], template_format, fields)
    raise TypeError(
        f"cannot make a message template from a {type(message).__name__}: expected a (role, template) "
        "pair, a str, a {'role': ..., 'content': ...} dict, a message, a message template or a MessagesPlaceholder"
    )
