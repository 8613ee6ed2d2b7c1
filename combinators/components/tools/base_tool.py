"""``BaseTool``: a tool written as a class, as LangChain users write theirs.

A subclass declares ``name`` and ``description`` (and, if it likes, ``args_schema``: a
JSON Schema, a TypedDict or an attrs class) as annotated class attributes, and
implements ``_run`` (and optionally ``_arun``). Its other annotated attributes are
fields, given by keyword when the tool is built; the class becomes a frozen attrs value.
The arguments' schema comes from ``_run``'s parameters when ``args_schema`` is not given
(a ``run_manager`` parameter, which the peer passes, is left out and gets ``None``).
It runs as a ``tool`` run and answers a tool call with a ``ToolMessage``, as ``@tool``
tools do.

>>> class Multiply(BaseTool):
...     name: str = "multiply"
...     description: str = "Multiply a number by the factor."
...     factor: int = 2
...     def _run(self, x: int) -> int:
...         return x * self.factor
>>> tripler = Multiply(factor=3)
>>> tripler.invoke({"x": 4}), tripler.args
(12, {'x': {'type': 'integer'}})
>>> tripler.invoke({"name": "multiply", "args": {"x": 1}, "id": "c1", "type": "tool_call"})
ToolMessage('3', name='multiply', tool_call_id='c1')
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import attrs

from combinators.components.run_fields import RunFields
from combinators import Runnable, RunnableTool, ToolInput
from combinators.authoring import DeclaredFields
from combinators.components.tools.message_tools import ArgsSchema, StructuredTool, function_schema
from effects.authoring import Scope, in_worker

_SKIPPED: frozenset[str] = frozenset({"run_manager", "callbacks"})


def _class_name(tool: BaseTool) -> str:
    return type(tool).__name__


def _own_summary(tool: BaseTool) -> str:
    # The class's own docstring only (getdoc would hand a subclass without one BaseTool's),
    # its first paragraph: what a model is told when no description is given.
    return inspect.cleandoc(type(tool).__doc__ or "").split("\n\n")[0]


def _without_skipped(schema: dict[str, Any]) -> dict[str, Any]:
    properties = {k: v for k, v in schema.get("properties", {}).items() if k not in _SKIPPED}
    required = [k for k in schema.get("required", []) if k not in _SKIPPED]
    trimmed = {**schema, "properties": properties}
    if required:
        trimmed["required"] = required
    else:
        trimmed.pop("required", None)
    return trimmed


class BaseTool(RunFields, Runnable[ToolInput, object], DeclaredFields):
    """The base of tools written as classes (see the module docstring)."""

    run_type = "tool"

    # A field where other runnables have a read-only `name` property (a tool's name is data).
    name: str = attrs.field(default=attrs.Factory(_class_name, takes_self=True), kw_only=True)  # pyright: ignore[reportIncompatibleMethodOverride]
    description: str = attrs.field(default=attrs.Factory(_own_summary, takes_self=True), kw_only=True)
    args_schema: ArgsSchema | None = attrs.field(default=None, kw_only=True, hash=False)
    return_direct: bool = attrs.field(default=False, kw_only=True)

    def _run(self, *args: Any, **kwargs: Any) -> Any:
        """Hook: the tool's work, given its arguments by keyword."""
        raise NotImplementedError(f"{type(self).__name__} must implement _run (or _arun)")

    async def _arun(self, *args: Any, **kwargs: Any) -> Any:
        """Hook: async ``_run`` (default: ``_run`` on a worker thread of the library's pool,
        as the peer runs it in an executor: it never holds the event loop)."""
        return await in_worker(None, functools.partial(self._run, *args, **kwargs))

    @functools.cached_property
    def _tool(self) -> RunnableTool[object]:
        own_sync = type(self)._run is not BaseTool._run
        main = self._run if own_sync else self._arun
        schema = self.args_schema
        if schema is None:
            schema = _without_skipped(function_schema(main, name=self.name))
        summary = self.description
        coroutine: Callable[..., Awaitable[object]] = self._arun
        if not own_sync:
            return StructuredTool.from_function(
                coroutine=coroutine, name=self.name, description=summary, args_schema=schema
            )
        sync: Callable[..., object] = self._run
        if type(self)._arun is BaseTool._arun:
            # No async hook of its own: the tool's async calls run _run on a worker thread.
            return StructuredTool.from_function(sync, name=self.name, description=summary, args_schema=schema)
        return StructuredTool.from_function(sync, coroutine, self.name, summary, args_schema=schema)

    def as_structured_tool(self) -> RunnableTool[object]:
        """The ``StructuredTool`` this tool runs as (same name, description and schema).

        >>> class Echo(BaseTool):
        ...     "Say the text back."
        ...     def _run(self, text: str) -> str:
        ...         return text
        >>> Echo().as_structured_tool().invoke({"text": "hi"})
        'hi'
        """
        return self._tool

    @property
    def args(self) -> dict[str, Any]:
        """The arguments' property schemas (the peer's ``tool.args``)."""
        return self._tool.args

    def tool_call_schema(self) -> dict[str, Any]:
        """The JSON Schema a model calls this tool with."""
        return self._tool.tool_call_schema()

    def describe_input(self, input: ToolInput) -> object:
        return self._tool.describe_input(input)

    def step_invoke(self, input: ToolInput, scope: Scope, kwargs: Mapping[str, object]) -> object:
        return self._tool.step_invoke(input, scope, kwargs)

    async def step_ainvoke(self, input: ToolInput, scope: Scope, kwargs: Mapping[str, object]) -> object:
        return await self._tool.step_ainvoke(input, scope, kwargs)
