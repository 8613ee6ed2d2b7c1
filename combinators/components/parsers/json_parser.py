"""``JsonOutputParser``: JSON replies as values, streamed as partial values or patches.

While the reply streams, the parser yields the value of the text so far each time it
changes (by ``==``, as the peer): open strings, arrays and objects are closed, markdown
fences stripped, and the reading per chunk is proportional to the chunk
(``partial_json.PartialJsonReader``). ``diff=True`` yields at the same moments, the JSON
Patch operations from the value last yielded (so ``[1`` then ``[1.0`` yields once).

>>> parser = JsonOutputParser()
>>> list(parser.transform(['{"a"', ': [1', ', 2]', ', "b": "x', 'yz"}']))
[{}, {'a': [1]}, {'a': [1, 2]}, {'a': [1, 2], 'b': 'x'}, {'a': [1, 2], 'b': 'xyz'}]
>>> list(JsonOutputParser(diff=True).transform(['{"a": [1, 2], ', '"b": "xyz"}']))
[[{'op': 'replace', 'path': '', 'value': {'a': [1, 2]}}], [{'op': 'add', 'path': '/b', 'value': 'xyz'}]]

With a schema (an attrs class or a TypedDict), ``invoke`` returns a value of that type,
checked against the type's JSON Schema (required fields, field types), and the stream
yields only values of that type: each changed partial value once it fits the schema.

Deliberate differences from the peer, each so that no result lies about its type and
a stream fails when ``invoke`` would: with a schema the result is the typed value (the
peer's ``pydantic_object`` only shapes the format instructions and still returns a
dict), and partial values that do not fit the schema yet are not yielded; ``diff=True``
takes no schema; a stream whose text never holds JSON raises ``OutputParserError`` at
its end (the peer's stream just ends empty).

Another, so that a long reply streams in linear time: the values are the peer's, but
successive values share their completed parts (each yield copies only the containers
still being filled; the peer's are whole new values, and a whole copy per yield would
make a stream quadratic). Copy a value before mutating it if you keep earlier ones;
mutating one never changes when the next ones come nor what ``invoke`` returns, and
``diff=True`` (operations that are copies) suits long replies.

>>> values = list(JsonOutputParser().transform(['{"items": [{"id": 1}', ', {"id": 2}', "]}"]))
>>> values  # the peer's values
[{'items': [{'id': 1}]}, {'items': [{'id': 1}, {'id': 2}]}]
>>> values[0]["items"][0] is values[1]["items"][0], values[0]["items"] is values[1]["items"]
(True, False)
"""

from __future__ import annotations

import enum
import functools
import json
import types
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    Final,
    Literal,
    TypeVar,
    Union,
    cast,
    final,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
    Unpack,
    overload,
)

import attrs

from combinators.components.run_fields import NamedRunFields, RunFieldsKwargs, set_run_fields
from combinators.components.messages.message_classes import BaseMessage
from combinators.components.parsers.base import GenerationLike
from combinators.components.parsers.text import OutputParserError, reply_text
from combinators.components.partial_json.patches import changes, json_copy, value_of
from combinators.components.partial_json.reader import (
    JsonValue,
    PartialJsonReader,
    json_diff,
    parse_json_markdown,
)
from combinators.components.partial_json.patches import same_value
from combinators.components.partial_json.marks import NO_VALUE, JsonTooDeepError, Mark, Outcome
from combinators.authoring import init_fields
from combinators.authoring import type_schema
from combinators import Runnable
from effects.errors import InputError
from effects.authoring import Scope
from effects.authoring import closing, is_dict, is_list

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

T = TypeVar("T")
S = TypeVar("S")

_SHOWN_CHARS: Final = 200
_FORMAT: Final = (
    "Reply with one JSON value that conforms to the JSON Schema below, and nothing else: "
    "no explanations, no Markdown code fences, no text before or after the JSON.\n\n"
    "The JSON Schema (in a code block for readability only):\n```\n{schema}\n```"
)


def _shown(text: str) -> str:
    # A reply can be long; errors show its beginning.
    return repr(text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "...")


def schema_type_check(schema: object) -> dict[str, Any]:
    """The JSON Schema of a parser's schema type: an attrs class or a TypedDict.

    >>> import attrs
    >>> @attrs.frozen
    ... class Point:
    ...     x: int
    >>> schema_type_check(Point)["required"]
    ['x']
    >>> schema_type_check(int)
    Traceback (most recent call last):
    ...
    TypeError: a JSON parser's schema must be an attrs class or a TypedDict, got <class 'int'>
    """
    if isinstance(schema, type) and (attrs.has(schema) or is_typeddict(schema)):
        return type_schema(schema)
    raise TypeError(f"a JSON parser's schema must be an attrs class or a TypedDict, got {schema!r}")


