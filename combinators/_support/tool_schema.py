"""``Runnable.as_tool``: a tool's arguments schema derived from a runnable's input type.

>>> from typing import TypedDict
>>> from combinators import RunnableLambda
>>> class Pair(TypedDict):
...     a: int
>>> def first(p: Pair) -> int:
...     return p["a"]
>>> tool_from_runnable(RunnableLambda(first)).args
{'a': {'type': 'integer'}}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from combinators._support.tool_arguments import SINGLE_ARG
from combinators._support.type_schema import type_schema
from combinators.nodes.tool import RunnableTool
from combinators.runnable.composing import Runnable
from effects.authoring import is_list_or_tuple
from effects.errors import InputError

A = TypeVar("A")


def tool_from_runnable(
    runnable: Runnable[Any, A],
    *,
    name: str | None = None,
    description: str | None = None,
    args_schema: Mapping[str, object] | type[object] | None = None,
    arg_types: Mapping[str, object] | None = None,
) -> RunnableTool[A]:
    """``Runnable.as_tool``: the schema from ``args_schema``, ``arg_types`` or the input type.

    An object input schema gives a tool taking those arguments as a dict; any other
    known input schema (a ``str``, an ``int``, ...) a single-input tool; an unknown
    one needs ``args_schema`` or ``arg_types``.

    >>> from combinators import RunnableLambda
    >>> tool_from_runnable(RunnableLambda(lambda d: d))
    Traceback (most recent call last):
    ...
    effects.errors.InputError: cannot derive the arguments of tool 'RunnableLambda' from its input type ({'title': 'RunnableLambdaInput'}); annotate the input (e.g. a TypedDict) or pass args_schema= or arg_types=
    """
    tool_name = name or runnable.name
    given = runnable.input_schema()
    single_arg: str | None = None
    if args_schema is not None:
        schema = dict(args_schema) if isinstance(args_schema, Mapping) else type_schema(args_schema)
        if schema.get("type") != "object":
            raise InputError(f"args_schema of tool {tool_name!r} must describe an object, got {args_schema!r}")
    elif arg_types is not None:
        schema = {
            "type": "object",
            "properties": {key: type_schema(t) for key, t in arg_types.items()},
            "required": list(arg_types),
            "additionalProperties": False,
        }
    else:
        schema = {k: v for k, v in given.items() if k != "title"}
        options = schema.get("anyOf")
        if is_list_or_tuple(options) and {"type": "string"} in options:
            # Text or richer values (a model's or a parser's input): a model calls it with text.
            schema = {k: v for k, v in schema.items() if k != "anyOf"} | {"type": "string"}
        if schema.get("type") == "object" and schema.get("properties"):
            schema.setdefault("additionalProperties", False)
        elif schema and schema.get("type") != "object":
            single_arg = SINGLE_ARG
            schema = {
                "type": "object",
                "properties": {SINGLE_ARG: schema},
                "required": [SINGLE_ARG],
                "additionalProperties": False,
            }
        else:
            raise InputError(
                f"cannot derive the arguments of tool {tool_name!r} from its input type ({given}); "
                "annotate the input (e.g. a TypedDict) or pass args_schema= or arg_types="
            )
    return RunnableTool.from_runnable(
        runnable,
        name=tool_name,
        description=description or f"Takes {given}.",
        args_schema={**schema, "title": tool_name},
        single_arg=single_arg,
    )


__all__ = ["tool_from_runnable"]
