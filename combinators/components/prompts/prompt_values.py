"""Prompt values: what a prompt template produces, readable as text or as messages.

A string prompt is one human message when a chat model reads it; a chat prompt is
``"Speaker: text"`` lines when a text model reads it.

>>> StringPromptValue("Tell me a joke").to_messages()
[HumanMessage('Tell me a joke')]
>>> ChatPromptValue([("system", "Be brief."), ("human", "Hi")]).to_string()
'System: Be brief.\\nHuman: Hi'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Final, TypeAlias, final

import attrs

from combinators.components.messages.message_classes import (
    MESSAGE_TYPES,
    HumanMessage,
    Message,
    coerce_to_messages,
    get_buffer_string,
)
from effects.authoring import checked


def _to_text(value: str) -> str:
    checked(value, str, "StringPromptValue text must be a str")
    return value


@final
@attrs.frozen
class StringPromptValue:
    """A prompt that is plain text.

    >>> StringPromptValue("hi").to_string()
    'hi'
    """

    type: ClassVar[str] = "StringPromptValue"

    text: str = attrs.field(converter=_to_text)

    def to_string(self) -> str:
        """The text itself."""
        return self.text

    def to_messages(self) -> list[Message]:
        """One human message holding the text (a fresh list)."""
        return [HumanMessage(self.text)]


def _to_messages(values: Iterable[object]) -> tuple[Message, ...]:
    return coerce_to_messages(values)


@final
@attrs.frozen
class ChatPromptValue:
    """A prompt that is a list of messages (anything ``coerce_to_messages`` accepts).

    >>> ChatPromptValue([("human", "hi")]).messages
    (HumanMessage('hi'),)
    """

    type: ClassVar[str] = "ChatPromptValue"

    messages: tuple[Message, ...] = attrs.field(converter=_to_messages)

    def to_string(self) -> str:
        """The conversation as ``Speaker: text`` lines."""
        return get_buffer_string(self.messages)

    def to_messages(self) -> list[Message]:
        """The messages (a fresh list, so callers may append to it)."""
        return list(self.messages)


PromptValue: TypeAlias = "StringPromptValue | ChatPromptValue"
"""Either kind of prompt value."""

PROMPT_VALUE_TYPES: Final[tuple[type, ...]] = (StringPromptValue, ChatPromptValue, *MESSAGE_TYPES)
"""Prompt values and everything they hold: an allowlist for ``serialization.loads``."""
