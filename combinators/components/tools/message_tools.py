"""Tools from typed functions: ``@tool``, ``Tool`` and ``StructuredTool.from_function``.

The arguments' JSON Schema comes from the parameters' annotations (defaults make an
argument optional), their descriptions from the docstring's ``Args:`` section (Google
style) or ``:param x:`` fields (reST); the first paragraph of the docstring is the
tool's description. Arguments are validated against the schema before the function
runs, and unknown arguments are refused unless the function takes ``**kwargs``. A
parameter annotated ``RunConfig`` receives the run's config and is not an argument.

Every tool is a ``combinators.nodes.tool.RunnableTool``. Given a tool call with an id
(``{"name", "args", "id", "type": "tool_call"}`` or a ``ToolCall``), it answers with a
``ToolMessage`` carrying that ``tool_call_id``; given plain arguments, with the
function's result. So ``@tool`` on ``def f(...) -> R`` is typed
``RunnableTool[R | ToolMessage, <f's parameters>, R]`` (a ``Runnable[ToolInput, R |
ToolMessage]``): both can come out of one ``invoke``, and a type checker cannot tell a
dict of arguments from a tool-call dict. ``call(...)`` is the typed path: the
function's own parameters (checked by the type checkers), the function's result.

>>> @tool
... def multiply(a: int, b: int = 2) -> int:
...     '''Multiply two numbers.
...
...     Args:
...         a: The first factor.
...         b: The second factor.
...     '''
...     return a * b
>>> multiply.invoke({"a": 3}), multiply.call(3, b=4)
(6, 12)
>>> multiply.description, multiply.args["a"]
('Multiply two numbers.', {'type': 'integer', 'description': 'The first factor.'})
>>> multiply.invoke({"name": "multiply", "args": {"a": 3, "b": 3}, "id": "call_1", "type": "tool_call"})
ToolMessage('9', name='multiply', tool_call_id='call_1')
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Never, ParamSpec, TypeGuard, TypeVar, final, get_type_hints, overload

import attrs

from combinators.components.messages.message_classes import ToolMessage
from combinators.components.tools.typed_arguments import TypedArgument
from combinators.authoring import type_schema
from combinators import RunnableTool
from combinators.authoring import SINGLE_ARG
from effects.config import RunConfig
from effects.errors import InputError, InputValueError
from effects.authoring import is_list_or_tuple, is_str_mapping

R = TypeVar("R")
P = ParamSpec("P")

ArgsSchema = Mapping[str, object] | type[object]
"""A JSON Schema of the arguments, or a TypedDict or attrs class describing them."""

_SECTION = re.compile(
    r"(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters"
    r"|Returns?|Yields?|Raises|Examples?|Notes?|Attributes|See Also|Warnings?|Todo)\s*:"
)
_ARG_SECTIONS = frozenset({"Args", "Arguments", "Parameters", "Params", "Keyword Args",
                           "Keyword Arguments", "Other Parameters"})  # fmt: skip
_GOOGLE_ARG = re.compile(r"\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)")
_REST_PARAM = re.compile(r":param\s+(?:[^:]*\s)?(\w+)\s*:\s*(.*)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """The first paragraph, and the parameter descriptions (Google ``Args:`` or reST).

    >>> parse_docstring('''Search the web.
    ...
    ...     Args:
    ...         query (str): What to look for,
    ...             in plain words.
    ...         k: How many results.
    ...     ''')
    ('Search the web.', {'query': 'What to look for, in plain words.', 'k': 'How many results.'})
    >>> parse_docstring(":param q: the query\\n:returns: hits")
    ('', {'q': 'the query'})
    """
    lines = inspect.cleandoc(doc or "").splitlines()
    if lines and _SECTION.fullmatch(lines[0].strip()):
        # cleandoc dedents the lines after the first by their own indentation
        lines = [lines[0], *(f"    {line}" for line in lines[1:])]
    paragraph: list[str] = []
    for line in lines:
        text = line.strip()
        if not text:
            if paragraph:
                break
            continue
        if _SECTION.fullmatch(text) or text.startswith(":"):
            break
        paragraph.append(text)
    found: dict[str, str] = {}
    current: str | None = None
    in_args = False
    arg_indent: int | None = None
    for line in lines:
        text = line.strip()
        if not text:
            continue
        header = _SECTION.fullmatch(text)
        if header and _indent(line) == 0:
            in_args, current, arg_indent = header.group(1) in _ARG_SECTIONS, None, None
            continue
        rest = _REST_PARAM.fullmatch(text)
        if rest:
            key: str = rest.group(1)
            current, in_args = key, False
            found[key] = rest.group(2).strip()
            continue
        if text.startswith(":") or (_indent(line) == 0 and in_args):
            current, in_args = None, False
            continue
        if in_args:
            arg_indent = _indent(line) if arg_indent is None else arg_indent
            entry = _GOOGLE_ARG.fullmatch(text) if _indent(line) == arg_indent else None
            if entry:
                key = entry.group(1)
                current = key
                found[key] = entry.group(2).strip()
                continue
        if current is not None and _indent(line) > 0:
            found[current] = f"{found[current]} {text}".strip()
    return " ".join(paragraph), found


@final
@attrs.frozen
class _Plan:
    schema: dict[str, Any]
    config_param: str | None
    converters: dict[str, TypedArgument]


def _jsonable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _plan(func: Callable[..., object], name: str, descriptions: Mapping[str, str]) -> _Plan:
    try:
        hints = get_type_hints(func)
        parameters = inspect.signature(func).parameters.values()
    except (NameError, TypeError, ValueError) as error:
        raise InputError(f"cannot read the parameters of tool {name!r}: {error}") from None
    properties: dict[str, Any] = {}
    required: list[str] = []
    config_param: str | None = None
    converters: dict[str, TypedArgument] = {}
    extra = False
    for param in parameters:
        hint = hints.get(param.name, Any)
        if param.kind is param.VAR_KEYWORD:
            extra = True
            continue
        if param.kind is param.VAR_POSITIONAL:
            continue
        if param.kind is param.POSITIONAL_ONLY:
            raise InputError(
                f"tool {name!r} calls its function with keyword arguments; parameter {param.name!r} is positional-only"
            )
        if hint is RunConfig:
            config_param = param.name
            continue
        schema = type_schema(hint)
        if isinstance(hint, type) and attrs.has(hint):
            schema["additionalProperties"] = False
        if hint is not Any:
            # The value reaches the function with this type, or the call is refused.
            converters[param.name] = TypedArgument(param.name, hint)
        if param.name in descriptions:
            schema["description"] = descriptions[param.name]
        if param.default is param.empty:
            required.append(param.name)
        elif _jsonable(param.default):
            schema["default"] = param.default
        properties[param.name] = schema
    args_schema: dict[str, Any] = {"title": name, "type": "object", "properties": properties}
    if required:
        args_schema["required"] = required
    if not extra:
        args_schema["additionalProperties"] = False
    return _Plan(args_schema, config_param, converters)


def function_schema(func: Callable[..., object], *, name: str | None = None) -> dict[str, Any]:
    """The JSON Schema of ``func``'s arguments, from its annotations and docstring.

    >>> def search(query: str, k: int | None = None) -> list[str]:
    ...     '''Search.
    ...
    ...     Args:
    ...         query: Words to look for.
    ...     '''
    ...     return []
    >>> function_schema(search)
    {'title': 'search', 'type': 'object', 'properties': {'query': {'type': 'string', 'description': 'Words to look for.'}, 'k': {'anyOf': [{'type': 'integer'}, {'type': 'null'}], 'default': None}}, 'required': ['query'], 'additionalProperties': False}
    """
    return _plan(func, name or _name_of(func), parse_docstring(func.__doc__)[1]).schema


def _name_of(func: Callable[..., object]) -> str:
    name = getattr(func, "__name__", None)
    if not isinstance(name, str) or name == "<lambda>":
        raise InputValueError("a tool needs a name: pass name= for a lambda or a callable object")
    return name


def _given_schema(args_schema: ArgsSchema, name: str) -> dict[str, Any]:
    schema = dict(args_schema) if isinstance(args_schema, Mapping) else type_schema(args_schema)
    if schema.get("type") != "object":
        raise InputError(f"args_schema of tool {name!r} must describe an object, got {args_schema!r}")
    return {**schema, "title": name}


def _is_part(part: object) -> TypeGuard[str | Mapping[str, object]]:
    return isinstance(part, str) or (is_str_mapping(part) and "type" in part)


def content_parts(output: object) -> list[str | Mapping[str, object]] | None:
    """``output`` as message content when it is a non-empty list (or tuple) of text and
    content blocks (dicts with a ``type``), else ``None``.

    >>> content_parts(["see", {"type": "image_url", "image_url": {"url": "x"}}])
    ['see', {'type': 'image_url', 'image_url': {'url': 'x'}}]
    >>> content_parts([]), content_parts(["a", 1]), content_parts("a")
    (None, None, None)
    """
    if not is_list_or_tuple(output) or not output:
        return None
    parts = [part for part in output if _is_part(part)]
    return parts if len(parts) == len(output) else None


def _content(output: object) -> str | list[str | Mapping[str, object]] | None:
    # Text and a list of content blocks are message content already.
    return output if isinstance(output, str) else content_parts(output)


def tool_message(output: object, tool_call_id: str, tool_name: str) -> ToolMessage:
    """A tool's answer to a tool call: its output as the content of a ``ToolMessage``.

    Text and content blocks are kept; other values become JSON (else ``str``).

    >>> tool_message({"hits": 2}, "call_1", "search")
    ToolMessage('{"hits": 2}', name='search', tool_call_id='call_1')
    >>> tool_message("done", "call_2", "save").content
    'done'
    """
    if isinstance(output, ToolMessage):
        return output
    content: str | list[str | Mapping[str, object]] | None = _content(output)
    if content is None:
        try:
            content = json.dumps(output, ensure_ascii=False)
        except (TypeError, ValueError):
            content = str(output)
    return ToolMessage(content, tool_call_id=tool_call_id, name=tool_name)


def _build(
    func: Callable[..., object] | None,
    coroutine: Callable[..., Awaitable[object]] | None,
    name: str | None,
    description: str | None,
    args_schema: ArgsSchema | None,
) -> RunnableTool[Any, ..., Any]:
    main = func if func is not None else coroutine
    if main is None:
        raise InputError("a tool needs a function or a coroutine")
    tool_name = name or _name_of(main)
    summary, descriptions = parse_docstring(main.__doc__)
    plan = _plan(main, tool_name, descriptions)
    schema = plan.schema if args_schema is None else _given_schema(args_schema, tool_name)
    text = description or summary
    if not text:
        raise InputValueError(
            f"tool {tool_name!r} needs a description: give the function a docstring or pass description="
        )
    built = RunnableTool.from_function(
        func,
        coroutine,
        name=tool_name,
        description=text,
        args_schema=schema,
        config_param=plan.config_param,
        converters=plan.converters,
    )
    return built.with_reply(tool_message)


@final
@attrs.frozen
class ToolDecorator:
    """What ``@tool("name", ...)`` or ``@tool(description=...)`` gives: apply it to a function.

    >>> @tool("lookup", description="Look a word up.")
    ... def find(word: str) -> str:
    ...     return word[::-1]
    >>> find.name, find.invoke("abc")
    ('lookup', 'cba')
    """

    name: str | None = None
    description: str | None = None
    args_schema: ArgsSchema | None = None

    @overload
    def __call__(self, func: Callable[P, Awaitable[R]], /) -> RunnableTool[R | ToolMessage, P, R, Never]: ...

    @overload
    def __call__(self, func: Callable[P, R], /) -> RunnableTool[R | ToolMessage, P, R]: ...

    def __call__(self, func: Callable[..., object], /) -> RunnableTool[Any, ..., Any]:
        return _build(func, None, self.name, self.description, self.args_schema)


@overload
def tool(func: Callable[P, Awaitable[R]], /) -> RunnableTool[R | ToolMessage, P, R, Never]: ...
@overload
def tool(func: Callable[P, R], /) -> RunnableTool[R | ToolMessage, P, R]: ...
@overload
def tool(
    name: str | None = None,
    /,
    *,
    description: str | None = None,
    args_schema: ArgsSchema | None = None,
) -> ToolDecorator: ...
def tool(
    name_or_func: str | Callable[..., object] | None = None,
    /,
    *,
    description: str | None = None,
    args_schema: ArgsSchema | None = None,
) -> RunnableTool[Any, ..., Any] | ToolDecorator:
    """Make a tool of a sync or async function: ``@tool``, ``@tool("name")``, ``@tool(description=...)``.

    >>> import asyncio
    >>> @tool
    ... async def greet(who: str) -> str:
    ...     '''Greet someone.'''
    ...     return f"hello {who}"
    >>> asyncio.run(greet.ainvoke({"who": "ann"}))
    'hello ann'
    """
    if name_or_func is None or isinstance(name_or_func, str):
        return ToolDecorator(name_or_func, description, args_schema)
    return _build(name_or_func, None, None, description, args_schema)


@final
class StructuredTool:
    """The peer's ``StructuredTool``, as a namespace: ``from_function`` builds a ``RunnableTool``."""

    __slots__ = ()

    @overload
    @staticmethod
    def from_function(
        func: Callable[P, Awaitable[R]],
        coroutine: None = None,
        name: str | None = None,
        description: str | None = None,
        *,
        args_schema: ArgsSchema | None = None,
    ) -> RunnableTool[R | ToolMessage, P, R, Never]: ...

    @overload
    @staticmethod
    def from_function(
        func: Callable[P, R],
        coroutine: Callable[P, Awaitable[R]] | None = None,
        name: str | None = None,
        description: str | None = None,
        *,
        args_schema: ArgsSchema | None = None,
    ) -> RunnableTool[R | ToolMessage, P, R]: ...

    @overload
    @staticmethod
    def from_function(
        func: None = None,
        *,
        coroutine: Callable[P, Awaitable[R]],
        name: str | None = None,
        description: str | None = None,
        args_schema: ArgsSchema | None = None,
    ) -> RunnableTool[R | ToolMessage, P, R, Never]: ...

    @staticmethod
    def from_function(
        func: Callable[..., object] | None = None,
        coroutine: Callable[..., Awaitable[object]] | None = None,
        name: str | None = None,
        description: str | None = None,
        *,
        args_schema: ArgsSchema | None = None,
    ) -> RunnableTool[Any, ..., Any]:
        """A tool of ``func`` (and/or the async ``coroutine``), as ``@tool`` makes it.

        >>> def area(width: float, height: float) -> float:
        ...     return width * height
        >>> t = StructuredTool.from_function(area, description="Area of a rectangle.")
        >>> t.invoke({"width": 2.0, "height": 3})
        6.0
        """
        return _build(func, coroutine, name, description, args_schema)


