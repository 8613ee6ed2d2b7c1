"""``BaseOutputParser``: the base of parsers written as classes, as LangChain users write
theirs: implement ``parse(text)`` (or ``parse_result(generations, partial=...)``).

>>> class Csv(BaseOutputParser[list[str]]):
...     def parse(self, text: str) -> list[str]:
...         return [part.strip() for part in text.split(",")]
>>> Csv().invoke("a, b,c")
['a', 'b', 'c']

A subclass declares its fields as annotated class attributes (it becomes a frozen attrs
class) and runs as a ``parser`` run. It reads its whole input, then parses it (stream
transforms such as ``JsonOutputParser`` parse as the text streams).

What ``parse_result`` takes is what a model generated, in the peer's shapes:
``Generation`` (text) and ``ChatGeneration`` (a message).

>>> from combinators.messages import AIMessage
>>> Generation("hi").text, ChatGeneration(AIMessage("yo")).text
('hi', 'yo')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias, TypeVar, final

import attrs

from combinators.components.run_fields import NamedRunFields
from combinators import Runnable
from combinators.authoring import DeclaredFields
from combinators.components.messages.message_classes import BaseMessage
from effects.authoring import Scope, is_a
from effects.errors import InputError


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

    >>> from combinators.components.messages.message_classes import AIMessage
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

    >>> from combinators.components.messages.message_classes import AIMessageChunk
    >>> generation_of("hi"), generation_of(AIMessageChunk("x")).text
    (Generation(text='hi', generation_info=None), 'x')
    """
    if isinstance(output, str):
        return Generation(output)
    if isinstance(output, BaseMessage):
        return ChatGeneration(output)
    raise TypeError(f"a generation is made of text or a message, got {type(output).__name__}")


T = TypeVar("T")


class BaseOutputParser(NamedRunFields, Runnable[str | BaseMessage, T], DeclaredFields, fields=False):
    """A model's reply (text or a message) in, a parsed value out."""

    run_type = "parser"

    def parse(self, text: str) -> T:
        """Hook: the value the text stands for (raise ``OutputParserError`` when it is not one)."""
        raise NotImplementedError(f"{type(self).__name__} must implement parse or parse_result")

    def parse_result(self, result: Sequence[GenerationLike], *, partial: bool = False) -> T:
        """Hook: the value of the first generation (default: ``parse`` of its text).

        >>> from combinators.outputs import Generation
        >>> class Upper(BaseOutputParser[str]):
        ...     def parse(self, text: str) -> str:
        ...         return text.upper()
        >>> Upper().parse_result([Generation("hi")])
        'HI'
        """
        if not result:
            raise ValueError(f"{type(self).__name__}.parse_result needs at least one generation")
        return self.parse(result[0].text)

    async def aparse(self, text: str) -> T:
        """Async ``parse`` (parsing never waits)."""
        return self.parse(text)

    async def aparse_result(self, result: Sequence[GenerationLike], *, partial: bool = False) -> T:
        """Async ``parse_result``."""
        return self.parse_result(result, partial=partial)

    def get_format_instructions(self) -> str:
        """What to tell the model about the format (a parser that has something to say says it)."""
        raise NotImplementedError(f"{type(self).__name__} has no format instructions")

    @property
    def _type(self) -> str:
        """The parser's kind, as the peer's parsers name theirs (default: the class name)."""
        return type(self).__name__

    def step_invoke(self, input: str | BaseMessage, scope: Scope, kwargs: Mapping[str, Any]) -> T:
        if is_a(input, (str, BaseMessage)):  # untyped callers
            return self.parse_result([generation_of(input)])
        raise InputError(f"{self.name} expects a str or a message, got {type(input).__name__}")
