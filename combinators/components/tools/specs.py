"""Tool specs for the chat-completions ``tools`` and ``tool_choice`` fields.

A tool may be one of our tools (``@tool``, ``StructuredTool``, ``Runnable.as_tool``:
anything with a ``name``, a ``description`` and a JSON Schema of its arguments from
``tool_call_schema()``), a JSON Schema dict (the full
``{"type": "function", "function": {...}}`` spec, a ``{"name", "description",
"parameters"}`` function, or a bare object schema with a ``title``), or a plain typed
Python function, whose schema comes from its annotations.

>>> def get_weather(city: str, days: int = 1) -> str:
...     '''The forecast for a city.'''
...     return "sunny"
>>> tool_to_openai(get_weather)["function"]
{'name': 'get_weather', 'description': 'The forecast for a city.', 'parameters': {'type': 'object', 'properties': {'city': {'type': 'string'}, 'days': {'type': 'integer'}}, 'required': ['city']}}
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Protocol, TypeAlias, get_type_hints, runtime_checkable

from combinators.authoring import type_schema
from effects.authoring import is_list, is_list_or_tuple, is_mapping, is_str_mapping

__all__ = [
    "ToolChoice",
    "ToolLike",
    "ToolSpec",
    "bound_functions",
    "function_parameters",
    "strict_schema",
    "tool_choice_to_openai",
    "tool_to_openai",
]


@runtime_checkable
class ToolLike(Protocol):
    """What a tool needs for the model to call it: a name, a description, an argument schema.

    >>> class Add:
    ...     name = "add"
    ...     description = "Add two numbers."
    ...     def tool_call_schema(self):
    ...         return {"type": "object", "properties": {"a": {"type": "number"}}}
    >>> isinstance(Add(), ToolLike)
    True
    """

    @property
    def name(self) -> str:
        """The name the model calls the tool by."""
        ...

    @property
    def description(self) -> str:
        """What the tool does, for the model."""
        ...

    def tool_call_schema(self) -> Mapping[str, object]:
        """The JSON Schema (an object schema) of the tool's arguments."""
        ...


ToolSpec: TypeAlias = "ToolLike | Mapping[str, object] | Callable[..., object]"
"""What ``bind_tools`` accepts: one of our tools, a JSON Schema dict, or a typed function."""

ToolChoice: TypeAlias = "Literal['auto', 'none', 'required', 'any'] | str | bool | Mapping[str, object]"
"""``"auto"``, ``"none"``, ``"required"`` (``"any"`` is a synonym), a tool's name,
``True`` (the single bound tool), or the wire format's own dict."""


def function_parameters(function: Callable[..., object]) -> dict[str, object]:
    """The object schema of a function's parameters (those without defaults are required).

    >>> def f(a: int, b: list[str] | None = None) -> None: ...
    >>> function_parameters(f)
    {'type': 'object', 'properties': {'a': {'type': 'integer'}, 'b': {'anyOf': [{'type': 'array', 'items': {'type': 'string'}}, {'type': 'null'}]}}, 'required': ['a']}
    """
    signature = inspect.signature(function)
    try:
        hints = get_type_hints(function)
    except Exception:  # unresolvable annotations: their parameters take anything
        hints = {}
    properties: dict[str, object] = {}
    required: list[str] = []
    for name, parameter in signature.parameters.items():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        properties[name] = type_schema(hints.get(name, Any))
        if parameter.default is parameter.empty:
            required.append(name)
    schema: dict[str, object] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def _description(function: Callable[..., object]) -> str:
    doc = inspect.getdoc(function) or ""
    return doc.split("\n\n", 1)[0].replace("\n", " ").strip()


def _function(name: str, description: str, parameters: Mapping[str, object], strict: bool | None) -> dict[str, object]:
    function: dict[str, object] = {"name": name, "description": description, "parameters": dict(parameters)}
    if strict is not None:
        function["strict"] = strict
        if strict:
            function["parameters"] = strict_schema(parameters)
    return {"type": "function", "function": function}


def strict_schema(schema: Mapping[str, object]) -> dict[str, object]:
    """The schema with ``additionalProperties: false`` on every object, as strict mode asks.

    >>> strict_schema({"type": "object", "properties": {"p": {"type": "object"}}})
    {'type': 'object', 'properties': {'p': {'type': 'object', 'additionalProperties': False}}, 'additionalProperties': False}
    """

    fields = {key: _strict(value) for key, value in schema.items()}
    if fields.get("type") == "object" and "additionalProperties" not in fields:
        fields["additionalProperties"] = False
    return fields


