"""What a tool takes, read and checked: its arguments (a dict, one ``str``, or a tool
call) validated against the tool's JSON Schema before anything runs.

>>> arguments_of({"name": "add", "args": {"a": 1}, "id": "call_1", "type": "tool_call"})
({'a': 1}, 'call_1')
>>> arguments_of("plain text")
('plain text', None)

The validation has no numeric leniency: ``integer`` means a JSON integer. Draft 2020-12
counts ``1.0`` as an integer (a number with no fractional part); a tool whose function
takes an ``int`` would then receive a ``float``. Here ``1.0`` is not an ``integer``
(``true`` never was), so such arguments are rejected before the tool runs.

>>> strict_validator({"type": "integer"}).is_valid(1.0), strict_validator({"type": "integer"}).is_valid(1)
(False, True)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from effects.errors import CombinatorsError, InputValueError

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

_MESSAGE_LIMIT = 200

SINGLE_ARG = "__arg1"
"""The argument name of a single-input tool, as the peer shows it to models."""


class ToolCallLike(Protocol):
    """A tool call as a value (``ToolCall`` from an ``AIMessage``'s ``tool_calls``).

    >>> import attrs
    >>> @attrs.frozen
    ... class Call:
    ...     name: str
    ...     args: dict[str, int]
    ...     id: str
    >>> call: ToolCallLike = Call("add", {"a": 1}, "call_1")
    >>> arguments_of(call)
    ({'a': 1}, 'call_1')
    """

    @property
    def name(self) -> str | None:
        """The name of the tool called."""
        ...

    @property
    def args(self) -> object:
        """The arguments, a mapping (typed ``object`` so attrs fields with converters match)."""
        ...

    @property
    def id(self) -> str | None:
        """The call's id, which the answer refers to (none: the raw output is the answer)."""
        ...


ToolInput: TypeAlias = "str | Mapping[str, Any] | ToolCallLike"
"""What a tool takes: its arguments as a dict, one ``str`` argument, or a tool call."""

ToolReply: TypeAlias = Callable[[Any, str, str], Any]
"""Makes what a tool call gives: called with the output, the call's id and the tool's name."""


class ArgumentTypeError(CombinatorsError, ValueError):
    """A converter could not give an argument the type its function declares.

    ``path`` is where (``$.point.x``), ``reason`` why; the tool reports it as a
    ``ToolArgumentsError`` and does not run.

    >>> ArgumentTypeError("$.k", "expected int").path
    '$.k'
    """

    __module__ = "combinators.nodes.tool"  # where users import it from (and pickles find it)

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")

    def __reduce__(self) -> tuple[type[ArgumentTypeError], tuple[str, str]]:
        return (type(self), (self.path, self.reason))


class ToolArgumentsError(CombinatorsError, ValueError):
    """A tool's arguments do not match its schema; the tool was not called.

    ``violations`` holds ``(path, message)`` pairs, paths written ``$.key[0]``.

    >>> error = ToolArgumentsError("search", (("$", "'q' is a required property"),))
    >>> error.tool, error.violations[0][0]
    ('search', '$')
    >>> print(error)
    tool 'search' got invalid arguments:
      $: 'q' is a required property
    """

    __module__ = "combinators.nodes.tool"  # where users import it from (and pickles find it)

    def __init__(self, tool: str, violations: tuple[tuple[str, str], ...]) -> None:
        self.tool = tool
        self.violations = violations
        lines = "\n".join(f"  {path}: {message}" for path, message in violations)
        super().__init__(f"tool {tool!r} got invalid arguments:\n{lines}")

    def __reduce__(self) -> tuple[type[ToolArgumentsError], tuple[str, tuple[tuple[str, str], ...]]]:
        return (type(self), (self.tool, self.violations))


def _path(parts: Iterable[str | int]) -> str:
    text = "$"
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def _short(message: str) -> str:
    # jsonschema quotes the offending value; a model can send a huge one.
    return message if len(message) <= _MESSAGE_LIMIT else message[: _MESSAGE_LIMIT - 3] + "..."


def validator(schema: Mapping[str, object], tool: str) -> Validator:
    """A compiled validator of ``schema`` (an ``InputValueError`` if it is no JSON Schema)."""
    # Imported here: jsonschema costs ~0.1 s to import, paid only by programs that build tools.
    from jsonschema.exceptions import SchemaError

    try:
        check_schema(schema)
    except SchemaError as error:
        raise InputValueError(f"args_schema of tool {tool!r} is not a valid JSON Schema: {error.message}") from None
    # No numeric leniency: `1.0` is not an integer, so an `int` parameter never gets a float.
    return strict_validator(schema)


def check_arguments(validating: Validator, arguments: Mapping[str, Any], tool: str) -> None:
    """Raise ``ToolArgumentsError`` with every violation of ``arguments``, in path order."""
    errors = sorted(validating.iter_errors(arguments), key=lambda e: [str(p) for p in e.path])
    if errors:
        raise ToolArgumentsError(tool, tuple((_path(e.path), _short(e.message)) for e in errors))


def schema_hash(schema: Mapping[str, object]) -> int:
    """A hash of a JSON Schema (dicts are not hashable), equal for equal schemas."""
    return hash(json.dumps(schema, sort_keys=True, default=repr))


def arguments_of(input: object) -> tuple[object, str | None]:
    """The arguments a tool input holds, and its tool-call id (None for plain arguments)."""
    if isinstance(input, str):
        return input, None
    if isinstance(input, Mapping):
        mapping: Mapping[str, object] = input  # pyright: ignore[reportUnknownVariableType]
        if mapping.get("type") == "tool_call":
            call_id = mapping.get("id")
            return mapping.get("args", {}), call_id if isinstance(call_id, str) else None
        return mapping, None
    args: object = getattr(input, "args", None)
    if isinstance(args, Mapping) and hasattr(input, "name") and hasattr(input, "id"):
        given_id: object = getattr(input, "id")
        return args, given_id if isinstance(given_id, str) else None  # pyright: ignore[reportUnknownVariableType]
    return input, None


__all__ = [
    "SINGLE_ARG",
    "ArgumentTypeError",
    "ToolArgumentsError",
    "ToolCallLike",
    "ToolInput",
    "ToolReply",
    "arguments_of",
    "check_arguments",
    "schema_hash",
    "validator",
]


def _is_integer(_checker: object, instance: object) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


@functools.cache
def _strict_class() -> type[Validator]:
    # Imported here: jsonschema costs ~0.1 s to import, paid only by programs that use it.
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer)
    extend = getattr(validators, "extend")  # its stub leaves the result unknown
    strict: type[Validator] = extend(Draft202012Validator, type_checker=checker)
    return strict


def strict_validator(schema: Mapping[str, object]) -> Validator:
    """A Draft 2020-12 validator for ``schema`` whose ``integer`` excludes ``1.0``.

    >>> strict_validator({"type": "number"}).is_valid(1)
    True
    """
    return _strict_class()(schema)


def check_schema(schema: Mapping[str, object]) -> None:
    """Raise ``jsonschema.SchemaError`` if ``schema`` is not a valid JSON Schema.

    >>> check_schema({"type": "integer"})
    """
    _strict_class().check_schema(dict(schema))
