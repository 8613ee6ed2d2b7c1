"""``RunnableTool``: a function or runnable a model can call, with a JSON Schema for its arguments.

A tool takes a dict of arguments (a ``str`` for single-argument tools), or a tool
call (``{"name", "args", "id", "type": "tool_call"}``, or any value with ``name``,
``args`` and ``id`` attributes, such as a ``ToolCall`` of an ``AIMessage``). The
arguments are checked against ``args_schema`` (JSON Schema, Draft 2020-12) before
anything runs; bad arguments raise ``ToolArgumentsError`` naming the tool and every
violation, and the tool is not called. Its runs are ``tool`` runs
(``on_tool_start`` / ``on_tool_end`` / ``on_tool_error``).

The core tool returns the raw output, tool call or not; ``reply`` (see
``with_reply``) decides what a tool call with an id gives instead:
the components' ``@tool`` replies with a ``ToolMessage``.

>>> from combinators import RunnableLambda
>>> def double(args: dict[str, int]) -> int:
...     return args["n"] * 2
>>> schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
>>> t = RunnableLambda(double).as_tool(name="double", args_schema=schema)
>>> t.invoke({"n": 21})
42
>>> t.invoke({"n": "21"})
Traceback (most recent call last):
...
combinators.nodes.tool.ToolArgumentsError: tool 'double' got invalid arguments:
  $.n: '21' is not of type 'integer'
"""

from __future__ import annotations

import copy
import inspect
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar, final, get_type_hints, overload

import attrs

from combinators._support.strict_schema import check_schema, strict_validator
from combinators._support.type_schema import type_schema
from combinators.runnable.composing import Runnable
from effects.errors import CombinatorsError, InputError, InputValueError
from effects._runtime.scope import Scope

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

Out = TypeVar("Out", covariant=True)
A = TypeVar("A")
M = TypeVar("M")

SINGLE_ARG = "__arg1"
"""The argument name of a single-input tool, as the peer shows it to models."""

_MESSAGE_LIMIT = 200


class ToolCallLike(Protocol):
    """A tool call as a value (``ToolCall`` from an ``AIMessage``'s ``tool_calls``)."""

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


def _validator(schema: Mapping[str, Any], tool: str) -> Validator:
    # Imported here: jsonschema costs ~0.1 s to import, paid only by programs that build tools.
    from jsonschema.exceptions import SchemaError

    try:
        check_schema(schema)
    except SchemaError as error:
        raise InputValueError(f"args_schema of tool {tool!r} is not a valid JSON Schema: {error.message}") from None
    # No numeric leniency: `1.0` is not an integer, so an `int` parameter never gets a float.
    return strict_validator(schema)


def _schema_hash(schema: Mapping[str, Any]) -> int:
    return hash(json.dumps(schema, sort_keys=True, default=repr))


