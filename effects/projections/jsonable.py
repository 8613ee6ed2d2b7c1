"""One JSON form for any value that flows through a run (SSE, recordings, run logs).

``to_jsonable`` never raises and always returns plain JSON data, the same for equal
inputs, and is idempotent on its own output (``to_jsonable(to_jsonable(x))`` equals
``to_jsonable(x)``), so a recorded value maps to the JSON of the live one.

The form, by kind of value:

- ``None``, ``bool``, ``int``, ``str``: as is; finite floats as is; ``nan``/``inf``
  as the strings ``"NaN"``, ``"Infinity"``, ``"-Infinity"`` (strict JSON has no
  such numbers).
- lists, tuples and other sequences: lists; sets: lists in a canonical order.
- mappings: dicts with str keys (``1`` -> ``"1"``, ``None`` -> ``"null"``; two keys
  that meet as the same string keep the later value).
- attrs and dataclass instances: ``{"type": <class name>, **fields}``; fields declared
  with ``repr=False`` are left out (they are usually secrets or caches). The class name
  owns ``"type"``: a field itself named ``type`` is written as ``"type_"``. The form
  is for reading and recording, not a way back to the object, so a plain dict that
  happens to hold ``"type"`` is not confused with anything.
- exceptions: ``{"type": "error", "error_type": <class name>, "message": str(e)}``
  (with the text of any secret among its arguments redacted), or what the caller's
  ``error_form`` writes (a server sends the message its error map allows instead).
- ``UUID``: its str; ``datetime``/``date``/``time``: ISO-8601; enums: their value;
  ``bytes``: ``{"type": "bytes", "base64": ...}``.
- secrets: any value whose class defines ``__redacted__`` (the ``Redacted``
  protocol) is written as the JSON of what that returns; any class named ``Secret``
  (or deriving from one) without it is written as ``REDACTED``. Secrets win over
  every other rule, so they never leak through an attrs field or a dict.
- a class may define ``__jsonable__()`` (the ``HasJsonForm`` protocol) to give its
  own form.
- anything else: ``{"type": "repr", "repr": <repr, truncated, memory addresses
  removed>}``; a ``repr`` that raises gives ``"<unrepresentable T>"``. A caller that
  must never show a repr (a server: a repr shows whatever its class chose, secrets
  included) passes ``other_form``, which writes such a value (or raises) instead; a key
  of no known kind goes to it too.

>>> to_jsonable({"a": (1, 2.5), 3: None})
{'a': [1, 2.5], '3': None}
>>> to_jsonable(ValueError("boom"))
{'type': 'error', 'error_type': 'ValueError', 'message': 'boom'}

A recorded value stands in for the live one as a ``Replayed`` (``replayed``).
"""

from __future__ import annotations

import base64
import datetime as dt
import enum
import json
import math
import re
from collections.abc import Callable, Sequence, Set
from contextvars import ContextVar
from typing import Final, Protocol, TypeAlias, cast
from uuid import UUID

import attrs

from effects.guards import is_dict, is_list_or_tuple, is_mapping

JsonValue: TypeAlias = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]
"""Plain JSON data as Python values."""

REDACTED: Final = "**********"
"""What a secret without its own redacted form is written as."""

MAX_REPR_CHARS: Final = 1000
"""Longer reprs are cut to this many characters (plus ``...``)."""

_MAX_DEPTH: Final = 100
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


class Redacted(Protocol):
    """A value that carries a secret: ``__redacted__`` returns what may be shown instead.

    >>> class Token:
    ...     def __redacted__(self) -> str:
    ...         return "tok-****"
    >>> to_jsonable({"auth": Token()})
    {'auth': 'tok-****'}
    """

    def __redacted__(self) -> object: ...


class HasJsonForm(Protocol):
    """A value that knows its own JSON form.

    >>> class Point:
    ...     def __jsonable__(self) -> object:
    ...         return [1, 2]
    >>> to_jsonable(Point())
    [1, 2]
    """

    def __jsonable__(self) -> object: ...


ErrorForm: TypeAlias = Callable[[BaseException], JsonValue]
"""How an exception inside a value is written, in place of the default form."""

_ERROR_FORM: Final[ContextVar[ErrorForm | None]] = ContextVar("combinators_error_form", default=None)

