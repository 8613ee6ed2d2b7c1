"""``bind_tools`` and ``with_structured_output`` against the fake server."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal, TypedDict

import attrs
import pytest

from combinators.components.messages.message_classes import ToolCall
from combinators.integrations.openai.chat import ChatOpenAI
from combinators.integrations.openai.structured import StructuredOutputError, StructuredOutputParser
from combinators.components.tools.specs import tool_choice_to_openai, tool_to_openai
from tests.unit.combinators.integrations.openai.fake_server import (
    FakeOpenAIServer,
    JsonReply,
    SseReply,
    completion,
    text_stream,
    tool_call,
)


class Multiply:
    """A stand-in for our tools: a name, a description and an arguments schema."""

    name = "multiply"
    description = "Multiply two integers."

    def tool_call_schema(self) -> Mapping[str, Any]:
        return {
            "title": "multiply",
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
        }


def get_weather(city: str, unit: Literal["C", "F"] = "C") -> str:
    """The weather in a city.

    Longer text that the model does not need.
    """
    return "sunny"


SEARCH_SCHEMA = {
    "title": "search",
    "description": "Search the web.",
    "type": "object",
    "properties": {"query": {"type": "string"}},
    "required": ["query"],
}


def test_bind_tools_sends_the_specs_and_parses_the_calls(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(
        JsonReply(
            completion(
                None, tool_calls=[tool_call("multiply", '{"a": 6, "b": 7}', "call_1")], finish_reason="tool_calls"
            )
        )
    )
    bound = model.bind_tools([Multiply(), get_weather, SEARCH_SCHEMA], tool_choice="auto")

    reply = bound.invoke("6 times 7?")

    assert reply.tool_calls == (ToolCall("multiply", {"a": 6, "b": 7}, id="call_1"),)
    body = server.bodies[0]
    assert body["tool_choice"] == "auto"
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "multiply",
                "description": "Multiply two integers.",
                "parameters": {
                    "type": "object",
                    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                    "required": ["a", "b"],
                },
            },
        },
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "The weather in a city.",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}, "unit": {"enum": ["C", "F"]}},
                    "required": ["city"],
                },
            },
        },
        {
            "type": "function",
            "function": {
                "name": "search",
                "description": "Search the web.",
                "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
            },
        },
    ]


def test_our_tool_decorator_binds(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    tools_module = pytest.importorskip("combinators.components.tools.message_tools")

    def lookup(term: str) -> str:
        """Look a term up."""
        return term

    found = tools_module.tool(lookup)
    spec = tool_to_openai(found)
    assert spec["function"]["name"] == "lookup"
    assert spec["function"]["description"] == "Look a term up."
    assert spec["function"]["parameters"]["properties"]["term"] == {"type": "string"}


def test_tool_choice_forms() -> None:
    tools = [tool_to_openai(Multiply()), tool_to_openai(get_weather)]
    assert tool_choice_to_openai("required", tools) == "required"
    assert tool_choice_to_openai("any", tools) == "required"
    assert tool_choice_to_openai("none", tools) == "none"
    assert tool_choice_to_openai(False, tools) == "none"
    assert tool_choice_to_openai("get_weather", tools) == {"type": "function", "function": {"name": "get_weather"}}
    raw = {"type": "function", "function": {"name": "multiply"}}
    assert tool_choice_to_openai(raw, tools) == raw
    with pytest.raises(ValueError, match="not one of the bound tools"):
        tool_choice_to_openai("nope", tools)
    with pytest.raises(ValueError, match="exactly one tool"):
        tool_choice_to_openai(True, tools)


def test_tool_spec_forms() -> None:
    full = {"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object"}}}
    assert tool_to_openai(full) == full
    assert tool_to_openai({"name": "g"})["function"] == {
        "name": "g",
        "description": "",
        "parameters": {"type": "object", "properties": {}},
    }
    strict = tool_to_openai(SEARCH_SCHEMA, strict=True)["function"]
    assert strict["strict"] is True and strict["parameters"]["additionalProperties"] is False
    with pytest.raises(ValueError, match="needs a 'name'"):
        tool_to_openai({"type": "object"})
    with pytest.raises(TypeError, match="cannot make a tool"):
        tool_to_openai(42)  # type: ignore[arg-type]


def test_bind_tools_with_parallel_calls_off(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(JsonReply(completion("ok")))
    model.bind_tools([get_weather], tool_choice=True, parallel_tool_calls=False).invoke("x")
    body = server.bodies[0]
    assert body["parallel_tool_calls"] is False
    assert body["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}


@attrs.frozen
class Address:
    city: str
    zip: str | None = None


@attrs.frozen
class Person:
    name: str
    age: int
    addresses: list[Address]


class Movie(TypedDict):
    title: str
    year: int


def test_structured_output_into_an_attrs_class(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    answer = {"name": "Ada", "age": 36, "addresses": [{"city": "London", "zip": None}, {"city": "Paris"}]}
    server.script(JsonReply(completion(json.dumps(answer))))

    person = model.with_structured_output(Person).invoke("Who?")

    assert person == Person("Ada", 36, [Address("London"), Address("Paris")])
    response_format = server.bodies[0]["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["name"] == "Person"
    assert response_format["json_schema"]["schema"]["required"] == ["name", "age", "addresses"]
    assert "strict" not in response_format["json_schema"]


async def test_structured_output_into_a_typed_dict_async(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(JsonReply(completion('{"title": "Alien", "year": 1979}')))
    movie = await model.with_structured_output(Movie, strict=True).ainvoke("A film?")
    assert movie == {"title": "Alien", "year": 1979}
    schema = server.bodies[0]["response_format"]["json_schema"]
    assert schema["strict"] is True and schema["schema"]["additionalProperties"] is False


def test_structured_output_from_a_schema_dict_while_streaming(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    schema = {"title": "Answer", "type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    server.script(SseReply(text_stream(['{"n"', ": 4", "2}"])))
    assert list(model.with_structured_output(schema).stream("?")) == [{"n": 42}]


def test_structured_output_errors_keep_the_reply(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(JsonReply(completion("I cannot answer that")), JsonReply(completion('{"title": "X"}')))
    with pytest.raises(StructuredOutputError, match="not JSON") as caught:
        model.with_structured_output(Movie).invoke("?")
    assert caught.value.text == "I cannot answer that"
    assert isinstance(caught.value, ValueError)
    with pytest.raises(StructuredOutputError, match="'year' is a required property"):
        model.with_structured_output(Movie).invoke("?")


def test_structured_output_rejects_non_object_types() -> None:
    with pytest.raises(TypeError, match="attrs class, a TypedDict"):
        ChatOpenAI().with_structured_output(int)


def test_parser_values() -> None:
    assert StructuredOutputParser(Person) == StructuredOutputParser(Person)
    assert StructuredOutputParser({"type": "object"}) == StructuredOutputParser({"type": "object"})
    assert hash(StructuredOutputParser({"type": "object"})) == hash(StructuredOutputParser({"type": "object"}))
    assert StructuredOutputParser(Person) != StructuredOutputParser(Movie)
