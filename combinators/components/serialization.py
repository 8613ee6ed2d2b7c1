"""JSON serialization of messages, prompt values and other attrs values, by allowlist.

``dumps`` writes JSON data as itself and an attrs value as a constructor marker::

    {"__combinators__": 1, "type": "constructor", "id": "<module>.<Class>", "kwargs": {...}}

``loads`` builds only classes in its explicit ``allowed`` list, matched by that id; it
never imports a module, never evaluates anything, never unpickles, and never reads the
environment. A dict of user data that has a ``"__combinators__"`` key is escaped by
``dumps`` (``"type": "escaped"``, its items as pairs) so it loads back as data, not as a
marker. Tuples load back as lists unless a constructor's converter makes them tuples.

A field marked ``SET_BY_LOADS`` (such as ``secrets_from_env``) is not written, and
``loads`` sets it itself: a payload that names it is malformed. So a model built from
data never reads the environment's secrets, whatever the data says.

Nesting is limited (``max_depth``, ``MAX_DEPTH`` levels of JSON arrays and objects by
default, at most ``MAX_DEPTH_LIMIT``): deeper text or values raise ``DataTooDeepError``
before anything is parsed or built, well before Python's own recursion limit.

Secrets are written redacted (``"type": "secret"`` with the name of the field or key that
held them) and load back as ``Secret.placeholder(name)`` unless ``loads`` is given the
value in ``secrets={name: Secret(...)}``.

>>> from combinators.components.messages.message_classes import MESSAGE_TYPES, AIMessage
>>> text = dumps(AIMessage("hi", id="m1"))
>>> loads(text, allowed=MESSAGE_TYPES) == AIMessage("hi", id="m1")
True
>>> loads(text, allowed=[])
Traceback (most recent call last):
combinators.components.serialization.DisallowedTypeError: cannot load 'combinators.components.AIMessage': it is not in the allowed types (allowed: none)
"""

from __future__ import annotations

import json
import math
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Final, final

import attrs

from combinators.components.run_fields import NOT_SERIALIZED, SKIPPED_WHEN_UNSET
from combinators.components.secrets import SET_BY_LOADS, Secret
from effects.deprecation import CombinatorsDeprecationWarning
from effects.errors import CombinatorsError
from effects.authoring import checked, is_a, is_dict, is_list, is_list_or_tuple, is_mapping, is_str_mapping

MARKER: Final = "__combinators__"
VERSION: Final = 1


MAX_DEPTH: Final = 100
"""How deeply JSON arrays and objects may nest in ``dumps`` output and ``loads`` input."""

MAX_DEPTH_LIMIT: Final = 500
"""The largest ``max_depth`` accepted: deeper would approach Python's recursion limit."""


class DisallowedTypeError(CombinatorsError, ValueError):
    """``loads`` met a constructor marker for a class that is not in ``allowed``."""


class MalformedDataError(CombinatorsError, ValueError):
    """``loads`` met a marker that is not well formed (or ``dumps`` met unserializable data).

    >>> issubclass(MalformedDataError, ValueError)
    True
    """


class DataTooDeepError(MalformedDataError):
    """The data nests deeper than ``max_depth`` levels (``loads`` and ``dumps``).

    >>> loads("[[[1]]]", allowed=[], max_depth=2)
    Traceback (most recent call last):
    ...
    combinators.components.serialization.DataTooDeepError: the JSON text nests deeper than 2 levels (at character 2); raise max_depth to allow it
    """


def _check_depth(max_depth: int) -> int:
    if not is_a(max_depth, int) or isinstance(max_depth, bool) or not 1 <= max_depth <= MAX_DEPTH_LIMIT:
        raise ValueError(f"max_depth must be an int from 1 to {MAX_DEPTH_LIMIT}, got {max_depth!r}")
    return max_depth


# A JSON string (escapes included) or a bracket: what counts for nesting.
_NESTING_TOKEN: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def _check_text_depth(text: str, max_depth: int) -> None:
    """Raise ``DataTooDeepError`` if JSON ``text`` nests deeper than ``max_depth``, without
    parsing it (the json module would recurse once per level)."""
    if text.count("[") + text.count("{") <= max_depth:
        return
    depth = 0
    for token in _NESTING_TOKEN.finditer(text):
        mark = token.group()
        if mark in ("[", "{"):
            depth += 1
            if depth > max_depth:
                raise DataTooDeepError(
                    f"the JSON text nests deeper than {max_depth} levels (at character {token.start()}); "
                    "raise max_depth to allow it"
                )
        elif mark in ("]", "}"):
            depth -= 1


