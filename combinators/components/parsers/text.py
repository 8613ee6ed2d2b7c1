"""Output parsers: stream transforms from a model's reply (text or messages) to values.

A parser is a runnable of run type ``parser`` that reads its input as a stream: in a
streaming chain it starts on the first chunk and yields as it reads, so its events
show no input at start (the peer's behaviour) and the added-up input at the end.

>>> from combinators.components.models.fakes import GenericFakeChatModel, Script
>>> chain = GenericFakeChatModel(Script(["hello there"])) | StrOutputParser()
>>> list(chain.stream("hi"))
['hello', ' ', 'there']

``JsonOutputParser`` is in ``json_parser``. The peer's structured parsers check a reply's
JSON object for keys with ``parse_and_check_json_markdown`` (fenced or not):

>>> parse_and_check_json_markdown('```json\\n{"answer": 4, "why": "2+2"}\\n```', ["answer"])
{'answer': 4, 'why': '2+2'}
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any, cast, final

import attrs

from combinators.components.run_fields import NamedRunFields
from combinators.components.messages.message_classes import BaseMessage
from combinators.components.partial_json.reader import parse_json_markdown
from combinators import Runnable
from effects.errors import CombinatorsError, InputError
from effects.authoring import Scope
from effects.authoring import closing


class OutputParserError(CombinatorsError, ValueError):
    """A reply could not be parsed; ``llm_output`` is the raw text that failed.

    >>> error = OutputParserError("Invalid json output: nope", "nope")
    >>> str(error), error.llm_output
    ('Invalid json output: nope', 'nope')
    """

    def __init__(self, message: str, llm_output: str) -> None:
        super().__init__(message)
        self.llm_output = llm_output

    def __reduce__(self) -> tuple[type[OutputParserError], tuple[str, str]]:
        return type(self), (str(self), self.llm_output)


def reply_text(value: object, parser: str) -> str:
    """The text of a model reply: a str as is, a message's ``.text``.

    >>> from combinators.components.messages.message_classes import AIMessage
    >>> reply_text(AIMessage([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]), "P")
    'ab'
    >>> reply_text(3, "P")
    Traceback (most recent call last):
    ...
    effects.errors.InputError: P expects a str or a message, got int
    """
    if isinstance(value, str):
        return value
    if isinstance(value, BaseMessage):
        return value.text
    raise InputError(f"{parser} expects a str or a message, got {type(value).__name__}")


@final
@attrs.frozen
class StrOutputParser(NamedRunFields, Runnable[str | BaseMessage, str]):
    """The text of a reply: a message's ``.text`` (text blocks joined), a str as is.

    Streams chunk by chunk, empty chunks included.

    >>> from combinators.components.messages.message_classes import AIMessage
    >>> StrOutputParser().invoke(AIMessage("hi"))
    'hi'
    """

    run_type = "parser"
    input_known_at_start = False

    def step_invoke(self, input: str | BaseMessage, scope: Scope, kwargs: Mapping[str, object]) -> str:
        return reply_text(input, self.name)

    async def step_ainvoke(self, input: str | BaseMessage, scope: Scope, kwargs: Mapping[str, object]) -> str:
        return reply_text(input, self.name)

    def step_stream(
        self, inputs: Iterator[str | BaseMessage], scope: Scope, kwargs: Mapping[str, object]
    ) -> Iterator[str]:
        name = self.name
        for chunk in inputs:
            yield reply_text(chunk, name)

    async def step_astream(
        self, inputs: AsyncIterator[str | BaseMessage], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[str]:
        name = self.name
        async with closing(inputs) as chunks:
            async for chunk in chunks:
                yield reply_text(chunk, name)


def parse_and_check_json_markdown(text: str, expected_keys: Sequence[str]) -> dict[str, Any]:
    """The JSON object in ``text``; not JSON, not an object or a key missing raises
    ``OutputParserError`` (the peer's ``OutputParserException``) carrying the text.

    >>> parse_and_check_json_markdown('{"a": 1}', ["a", "b"])
    Traceback (most recent call last):
    ...
    combinators.components.parsers.text.OutputParserError: Got invalid return object. Expected key `b` to be present, but got {'a': 1}
    """
    try:
        value = parse_json_markdown(text)
    except json.JSONDecodeError as error:
        raise OutputParserError(f"Got invalid JSON object. Error: {error}", text) from error
    if not isinstance(value, dict):
        raise OutputParserError(f"Expected JSON object (dict), but got: {type(value).__name__}. ", text)
    found = cast("dict[str, Any]", value)
    for key in expected_keys:
        if key not in found:
            raise OutputParserError(
                f"Got invalid return object. Expected key `{key}` to be present, but got {found}", text
            )
    return found
