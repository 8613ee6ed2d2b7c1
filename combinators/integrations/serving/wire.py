"""The wire form of values: JSON data as itself, the library's values in an explicit envelope.

Plain JSON data (``None``, bools, numbers, strings, lists, dicts with str keys) travels
as itself and is never reinterpreted: ``{"type": "human", "content": "hi"}`` stays that
dict on both ends. An attrs value (a message, a document, a prompt value, one of yours)
travels in the envelope that ``combinators.components.dumps`` writes::

    {"__combinators__": 1, "type": "constructor", "id": "<module>.<Class>", "kwargs": {...}}

The id is the class's public name where a package root exports it
(``combinators.components.AIMessageChunk``), so it survives the library's internal moves;
other classes go by ``<module>.<qualified name>``. A user dict that has the key
``"__combinators__"`` is escaped, so it stays data; secrets are redacted; tuples travel as
lists. Anything else (exceptions, UUIDs, datetimes, bytes,
sets, floats that are not finite, other objects) travels in its ``to_jsonable`` reading
form, which is data with no way back.

``from_wire`` rebuilds envelopes of the allowed classes (``WIRE_TYPES`` by default:
messages, prompt values, documents); an envelope of any other class stays the envelope
dict it is.

>>> from combinators.messages import HumanMessage
>>> wire = to_wire({"message": HumanMessage("hi"), "plain": {"type": "human", "content": "hi"}})
>>> wire["message"]["__combinators__"], wire["plain"]
(1, {'type': 'human', 'content': 'hi'})
>>> from_wire(wire) == {"message": HumanMessage("hi"), "plain": {"type": "human", "content": "hi"}}
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, cast

from combinators.documents import Document
from combinators.load import DisallowedTypeError, MalformedDataError
from combinators.prompt_values import PROMPT_VALUE_TYPES
from combinators.components.serialization import MARKER, from_data, to_data, type_id
from effects.projections import JsonValue, compact_json, to_jsonable
from effects.authoring import is_dict, is_list

WIRE_TYPES: Final[tuple[type, ...]] = (*PROMPT_VALUE_TYPES, Document)
"""The classes ``from_wire`` rebuilds by default: messages and their parts, prompt values, documents."""


def to_wire(value: object) -> JsonValue:
    """The wire form of ``value`` (see the module docstring); never raises.

    >>> to_wire(("a", 1.5, float("nan")))
    ['a', 1.5, 'NaN']
    """
    if value is None or type(value) is str or type(value) is int or type(value) is bool:
        return value  # most chunks: no walk at all
    return cast(JsonValue, to_data(value, other=to_jsonable))


def wire_text(value: object) -> str:
    """The wire form as compact one-line JSON text (what frames and bodies carry).

    >>> wire_text({"a": [1, None]})
    '{"a":[1,null]}'
    """
    return compact_json(to_wire(value))


class WireTypes:
    """An allowlist of classes that ``from_wire`` may rebuild, by their wire id.

    >>> from combinators.messages import AIMessage
    >>> WireTypes([AIMessage]).allows("combinators.components.AIMessage")
    True
    """

    __slots__ = ("_classes",)

    def __init__(self, classes: Iterable[type]) -> None:
        self._classes: dict[str, type] = {type_id(cls): cls for cls in classes}

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


DEFAULT_WIRE_TYPES: Final = WireTypes(WIRE_TYPES)


def from_wire(data: object, types: WireTypes = DEFAULT_WIRE_TYPES) -> object:
    """Values from their wire form: envelopes of allowed classes rebuilt, the rest as data.

    >>> from_wire({"__combinators__": 1, "type": "constructor", "id": "app.Secretive", "kwargs": {}})
    {'__combinators__': 1, 'type': 'constructor', 'id': 'app.Secretive', 'kwargs': {}}
    """
    if is_list(data):
        return [from_wire(item, types) for item in data]
    if not is_dict(data):
        return data
    fields = data
    if MARKER not in fields:
        return {key: from_wire(item, types) for key, item in fields.items()}
    if fields.get("type") == "constructor" and not types.allows(fields.get("id")):
        return fields  # a class this side does not build stays data
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
