"""The configurable ids a chain declares anywhere in it, their checking, and ``config_schema``.

A runnable declares ids by having ``own_config_specs()`` (configurable fields and
alternatives, a message history's session keys, ``with_config_specs``); a container's
ids are those of everything it holds, found through its attrs fields.

>>> from combinators import ConfigurableField, RunnableLambda, pure
>>> chain = RunnableLambda(str) | pure("a").configurable_fields(value=ConfigurableField(id="answer"))
>>> [spec.id for spec in config_specs(chain)]
['answer']
"""

from __future__ import annotations

import collections.abc as cabc
import types
import typing
import weakref
from collections.abc import Iterable, Mapping
from typing import Any, Literal, Protocol, Union, get_args, get_origin, runtime_checkable

from combinators._support.type_schema import type_schema
from combinators.nodes.configurable import ConfigurableError, ConfigurableFieldSpec
from combinators.runnable.composing import AnyRunnable
from effects.guards import is_list_or_tuple, is_mapping
from effects.lazy import remember
from effects.step import steps_inside


@runtime_checkable
class DeclaresConfig(Protocol):
    """A runnable that reads configurable ids itself."""

    @property
    def name(self) -> str: ...

    def own_config_specs(self) -> tuple[ConfigurableFieldSpec, ...]: ...


_DECLARED: dict[int, tuple[weakref.ref[AnyRunnable], tuple[tuple[str, ConfigurableFieldSpec], ...]]] = {}


def declared(runnable: AnyRunnable) -> tuple[tuple[str, ConfigurableFieldSpec], ...]:
    """Every configurable id declared in the chain, with the name of the node declaring it.

    A chain is a frozen value, so the walk is done once per chain object (the root check
    of every call with a ``configurable`` reads it).
    """
    key = id(runnable)
    hit = _DECLARED.get(key)
    if hit is not None and hit[0]() is runnable:
        return hit[1]
    specs: list[tuple[str, ConfigurableFieldSpec]] = []
    for node in steps_inside(runnable):
        if isinstance(node, DeclaresConfig):  # once per chain: the walk's result is cached
            specs.extend((node.name, spec) for spec in node.own_config_specs())
    return remember(_DECLARED, runnable, tuple(specs))


def config_specs(runnable: AnyRunnable) -> list[ConfigurableFieldSpec]:
    """Every configurable id declared in the chain, in the order they appear."""
    return [spec for _, spec in declared(runnable)]


def conforms(value: object, annotation: object) -> bool:
    """Whether ``value`` fits ``annotation`` (lists count as tuples: converters make them so).

    >>> conforms(["a"], tuple[str, ...]), conforms([1], tuple[str, ...]), conforms(2, float)
    (True, False, True)
    """
    if annotation is Any or annotation is object:
        return True
    if annotation is None or annotation is type(None):
        return value is None
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is Literal:
        return value in args
    if origin is Union or origin is types.UnionType:
        return any(conforms(value, a) for a in args)
    if annotation is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin in (list, tuple, cabc.Sequence, set, frozenset):
        if not isinstance(value, list | tuple | set | frozenset):
            return False
        items: list[object] = list(typing.cast("Iterable[object]", value))
        if origin is tuple and args and args[-1] is not Ellipsis:
            return len(items) == len(args) and all(conforms(v, a) for v, a in zip(items, args))
        return not args or all(conforms(v, args[0]) for v in items)
    if origin in (dict, cabc.Mapping):
        if not is_mapping(value):
            return False
        return len(args) != 2 or all(conforms(v, args[1]) for v in value.values())
    if isinstance(annotation, type) and origin is None:
        return isinstance(value, annotation)
    return True  # a typing construct we do not check


def expected(annotation: object) -> str:
    """How an error names what a configurable id takes.

    >>> from typing import Literal
    >>> expected(Literal["a", "b"]), expected(tuple[str, ...])
    ("one of 'a', 'b'", 'tuple[str, ...]')
    """
    if get_origin(annotation) is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(annotation))
    if isinstance(annotation, type) and get_origin(annotation) is None:
        return annotation.__name__
    return str(annotation)


def check_value(owner: str, spec: ConfigurableFieldSpec, value: object) -> None:
    """Raise ``ConfigurableError`` naming the id and what it takes when ``value`` does not fit."""
    if not conforms(value, spec.annotation):
        raise ConfigurableError(f"configurable {spec.id!r} of {owner} takes {expected(spec.annotation)}, got {value!r}")


def check_configurable(runnable: AnyRunnable, configurable: Mapping[str, object]) -> None:
    """Check a root call's configurable against the ids the chain declares (if it declares any)."""
    specs = declared(runnable)
    if not specs:
        return  # a chain that declares nothing reads configurable only in its own functions
    ids = list(dict.fromkeys(s.id for _, s in specs))
    for key, value in configurable.items():
        if key not in ids:
            raise ConfigurableError(
                f"{runnable.name} has no configurable id {key!r}; its ids are: " + ", ".join(repr(i) for i in ids)
            )
        for owner, spec in specs:
            if spec.id == key:
                check_value(owner, spec, value)


def _json_default(value: object) -> tuple[bool, object]:
    if value is None or isinstance(value, str | int | float | bool):
        return True, value
    if is_list_or_tuple(value):
        items = [_json_default(v) for v in value]
        return all(ok for ok, _ in items), [v for _, v in items]
    return False, None


def config_schema(runnable: AnyRunnable) -> dict[str, object]:
    """JSON Schema of ``{"configurable": {...}}`` for the ids the chain declares."""
    properties: dict[str, object] = {}
    for spec in config_specs(runnable):
        if spec.id in properties:
            continue
        entry: dict[str, object] = {"title": spec.name or spec.id}
        if spec.description:
            entry["description"] = spec.description
        ok, default = _json_default(spec.default)
        if ok and default is not None and spec.sensitive is None:  # never publish a URL or a key
            entry["default"] = default
        entry.update(type_schema(spec.annotation))
        properties[spec.id] = entry
    return {
        "title": f"{runnable.name}Config",
        "type": "object",
        "properties": {"configurable": {"title": "Configurable", "type": "object", "properties": properties}},
    }
