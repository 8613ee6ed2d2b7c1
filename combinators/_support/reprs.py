"""How values that runnables hold read in their ``repr``: as the expression that names them.

A ``repr`` of a runnable should rebuild it when evaluated where its functions are in
scope, so functions show as their names (a method or builtin as ``str.upper``), an
inline lambda as its source text when it can be found (as the peer shows it), classes as
their names, and ``inf`` as ``float('inf')``.

>>> import functools
>>> def double(x: int) -> int:
...     return 2 * x
>>> callable_repr(double), callable_repr(str.upper), callable_repr(functools.partial(double, 3))
('double', 'str.upper', 'functools.partial(double, 3)')
>>> callable_repr(lambda x: x + 1)
'lambda x: x + 1'
>>> type_repr(ValueError), value_repr((ValueError, KeyError)), value_repr(float("inf"))
('ValueError', '(ValueError, KeyError)', "float('inf')")

``changed_fields`` gives the ``name=value`` parts of an attrs value's repr: only the
fields that differ from their defaults.

>>> import attrs
>>> @attrs.frozen
... class Point:
...     x: int
...     y: int = 0
...     tags: tuple[str, ...] = attrs.field(factory=tuple)
>>> changed_fields(Point(1)), changed_fields(Point(1, 2, ("a",)), skip=("x",))
(['x=1'], ['y=2', "tags=('a',)"])
"""

from __future__ import annotations

import ast
import functools
import inspect
import math
import types
from collections.abc import Collection
from typing import Final, cast

import attrs

from effects.guards import is_mapping

_FACTORY: Final = cast("type[object]", attrs.Factory)  # a function to type checkers, a class at runtime


def _lambda_source(func: types.FunctionType) -> str | None:
    try:
        lines, first = inspect.getsourcelines(func)
    except (OSError, TypeError):
        return None
    import textwrap  # here: reading a lambda's source is rare, importing combinators is not

    source = textwrap.dedent("".join(lines))
    line = code_line = func.__code__.co_firstlineno - first + 1  # 1-based, within `source`
    try:
        tree = ast.parse(source)
    except SyntaxError:  # a lambda in the middle of a multi-line expression
        try:
            tree, line = ast.parse(f"(\n{source}\n)"), code_line + 1
        except SyntaxError:
            return None
    code = func.__code__
    arguments = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    found = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Lambda)
        and tuple(a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)) == arguments
    ]
    # Several lambdas with the same arguments: keep those starting on the function's line.
    if len(found) > 1:
        found = [node for node in found if node.lineno == line and _same_code(node, code)]
    return ast.unparse(found[0]) if len(found) == 1 else None


def _same_code(node: ast.Lambda, code: types.CodeType) -> bool:
    try:
        compiled = compile(ast.Expression(node), "<lambda>", "eval")
    except (SyntaxError, ValueError):
        return False
    inner = [c for c in compiled.co_consts if isinstance(c, types.CodeType)]
    return len(inner) == 1 and inner[0].co_code == code.co_code


def callable_repr(func: object) -> str:
    """A callable as the expression that names it (see the module docstring)."""
    if isinstance(func, functools.partial):
        partial = cast("functools.partial[object]", func)
        shown = [callable_repr(partial.func), *map(repr, partial.args)]
        shown += [f"{key}={value!r}" for key, value in partial.keywords.items()]
        return f"functools.partial({', '.join(shown)})"
    if isinstance(func, type):
        return type_repr(func)
    name = getattr(func, "__name__", None)
    if isinstance(func, types.FunctionType) and name == "<lambda>":
        return _lambda_source(func) or func.__qualname__
    if isinstance(func, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)) or (
        inspect.ismethoddescriptor(func) and isinstance(name, str)
    ):
        qualified = getattr(func, "__qualname__", name)
        if isinstance(qualified, str) and "<locals>" not in qualified:
            return qualified
        return str(name)
    return repr(func)


def type_repr(kind: object) -> str:
    """A class as its name (``ValueError``, not ``<class 'ValueError'>``); other types as ``repr``.

    >>> type_repr(int), type_repr(list[int])
    ('int', 'list[int]')
    """
    if isinstance(kind, type):
        qualified = kind.__qualname__
        return qualified if "<locals>" not in qualified else kind.__name__
    return repr(kind)


def value_repr(value: object) -> str:
    """A field's value as an expression: classes by name, ``inf`` as ``float('inf')``,
    tuples and mappings element by element.

    >>> value_repr({"a": -math.inf})
    "{'a': float('-inf')}"
    """
    if isinstance(value, float) and math.isinf(value):
        return "float('inf')" if value > 0 else "float('-inf')"
    if isinstance(value, type):
        return type_repr(value)
    if isinstance(value, tuple):
        items = [value_repr(v) for v in cast("tuple[object, ...]", value)]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if is_mapping(value):
        pairs = value.items()
        return "{" + ", ".join(f"{k!r}: {value_repr(v)}" for k, v in pairs) + "}"
    if callable(value) and not hasattr(value, "__attrs_attrs__"):
        return callable_repr(value)
    return repr(value)


def keyword_reprs(**fields: tuple[object, object]) -> list[str]:
    """``name=value`` for each field whose ``(value, default)`` differ.

    >>> keyword_reprs(name=("x", None), in_thread=(False, False))
    ["name='x'"]
    """
    return [f"{name}={value_repr(value)}" for name, (value, default) in fields.items() if value != default]


def changed_fields(value: object, *, skip: Collection[str] = ()) -> list[str]:
    """``name=value`` for each constructor field of an attrs ``value`` that is required or
    differs from its default (fields hidden from ``repr`` and those in ``skip`` left out)."""
    cls = type(value)
    if not attrs.has(cls):
        raise attrs.exceptions.NotAnAttrsClassError(f"{cls!r} is not an attrs-decorated class.")
    shown: list[str] = []
    for field in attrs.fields(cls):
        if not field.repr or not field.init or field.name in skip:
            continue
        current = getattr(value, field.name)
        default: object = field.default
        if isinstance(default, _FACTORY):
            make = getattr(default, "factory")
            default = make(value) if getattr(default, "takes_self") else make()
        if default is attrs.NOTHING or current != default:
            shown.append(f"{field.alias}={value_repr(current)}")
    return shown
