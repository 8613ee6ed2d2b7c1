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
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, Never, ParamSpec, TypeVar, cast, final, get_type_hints, overload

import typing_extensions

import attrs

from combinators._support.callables import is_async
from combinators._support.tool_arguments import (
    SINGLE_ARG,
    ArgumentTypeError,
    ToolArgumentsError,
    ToolCallLike,
    ToolInput,
    ToolReply,
    arguments_of,
    check_arguments,
    schema_hash,
    validator,
)
from combinators._support.type_schema import type_schema
from combinators.runnable.composing import Runnable
from combinators.runnable.sync_calls import SyncCalls
from effects.errors import InputError
from effects.guards import is_str_mapping
from effects.authoring import Scope, in_worker

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

Out = TypeVar("Out", covariant=True)
# PEP 696 defaults, so ``RunnableTool[Out]`` stays a full type (for the checkers and at run time).
P = typing_extensions.ParamSpec("P", default=...)
R = typing_extensions.TypeVar("R", covariant=True, default=object)
SyncIn = typing_extensions.TypeVar("SyncIn", covariant=True, default=ToolInput)
# P: the function's parameters, for the typed ``call`` (any arguments for a runnable's tool).
# R: what the function returns, ``call``'s result (a tool call's reply may differ: ``Out``).
# SyncIn: what the sync calls take, ``Never`` for an async-only tool (see ``SyncCalls``).
A = TypeVar("A")
B = TypeVar("B")
M = TypeVar("M")
Q = ParamSpec("Q")
S = TypeVar("S")

Converter = Callable[[object], object]
"""Turns one validated argument into the value the function takes (a dict into a class)."""


