"""``ChatOpenAI.invoke`` / ``ainvoke`` against the local fake server."""

from __future__ import annotations

import pytest

from combinators.components.messages.message_classes import (
    AIMessage,
    HumanMessage,
    SystemMessage,
    ToolCall,
    ToolMessage,
    UsageMetadata,
)
from combinators.integrations.openai.chat import ChatOpenAI
from tests.unit.combinators.integrations.openai.conftest import KEY
from tests.unit.combinators.integrations.openai.fake_server import FakeOpenAIServer, JsonReply, completion, tool_call


def test_invoke_returns_message_with_usage_and_metadata(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    usage = {
        "prompt_tokens": 9,
        "completion_tokens": 3,
        "total_tokens": 12,
        "prompt_tokens_details": {"cached_tokens": 2},
        "completion_tokens_details": {"reasoning_tokens": 1},
    }
    server.script(JsonReply(completion("Hello there", usage=usage)))

    reply = model.invoke("hi")

    assert isinstance(reply, AIMessage)
    assert reply.content == "Hello there"
    assert reply.id == "chatcmpl-1"
    assert reply.usage_metadata == UsageMetadata(9, 3, 12, {"cache_read": 2}, {"reasoning": 1})
    metadata = reply.response_metadata
    assert metadata["model_name"] == "fake-model"
    assert metadata["finish_reason"] == "stop"
    assert metadata["system_fingerprint"] == "fp_test"
    assert metadata["model_provider"] == "openai"
    assert metadata["token_usage"] == usage
    request = server.requests[0]
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.body == {"model": "fake-model", "messages": [{"role": "user", "content": "hi"}], "stream": False}


async def test_ainvoke(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(JsonReply(completion("async hello")))
    reply = await model.ainvoke([("system", "Be brief."), ("human", "hi")])
    assert reply.text == "async hello"
    assert server.bodies[0]["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "hi"},
    ]


def test_settings_extra_body_and_call_options_reach_the_server(server: FakeOpenAIServer) -> None:
    model = ChatOpenAI(
        model="fake-model",
        base_url=server.url,
        api_key=KEY,
        temperature=0.25,
        max_tokens=64,
        stop=["END"],
        extra_body={"seed": 7, "top_p": 0.5},
        max_retries=0,
        timeout=5.0,
    )
    server.script(JsonReply(completion("a")), JsonReply(completion("b")), JsonReply(completion("c")))

    model.invoke("x")
    model.invoke("x", stop=["\n"])
    model.with_kwargs(temperature=0.9, top_p=None).invoke("x")

    first, second, third = server.bodies
    assert first == {
        "model": "fake-model",
        "messages": [{"role": "user", "content": "x"}],
        "temperature": 0.25,
        "max_tokens": 64,
        "stop": ["END"],
        "seed": 7,
        "top_p": 0.5,
        "stream": False,
    }
    assert second["stop"] == ["\n"]  # a call's stop replaces the model's
    assert third["temperature"] == 0.9 and third["top_p"] == 0.5  # None leaves the setting alone


def test_conversation_with_tool_calls_goes_out_in_the_wire_format(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(JsonReply(completion("It is 21 degrees.")))
    history = [
        SystemMessage("You check the weather."),
        HumanMessage("Weather in Oslo?", name="ann"),
        AIMessage("", tool_calls=[ToolCall("weather", {"city": "Oslo"}, id="call_1")]),
        ToolMessage("21", tool_call_id="call_1"),
        HumanMessage([{"type": "text", "text": "Thanks!"}]),
    ]

    assert model.invoke(history).text == "It is 21 degrees."

    assert server.bodies[0]["messages"] == [
        {"role": "system", "content": "You check the weather."},
        {"role": "user", "content": "Weather in Oslo?", "name": "ann"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": '{"city": "Oslo"}'}}
            ],
        },
        {"role": "tool", "content": "21", "tool_call_id": "call_1"},
        {"role": "user", "content": [{"type": "text", "text": "Thanks!"}]},
    ]


def test_developer_role_round_trips(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(JsonReply(completion("ok")))
    model.invoke([{"role": "developer", "content": "Rules."}, ("user", "hi")])
    assert server.bodies[0]["messages"][0] == {"role": "developer", "content": "Rules."}


def test_tool_calls_in_a_reply_are_parsed(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    calls = [tool_call("weather", '{"city": "Oslo"}', "call_1"), tool_call("weather", '{"city": ', "call_2")]
    server.script(JsonReply(completion(None, tool_calls=calls, finish_reason="tool_calls")))

    reply = model.invoke("weather?")

    assert isinstance(reply, AIMessage)
    assert reply.content == ""
    assert reply.tool_calls == (ToolCall("weather", {"city": "Oslo"}, id="call_1"),)
    assert len(reply.invalid_tool_calls) == 1
    invalid = reply.invalid_tool_calls[0]
    assert (invalid.name, invalid.args, invalid.id) == ("weather", '{"city": ', "call_2")
    assert invalid.error is not None and "not JSON" in invalid.error
    assert reply.response_metadata["finish_reason"] == "tool_calls"


def test_extra_fields_of_compatible_servers_are_kept(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    body = completion("42")
    body["choices"][0]["message"]["reasoning_content"] = "think..."
    server.script(JsonReply(body))
    reply = model.invoke("q")
    assert reply.additional_kwargs == {"reasoning_content": "think..."}


def test_stop_words_from_with_kwargs(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(JsonReply(completion("a")))
    model.with_kwargs(stop=["\n\n"]).invoke("x")
    assert server.bodies[0]["stop"] == ["\n\n"]


@pytest.mark.parametrize("stream_usage", [True, False])
def test_stream_usage_setting(server: FakeOpenAIServer, stream_usage: bool) -> None:
    from tests.unit.combinators.integrations.openai.fake_server import SseReply, text_stream

    model = ChatOpenAI(model="fake-model", base_url=server.url, api_key=KEY, max_retries=0, stream_usage=stream_usage)
    server.script(SseReply(text_stream(["a"])))
    list(model.stream("x"))
    body = server.bodies[0]
    assert body["stream"] is True
    assert ("stream_options" in body) is stream_usage
