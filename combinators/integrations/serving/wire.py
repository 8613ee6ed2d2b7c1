"""The wire form of values: LangServe's (0.3), which LangChain's own clients revive.

JSON data (``None``, bools, numbers, strings, lists, dicts with str keys) travels as
itself. The values LangChain has classes for (messages and their chunks, documents,
prompt values, generations) travel as LangServe writes them: their field dict with
LangChain's snake_case names and a ``type`` tag (``"human"``, ``"ai"``,
``"AIMessageChunk"``, ``"Document"``, ``"ChatPromptValueConcrete"``, ...; see
``wire_values``). The values LangChain has no class for (an agent's result, its steps
and tool outcomes, why it stopped, ``returns``' ``Success`` / ``Failure``) travel in the
documented forms of ``wire_forms``, never a ``repr``. Your own attrs classes travel in
this library's envelope (``{"__combinators__": 1, "type": "constructor", "id": ..., "kwargs":
...}``); a user dict that has the key ``"__combinators__"`` is escaped, so it stays data.
Secrets are redacted; tuples travel as lists; UUIDs, datetimes, bytes, enums, sets,
dataclasses and floats that are not finite travel in their ``to_jsonable`` reading form,
which is data with no way back. ``Some`` / ``Nothing`` and pydantic models travel in the
forms of ``wire_forms``. Any other object (a class of your own that is not attrs, a
client, a file) has **no wire form**: ``to_wire`` raises ``NoWireForm`` naming its type,
and the server answers ``OutputNotEncodable`` (never the object's ``repr``, which shows
whatever its class chose to, a key or an exception's text included).

An exception inside a value (a ``Failure``'s error, a tool outcome's, a batch's with
``return_exceptions``, one in a dict, list, set or record) travels as the server's error
map answers it, like an error body (``errors.error_value``): ``{"type": "error",
"error_type": <its class name>, "message": <the message the map allows>}``, never its own
text, an upstream body or a URL. In-process code never comes here: its values keep their
exceptions.

``from_wire`` reads the same form back: a dict with a known ``type`` tag becomes that
class **only when it validates as it** (its keys are the class's fields, its values pass
the constructor) and the class is allowed (``WIRE_TYPES`` by default); envelopes of
allowed classes (and records of the older envelope-only format) are rebuilt; anything
else stays the data it is. This ends the older rule that plain dicts are never
reinterpreted: ``{"type": "human", "content": "hi"}`` arrives as a ``HumanMessage``, as
it does on a LangServe server.

>>> from combinators.messages import HumanMessage
>>> wire = to_wire({"message": HumanMessage("hi"), "plain": {"role": "user"}})
>>> wire["message"]["type"], wire["message"]["content"], wire["plain"]
('human', 'hi', {'role': 'user'})
>>> from_wire(wire) == {"message": HumanMessage("hi"), "plain": {"role": "user"}}
True
>>> from_wire({"type": "human", "content": "hi"})
HumanMessage('hi')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Final

import attrs

from combinators.components.secrets import SET_BY_LOADS, Secret
from combinators.components.serialization import MARKER, VERSION, MAX_DEPTH, from_data, type_id
from combinators.agents import ToolAgentAction
from combinators.documents import Document
from combinators.integrations.serving.errors import ErrorMap, error_value
from combinators.integrations.serving.wire_forms import NoWireForm, form_writer
from combinators.integrations.serving.wire_values import is_part, read_value, table_entry, write_part, write_value
from combinators.load import DataTooDeepError, DisallowedTypeError, MalformedDataError
from combinators.outputs import ChatGeneration, Generation
from combinators.prompt_values import PROMPT_VALUE_TYPES
from effects.authoring import is_dict, is_list, is_mapping, is_str_mapping
from effects.projections import JsonValue, compact_json, to_jsonable

WIRE_TYPES: Final[tuple[type, ...]] = (*PROMPT_VALUE_TYPES, Document, Generation, ChatGeneration, ToolAgentAction)
"""The classes ``from_wire`` rebuilds by default: messages and their parts, prompt values,
documents, generations, an ``AgentExecutor``'s tool-agent actions."""

ErrorForm = Callable[[BaseException], JsonValue]
_Writer = Callable[[object, str | None, int, ErrorForm], JsonValue]


def _default_errors(error: BaseException) -> JsonValue:
    return error_value(error, None)