def json_validator(schema: Mapping[str, Any]) -> Validator:
    """A JSON Schema (2020-12) validator for ``schema``.

    >>> json_validator({"type": "integer"}).is_valid(1)
    True
    """
    # Imported here: jsonschema costs ~0.1 s to import, paid only by parsers with a schema.
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema)


def typed_value(annotation: object, value: object) -> object:
    """The Python value that JSON ``value`` (already valid for ``annotation``'s schema)
    stands for: attrs classes built (nested ones, lists and optionals included), keys
    they do not declare left out; TypedDicts and other JSON left as they are.

    >>> import attrs
    >>> @attrs.frozen
    ... class Point:
    ...     x: int
    >>> typed_value(list[Point], [{"x": 1, "label": "a"}])
    [Point(x=1)]
    """
    unchanged = value
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is Union or origin is types.UnionType:
        for arm in args:
            if json_validator(type_schema(arm)).is_valid(cast(JsonValue, value)):
                return typed_value(arm, value)
        return unchanged
    if origin in (list, Sequence, tuple, set, frozenset) and is_list(value):
        items = value
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return tuple(typed_value(arm, item) for arm, item in zip(args, items, strict=False))
        built = [typed_value(args[0] if args else object, item) for item in items]
        if origin is tuple or origin is set or origin is frozenset:
            return tuple(built) if origin is tuple else set(built) if origin is set else frozenset(built)
        return built  # a list or a Sequence
    if origin in (dict, Mapping) and is_dict(value) and len(args) == 2:
        entries = value
        return {key: typed_value(args[1], item) for key, item in entries.items()}
    if isinstance(annotation, type) and is_dict(value):
        fields = value
        if attrs.has(annotation):
            hints = get_type_hints(annotation)
            init = {
                field.alias: typed_value(hints.get(field.name, object), fields[field.name])
                for field in attrs.fields(annotation)
                if field.init and field.name in fields
            }
            return annotation(**init)
        if is_typeddict(annotation):
            hints = get_type_hints(annotation)
            return {key: typed_value(hints.get(str(key), object), item) for key, item in fields.items()}
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return annotation(value)
    return unchanged


