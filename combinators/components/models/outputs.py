"""What a model generated, in the peer's shapes: ``Generation`` (text) and
``ChatGeneration`` (a message), as output parsers' ``parse_result`` takes them.

>>> from combinators.components.messages.values import AIMessage
>>> Generation("hi").text, ChatGeneration(AIMessage("yo")).text
('hi', 'yo')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias, final

import attrs

from combinators.components.messages.values import BaseMessage


def _info(value: Mapping[str, object] | None) -> Mapping[str, object] | None:
    return None if value is None else dict(value)


@final
@attrs.frozen
class Generation:
    """A text a model generated.

    >>> Generation("42", generation_info={"finish_reason": "stop"}).generation_info
    {'finish_reason': 'stop'}
    """

    text: str
    generation_info: Mapping[str, object] | None = attrs.field(default=None, converter=_info, hash=False)


@final
@attrs.frozen
class ChatGeneration:
    """A message a chat model generated; its ``text`` is the message's text.

    >>> from combinators.components.messages.values import AIMessage
    >>> ChatGeneration(AIMessage([{"type": "text", "text": "a"}])).text
    'a'
    """

    message: BaseMessage
    generation_info: Mapping[str, object] | None = attrs.field(default=None, converter=_info, hash=False)

    @property
    def text(self) -> str:
        """The message's text."""
        return self.message.text


GenerationLike: TypeAlias = "Generation | ChatGeneration"
"""Either kind of generation."""


def generation_of(output: object) -> GenerationLike:
    """A generation for a model's output: a message, or text.

    >>> from combinators.components.messages.values import AIMessageChunk
    >>> generation_of("hi"), generation_of(AIMessageChunk("x")).text
    (Generation(text='hi', generation_info=None), 'x')
    """
    if isinstance(output, str):
        return Generation(output)
    if isinstance(output, BaseMessage):
        return ChatGeneration(output)
    raise TypeError(f"a generation is made of text or a message, got {type(output).__name__}")


__all__ = ["ChatGeneration", "Generation", "GenerationLike", "generation_of"]
