"""Tool arguments given the types the function declares: checked and built, never coerced.

The arguments schema (validated first, with ``integer`` meaning a JSON integer) fixes
the JSON shape of each argument. ``TypedArgument(hint)`` then makes the JSON value a
value of the annotated type, or refuses it (``ArgumentTypeError``) before the function
runs:

- attrs classes are built from objects (nested ones too); a key the class does not
  declare, or a value its validators refuse, is refused;
- TypedDicts stay dicts, but a key they do not declare is refused;
- enum members are looked up by value; tuples, sets and frozensets are built from arrays;
- a JSON number without a fraction becomes a ``float`` where the annotation says
  ``float`` (JSON has one number type); ``bool`` is never an ``int``;
- a class JSON cannot carry (``datetime``, say) refuses every value.

>>> import enum
>>> class Color(enum.Enum):
...     RED = "red"
>>> TypedArgument("paint", list[Color])(["red"])
[<Color.RED: 'red'>]
>>> TypedArgument("scale", float)(2)
2.0
"""

from __future__ import annotations

import collections.abc as cabc
import enum
import functools
import types
import typing
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

import attrs

from combinators.authoring import ArgumentTypeError, strict_validator, type_schema
from effects.authoring import is_list, is_str_mapping

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

_SCALARS: frozenset[object] = frozenset({str, bool, type(None)})
_FROM_ARRAY: dict[type, typing.Callable[[list[object]], object]] = {
    list: list,
    set: set,
    frozenset: frozenset,
    tuple: tuple,
}


@functools.lru_cache(maxsize=256)
def _accepts(hint: object) -> Validator:
    return strict_validator(type_schema(hint))


def _fits(hint: object, value: object) -> bool:
    try:
        return bool(_accepts(hint).is_valid(typing.cast(Any, value)))
    except TypeError:  # an unhashable hint: no cache
        return bool(strict_validator(type_schema(hint)).is_valid(typing.cast(Any, value)))


def _key(path: str, key: object) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}"


def _name(hint: object) -> str:
    return getattr(hint, "__name__", None) or repr(hint)


def typed(hint: object, value: object, path: str) -> object:
    """``value`` (JSON, valid for ``hint``'s schema) as a value of type ``hint``.

    The walk follows the annotation, which is finite and written by hand, so its depth
    is the annotation's, never the data's.

    >>> typed(tuple[int, str], [1, "a"], "$")
    (1, 'a')
    >>> typed(int, 1.0, "$.k")
    Traceback (most recent call last):
    ...
    combinators.nodes.tool.ArgumentTypeError: $.k: expected int, got float
    """
    if hint is Any or hint is object or hint is typing.Any:
        return value
    if hint is None:
        hint = type(None)
    if hint is float:
        if isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        return _exactly(float, value, path)
    if hint is int:
        return _exactly(int, value, path)
    if hint in _SCALARS:
        return _exactly(hint, value, path)
    origin: Any = get_origin(hint)
    args = get_args(hint)
    if origin is Union or origin is types.UnionType:
        for arm in args:
            if _fits(arm, value):
                return typed(arm, value, path)
        raise ArgumentTypeError(path, f"expected {_name(hint)}, got {type(value).__name__}")
    if origin is Literal:
        if any(type(value) is type(choice) and value == choice for choice in args):
            return value
        raise ArgumentTypeError(path, f"expected one of {list(args)!r}, got {value!r}")
    if origin is not None:
        return _generic(origin, args, value, path)
    if isinstance(hint, type):
        return _class(hint, value, path)
    return value  # a typing construct with no JSON form: the schema ({}) said nothing


def _exactly(kind: Any, value: object, path: str) -> object:
    if type(value) is kind:
        return value
    raise ArgumentTypeError(path, f"expected {_name(kind)}, got {type(value).__name__}")


def _items(value: object, path: str, what: str) -> list[object]:
    if is_list(value):
        return value
    raise ArgumentTypeError(path, f"expected {what}, got {type(value).__name__}")