def to_wire(value: object, error_map: ErrorMap | None = None) -> JsonValue:
    """The wire form of ``value`` (see the module docstring); raises only
    ``DataTooDeepError`` for a value nested deeper than ``MAX_DEPTH`` levels. An
    exception anywhere inside ``value`` is written as ``error_map`` (or the default)
    answers it (``error_value``), never with its own text.

    >>> to_wire(("a", 1.5, float("nan")))
    ['a', 1.5, 'NaN']
    >>> from returns.result import Failure, Success
    >>> to_wire({"sum": Success(84)})
    {'sum': {'ok': True, 'value': 84}}
    >>> to_wire(Failure(ValueError("GET https://internal/x?key=sk-live-1")))
    {'ok': False, 'error': {'type': 'error', 'error_type': 'ValueError', 'message': 'Internal Server Error'}}
    >>> to_wire({"client": object()})
    Traceback (most recent call last):
    ...
    combinators.integrations.serving.wire_forms.NoWireForm: a object has no JSON form
    """
    if value is None or type(value) is str or type(value) is int or type(value) is bool:
        return value  # most chunks: no walk at all
    if error_map is None:
        return _write(value, None, MAX_DEPTH, _default_errors)

    def errors(error: BaseException) -> JsonValue:
        return error_value(error, error_map)

    return _write(value, None, MAX_DEPTH, errors)


def _write(value: object, key: str | None, room: int, errors: ErrorForm) -> JsonValue:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else to_jsonable(value)
    if room < 1:
        raise DataTooDeepError(f"the value nests deeper than {MAX_DEPTH} levels")
    return _writer(type(value))(value, key, room, errors)


_WRITERS: dict[type[object], _Writer] = {}


def _writer(cls: type[object]) -> _Writer:
    """How values of ``cls`` are written (chosen once per class)."""
    writer = _WRITERS.get(cls)
    if writer is None:
        writer = _WRITERS[cls] = _choose(cls)
    return writer


def _choose(cls: type[object]) -> _Writer:
    if issubclass(cls, BaseException):  # before attrs: an attrs exception's fields are its text too
        return _exception
    if table_entry(cls) is not None:
        return lambda value, _, room, errors: write_value(value, lambda item: _write(item, None, room - 1, errors))
    if is_part(cls):
        return lambda value, _, room, errors: write_part(value, lambda item: _write(item, None, room - 1, errors))
    form = form_writer(cls)
    if form is not None:
        return lambda value, _, room, errors: form(value, lambda item: _write(item, None, room - 1, errors))
    if issubclass(cls, Secret):
        return lambda _, key, __, ___: {MARKER: VERSION, "type": "secret", "name": key}
    if attrs.has(cls):
        return _envelope
    if issubclass(cls, (list, tuple)):
        return lambda value, _, room, errors: [_write(item, None, room - 1, errors) for item in value]  # type: ignore[attr-defined]
    return _other


def _exception(value: object, _: str | None, __: int, errors: ErrorForm) -> JsonValue:
    return errors(value) if isinstance(value, BaseException) else to_jsonable(value, error_form=errors)


def _envelope(value: object, _: str | None, room: int, errors: ErrorForm) -> JsonValue:
    cls = type(value)
    if not attrs.has(cls):  # the writer of attrs classes only
        raise TypeError(f"not an attrs class: {cls.__name__}")
    kwargs: dict[str, JsonValue] = {
        field.alias: _write(getattr(value, field.name), field.alias, room - 2, errors)
        for field in attrs.fields(cls)
        if field.init and SET_BY_LOADS not in field.metadata
    }
    return {MARKER: VERSION, "type": "constructor", "id": type_id(cls), "kwargs": kwargs}


def _other(value: object, key: str | None, room: int, errors: ErrorForm) -> JsonValue:
    if is_mapping(value) and is_str_mapping(value):
        if MARKER in value:  # user data that looks like an envelope stays data
            pairs: list[JsonValue] = [[k, _write(item, k, room - 3, errors)] for k, item in value.items()]
            return {MARKER: VERSION, "type": "escaped", "items": pairs}
        return {k: _write(item, k, room - 1, errors) for k, item in value.items()}
    # Sets, dataclasses, other keys: exceptions in them scrubbed, forms of ours inside them
    # written, and a value with no form refused (NoWireForm), never shown by its repr.
    return to_jsonable(value, error_form=errors, other_form=lambda item: _known(item, room - 1, errors))


def _known(value: object, room: int, errors: ErrorForm) -> JsonValue:
    """A value ``to_jsonable`` has no form for, in its wire form if it has one."""
    if _writer(type(value)) is _other:
        raise NoWireForm(type(value))
    return _write(value, None, room, errors)


def wire_text(value: object, error_map: ErrorMap | None = None) -> str:
    """The wire form as compact one-line JSON text (what frames and bodies carry).

    >>> wire_text({"a": [1, None]})
    '{"a":[1,null]}'
    """
    return compact_json(to_wire(value, error_map))


class WireTypes:
    """An allowlist of classes that ``from_wire`` may rebuild.

    >>> from combinators.messages import AIMessage
    >>> WireTypes([AIMessage]).allows("combinators.components.AIMessage")
    True
    """

    __slots__ = ("_classes", "_set")

    def __init__(self, classes: Iterable[type]) -> None:
        self._classes: dict[str, type] = {type_id(cls): cls for cls in classes}
        self._set = frozenset(self._classes.values())

    def allows(self, class_id: object) -> bool:
        """Whether an envelope with this id is rebuilt.

        >>> WireTypes([]).allows("x.Y")
        False
        """
        return isinstance(class_id, str) and class_id in self._classes

    @property
    def classes(self) -> tuple[type, ...]:
        """The allowed classes.

        >>> WireTypes([int]).classes
        (<class 'int'>,)
        """
        return tuple(self._classes.values())

    @property
    def class_set(self) -> frozenset[type]:
        """The allowed classes, as a set.

        >>> int in WireTypes([int]).class_set
        True
        """
        return self._set