@final
@attrs.frozen(repr=False, hash=False)
class RunnableTool(Runnable[ToolInput, Out]):
    """A tool: a function (sync and/or async) or a runnable behind an arguments schema.

    Build one with ``from_function``, ``from_runnable`` or ``Runnable.as_tool``.
    ``single_arg`` names the one argument of a single-input tool (its value, not a
    dict, reaches the body); ``config_param`` names the function parameter that
    receives the ``RunConfig``; ``converters`` turn validated arguments into the
    values the function takes (for example a dict into an attrs instance). Only the
    validated arguments reach the body: keyword arguments given to ``invoke`` (or bound
    with ``with_kwargs``) are not passed on.

    >>> def shout(text: str) -> str:
    ...     return text.upper()
    >>> t = RunnableTool.from_function(
    ...     shout, name="shout", description="Shout it.",
    ...     args_schema={"type": "object", "properties": {"text": {"type": "string"}}},
    ... )
    >>> t
    RunnableTool.from_function(shout, name='shout')
    >>> t.invoke({"text": "hi"}), t.invoke("hey")
    ('HI', 'HEY')
    >>> t.invoke({"name": "shout", "args": {"text": "yo"}, "id": "call_1", "type": "tool_call"})
    'YO'
    """

    run_type = "tool"

    tool_name: str
    description: str
    args_schema: Mapping[str, Any]
    func: Callable[..., Any] | None = None
    afunc: Callable[..., Any] | None = None
    runnable: Runnable[Any, Any] | None = None
    single_arg: str | None = None
    config_param: str | None = None
    converters: Mapping[str, Callable[[Any], Any]] = attrs.field(factory=dict[str, Callable[[Any], Any]])
    reply: ToolReply | None = None
    validator: Validator = attrs.field(init=False, eq=False)

    def __attrs_post_init__(self) -> None:
        if (self.func is None and self.afunc is None) == (self.runnable is None):
            raise InputError(f"tool {self.tool_name!r} needs a function or a runnable (one of them)")
        object.__setattr__(self, "validator", _validator(self.args_schema, self.tool_name))

    # ------------------------------------------------------------------ building

    @overload
    @staticmethod
    def from_function(
        func: Callable[..., Awaitable[A]],
        afunc: None = None,
        *,
        name: str,
        description: str,
        args_schema: Mapping[str, Any],
        single_arg: str | None = None,
        config_param: str | None = None,
        converters: Mapping[str, Callable[[Any], Any]] | None = None,
    ) -> RunnableTool[A]: ...

    @overload
    @staticmethod
    def from_function(
        func: Callable[..., A],
        afunc: Callable[..., Awaitable[A]] | None = None,
        *,
        name: str,
        description: str,
        args_schema: Mapping[str, Any],
        single_arg: str | None = None,
        config_param: str | None = None,
        converters: Mapping[str, Callable[[Any], Any]] | None = None,
    ) -> RunnableTool[A]: ...

    @overload
    @staticmethod
    def from_function(
        func: None,
        afunc: Callable[..., Awaitable[A]],
        *,
        name: str,
        description: str,
        args_schema: Mapping[str, Any],
        single_arg: str | None = None,
        config_param: str | None = None,
        converters: Mapping[str, Callable[[Any], Any]] | None = None,
    ) -> RunnableTool[A]: ...

    @overload
    @staticmethod
    def from_function(
        func: Callable[..., Any] | None,
        afunc: Callable[..., Any] | None = None,
        *,
        name: str,
        description: str,
        args_schema: Mapping[str, Any],
        single_arg: str | None = None,
        config_param: str | None = None,
        converters: Mapping[str, Callable[[Any], Any]] | None = None,
    ) -> RunnableTool[Any]: ...

    @staticmethod
    def from_function(
        func: Callable[..., Any] | None,
        afunc: Callable[..., Any] | None = None,
        *,
        name: str,
        description: str,
        args_schema: Mapping[str, Any],
        single_arg: str | None = None,
        config_param: str | None = None,
        converters: Mapping[str, Callable[[Any], Any]] | None = None,
    ) -> RunnableTool[Any]:
        """A tool calling ``func(**arguments)`` (``func(value)`` with ``single_arg``).

        ``func`` may be sync or async; give a sync ``func`` and an async ``afunc`` to
        use each in its mode (``func=None`` for an async-only tool). An async call runs
        a sync-only function inline, as ``RunnableLambda`` does.

        >>> async def ping() -> str:
        ...     return "pong"
        >>> import asyncio
        >>> t = RunnableTool.from_function(ping, name="ping", description="Ping.",
        ...                                args_schema={"type": "object"})
        >>> asyncio.run(t.ainvoke({}))
        'pong'
        """
        sync = func
        if func is not None and inspect.iscoroutinefunction(inspect.unwrap(func)):
            if afunc is not None:
                raise InputError(f"tool {name!r} got an async func and an afunc: give the async one as afunc")
            sync, afunc = None, func
        if afunc is not None and not inspect.iscoroutinefunction(inspect.unwrap(afunc)):
            raise InputError(f"tool {name!r}: afunc must be an async function")
        schema = copy.deepcopy(dict(args_schema))
        converting = dict(converters or {})
        return RunnableTool(name, description, schema, sync, afunc, None, single_arg, config_param, converting)

    @staticmethod
    def from_runnable(
        runnable: Runnable[Any, A],
        *,
        name: str,
        description: str,
        args_schema: Mapping[str, Any],
        single_arg: str | None = None,
    ) -> RunnableTool[A]:
        """A tool running ``runnable`` (as a child run) on the arguments dict, or on the
        value of ``single_arg``.

        >>> from combinators import RunnableLambda
        >>> t = RunnableTool.from_runnable(
        ...     RunnableLambda(len), name="length", description="Length.",
        ...     args_schema={"type": "object", "properties": {"__arg1": {"type": "string"}}},
        ...     single_arg="__arg1",
        ... )
        >>> t.invoke("four")
        4
        """
        schema = copy.deepcopy(dict(args_schema))
        return RunnableTool(name, description, schema, None, None, runnable, single_arg)

    def with_reply(self: RunnableTool[A], reply: Callable[[A, str, str], M]) -> RunnableTool[A | M]:
        """This tool, answering a tool call that has an id with ``reply(output, id, name)``.

        >>> def shout(text: str) -> str:
        ...     return text.upper()
        >>> t = RunnableTool.from_function(
        ...     shout, name="shout", description="Shout.",
        ...     args_schema={"type": "object", "properties": {"text": {"type": "string"}}},
        ... ).with_reply(lambda out, call_id, name: (call_id, out))
        >>> t.invoke({"name": "shout", "args": {"text": "a"}, "id": "c7", "type": "tool_call"})
        ('c7', 'A')
        >>> t.invoke({"text": "a"})
        'A'
        """
        return attrs.evolve(self, reply=reply)

    # ------------------------------------------------------------------ describing

    @property
    def name(self) -> str:
        return self.tool_name

    @property
    def is_leaf(self) -> bool:  # type: ignore[override]
        # A runnable body runs as child runs, which take their own permits.
        return self.runnable is None

    @property
    def args(self) -> dict[str, Any]:
        """The arguments' property schemas (the peer's ``tool.args``).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(str.upper).with_types(input_type=str).as_tool(name="up").args
        {'__arg1': {'type': 'string'}}
        """
        properties: dict[str, Any] = dict(self.args_schema.get("properties", {}))
        return properties

    def tool_call_schema(self) -> dict[str, Any]:
        """The JSON Schema of the arguments, as a model should see it.

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(str.upper).with_types(input_type=str).as_tool(name="up").tool_call_schema()
        {'type': 'object', 'properties': {'__arg1': {'type': 'string'}}, 'required': ['__arg1'], 'additionalProperties': False, 'title': 'up'}
        """
        return copy.deepcopy(dict(self.args_schema))

    def input_schema(self) -> dict[str, Any]:
        """The arguments schema (the tool's input, as a dict).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(str.upper).with_types(input_type=str).as_tool(name="up").input_schema()["title"]
        'up'
        """
        return self.tool_call_schema()

    def output_schema(self) -> dict[str, Any]:
        """The output schema: the function's return annotation, or the runnable's output schema.

        >>> from combinators import RunnableLambda
        >>> def size(text: str) -> int:
        ...     return len(text)
        >>> RunnableLambda(size).as_tool().output_schema()
        {'title': 'size_output', 'type': 'integer'}
        """
        if self.runnable is not None:
            return self.runnable.output_schema()
        func = self.func or self.afunc
        try:
            returned = get_type_hints(func).get("return", Any)
        except Exception:  # unresolvable annotations: nothing is known
            returned = Any
        return {"title": f"{self.tool_name}_output", **type_schema(returned)}

    def __repr__(self) -> str:
        if self.runnable is not None:
            from combinators.nodes.sequence import RunnableSequence

            shown = repr(self.runnable)
            shown = f"({shown})" if isinstance(self.runnable, RunnableSequence) else shown
            return f"{shown}.as_tool(name={self.tool_name!r})"
        shown = ", ".join(_function_name(f) for f in (self.func, self.afunc) if f is not None)
        return f"RunnableTool.from_function({shown}, name={self.tool_name!r})"

    def __reduce__(self) -> tuple[type[RunnableTool[Any]], tuple[object, ...]]:
        # Rebuilt through __init__: the compiled validator is not picklable.
        fields = (self.tool_name, self.description, self.args_schema, self.func, self.afunc,
                  self.runnable, self.single_arg, self.config_param, self.converters, self.reply)  # fmt: skip
        return (RunnableTool, fields)

    def __hash__(self) -> int:
        return hash((self.tool_name, self.description, _schema_hash(self.args_schema), self.func,
                     self.afunc, self.runnable, self.single_arg, self.reply))  # fmt: skip

    def describe_params(self, kwargs: Mapping[str, Any]) -> Mapping[str, object]:
        """Traces show the tool's description."""
        return {"description": self.description}

    def describe_input(self, input: ToolInput) -> object:
        """Events show the arguments (a tool call's ``args``), as the peer does."""
        given, _ = _unwrap(input)
        if isinstance(given, Mapping):
            arguments: Mapping[object, object] = given  # pyright: ignore[reportUnknownVariableType]
            return dict(arguments)
        return given

    def tool_call_id(self, input: ToolInput) -> str | None:
        """The id of a tool call (``on_tool_error`` events carry it), None for plain arguments.

        >>> from combinators import RunnableLambda
        >>> up = RunnableLambda(str.upper).with_types(input_type=str).as_tool(name="up")
        >>> up.tool_call_id({"name": "up", "args": {}, "id": "c1", "type": "tool_call"}), up.tool_call_id("a")
        ('c1', None)
        """
        return _unwrap(input)[1]

    # ------------------------------------------------------------------ running

    def arguments(self, input: ToolInput) -> dict[str, Any]:
        """The validated arguments for ``input`` (raises ``ToolArgumentsError``).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(str.upper).with_types(input_type=str).as_tool(name="up").arguments("a")
        {'__arg1': 'a'}
        """
        given, _ = _unwrap(input)
        arguments = self._normalise(given)
        errors = sorted(self.validator.iter_errors(arguments), key=lambda e: [str(p) for p in e.path])
        if errors:
            raise ToolArgumentsError(self.tool_name, tuple((_path(e.path), _short(e.message)) for e in errors))
        return arguments

    def _normalise(self, given: object) -> dict[str, Any]:
        if isinstance(given, Mapping):
            mapping: Mapping[Any, Any] = given  # pyright: ignore[reportUnknownVariableType]
            if self.single_arg is not None and len(mapping) == 1:
                # The peer accepts a single-input tool's one argument under any key.
                return {self.single_arg: next(iter(mapping.values()))}
            return {str(key): value for key, value in mapping.items()}
        if self.single_arg is not None:
            return {self.single_arg: given}
        if isinstance(given, str):
            properties = self.args
            if not properties:
                raise ToolArgumentsError(self.tool_name, (("$", "takes no arguments, got a str"),))
            return {next(iter(properties)): given}
        raise InputError(
            f"tool {self.tool_name!r} expects a dict of arguments, a str or a tool call, "
            f"got {type(given).__name__}"
        )

    def _body_input(self, arguments: dict[str, Any]) -> object:
        return arguments[self.single_arg] if self.single_arg is not None else arguments

    def _call(self, func: Callable[..., Any], arguments: dict[str, Any], scope: Scope) -> Any:
        try:
            keywords = {k: self.converters[k](v) if k in self.converters else v for k, v in arguments.items()}
        except ArgumentTypeError as error:  # a converter refused it: the function never runs
            raise ToolArgumentsError(self.tool_name, ((error.path, error.reason),)) from None
        if self.config_param is not None:
            keywords[self.config_param] = scope.config
        if self.single_arg is not None:
            return func(keywords.pop(self.single_arg), **keywords)
        return func(**keywords)

    def _answer(self, output: Any, input: ToolInput) -> Out:
        _, call_id = _unwrap(input)
        if call_id is not None and self.reply is not None:
            output = self.reply(output, call_id, self.tool_name)
        result: Out = output
        return result

    def step_invoke(self, input: ToolInput, scope: Scope, kwargs: Mapping[str, Any]) -> Out:
        arguments = self.arguments(input)
        if self.runnable is not None:
            output = scope.invoke(self.runnable, self._body_input(arguments))
        elif self.func is not None:
            output = self._call(self.func, arguments, scope)
        else:
            raise InputError(
                f"tool {self.tool_name!r} has only an async function; call ainvoke/astream instead of invoke"
            )
        return self._answer(output, input)

    async def step_ainvoke(self, input: ToolInput, scope: Scope, kwargs: Mapping[str, Any]) -> Out:
        arguments = self.arguments(input)
        if self.runnable is not None:
            output = await scope.ainvoke(self.runnable, self._body_input(arguments))
        elif self.afunc is not None:
            output = await self._call(self.afunc, arguments, scope)
        else:
            assert self.func is not None
            output = self._call(self.func, arguments, scope)
        return self._answer(output, input)