@overload
def Tool(
    name: str,
    func: Callable[[str], R],
    description: str,
    *,
    coroutine: Callable[[str], Awaitable[R]] | None = None,
) -> RunnableTool[R | ToolMessage, [str], R]: ...
@overload
def Tool(
    name: str,
    func: None,
    description: str,
    *,
    coroutine: Callable[[str], Awaitable[R]],
) -> RunnableTool[R | ToolMessage, [str], R, Never]: ...
def Tool(  # noqa: N802 - the peer's class name, kept for users coming from LangChain
    name: str,
    func: Callable[[str], object] | None,
    description: str,
    *,
    coroutine: Callable[[str], Awaitable[object]] | None = None,
) -> RunnableTool[Any, [str], Any]:
    """A single-input tool: its function takes one ``str`` (the argument ``__arg1``).

    A dict with one key is accepted too, whatever the key, as the peer does.

    >>> shout = Tool("shout", str.upper, "Shout the text.")
    >>> shout.invoke("hi"), shout.invoke({"text": "yo"})
    ('HI', 'YO')
    """
    schema = {
        "title": name,
        "type": "object",
        "properties": {SINGLE_ARG: {"type": "string"}},
        "required": [SINGLE_ARG],
        "additionalProperties": False,
    }
    built = RunnableTool.from_function(
        func, coroutine, name=name, description=description, args_schema=schema, single_arg=SINGLE_ARG
    )
    return built.with_reply(tool_message)


__all__ = [
    "ArgsSchema",
    "StructuredTool",
    "Tool",
    "ToolDecorator",
    "content_parts",
    "function_schema",
    "parse_docstring",
    "tool",
    "tool_message",
]
