"""Structured output: a JSON Schema ``response_format``, and a parser back to the type.

``with_structured_output(schema)`` asks the server for JSON that follows the schema
(the protocol's ``{"type": "json_schema", ...}`` response format) and parses the
reply into the type: an attrs class (nested attrs classes, lists and optionals
included), a TypedDict, or a plain dict for a JSON Schema given as a dict.

>>> import attrs
>>> @attrs.frozen
... class City:
...     name: str
...     population: int
>>> from combinators.components.messages.message_classes import AIMessage
>>> StructuredOutputParser(City).invoke(AIMessage('{"name": "Oslo", "population": 709000}'))
City(name='Oslo', population=709000)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Generic, TypeVar, cast, final

import attrs
import jsonschema

from combinators.components.run_fields import NamedRunFields
from combinators.components.models.chat_model import ChatOutput
from combinators.components.parsers.json_parser import typed_value
from combinators.components.tools.specs import strict_schema
from combinators.authoring import type_schema
from combinators import Runnable
from effects.errors import CombinatorsError
from effects.authoring import Scope

__all__ = ["StructuredOutputError", "StructuredOutputParser", "response_format", "schema_of"]

T = TypeVar("T")


class StructuredOutputError(CombinatorsError, ValueError):
    """The model's reply is not JSON that follows the schema; ``text`` is what it said.

    >>> StructuredOutputError("not JSON", text="hi").text
    'hi'
    """

    text: str

    def __init__(self, message: str, *, text: str) -> None:
        super().__init__(message)
        self.text = text

    def __reduce__(self) -> tuple[Callable[[str, str], StructuredOutputError], tuple[str, str]]:
        return _rebuild_error, (str(self), self.text)


def _rebuild_error(message: str, text: str) -> StructuredOutputError:
    return StructuredOutputError(message, text=text)


def schema_of(schema: type[object] | Mapping[str, object]) -> dict[str, object]:
    """The JSON Schema of an attrs class, a TypedDict, or a schema dict (copied).

    >>> from typing import TypedDict
    >>> class Answer(TypedDict):
    ...     text: str
    >>> schema_of(Answer)
    {'type': 'object', 'properties': {'text': {'type': 'string'}}, 'required': ['text'], 'title': 'Answer'}
    """
    if isinstance(schema, Mapping):
        return dict(schema)
    found = type_schema(schema)
    if found.get("type") != "object":
        raise TypeError(f"structured output needs an attrs class, a TypedDict or a JSON Schema dict, got {schema!r}")
    return found


def response_format(schema: type[object] | Mapping[str, object], *, strict: bool | None = None) -> dict[str, object]:
    """The ``response_format`` request field for a schema.

    >>> response_format({"title": "Answer", "type": "object", "properties": {}}, strict=True)["json_schema"]
    {'name': 'Answer', 'schema': {'title': 'Answer', 'type': 'object', 'properties': {}, 'additionalProperties': False}, 'strict': True}
    """
    found = schema_of(schema)
    name = found.get("title") or getattr(schema, "__name__", None) or "output"
    json_schema: dict[str, object] = {"name": str(name), "schema": strict_schema(found) if strict else found}
    if strict is not None:
        json_schema["strict"] = strict
    return {"type": "json_schema", "json_schema": json_schema}


def _text(message: ChatOutput) -> str:
    return message.text


@final
@attrs.frozen
class StructuredOutputParser(NamedRunFields, Runnable[ChatOutput, T], Generic[T]):
    """Parses a model's JSON reply into ``schema``'s type (checked against its JSON Schema).

    >>> from combinators.components.messages.message_classes import AIMessage
    >>> StructuredOutputParser({"type": "object", "required": ["a"]}).invoke(AIMessage('{"b": 1}'))
    Traceback (most recent call last):
    ...
    combinators.integrations.openai.structured.StructuredOutputError: the reply does not follow the schema: 'a' is a required property
    """

    schema: type[T] | Mapping[str, object]
    run_type = "parser"

    @property
    def _key(self) -> object:
        return json.dumps(dict(self.schema), sort_keys=True) if isinstance(self.schema, Mapping) else self.schema

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StructuredOutputParser) and self._key == other._key

    def __hash__(self) -> int:
        return hash((StructuredOutputParser, self._key))

    def parse(self, text: str) -> T:
        """The value a JSON text stands for.

        >>> StructuredOutputParser({"type": "object"}).parse('{"x": [1]}')
        {'x': [1]}
        """
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise StructuredOutputError(f"the reply is not JSON ({error}): {text[:200]!r}", text=text) from error
        try:
            jsonschema.validate(value, schema_of(self.schema))
        except jsonschema.ValidationError as error:
            raise StructuredOutputError(f"the reply does not follow the schema: {error.message}", text=text) from error
        # A TypeVar's value: what the schema says, checked against its JSON Schema above.
        return cast(T, value if isinstance(self.schema, Mapping) else typed_value(self.schema, value))

    def step_invoke(self, input: ChatOutput, scope: Scope, kwargs: Mapping[str, object]) -> T:
        return self.parse(_text(input))