def _function_name(func: Callable[..., Any]) -> str:
    name = getattr(func, "__name__", None)
    return name if isinstance(name, str) else repr(func)


def _unwrap(input: object) -> tuple[object, str | None]:
    """The arguments a tool input holds, and its tool-call id (None for plain arguments)."""
    if isinstance(input, str):
        return input, None
    if isinstance(input, Mapping):
        mapping: Mapping[str, Any] = input  # pyright: ignore[reportUnknownVariableType]
        if mapping.get("type") == "tool_call":
            call_id = mapping.get("id")
            return mapping.get("args", {}), call_id if isinstance(call_id, str) else None
        return mapping, None
    args: object = getattr(input, "args", None)
    if isinstance(args, Mapping) and hasattr(input, "name") and hasattr(input, "id"):
        call_id = getattr(input, "id")
        return args, call_id if isinstance(call_id, str) else None  # pyright: ignore[reportUnknownVariableType]
    return input, None


def tool_from_runnable(
    runnable: Runnable[Any, A],
    *,
    name: str | None = None,
    description: str | None = None,
    args_schema: Mapping[str, Any] | type[Any] | None = None,
    arg_types: Mapping[str, Any] | None = None,
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


__all__ = [
    "SINGLE_ARG",
    "ArgumentTypeError",
    "RunnableTool",
    "ToolArgumentsError",
    "ToolCallLike",
    "ToolInput",
    "ToolReply",
    "tool_from_runnable",
]