OtherForm: TypeAlias = Callable[[object], JsonValue]
"""How a value with no form of its own is written, in place of its ``repr``."""

_OTHER_FORM: Final[ContextVar[OtherForm | None]] = ContextVar("combinators_other_form", default=None)


def to_jsonable(
    value: object, *, error_form: ErrorForm | None = None, other_form: OtherForm | None = None
) -> JsonValue:
    """The JSON form of ``value`` (see the module docstring); never raises, but for what
    ``other_form`` raises.

    ``error_form`` writes every exception found inside ``value`` (at any depth, in
    containers, records and what ``__jsonable__`` hooks return) instead of the default
    ``{"type": "error", "error_type", "message"}`` form: a server uses it to send the
    message its error map allows, never the exception's own text. A form that raises
    gives the exception's type with its message redacted; past the depth limit, a value
    is named instead of shown by its ``repr`` (which would show the exceptions inside).

    >>> import uuid
    >>> to_jsonable([uuid.UUID(int=1), b"hi", float("nan")])
    ['00000000-0000-0000-0000-000000000001', {'type': 'bytes', 'base64': 'aGk='}, 'NaN']
    >>> to_jsonable({"e": {ValueError("key sk-1")}}, error_form=lambda e: type(e).__name__)
    {'e': ['ValueError']}

    ``other_form`` writes every value that would otherwise be shown by its ``repr`` (at
    any depth; a key too, when it is neither plain data nor a tuple of plain data); what
    it raises propagates, so a caller can refuse such values. With it, a value nested
    past the depth limit raises ``RecursionError`` and a reference cycle ``ValueError``
    (no placeholder either):

    >>> class Client:
    ...     def __repr__(self) -> str:
    ...         return "Client(key='sk-1')"
    >>> to_jsonable({"c": [Client()]}, other_form=lambda v: f"<a {type(v).__name__}>")
    {'c': ['<a Client>']}
    """
    if error_form is None and other_form is None:
        return _encode(value, 0, set())
    error_token = _ERROR_FORM.set(error_form)
    other_token = _OTHER_FORM.set(other_form)
    try:
        return _encode(value, 0, set())
    finally:
        _OTHER_FORM.reset(other_token)
        _ERROR_FORM.reset(error_token)


def safe_repr(value: object) -> str:
    """``repr(value)`` without memory addresses, truncated, and never raising.

    >>> class Boom:
    ...     def __repr__(self) -> str:
    ...         raise RuntimeError
    >>> safe_repr(Boom())
    '<unrepresentable Boom>'
    >>> safe_repr(object())
    '<object object>'
    """
    try:
        text = repr(value)  # Python itself rejects a __repr__ that returns a non-str
    except Exception:
        return f"<unrepresentable {type(value).__name__}>"
    text = _ADDRESS.sub("", text)
    if len(text) > MAX_REPR_CHARS:
        return text[:MAX_REPR_CHARS] + "..."
    return text


def safe_str(value: object) -> str:
    """``str(value)``, or the safe repr when ``str`` raises.

    >>> safe_str(KeyError("k"))
    "'k'"
    """
    try:
        return str(value)
    except Exception:
        return safe_repr(value)


def is_secret(value: object) -> bool:
    """Whether ``value`` must only be shown in its redacted form.

    >>> class Secret:
    ...     pass
    >>> is_secret(Secret()), is_secret("password")
    (True, False)
    """
    return _is_secret_type(type(value))


def redacted_form(value: object) -> object:
    """What may be shown in place of a secret (``REDACTED`` when it cannot say).

    >>> class Secret:
    ...     pass
    >>> redacted_form(Secret())
    '**********'
    """
    hook = getattr(type(value), "__redacted__", None)
    if hook is None:
        return REDACTED
    try:
        shown = hook(value)
    except Exception:
        return REDACTED
    # A redacted form that is itself a secret would send us round in circles.
    return REDACTED if is_secret(shown) else shown


_SECRET_TYPES: dict[type, bool] = {}
_CACHE_LIMIT: Final = 4096