DEFAULT_WIRE_TYPES: Final = WireTypes(WIRE_TYPES)


def from_wire(data: object, types: WireTypes = DEFAULT_WIRE_TYPES) -> object:
    """Values from their wire form (see the module docstring); anything that is not the
    form of an allowed class stays the data it is.

    >>> from_wire({"__combinators__": 1, "type": "constructor", "id": "app.Secretive", "kwargs": {}})
    {'__combinators__': 1, 'type': 'constructor', 'id': 'app.Secretive', 'kwargs': {}}
    >>> from_wire({"type": "Document", "page_content": "fog", "metadata": {"page": 1}})
    Document(metadata={'page': 1}, page_content='fog')
    """
    return _read(data, types, MAX_DEPTH)


def _read(data: object, types: WireTypes, room: int) -> object:
    if is_list(data):
        if room < 1:
            raise DataTooDeepError(f"the value nests deeper than {MAX_DEPTH} levels")
        return [_read(item, types, room - 1) for item in data]
    if not is_dict(data):
        return data
    if room < 1:
        raise DataTooDeepError(f"the value nests deeper than {MAX_DEPTH} levels")
    if MARKER in data:
        return _read_envelope(data, types, room)
    fields = {str(key): _read(item, types, room - 1) for key, item in data.items()}
    if "type" in fields:
        built = read_value(fields, types.class_set)
        if built is not None:
            return built
    return fields


def _read_envelope(fields: Mapping[object, object], types: WireTypes, room: int) -> object:
    if fields.get("type") == "constructor":
        if not types.allows(fields.get("id")):
            return fields  # a class this side does not build stays data
        kwargs = fields.get("kwargs")
        if is_dict(kwargs):  # LangServe forms inside an envelope are read first
            fields = {**fields, "kwargs": {key: _read(item, types, room - 2) for key, item in kwargs.items()}}
    return from_data(fields, allowed=types.classes)


def wire_types(extra: Iterable[type] = ()) -> WireTypes:
    """The default allowlist plus ``extra`` classes.

    >>> import attrs
    >>> @attrs.frozen
    ... class Point:
    ...     x: int
    >>> from_wire(to_wire(Point(1)), wire_types([Point]))
    Point(x=1)
    """
    extra = tuple(extra)
    return DEFAULT_WIRE_TYPES if not extra else WireTypes((*WIRE_TYPES, *extra))


class RefusedWireValue(ValueError):
    """A request's value the server will not read: a serialized secret, or a malformed
    envelope. ``where`` is the path inside the value (keys and indexes, at most 8 shown).

    >>> RefusedWireValue("a serialized secret", ("a", 0)).where
    ('a', 0)
    """

    def __init__(self, reason: str, where: tuple[str | int, ...] = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.where = where


def _secret_path(data: object) -> tuple[str | int, ...] | None:
    """Where the first serialized secret sits in ``data``, in any wire form a server could
    read (this library's envelope, LangChain's ``{"lc": 1, "type": "secret"}``)."""
    stack: list[tuple[object, tuple[str | int, ...]]] = [(data, ())]
    while stack:  # a loop, not recursion: the data may nest deeply
        value, path = stack.pop()
        if is_dict(value):
            if value.get("type") == "secret" and (MARKER in value or value.get("lc") == 1):
                return path
            stack.extend((item, (*path, str(key))[:8]) for key, item in value.items())
        elif is_list(value):
            stack.extend((item, (*path, index)[:8]) for index, item in enumerate(value))
    return None


def from_request(data: object, types: WireTypes = DEFAULT_WIRE_TYPES) -> object:
    """``from_wire`` for what a client sent: a serialized secret anywhere in it, or an
    envelope that cannot be read, is refused (``RefusedWireValue``; the server answers 400).

    A request never carries a ``Secret``: a server reads its secrets from its own settings.

    >>> from_request({"key": {"__combinators__": 1, "type": "secret", "name": "OPENAI_API_KEY"}})
    Traceback (most recent call last):
    ...
    combinators.integrations.serving.wire.RefusedWireValue: a request may not carry a serialized secret
    """
    if data is None or type(data) is str or type(data) is int or type(data) is bool:
        return data
    where = _secret_path(data)
    if where is not None:
        raise RefusedWireValue("a request may not carry a serialized secret", where)
    try:
        return from_wire(data, types)
    except (MalformedDataError, DisallowedTypeError):
        raise RefusedWireValue("a serialized value in the request cannot be read") from None