@final
@attrs.frozen(init=False, repr=False)
class JsonOutputParser(NamedRunFields, Runnable[str | BaseMessage, T]):
    """Parses a JSON reply (fenced or not, possibly cut short) into a value.

    ``JsonOutputParser()`` gives ``JsonValue``; ``JsonOutputParser(Joke)`` gives ``Joke``.
    As the peer's, ``JsonOutputParser(pydantic_object=Model)`` still gives plain JSON and
    tells the model the pydantic class's JSON Schema (pydantic is only needed by the
    caller who passes such a class).

    >>> JsonOutputParser().invoke('```json\\n{"a": 1}\\n```')
    {'a': 1}
    >>> JsonOutputParser().invoke("nope")
    Traceback (most recent call last):
    ...
    combinators.components.parsers.text.OutputParserError: Invalid json output: nope
    """

    run_type = "parser"
    input_known_at_start = False

    schema: type[T] | None
    diff: bool
    pydantic_object: type[Any] | None = None

    @overload
    def __init__(
        self: JsonOutputParser[JsonValue],
        schema: None = None,
        *,
        diff: bool = False,
        pydantic_object: type[Any] | None = None,
        **run_fields: Unpack[RunFieldsKwargs],
    ) -> None: ...

    @overload
    def __init__(
        self: JsonOutputParser[S],
        schema: type[S],
        *,
        diff: Literal[False] = False,
        **run_fields: Unpack[RunFieldsKwargs],
    ) -> None: ...

    def __init__(
        self,
        schema: type[Any] | None = None,
        *,
        diff: bool = False,
        pydantic_object: type[Any] | None = None,
        **run_fields: Unpack[RunFieldsKwargs],
    ) -> None:
        if schema is not None:
            if diff:
                raise ValueError("diff=True streams JSON patch operations; it takes no schema")
            schema_type_check(schema)
        if pydantic_object is not None and not callable(getattr(pydantic_object, "model_json_schema", None)):
            raise InputError(
                f"JsonOutputParser(pydantic_object=...) expects a pydantic model class, got {pydantic_object!r}"
            )
        init_fields(self, schema, bool(diff), pydantic_object)
        set_run_fields(self, **run_fields)

    @functools.cached_property
    def _validator(self) -> Validator | None:
        return None if self.schema is None else json_validator(type_schema(self.schema))

    def get_format_instructions(self) -> str:
        """What to tell the model: the JSON Schema (without its top-level title and type).

        >>> JsonOutputParser().get_format_instructions()
        'Return a JSON object.'
        """
        if self.pydantic_object is not None:
            described: dict[str, Any] = self.pydantic_object.model_json_schema()
        elif self.schema is None:
            return "Return a JSON object."
        else:
            described = type_schema(self.schema)
        schema = {k: v for k, v in described.items() if k not in ("title", "type")}
        return _FORMAT.format(schema=json.dumps(schema, ensure_ascii=False))

    def _typed(self, value: JsonValue, text: str) -> T:
        validator = self._validator
        if validator is None or self.schema is None:
            return cast(T, value)
        problem = next(iter(validator.iter_errors(value)), None)
        name = self.schema.__name__
        if problem is not None:
            raise OutputParserError(
                f"Failed to parse {name} from completion {_shown(text)}. Got: {problem.message}", text
            )
        try:
            return cast(T, typed_value(self.schema, value))
        except (TypeError, ValueError) as error:  # an attrs validator or converter refused it
            raise OutputParserError(
                f"Failed to parse {name} from completion {_shown(text)}. Got: {error}", text
            ) from error

    def _partial(self, value: JsonValue) -> T | None:
        """``value`` as a ``T`` if it fits the schema already (``None`` if not yet)."""
        validator = self._validator
        if validator is None or self.schema is None:
            return cast(T, value)
        if not validator.is_valid(value):
            return None
        try:
            return cast(T, typed_value(self.schema, value))
        except (TypeError, ValueError):
            return None

    def parse(self, text: str) -> T:
        """The value of a whole reply's text.

        >>> JsonOutputParser().parse('{"a": [1, 2')
        {'a': [1, 2]}
        """
        try:
            value = parse_json_markdown(text)
        except JsonTooDeepError as error:
            raise OutputParserError(f"Invalid json output: {error.msg}: {_shown(text)}", text) from None
        except json.JSONDecodeError:
            raise OutputParserError(f"Invalid json output: {text.strip()}", text) from None
        return self._typed(value, text)

    def parse_result(self, result: Sequence[GenerationLike], *, partial: bool = False) -> T | None:
        """The value of the first generation's text; with ``partial=True``, the value so
        far of a cut-off text, or ``None`` when it holds none yet (no error).

        >>> from combinators.outputs import Generation
        >>> JsonOutputParser().parse_result([Generation('{"a": [1, 2')], partial=True)
        {'a': [1, 2]}
        """
        if not result:
            raise ValueError("JsonOutputParser.parse_result needs at least one generation")
        text = result[0].text
        if not partial:
            return self.parse(text)
        value = _value_or_none(text)
        return None if value is None else self._partial(value)

    def parse_partial_result(self, result: Sequence[GenerationLike]) -> T | None:
        """``parse_result(result, partial=True)``.

        >>> from combinators.outputs import Generation
        >>> JsonOutputParser().parse_partial_result([Generation("not json")]) is None
        True
        """
        return self.parse_result(result, partial=True)

    def step_invoke(self, input: str | BaseMessage, scope: Scope, kwargs: Mapping[str, object]) -> T:
        return self.parse(reply_text(input, self.name))

    async def step_ainvoke(self, input: str | BaseMessage, scope: Scope, kwargs: Mapping[str, object]) -> T:
        return self.parse(reply_text(input, self.name))

    def step_stream(
        self, inputs: Iterator[str | BaseMessage], scope: Scope, kwargs: Mapping[str, object]
    ) -> Iterator[T]:
        reading = _Reading(self)
        for chunk in inputs:
            yield from reading.push(chunk)
        yield from reading.finish()

    async def step_astream(
        self, inputs: AsyncIterator[str | BaseMessage], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[T]:
        reading = _Reading(self)
        async with closing(inputs) as chunks:
            async for chunk in chunks:
                for out in reading.push(chunk):
                    yield out
        for out in reading.finish():
            yield out

    def __repr__(self) -> str:
        shown = [] if self.schema is None else [self.schema.__name__]
        if self.diff:
            shown.append("diff=True")
        if self.pydantic_object is not None:
            shown.append(f"pydantic_object={self.pydantic_object.__name__}")
        return f"JsonOutputParser({', '.join(shown)})"


def _value_or_none(text: str) -> JsonValue:
    try:
        return parse_json_markdown(text)
    except json.JSONDecodeError:
        return None


@final
class _Reading:
    """One streamed reply being parsed: what changed with each chunk."""

    __slots__ = ("parser", "reader", "pieces", "last", "kept", "shown", "reread")

    def __init__(self, parser: JsonOutputParser[Any]) -> None:
        self.parser = parser
        self.reader = PartialJsonReader(markdown=True)
        self.pieces: list[str] = []  # the raw text, for an error message at the end
        self.last: Mark | None = None  # the moment of the value's last change
        self.kept: Outcome = NO_VALUE  # the last value the reader kept
        self.shown = False  # whether the value so far was yielded (plain mode)
        self.reread: tuple[int, JsonValue] | None = None
        """With a repeated key: the value of the text of that many pieces, read anew."""

    def push(self, chunk: object) -> tuple[Any, ...]:
        parser = self.parser
        piece = reply_text(chunk, parser.name)
        self.pieces.append(piece)
        try:
            self.reader.feed(piece)
        except json.JSONDecodeError as error:  # nested too deep to stay safe
            text = "".join(self.pieces)
            raise OutputParserError(f"Invalid json output: {error.msg}: {_shown(text)}", text) from None
        if parser.diff:
            return self._operations()
        # Whether to yield is decided on our own moment of the stream (a mark: the open
        # containers and their lengths, no copy), compared by ``==`` as the peer compares
        # re-parsed prefixes, in time proportional to what changed; the value yielded is
        # built from it (copies of the open containers). A consumer changing it cannot
        # move our decisions: its open containers are its own, and completed ones are
        # the same objects in both moments compared.
        mark = self.reader.mark()
        if mark is None:
            self.shown = False
            return ()
        kept = not mark.levels  # the reader keeps one value (complete, or at an error)
        if kept:
            if mark.leaf is self.kept:
                return ()  # the same value object: the same value
            self.kept = mark.leaf
        if not self._changed(mark):
            return ()
        given = cast(JsonValue, value_of(mark))  # a mark the reader gives has a value
        if kept:  # given out as it is: ours is a copy (made once per change of it)
            mark = Mark((), json_copy(given), mark.source, mark.rewrites)
        self.last = mark
        typed = parser._partial(given)  # pyright: ignore[reportPrivateUsage]
        self.shown = typed is not None
        return () if typed is None else (typed,)

    def _changed(self, mark: Mark) -> bool:
        if not self.reader.repeats_a_key():
            return self.last is None or not same_value(self.last, mark)
        # A repeated key drops a completed container, one the consumer may hold and have
        # changed: compare the values of the text with and without this chunk, read anew
        # (as the peer does for every chunk; repeated keys are rare). The text without
        # this chunk was read with the previous one.
        count = len(self.pieces)
        known = self.reread
        earlier = known[1] if known is not None and known[0] == count - 1 else _value_or_none("".join(self.pieces[:-1]))
        now = _value_or_none("".join(self.pieces))
        self.reread = (count, now)
        previous = None if self.last is None else value_of(self.last)
        return now != (previous if earlier is None else earlier)

    def _operations(self) -> tuple[list[dict[str, object]], ...]:
        # What changed is found along the open containers only (``patches``): no value
        # is built or compared whole, so a chunk costs what it changed, not the size
        # of the value so far.
        mark = self.reader.mark()
        if mark is None:
            return ()
        last = self.last
        if last is not None and same_value(last, mark):
            # Equal by ``==`` (``1`` then ``1.0``): nothing is yielded, and the next
            # operations start from the value last yielded, as the peer's do.
            return ()
        operations = json_diff(None, value_of(mark)) if last is None else changes(last, mark)
        if not operations:
            return ()
        self.last = mark
        return (operations,)

    def finish(self) -> tuple[Any, ...]:
        parser = self.parser
        text = "".join(self.pieces)
        try:
            value = self.reader.result()
        except json.JSONDecodeError:
            raise OutputParserError(f"Invalid json output: {text.strip()}", text) from None
        if parser.schema is None:
            return ()
        typed = parser._typed(value, text)  # pyright: ignore[reportPrivateUsage]  # raises if it does not fit
        return () if self.shown else (typed,)