def _is_secret_type(cls: type) -> bool:
    known = _SECRET_TYPES.get(cls)
    if known is None:
        known = getattr(cls, "__redacted__", None) is not None or any(base.__name__ == "Secret" for base in cls.__mro__)
        if len(_SECRET_TYPES) >= _CACHE_LIMIT:  # classes made on the fly must not pile up
            _SECRET_TYPES.clear()
        _SECRET_TYPES[cls] = known
    return known


def _float(value: float) -> JsonValue:
    if math.isfinite(value):
        return value
    if math.isnan(value):
        return "NaN"
    return "Infinity" if value > 0 else "-Infinity"


def _encode(value: object, depth: int, active: set[int]) -> JsonValue:
    kind = type(value)
    # Exact builtin types first: they are most of the traffic and can never be secrets.
    if value is None or kind is str or kind is int or kind is bool:
        return cast(JsonValue, value)
    if kind is float:
        return _float(cast(float, value))
    if kind is dict or kind is list or kind is tuple:
        return _too_deep(value) if depth > _MAX_DEPTH else _encode_container(value, depth, active, _builtin_members)
    if depth > _MAX_DEPTH:
        return _too_deep(value)
    if _is_secret_type(kind):
        return _encode(redacted_form(value), depth + 1, active)
    hook = getattr(kind, "__jsonable__", None)
    if hook is not None:
        return _encode_hooked(value, hook, depth, active)
    if isinstance(value, enum.Enum):
        return _encode(value.value, depth + 1, active)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return _float(float.__float__(value))
    if isinstance(value, BaseException):
        return _encode_error(value)
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, bytes | bytearray):
        return {"type": "bytes", "base64": base64.b64encode(value).decode("ascii")}
    if isinstance(value, memoryview):
        raw = cast("memoryview[int]", value).tobytes()
        return {"type": "bytes", "base64": base64.b64encode(raw).decode("ascii")}
    return _encode_container(value, depth, active, _encode_members)


def _encode_error(error: BaseException) -> JsonValue:
    form = _ERROR_FORM.get()
    if form is None:
        return {"type": "error", "error_type": type(error).__name__, "message": _error_message(error)}
    try:
        return form(error)
    except Exception:  # the form's own failure must not show the text it was to hide
        return {"type": "error", "error_type": type(error).__name__, "message": REDACTED}


def _too_deep(value: object) -> JsonValue:
    if isinstance(value, BaseException):
        return _encode_error(value)
    if _OTHER_FORM.get() is not None:  # no placeholder where no repr may go: refused
        raise RecursionError(f"the value nests deeper than {_MAX_DEPTH} levels")
    if _ERROR_FORM.get() is not None:  # a repr would show the text of the exceptions inside
        return {"type": "repr", "repr": f"<{type(value).__name__} nested too deep>"}
    return {"type": "repr", "repr": safe_repr(value)}


def _cycle() -> JsonValue:
    if _OTHER_FORM.get() is not None:
        raise ValueError("the value holds a reference cycle")
    return {"type": "repr", "repr": "<cycle>"}


def _error_message(error: BaseException) -> str:
    message = safe_str(error)
    # str(ValueError(secret)) is str(secret), KeyError shows its repr: take both out.
    for arg in error.args:
        if is_secret(arg):
            for shown in (safe_str(arg), safe_repr(arg)):
                if shown:
                    message = message.replace(shown, REDACTED)
    return message


def _encode_hooked(value: object, hook: Callable[[object], object], depth: int, active: set[int]) -> JsonValue:
    try:
        shown = hook(value)
    except Exception:
        return _unknown(value)
    if shown is value:
        return _unknown(value)
    return _encode(shown, depth + 1, active)


def _unknown(value: object) -> JsonValue:
    """A value with no form: its repr, or what the caller's ``other_form`` makes of it."""
    form = _OTHER_FORM.get()
    return {"type": "repr", "repr": safe_repr(value)} if form is None else form(value)


def _builtin_members(value: object, depth: int, active: set[int]) -> JsonValue:
    """Plain dicts, lists and tuples: the common case, without the generic checks."""
    if is_dict(value):  # exactly a dict: only dicts, lists and tuples come here
        out: dict[str, JsonValue] = {}
        for key, item in value.items():
            out[key if type(key) is str else _key(key)] = _encode(item, depth, active)
        return out
    return [_encode(item, depth, active) for item in value] if is_list_or_tuple(value) else []