def _too_deep(path: tuple[str, ...], max_depth: int) -> DataTooDeepError:
    where = _where(path)
    where = where if len(where) <= 60 else where[:57] + "..."
    return DataTooDeepError(
        f"cannot serialize data nested deeper than {max_depth} levels of JSON (at {where}); raise max_depth to allow it"
    )


def _homes(cls: type) -> list[str]:
    """The modules ``cls`` can be imported from: each package above its module (outermost
    first) that exports it under its own name, then its module."""
    parts = cls.__module__.split(".")
    homes: list[str] = []
    for end in range(1, len(parts)):
        package = sys.modules.get(".".join(parts[:end]))
        if package is not None and _exported(package, cls.__name__) is cls:
            homes.append(package.__name__)
    return [*homes, cls.__module__]


def _exported(package: object, name: str) -> object:
    # The ids written before the domain roots (``combinators.components.AIMessage``) stay
    # the ids: the deprecated flat namespace still counts as a home, without warning.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CombinatorsDeprecationWarning)
        return getattr(package, name, None)


def type_id(cls: type) -> str:
    """The id a class is written under: its public name, from the outermost package that
    exports it, so that moving a module does not change what was written.

    >>> type_id(Secret)
    'combinators.components.Secret'
    """
    known = _IDS.get(cls)
    if known is None:
        known = _IDS[cls] = f"{_homes(cls)[0]}.{cls.__qualname__}"
    return known


_IDS: dict[type, str] = {}


def _known_ids(cls: type) -> tuple[str, ...]:
    """Every id ``cls`` is read under: each place it can be imported from (so data written
    when it lived elsewhere in the same package still loads). Worked out once per class:
    a load then only looks ids up (no package walk, no deprecated attribute read)."""
    known = _KNOWN_IDS.get(cls)
    if known is None:
        known = _KNOWN_IDS[cls] = tuple(f"{home}.{cls.__qualname__}" for home in _homes(cls))
    return known


_KNOWN_IDS: dict[type, tuple[str, ...]] = {}


# -- dumping -------------------------------------------------------------------------------


def _where(path: tuple[str, ...]) -> str:
    return "/" + "/".join(path) if path else "the top level"


