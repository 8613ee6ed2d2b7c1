"""JSON Schema from Python types: what ``input_schema``, tools and parsers publish.

>>> from typing import TypedDict
>>> class Query(TypedDict):
...     text: str
...     k: int
>>> type_schema(Query)
{'type': 'object', 'properties': {'text': {'type': 'string'}, 'k': {'type': 'integer'}}, 'required': ['text', 'k'], 'title': 'Query'}
>>> type_schema(list[int] | None)
{'anyOf': [{'type': 'array', 'items': {'type': 'integer'}}, {'type': 'null'}]}
"""

from __future__ import annotations

import collections.abc as cabc
import enum
import types
import typing
from typing import Any, Literal, NotRequired, Required, Union, get_args, get_origin, get_type_hints, is_typeddict

import attrs

_SCALARS: dict[object, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    type(None): "null",
}


def type_schema(annotation: object) -> dict[str, object]:
    """The JSON Schema of a type annotation (``{}`` where nothing is known)."""
    if annotation is Any or annotation is object or annotation is typing.Any:
        return {}
    if annotation is None:
        return {"type": "null"}
    if annotation in _SCALARS:
        return {"type": _SCALARS[annotation]}
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is Union or origin is types.UnionType:
        return {"anyOf": [type_schema(a) for a in args]}
    if origin is Literal:
        return {"enum": list(args)}
    if origin in (list, cabc.Sequence, cabc.Iterable, set, frozenset, cabc.Set):
        return {"type": "array", "items": type_schema(args[0]) if args else {}}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": type_schema(args[0])}
        return {
            "type": "array",
            "prefixItems": [type_schema(a) for a in args],
            "minItems": len(args),
            "maxItems": len(args),
        }
    if origin in (dict, cabc.Mapping):
        value = type_schema(args[1]) if len(args) == 2 else {}
        return {"type": "object", "additionalProperties": value} if value else {"type": "object"}
    if isinstance(annotation, type):
        if is_typeddict(annotation):
            return _typeddict_schema(annotation)
        if attrs.has(annotation):
            return _attrs_schema(annotation)
        if issubclass(annotation, enum.Enum):
            return {"enum": [m.value for m in annotation], "title": annotation.__name__}
        if annotation in (list, tuple, set):
            return {"type": "array"}
        if annotation is dict:
            return {"type": "object"}
    return {}


def _typeddict_schema(cls: type) -> dict[str, object]:
    # `__required_keys__` is wrong for NotRequired keys when the class is defined under
    # `from __future__ import annotations` (3.11), so read the markers from the hints.
    hints = get_type_hints(cls, include_extras=True)
    total = bool(getattr(cls, "__total__", True))
    properties: dict[str, object] = {}
    required: list[str] = []
    for key, hint in hints.items():
        origin = get_origin(hint)
        if origin is NotRequired:
            properties[key] = type_schema(get_args(hint)[0])
        elif origin is Required:
            properties[key] = type_schema(get_args(hint)[0])
            required.append(key)
        else:
            properties[key] = type_schema(hint)
            if total:
                required.append(key)
    return {"type": "object", "properties": properties, "required": required, "title": cls.__name__}


def _attrs_schema(cls: type) -> dict[str, object]:
    hints = get_type_hints(cls)
    properties: dict[str, object] = {}
    required: list[str] = []
    for field in attrs.fields(cls):
        properties[field.name] = type_schema(hints.get(field.name, Any))
        if field.default is attrs.NOTHING:
            required.append(field.name)
    schema: dict[str, object] = {"type": "object", "properties": properties, "title": cls.__name__}
    if required:
        schema["required"] = required
    return schema