def _encode_container(
    value: object, depth: int, active: set[int], members: Callable[[object, int, set[int]], JsonValue]
) -> JsonValue:
    """``members(value, ...)`` one level deeper, with ``value`` marked as being encoded (met
    again inside itself, it is a cycle)."""
    marker = id(value)
    if marker in active:
        return _cycle()
    active.add(marker)
    try:
        return members(value, depth + 1, active)
    except Exception:
        if _OTHER_FORM.get() is not None:  # what other_form raised (or a failed read) propagates
            raise
        # A container whose iteration or attribute access fails (changed by another thread
        # while we read it, say) is still shown.
        return {"type": "repr", "repr": safe_repr(value)}
    finally:
        active.discard(marker)


def _encode_members(value: object, depth: int, active: set[int]) -> JsonValue:
    if is_mapping(value):
        out: dict[str, JsonValue] = {}
        for key, item in value.items():
            out[_key(key)] = _encode(item, depth, active)
        return out
    if is_list_or_tuple(value):
        return [_encode(item, depth, active) for item in value]
    if attrs.has(type(value)):
        return _encode_record(value, _attrs_fields(type(value)), depth, active)
    if hasattr(type(value), "__dataclass_fields__") and not isinstance(value, type):
        return _encode_record(value, _dataclass_fields(type(value)), depth, active)
    if isinstance(value, Set):
        items = [_encode(item, depth, active) for item in cast(Set[object], value)]
        return sorted(items, key=_canonical)
    if isinstance(value, Sequence):
        return [_encode(item, depth, active) for item in cast(Sequence[object], value)]
    return _unknown(value)


def _encode_record(value: object, fields: tuple[tuple[str, str], ...], depth: int, active: set[int]) -> JsonValue:
    out: dict[str, JsonValue] = {"type": type(value).__name__}
    for attribute, key in fields:
        out[key] = _encode(getattr(value, attribute), depth, active)
    return out


def _output_key(name: str, taken: set[str]) -> str:
    key = name
    while key in taken:
        key += "_"
    taken.add(key)
    return key


_FIELDS: dict[type, tuple[tuple[str, str], ...]] = {}


def _attrs_fields(cls: type) -> tuple[tuple[str, str], ...]:
    known = _FIELDS.get(cls)
    if known is None:
        taken = {"type"}
        known = tuple(
            (field.name, _output_key(field.name, taken)) for field in attrs.fields(cls) if field.repr is not False
        )
        _remember(cls, known)
    return known


def _dataclass_fields(cls: type) -> tuple[tuple[str, str], ...]:
    known = _FIELDS.get(cls)
    if known is None:
        import dataclasses  # only once a dataclass shows up (keeps the import cheap)

        taken = {"type"}
        known = tuple((field.name, _output_key(field.name, taken)) for field in dataclasses.fields(cls) if field.repr)
        _remember(cls, known)
    return known


def _remember(cls: type, fields: tuple[tuple[str, str], ...]) -> None:
    if len(_FIELDS) >= _CACHE_LIMIT:  # classes made on the fly must not pile up
        _FIELDS.clear()
    _FIELDS[cls] = fields


def _key(key: object) -> str:
    if isinstance(key, str) and not is_secret(key):
        return str.__str__(key)
    if key is None or isinstance(key, bool | int | float):
        encoded = to_jsonable(key)
        # Numbers and null spelled as json.dumps spells them; NaN and friends are already str.
        return encoded if isinstance(encoded, str) else json.dumps(encoded)
    if isinstance(key, UUID):
        return str(key)
    if is_secret(key):
        return REDACTED
    if isinstance(key, enum.Enum):
        return _key(key.value)
    form = _OTHER_FORM.get()
    if form is None or _is_plain_tuple(key):
        return safe_repr(key)
    shown = form(key)
    return shown if isinstance(shown, str) else _canonical(shown)


def _is_plain_tuple(key: object) -> bool:
    """A tuple of plain data (its repr shows only that data)."""
    if type(key) is not tuple:
        return False
    items = cast(tuple[object, ...], key)
    return all(item is None or type(item) in (bool, int, float, str) or _is_plain_tuple(item) for item in items)


def _canonical(item: JsonValue) -> str:
    return json.dumps(item, sort_keys=True)