def _members(value: object, path: str, what: str) -> cabc.Mapping[str, object]:
    if is_str_mapping(value) and isinstance(value, dict):  # a JSON object
        return value
    raise ArgumentTypeError(path, f"expected {what}, got {type(value).__name__}")


def _generic(origin: Any, args: tuple[Any, ...], value: object, path: str) -> object:
    if origin in (list, cabc.Sequence, cabc.Iterable, cabc.MutableSequence):
        item = args[0] if args else Any
        return [typed(item, x, f"{path}[{i}]") for i, x in enumerate(_items(value, path, "an array"))]
    if origin in (set, frozenset, cabc.Set, cabc.MutableSet):
        item = args[0] if args else Any
        built = [typed(item, x, f"{path}[{i}]") for i, x in enumerate(_items(value, path, "an array"))]
        return frozenset(built) if origin is frozenset else set(built)
    if origin is tuple:
        items = _items(value, path, "an array")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(typed(args[0], x, f"{path}[{i}]") for i, x in enumerate(items))
        if len(items) != len(args):
            raise ArgumentTypeError(path, f"expected {len(args)} items, got {len(items)}")
        return tuple(typed(arm, x, f"{path}[{i}]") for i, (arm, x) in enumerate(zip(args, items, strict=True)))
    if origin in (dict, cabc.Mapping, cabc.MutableMapping):
        item = args[1] if len(args) == 2 else Any
        return {key: typed(item, x, _key(path, key)) for key, x in _members(value, path, "an object").items()}
    if isinstance(origin, type) and not isinstance(value, origin):
        raise ArgumentTypeError(path, f"expected {_name(origin)}, got {type(value).__name__}")
    return value


def _declared(cls: type, value: object, path: str, keys: cabc.Collection[str]) -> cabc.Mapping[str, object]:
    members = _members(value, path, f"an object for {cls.__name__}")
    unknown = [key for key in members if key not in keys]
    if unknown:
        raise ArgumentTypeError(_key(path, unknown[0]), f"{cls.__name__} has no member {unknown[0]!r}")
    return members


def _class(cls: type[Any], value: object, path: str) -> object:
    if is_typeddict(cls):
        hints = get_type_hints(cls, include_extras=True)
        members = _declared(cls, value, path, hints)
        return {key: typed(_unwrapped(hints[key]), x, _key(path, key)) for key, x in members.items()}
    if attrs.has(cls):
        hints = get_type_hints(cls)
        fields = {field.name: field for field in attrs.fields(cls) if field.init}
        members = _declared(cls, value, path, fields)
        built = {fields[name].alias: typed(hints.get(name, Any), x, _key(path, name)) for name, x in members.items()}
        try:
            return cls(**built)
        except (TypeError, ValueError) as error:  # its own validators or converters refused it
            raise ArgumentTypeError(path, f"{cls.__name__}: {error}") from None
    if issubclass(cls, enum.Enum):
        try:
            return cls(value)
        except ValueError:
            raise ArgumentTypeError(path, f"{value!r} is not a {cls.__name__}") from None
    make = _FROM_ARRAY.get(cls)
    if make is not None and is_list(value):
        return make(value)
    if isinstance(value, cls):
        return value
    raise ArgumentTypeError(path, f"expected {cls.__name__}, which JSON arguments cannot carry")


def _unwrapped(hint: object) -> object:
    origin = get_origin(hint)
    return get_args(hint)[0] if origin is NotRequired or origin is Required else hint


@typing.final
@attrs.frozen
class TypedArgument:
    """The converter of one tool parameter: the JSON value as the parameter's type.

    >>> @attrs.frozen
    ... class Point:
    ...     x: int
    >>> TypedArgument("where", Point)({"x": 1})
    Point(x=1)
    >>> TypedArgument("where", Point)({"x": 1, "y": 2})
    Traceback (most recent call last):
    ...
    combinators.nodes.tool.ArgumentTypeError: $.where.y: Point has no member 'y'
    """

    parameter: str
    hint: object

    def __call__(self, value: object) -> object:
        return typed(self.hint, value, f"$.{self.parameter}")