def _encode(
    value: object,
    path: tuple[str, ...],
    room: int,
    limit: int,
    other: Callable[[object], object] | None = None,
) -> object:
    """The JSON form of ``value``; ``room`` more levels of JSON nesting may open (of ``limit``)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if other is None or math.isfinite(value) else other(value)
    if room < 1:
        raise _too_deep(path, limit)
    if isinstance(value, Secret):
        return {MARKER: VERSION, "type": "secret", "name": path[-1] if path else None}
    cls = type(value)
    if attrs.has(cls):
        if room < 2:  # the marker, then its kwargs
            raise _too_deep(path, limit)
        kwargs = {
            field.alias: _encode(getattr(value, field.name), (*path, field.alias), room - 2, limit, other)
            for field in attrs.fields(cls)
            if field.init and SET_BY_LOADS not in field.metadata and _written(field, value)
        }
        return {MARKER: VERSION, "type": "constructor", "id": type_id(cls), "kwargs": kwargs}
    if is_mapping(value):
        if not is_str_mapping(value):
            if other is not None:
                return other(value)
            key = next(key for key in value if not isinstance(key, str))
            raise MalformedDataError(
                f"cannot serialize a mapping with a {type(key).__name__} key at {_where(path)}; keys must be str"
            )
        if MARKER in value:
            # User data that looks like a marker: keep it data (pairs, so no dict has the
            # key): the marker, its list of pairs, each pair, then the values.
            if room < 3:
                raise _too_deep(path, limit)
            pairs = [[key, _encode(item, (*path, key), room - 3, limit, other)] for key, item in value.items()]
            return {MARKER: VERSION, "type": "escaped", "items": pairs}
        return {key: _encode(item, (*path, key), room - 1, limit, other) for key, item in value.items()}
    if is_list_or_tuple(value):
        return [_encode(item, (*path, str(i)), room - 1, limit, other) for i, item in enumerate(value)]
    if other is not None:
        return other(value)
    raise MalformedDataError(
        f"cannot serialize a {type(value).__name__} at {_where(path)}: expected JSON data "
        "(None, bool, int, float, str, list, tuple, dict with str keys), an attrs value or a Secret"
    )


def to_data(
    value: object,
    *,
    other: Callable[[object], object] | None = None,
    max_depth: int = MAX_DEPTH,
) -> object:
    """The JSON-shaped data ``dumps`` writes (plain dicts, lists and scalars).

    ``other`` writes what is not JSON data, an attrs value or a Secret (and floats that
    are not finite); without it such a value is a ``MalformedDataError``. A class is
    written under its ``type_id``.

    >>> to_data({"__combinators__": "mine"})
    {'__combinators__': 1, 'type': 'escaped', 'items': [['__combinators__', 'mine']]}
    >>> to_data({"at": {1, 2}, "n": float("inf")}, other=repr)
    {'at': '{1, 2}', 'n': 'inf'}
    """
    max_depth = _check_depth(max_depth)
    return _encode(value, (), max_depth, max_depth, other)


def dumps(value: object, *, indent: int | None = None, max_depth: int = MAX_DEPTH) -> str:
    """Serialize ``value`` to JSON text; secrets are redacted.

    >>> dumps({"key": Secret("sk-1")})
    '{"key": {"__combinators__": 1, "type": "secret", "name": "key"}}'
    >>> dumps([[[]]], max_depth=2)
    Traceback (most recent call last):
    ...
    combinators.components.serialization.DataTooDeepError: cannot serialize data nested deeper than 2 levels of JSON (at /0/0); raise max_depth to allow it
    """
    return json.dumps(to_data(value, max_depth=max_depth), indent=indent, ensure_ascii=False)


# -- loading -------------------------------------------------------------------------------


def _allowlist(allowed: Iterable[type]) -> dict[str, type[attrs.AttrsInstance]]:
    if isinstance(allowed, (str, type)):
        raise TypeError("'allowed' must be an iterable of classes, e.g. allowed=[AIMessage]")
    classes: dict[str, type[attrs.AttrsInstance]] = {}
    for cls in allowed:
        if not is_a(cls, type) or not attrs.has(cls):
            raise TypeError(f"'allowed' may hold attrs classes only, got {cls!r}")
        classes.update((known, cls) for known in _known_ids(cls))
    return classes


@final
@attrs.frozen
class _Loader:
    classes: Mapping[str, type[attrs.AttrsInstance]]
    secrets: Mapping[str, Secret]
    max_depth: int

    def decode(self, data: object, path: tuple[str, ...], room: int) -> object:
        """``data`` rebuilt; ``room`` more levels of JSON nesting may open in it."""
        if is_list(data):
            self.check_room(path, room)
            return [self.decode(item, (*path, str(i)), room - 1) for i, item in enumerate(data)]
        if is_dict(data):
            self.check_room(path, room)
            if MARKER not in data:
                return {key: self.decode(item, (*path, str(key)), room - 1) for key, item in data.items()}
            return self.marker(data, path, room)
        return data

    def check_room(self, path: tuple[str, ...], room: int) -> None:
        if room < 1:
            where = _where(path)
            where = where if len(where) <= 60 else where[:57] + "..."
            raise DataTooDeepError(
                f"the data nests deeper than {self.max_depth} levels (at {where}); raise max_depth to allow it"
            )

    def marker(self, fields: Mapping[object, object], path: tuple[str, ...], room: int) -> object:
        kind = fields.get("type")
        expected = {"escaped": {"items"}, "secret": {"name"}, "constructor": {"id", "kwargs"}}.get(
            kind if isinstance(kind, str) else ""
        )
        if fields.get(MARKER) != VERSION or expected is None or set(fields) != {MARKER, "type", *expected}:
            raise MalformedDataError(f"malformed {MARKER} marker at {_where(path)}: {fields!r}")
        if kind == "escaped":
            pairs = _escaped_pairs(fields["items"])
            if pairs is None:
                raise MalformedDataError(f"malformed escaped mapping at {_where(path)}")
            return {key: self.decode(item, (*path, key), room - 3) for key, item in pairs}
        if kind == "secret":
            name = fields["name"]
            if name is not None and not isinstance(name, str):
                raise MalformedDataError(f"malformed secret marker at {_where(path)}")
            supplied = self.secrets.get(name) if name is not None else None
            return supplied if supplied is not None else Secret.placeholder(name)
        return self.construct(fields["id"], fields["kwargs"], path, room)

    def construct(self, class_id: object, kwargs: object, path: tuple[str, ...], room: int) -> object:
        if not isinstance(class_id, str) or not is_dict(kwargs):
            raise MalformedDataError(f"malformed constructor marker at {_where(path)}")
        cls = self.classes.get(class_id)
        if cls is None:
            allowed = ", ".join(sorted({type_id(c) for c in self.classes.values()})) or "none"
            raise DisallowedTypeError(f"cannot load {class_id!r}: it is not in the allowed types (allowed: {allowed})")
        arguments = {str(key): self.decode(item, (*path, str(key)), room - 2) for key, item in kwargs.items()}
        for field in attrs.fields(cls):
            if SET_BY_LOADS in field.metadata:
                if field.alias in arguments:
                    raise MalformedDataError(
                        f"cannot build {class_id!r} at {_where(path)}: {field.alias!r} is set by loads, never by data"
                    )
                arguments[field.alias] = field.metadata[SET_BY_LOADS]
        try:
            return cls(**arguments)
        except (TypeError, ValueError) as error:
            raise MalformedDataError(f"cannot build {class_id!r} at {_where(path)}: {error}") from error


def _written(field: attrs.Attribute[object], value: object) -> bool:
    # A component's callbacks are handlers, not data; its name, tags, metadata and verbose
    # are written only when set, so unset components write what they always wrote.
    if NOT_SERIALIZED in field.metadata:
        return False
    return SKIPPED_WHEN_UNSET not in field.metadata or bool(getattr(value, field.name))


def _escaped_pairs(items: object) -> list[tuple[str, object]] | None:
    """An escaped mapping's ``[key, value]`` pairs, or None when they are malformed."""
    if not is_list(items):
        return None
    pairs: list[tuple[str, object]] = []
    for pair in items:
        if not is_list(pair) or len(pair) != 2:
            return None
        key, value = pair
        if not isinstance(key, str):
            return None
        pairs.append((key, value))
    return pairs


