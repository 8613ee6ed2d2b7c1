"""``input_schema`` / ``output_schema``: JSON Schema of a runnable, from its types.

Titles follow the peer: ``<name>_input`` for lower-case names, ``<Name>Input``
otherwise. A sequence takes its input schema from the first step and its output
schema from the last.
"""

from __future__ import annotations

import builtins
import collections.abc
import io
import sys
import tokenize
import typing
import types
from collections.abc import Iterator, Mapping
from typing import Any, Final, Literal, ForwardRef, TypeVar, Union, get_args, get_origin

from combinators._support.type_schema import type_schema
from combinators.runnable.composing import AnyRunnable


def _title(name: str, suffix: str) -> str:
    return f"{name}{suffix.title()}" if name[:1].isupper() else f"{name}_{suffix.lower()}"


def class_argument(cls: type, index: int) -> object:
    """What ``cls`` binds ``Runnable[In, Out]``'s ``In`` (0) or ``Out`` (1) to, if it says.

    A retriever (``Runnable[str, list[Document]]``) declares its input as ``str``; a node
    generic in its own parameters declares nothing (``Any``); a class over a generic base
    of its own (``class Chat(LanguageModel[AIMessage])`` over ``LanguageModel(Runnable[str, _Out])``)
    declares what its base's parameters are bound to.
    """
    argument = _bound_argument(cls, index)
    if isinstance(argument, TypeVar):
        return Any
    if isinstance(argument, ForwardRef | str):
        text = argument.__forward_arg__ if isinstance(argument, ForwardRef) else argument
        try:
            return _evaluated(text, _Names(cls), 0)
        except Exception:  # not resolvable at run time: nothing is known
            return Any
    return argument


def _bound_argument(cls: type, index: int) -> object:
    """``RunnableHooks``' type argument ``index`` as the first base of ``cls`` that names it
    binds it, each generic base in between substituted (a ``TypeVar`` where nothing binds it)."""
    from combinators.runnable.hooks import RunnableHooks

    for klass in cls.__mro__:
        for base in klass.__dict__.get("__orig_bases__", ()):
            origin = get_origin(base)
            if not (isinstance(origin, type) and RunnableHooks in origin.__mro__):
                continue
            arguments: tuple[object, ...] = get_args(base)
            if origin is RunnableHooks:
                return arguments[index]
            # In terms of the base's own parameters, then bound by this base's arguments.
            parameters: tuple[object, ...] = getattr(origin, "__parameters__", ())
            found = _bound_argument(origin, index)
            return (
                dict(zip(parameters, arguments, strict=True)).get(found, found) if isinstance(found, TypeVar) else found
            )
    return Any


class _Names(Mapping[str, object]):
    """The names a class's type arguments may use: those of the modules of its bases,
    ``typing``'s and ``collections.abc``'s, then (for the names a string type alias uses,
    defined where the alias is) those of the other loaded modules of the same packages."""

    def __init__(self, cls: type) -> None:
        modules = [sys.modules.get(klass.__module__) for klass in cls.__mro__]
        self.scopes = [vars(module) for module in modules if module is not None]
        self.scopes += [vars(typing), vars(collections.abc)]
        self.packages = {klass.__module__.partition(".")[0] for klass in cls.__mro__} - {"builtins", "typing"}

    def __getitem__(self, name: str) -> object:
        for scope in self.scopes:
            if name in scope:
                return scope[name]
        for module_name, module in list(sys.modules.items()):
            if module_name.partition(".")[0] in self.packages and name in vars(module):
                return vars(module)[name]
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter({name for scope in self.scopes for name in scope})

    def __len__(self) -> int:
        return len(set(self))


def _evaluated(text: str, names: _Names, depth: int) -> object:
    # A name bound to a str in a type expression is a string type alias: evaluated in turn.
    if depth > 8:
        raise RecursionError(f"type alias nesting too deep at {text!r}")
    free = {
        name: _evaluated(value, names, depth + 1) if isinstance(value, str) else value
        for name in _identifiers(text)
        for value in (names.get(name, _MISSING),)
        if value is not _MISSING
    }
    return eval(text, {"__builtins__": builtins}, free)


_MISSING: Final = object()


def _identifiers(text: str) -> set[str]:
    return {
        token.string for token in tokenize.generate_tokens(io.StringIO(text).readline) if token.type == tokenize.NAME
    }


def _type_schema(annotation: object) -> dict[str, object]:
    # A type whose own annotations cannot be resolved publishes nothing rather than fail.
    if get_origin(annotation) in (Union, types.UnionType):
        return {"anyOf": [_type_schema(arm) for arm in get_args(annotation)]}
    try:
        return type_schema(annotation)
    except (NameError, TypeError):
        return {}


def _schema(runnable: AnyRunnable, which: Literal["input", "output"]) -> dict[str, object]:
    # A node whose schema is not its type's (a parallel's, a prompt's) overrides
    # ``input_schema``/``output_schema`` in its own module.
    return {"title": _title(runnable.name, which), **_type_schema(runnable.declared_type(which))}


def input_schema(runnable: AnyRunnable) -> dict[str, object]:
    """The JSON Schema of ``runnable``'s input."""
    return _schema(runnable, "input")


def output_schema(runnable: AnyRunnable) -> dict[str, object]:
    """The JSON Schema of ``runnable``'s output."""
    return _schema(runnable, "output")
