"""Tool schemas: derived from annotations, defaults and docstrings, or given."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

import attrs
import pytest

from combinators import RunConfig
from combinators.components.tools.message_tools import StructuredTool, Tool, function_schema, parse_docstring, tool
from effects.errors import InputError, InputValueError


class Point(TypedDict):
    x: int
    y: int


@attrs.frozen
class Box:
    width: float
    label: str = "box"


def test_scalars_lists_and_optional_with_defaults() -> None:
    def f(n: int, ratio: float, name: str, flag: bool, tags: list[str], limit: int | None = None) -> None:
        """F."""

    schema = function_schema(f)
    assert schema["type"] == "object"
    assert schema["title"] == "f"
    assert schema["properties"] == {
        "n": {"type": "integer"},
        "ratio": {"type": "number"},
        "name": {"type": "string"},
        "flag": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
    }
    assert schema["required"] == ["n", "ratio", "name", "flag", "tags"]
    assert schema["additionalProperties"] is False


def test_a_default_makes_an_argument_optional_and_is_shown_when_json() -> None:
    sentinel = object()

    def f(a: int = 3, b: str = "x", c: object = sentinel) -> None:
        """F."""

    schema = function_schema(f)
    assert "required" not in schema
    assert schema["properties"]["a"] == {"type": "integer", "default": 3}
    assert schema["properties"]["b"] == {"type": "string", "default": "x"}
    assert schema["properties"]["c"] == {}  # not JSON: no default shown, still optional


def test_optional_without_default_is_required_but_nullable() -> None:
    def f(a: int | None) -> None:
        """F."""

    schema = function_schema(f)
    assert schema["required"] == ["a"]
    assert schema["properties"]["a"] == {"anyOf": [{"type": "integer"}, {"type": "null"}]}


def test_typed_dict_attrs_and_literal_parameters() -> None:
    def f(p: Point, box: Box, mode: Literal["fast", "slow"]) -> None:
        """F."""

    props = function_schema(f)["properties"]
    assert props["p"] == {
        "type": "object",
        "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
        "required": ["x", "y"],
        "title": "Point",
    }
    assert props["box"]["properties"] == {"width": {"type": "number"}, "label": {"type": "string"}}
    assert props["box"]["required"] == ["width"]
    assert props["box"]["additionalProperties"] is False
    assert props["mode"] == {"enum": ["fast", "slow"]}


def test_unannotated_parameter_accepts_anything() -> None:
    def f(a, b: int):  # type: ignore[no-untyped-def]
        """F."""

    assert function_schema(f)["properties"] == {"a": {}, "b": {"type": "integer"}}  # pyright: ignore[reportUnknownArgumentType]


def test_kwargs_allows_extra_arguments_and_varargs_are_not_arguments() -> None:
    def f(a: int, *rest: int, **extra: Any) -> None:
        """F."""

    schema = function_schema(f)
    assert list(schema["properties"]) == ["a"]
    assert "additionalProperties" not in schema


def test_run_config_parameter_is_injected_not_an_argument() -> None:
    def f(q: str, config: RunConfig) -> str:
        """F."""
        return q + ",".join(config.tags)

    t = tool(f)
    assert list(t.args) == ["q"]
    assert t.invoke({"q": "t:"}, {"tags": ["a", "b"]}) == "t:a,b"


def test_google_docstring_gives_description_and_argument_descriptions() -> None:
    @tool
    def search(query: str, k: int = 3) -> list[str]:
        """Search the index for documents.

        Longer explanation that is not part of the description.

        Args:
            query (str): The words to look for,
                as plain text.
            k: How many hits.

        Returns:
            The hits.
        """
        return []

    assert search.description == "Search the index for documents."
    assert search.args["query"]["description"] == "The words to look for, as plain text."
    assert search.args["k"] == {"type": "integer", "description": "How many hits.", "default": 3}


def test_rest_docstring_argument_descriptions() -> None:
    @tool
    def fetch(url: str, timeout: float = 1.0) -> str:
        """Fetch a page.

        :param url: The address.
        :param float timeout: Seconds to wait,
            at most.
        :returns: The body.
        """
        return url

    assert fetch.description == "Fetch a page."
    assert fetch.args["url"]["description"] == "The address."
    assert fetch.args["timeout"]["description"] == "Seconds to wait, at most."


def test_multiline_first_paragraph_is_joined() -> None:
    assert parse_docstring("One\ntwo.\n\nThree.") == ("One two.", {})
    assert parse_docstring(None) == ("", {})
    assert parse_docstring("Args:\n    a: x") == ("", {"a": "x"})


def test_sections_after_args_end_the_arguments() -> None:
    doc = """Do.

    Args:
        a: first
    Raises:
        ValueError: never
    """
    assert parse_docstring(doc) == ("Do.", {"a": "first"})


def test_explicit_name_description_and_args_schema_win() -> None:
    def f(**kwargs: Any) -> int:
        return len(kwargs)

    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    t = tool("count", description="Count arguments.", args_schema=schema)(f)
    assert t.name == "count"
    assert t.description == "Count arguments."
    assert t.tool_call_schema() == {**schema, "title": "count"}
    assert t.invoke({"q": "x"}) == 1


def test_args_schema_as_typed_dict() -> None:
    def f(x: int, y: int) -> int:
        return x * y

    t = StructuredTool.from_function(f, description="Multiply.", args_schema=Point)
    assert t.args == {"x": {"type": "integer"}, "y": {"type": "integer"}}
    assert t.invoke({"x": 2, "y": 3}) == 6


def test_args_schema_must_describe_an_object() -> None:
    def f(x: str) -> str:
        return x

    with pytest.raises(InputError, match="must describe an object"):
        tool(description="F.", args_schema={"type": "string"})(f)


def test_invalid_json_schema_is_refused_when_building() -> None:
    def f(x: int) -> int:
        return x

    with pytest.raises(InputValueError, match="not a valid JSON Schema"):
        tool(description="F.", args_schema={"type": "object", "properties": {"x": {"type": 7}}})(f)


def test_missing_description_is_a_clear_error() -> None:
    def undocumented(x: int) -> int:
        return x

    with pytest.raises(InputValueError, match="tool 'undocumented' needs a description"):
        tool(undocumented)
    assert tool(description="Given.")(undocumented).description == "Given."


def test_lambda_needs_a_name() -> None:
    with pytest.raises(InputValueError, match="needs a name"):
        tool(description="d")(lambda x: x)  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    assert tool("ident", description="d")(lambda x: x).name == "ident"  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]


def test_positional_only_parameters_are_refused() -> None:
    def f(a: int, /) -> int:
        """F."""
        return a

    with pytest.raises(InputError, match="'a' is positional-only"):
        tool(f)


def test_single_input_tool_schema() -> None:
    t = Tool("echo", str.strip, "Strip.")
    assert t.tool_call_schema() == {
        "title": "echo",
        "type": "object",
        "properties": {"__arg1": {"type": "string"}},
        "required": ["__arg1"],
        "additionalProperties": False,
    }


def test_tool_call_schema_is_a_copy() -> None:
    @tool
    def f(a: list[int]) -> int:
        """F."""
        return sum(a)

    f.tool_call_schema()["properties"]["a"]["items"]["type"] = "string"
    assert f.args["a"] == {"type": "array", "items": {"type": "integer"}}
    assert f.input_schema() == f.tool_call_schema()


def test_output_schema_from_return_annotation() -> None:
    @tool
    def f(a: int) -> list[str]:
        """F."""
        return []

    assert f.output_schema() == {"title": "f_output", "type": "array", "items": {"type": "string"}}