def from_data(
    data: object,
    *,
    allowed: Iterable[type],
    secrets: Mapping[str, Secret] | None = None,
    max_depth: int = MAX_DEPTH,
) -> object:
    """Rebuild values from JSON-shaped data (see ``loads``).

    >>> from_data({"a": [1, 2]}, allowed=[])
    {'a': [1, 2]}
    """
    max_depth = _check_depth(max_depth)
    loader = _Loader(_allowlist(allowed), dict(secrets or {}), max_depth)
    return loader.decode(data, (), max_depth)


def loads(
    text: str | bytes,
    *,
    allowed: Iterable[type],
    secrets: Mapping[str, Secret] | None = None,
    max_depth: int = MAX_DEPTH,
) -> object:
    """Parse ``dumps`` output, building only the ``allowed`` classes.

    ``secrets`` supplies redacted secrets by the name they were written under.
    ``max_depth`` bounds how deeply the text's arrays and objects nest
    (``DataTooDeepError``, checked before the text is parsed).

    >>> loads(dumps({"key": Secret("sk-1")}), allowed=[])
    {'key': Secret.placeholder('key')}
    >>> loads(dumps({"key": Secret("sk-1")}), allowed=[], secrets={"key": Secret("sk-1")})
    {'key': Secret('**********')}
    """
    checked(text, (str, bytes), "loads expects str or bytes")
    max_depth = _check_depth(max_depth)
    if isinstance(text, bytes):
        text = text.decode(json.detect_encoding(text), "surrogatepass")
    _check_text_depth(text, max_depth)  # json itself recurses once per level
    return from_data(json.loads(text), allowed=allowed, secrets=secrets, max_depth=max_depth)