def _strict(node: object) -> object:
    if is_str_mapping(node):
        return strict_schema(node)
    if is_list(node):
        return [_strict(item) for item in node]
    return node


def _object(value: object) -> Mapping[str, object]:
    return value if is_str_mapping(value) else {}


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _from_dict(spec: Mapping[str, object], strict: bool | None) -> dict[str, object]:
    function, name, title = spec.get("function"), spec.get("name"), spec.get("title")
    if spec.get("type") == "function" and is_str_mapping(function):
        if strict is not None:
            parameters = _object(function.get("parameters"))
            return _function(str(function["name"]), _text(function.get("description")), parameters, strict)
        return {"type": "function", "function": dict(function)}
    if isinstance(name, str):
        parameters = _object(spec.get("parameters", {"type": "object", "properties": {}}))
        return _function(name, _text(spec.get("description")), parameters, strict)
    if isinstance(title, str):
        return _function(title, _text(spec.get("description")), _parameters(spec), strict)
    raise ValueError(
        "a tool given as a dict needs a 'name' (a function spec), a 'title' (a JSON Schema) "
        f"or the form {{'type': 'function', 'function': {{...}}}}; got keys {sorted(spec)}"
    )


def _parameters(schema: Mapping[str, object]) -> dict[str, object]:
    # The name and description travel beside the parameters; a title inside is noise.
    return {key: value for key, value in schema.items() if key not in ("title", "description")}


def tool_to_openai(tool: ToolSpec, *, strict: bool | None = None) -> dict[str, object]:
    """The ``{"type": "function", "function": {...}}`` spec of a tool.

    >>> tool_to_openai({"title": "Search", "description": "Find.", "type": "object",
    ...                 "properties": {"q": {"type": "string"}}})["function"]["name"]
    'Search'
    """
    if is_str_mapping(tool):
        return _from_dict(tool, strict)
    if isinstance(tool, ToolLike):
        return _function(tool.name, tool.description, _parameters(tool.tool_call_schema()), strict)
    if callable(tool):
        return _function(
            getattr(tool, "__name__", type(tool).__name__), _description(tool), function_parameters(tool), strict
        )
    raise TypeError(
        f"cannot make a tool of a {type(tool).__name__}: give a tool, a JSON Schema dict or a typed function"
    )


def tool_choice_to_openai(choice: ToolChoice, tools: Sequence[Mapping[str, object]]) -> object:
    """The ``tool_choice`` field: a mode, or the one function the model must call.

    >>> tools = [tool_to_openai({"name": "f"})]
    >>> tool_choice_to_openai("any", tools), tool_choice_to_openai("f", tools)
    ('required', {'type': 'function', 'function': {'name': 'f'}})
    >>> tool_choice_to_openai(True, tools)
    {'type': 'function', 'function': {'name': 'f'}}
    """
    names = [_object(tool.get("function")).get("name") for tool in tools]
    if isinstance(choice, bool):
        if not choice:
            return "none"
        if len(names) != 1:
            raise ValueError(f"tool_choice=True needs exactly one tool, got {len(names)}")
        choice = str(names[0])
    if is_mapping(choice):
        return dict(choice)
    if choice == "any":
        return "required"
    if choice in ("auto", "none", "required"):
        return choice
    if choice not in names:
        raise ValueError(f"tool_choice {choice!r} is not one of the bound tools {names}")
    return {"type": "function", "function": {"name": choice}}


def bound_functions(kwargs: Mapping[str, object]) -> list[Mapping[str, object]]:
    """The function specs of the tools bound to a model call (its ``tools`` keyword, as
    ``bind_tools`` sets it), for a model that reads them (the fakes, a scripted model).

    >>> bound_functions({"tools": [tool_to_openai({"name": "f"}), "odd"]})
    [{'name': 'f', 'description': '', 'parameters': {'type': 'object', 'properties': {}}}]
    >>> bound_functions({})
    []
    """
    tools = kwargs.get("tools")
    specs = (spec.get("function") if is_mapping(spec) else None for spec in (tools if is_list_or_tuple(tools) else ()))
    return [function for function in specs if is_str_mapping(function)]