# SyncCalls first: its sync calls take SyncIn where Runnable's take the input (misc, on purpose:
# Never for an async-only function), and its slot for our covariant SyncIn is invariant (type-var).
@final
@attrs.frozen(repr=False, hash=False)
class RunnableTool(SyncCalls[Out, SyncIn], Runnable[ToolInput, Out], Generic[Out, P, R, SyncIn]):  # type: ignore[misc, type-var]
    """A tool: a function (sync and/or async) or a runnable behind an arguments schema.

    Build one with ``from_function``, ``from_runnable`` or ``Runnable.as_tool``.
    ``single_arg`` names the one argument of a single-input tool (its value, not a
    dict, reaches the body); ``config_param`` names the function parameter that
    receives the ``RunConfig``; ``converters`` turn validated arguments into the
    values the function takes (for example a dict into an attrs instance). Only the
    validated arguments reach the body: keyword arguments given to ``invoke`` (or bound
    with ``with_kwargs``) are not passed on. Under an async call a tool with only a sync
    function runs it on a worker thread (it never holds the event loop).

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
    args_schema: Mapping[str, object]
    func: Callable[..., object] | None = None
    afunc: Callable[..., Awaitable[object]] | None = None
    runnable: Runnable[Any, object] | None = None
    single_arg: str | None = None
    config_param: str | None = None
    converters: Mapping[str, Converter] = attrs.field(factory=dict[str, "Converter"])
    reply: ToolReply | None = None
    validator: Validator = attrs.field(init=False, eq=False)

    def __attrs_post_init__(self) -> None:
        if (self.func is None and self.afunc is None) == (self.runnable is None):
            raise InputError(f"tool {self.tool_name!r} needs a function or a runnable (one of them)")
        object.__setattr__(self, "validator", validator(self.args_schema, self.tool_name))

    # ------------------------------------------------------------------ building

    @overload
    @staticmethod
    def from_function(
        func: Callable[Q, Awaitable[A]],
        afunc: None = None,
        *,
        name: str,
        description: str,
        args_schema: Mapping[str, object],
        single_arg: str | None = None,
        config_param: str | None = None,
        converters: Mapping[str, Converter] | None = None,
    ) -> RunnableTool[A, Q, A, Never]: ...

    @overload
    @staticmethod
    def from_function(
        func: Callable[Q, A],
        afunc: Callable[Q, Awaitable[A]] | None = None,
        *,
        name: str,
        description: str,
        args_schema: Mapping[str, object],
        single_arg: str | None = None,
        config_param: str | None = None,
        converters: Mapping[str, Converter] | None = None,
    ) -> RunnableTool[A, Q, A]: ...

    @overload
    @staticmethod
    def from_function(
        func: None,
        afunc: Callable[Q, Awaitable[A]],
        *,
        name: str,
        description: str,
        args_schema: Mapping[str, object],
        single_arg: str | None = None,
        config_param: str | None = None,
        converters: Mapping[str, Converter] | None = None,
    ) -> RunnableTool[A, Q, A, Never]: ...

    @overload
    @staticmethod
    def from_function(
        func: Callable[Q, A] | None,
        afunc: Callable[Q, Awaitable[A]] | None = None,
        *,
        name: str,
        description: str,
        args_schema: Mapping[str, object],
        single_arg: str | None = None,
        config_param: str | None = None,
        converters: Mapping[str, Converter] | None = None,
    ) -> RunnableTool[A, Q, A]: ...

    @staticmethod
    def from_function(
        func: Callable[..., object] | None,
        afunc: Callable[..., Awaitable[object]] | None = None,
        *,
        name: str,
        description: str,
        args_schema: Mapping[str, object],
        single_arg: str | None = None,
        config_param: str | None = None,
        converters: Mapping[str, Converter] | None = None,
    ) -> RunnableTool[object, ..., object]:
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
        if func is not None and is_async(func):
            if afunc is not None:
                raise InputError(f"tool {name!r} got an async func and an afunc: give the async one as afunc")
            sync, afunc = None, func
        if afunc is not None and not is_async(afunc):
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
        args_schema: Mapping[str, object],
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

    def with_reply(self: RunnableTool[A, Q, B, S], reply: Callable[[A, str, str], M]) -> RunnableTool[A | M, Q, B, S]:
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

    def call(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """Run the tool (a tool run: validated, observed) on arguments its function's
        signature types; a wrong or unknown argument is a type error here.

        >>> def add(a: int, b: int = 1) -> int:
        ...     return a + b
        >>> schema = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}
        >>> RunnableTool.from_function(add, name="add", description="Add.", args_schema=schema).call(2, b=3)
        5
        """
        return self._result(_as_runnable(self).invoke(self._named(args, kwargs)))

    async def acall(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """Async ``call``."""
        return self._result(await self.ainvoke(self._named(args, kwargs)))

    def _result(self, output: object) -> R:
        # Called with arguments, not a tool call: no reply, the function's own result.
        return cast(R, output)

    def _named(self, args: tuple[object, ...], kwargs: Mapping[str, object]) -> dict[str, object]:
        """The arguments of a ``call`` by name, as the schema names them."""
        func = self.func or self.afunc
        if func is None:  # a runnable's tool: its arguments are the keywords
            return dict(kwargs) if self.single_arg is None or not args else {self.single_arg: args[0]}
        named = dict(inspect.signature(func).bind_partial(*args, **kwargs).arguments)
        named.pop(self.config_param or "", None)
        if self.single_arg is not None and named:
            return {self.single_arg: next(iter(named.values()))}
        return named

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
        given = self.args_schema.get("properties")
        return dict(given) if is_str_mapping(given) else {}

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

    def __reduce__(self) -> tuple[type[RunnableTool[object]], tuple[object, ...]]:
        # Rebuilt through __init__: the compiled validator is not picklable.
        fields = (self.tool_name, self.description, self.args_schema, self.func, self.afunc,
                  self.runnable, self.single_arg, self.config_param, self.converters, self.reply)  # fmt: skip
        return (RunnableTool, fields)

    def __hash__(self) -> int:
        return hash((self.tool_name, self.description, schema_hash(self.args_schema), self.func,
                     self.afunc, self.runnable, self.single_arg, self.reply))  # fmt: skip

    def describe_params(self, kwargs: Mapping[str, object]) -> Mapping[str, object]:
        """Traces show the tool's description."""
        return {"description": self.description}

    def describe_input(self, input: ToolInput) -> object:
        """Events show the arguments (a tool call's ``args``), as the peer does."""
        given, _ = arguments_of(input)
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
        return arguments_of(input)[1]

    # ------------------------------------------------------------------ running

    def arguments(self, input: ToolInput) -> dict[str, object]:
        """The validated arguments for ``input`` (raises ``ToolArgumentsError``).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(str.upper).with_types(input_type=str).as_tool(name="up").arguments("a")
        {'__arg1': 'a'}
        """
        given, _ = arguments_of(input)
        arguments = self._normalise(given)
        check_arguments(self.validator, arguments, self.tool_name)
        return arguments

    def _normalise(self, given: object) -> dict[str, object]:
        if isinstance(given, Mapping):
            mapping: Mapping[object, object] = given  # pyright: ignore[reportUnknownVariableType]
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
            f"tool {self.tool_name!r} expects a dict of arguments, a str or a tool call, got {type(given).__name__}"
        )

    def _body_input(self, arguments: dict[str, object]) -> object:
        return arguments[self.single_arg] if self.single_arg is not None else arguments

    def _call(self, func: Callable[..., A], arguments: dict[str, object], scope: Scope) -> A:
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
        # ``output`` is the function's (or the runnable's) result, which the overloads that
        # built the tool typed as Out (or the reply's input): Any, so no cast runs per call.
        _, call_id = arguments_of(input)
        if call_id is not None and self.reply is not None:
            output = self.reply(output, call_id, self.tool_name)
        result: Out = output
        return result

    def step_invoke(self, input: ToolInput, scope: Scope, kwargs: Mapping[str, object]) -> Out:
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

    async def step_ainvoke(self, input: ToolInput, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        arguments = self.arguments(input)
        if self.runnable is not None:
            output = await scope.ainvoke(self.runnable, self._body_input(arguments))
        elif self.afunc is not None:
            output = await self._call(self.afunc, arguments, scope)
        else:
            # A plain function must not hold the event loop: it runs on a worker thread.
            assert self.func is not None
            output = await in_worker(scope, self._call, self.func, arguments, scope)
        return self._answer(output, input)


def _function_name(func: Callable[..., object]) -> str:
    name = getattr(func, "__name__", None)
    return name if isinstance(name, str) else repr(func)


def _as_runnable(tool: Runnable[ToolInput, B]) -> Runnable[ToolInput, B]:
    """``tool``, with sync calls typed as any runnable's (an async-only tool's raise ``InputError``)."""
    return tool


__all__ = [
    "SINGLE_ARG",
    "ArgumentTypeError",
    "Converter",
    "RunnableTool",
    "ToolArgumentsError",
    "ToolCallLike",
    "ToolInput",
    "ToolReply",
]
