"""Streaming: token chunks, events, tool-call deltas, broken streams."""

from __future__ import annotations

from functools import reduce
from operator import add
from typing import Any

import attrs
import pytest

from combinators import RunnableLambda
from combinators.components.messages.message_classes import AIMessageChunk, ToolCall, UsageMetadata
from combinators.integrations.openai.chat import ChatOpenAI
from combinators.components.models.errors import ModelRateLimitError, ModelStreamError, TransientModelError
from tests.unit.combinators.integrations.openai.fake_server import (
    FakeOpenAIServer,
    JsonReply,
    SseReply,
    chunk,
    completion,
    error_body,
    text_stream,
)


def _sum(chunks: list[Any]) -> AIMessageChunk:
    assert chunks and all(isinstance(c, AIMessageChunk) for c in chunks)
    total: AIMessageChunk = reduce(add, chunks)
    return total


def _message(value: object) -> AIMessageChunk:
    assert isinstance(value, AIMessageChunk)
    return value


def test_stream_yields_a_chunk_per_token(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(SseReply(text_stream(["Hel", "lo", " world"])))

    chunks = list(model.stream("hi"))

    assert [c.text for c in chunks] == ["", "Hel", "lo", " world", "", ""]
    total = _sum(chunks)
    assert total.text == "Hello world"
    assert total.id == "chatcmpl-s1"
    assert total.usage_metadata == UsageMetadata(5, 3, 8)
    assert total.response_metadata == {
        "model_provider": "openai",
        "finish_reason": "stop",
        "model_name": "fake-model",
        "system_fingerprint": "fp_test",
    }
    body = server.bodies[0]
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}


async def test_astream(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(SseReply(text_stream(["a", "b"])))
    chunks = [c async for c in model.astream("hi")]
    assert _sum(chunks).text == "ab"


async def test_astream_events_show_each_token(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(SseReply(text_stream(["one", " two"])))

    events = [e async for e in model.astream_events("hi", version="v2")]

    kinds = [e["event"] for e in events]
    assert kinds[0] == "on_chat_model_start" and kinds[-1] == "on_chat_model_end"
    streamed = [_message(e["data"]["chunk"]).text for e in events if e["event"] == "on_chat_model_stream"]
    assert "".join(streamed) == "one two"
    assert streamed.count("one") == 1 and streamed.count(" two") == 1
    assert _message(events[-1]["data"]["output"]).text == "one two"
    assert events[-1]["name"] == "ChatOpenAI"


def test_stream_events_sync(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(SseReply(text_stream(["x", "y"])))
    events = model.stream_events("hi", version="v2")
    streamed = [_message(e["data"]["chunk"]).text for e in events if e["event"] == "on_chat_model_stream"]
    assert "".join(streamed) == "xy"


def _tool_call_deltas() -> list[dict[str, Any]]:
    # Two parallel calls, their argument pieces interleaved by index, as OpenAI sends them.
    def call(index: int, *, id: str | None = None, name: str | None = None, args: str = "") -> dict[str, Any]:
        entry: dict[str, Any] = {"index": index, "function": {"arguments": args}}
        if id is not None:
            entry.update(id=id, type="function")
            entry["function"]["name"] = name
        return chunk({"tool_calls": [entry]})

    return [
        chunk({"role": "assistant", "content": None}),
        call(0, id="call_a", name="weather"),
        call(0, args='{"ci'),
        call(1, id="call_b", name="time"),
        call(0, args='ty": "Oslo"}'),
        call(1, args='{"tz": "CET"}'),
        chunk({}, finish_reason="tool_calls"),
        chunk(choices=False, usage={"prompt_tokens": 20, "completion_tokens": 10, "total_tokens": 30}),
    ]


def test_streamed_tool_call_deltas_add_up_to_tool_calls(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(SseReply(_tool_call_deltas()))

    chunks = list(model.stream("weather and time?"))
    total = _sum(chunks)

    assert total.tool_calls == (
        ToolCall("weather", {"city": "Oslo"}, id="call_a"),
        ToolCall("time", {"tz": "CET"}, id="call_b"),
    )
    assert total.to_message().tool_calls == total.tool_calls
    assert total.response_metadata["finish_reason"] == "tool_calls"
    # Midway, the partial arguments already parse.
    assert _sum(chunks[:5]).tool_calls == (
        ToolCall("weather", {"city": "Oslo"}, id="call_a"),
        ToolCall("time", {}, id="call_b"),
    )


async def test_tool_calls_on_the_final_event_output(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(SseReply(_tool_call_deltas()))
    events = [e async for e in model.astream_events("q", version="v2")]
    output = _message(events[-1]["data"]["output"])
    assert [call.name for call in output.tool_calls] == ["weather", "time"]
    assert output.tool_calls[0].args == {"city": "Oslo"}


def test_broken_stream_raises_a_stream_error_after_the_chunks_it_got(
    server: FakeOpenAIServer, model: ChatOpenAI
) -> None:
    server.script(SseReply(text_stream(["a", "b", "c"]), break_after=3))
    seen: list[str] = []
    with pytest.raises(ModelStreamError) as caught:
        for piece in model.stream("hi"):
            seen.append(piece.text)
    assert seen == ["", "a", "b"]
    error = caught.value
    assert isinstance(error, ConnectionError) and isinstance(error, TransientModelError)
    assert error.model == "fake-model" and error.base_url == server.url
    assert "broke" in str(error)


async def test_broken_stream_async(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(SseReply(text_stream(["a", "b"]), break_after=2))
    with pytest.raises(ModelStreamError):
        async for _ in model.astream("hi"):
            pass


def test_a_stream_that_ends_before_the_model_finished_is_broken(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    events = [chunk({"content": "half"})]
    server.script(SseReply(events, done=False))
    with pytest.raises(ModelStreamError, match="ended before the model finished"):
        list(model.stream("hi"))


def test_an_error_event_in_the_stream(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(
        SseReply([chunk({"content": "a"}), {"error": {"message": "overloaded mid-way", "code": "overloaded"}}])
    )
    with pytest.raises(ModelStreamError, match="overloaded mid-way") as caught:
        list(model.stream("hi"))
    assert caught.value.code == "overloaded"


def test_an_error_status_before_the_stream(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(JsonReply(error_body("slow down", type_="rate_limit_exceeded"), status=429))
    with pytest.raises(ModelRateLimitError) as caught:
        list(model.stream("hi"))
    assert caught.value.status == 429


def test_stream_falls_back_when_the_first_model_fails_before_its_first_chunk(
    server: FakeOpenAIServer, model: ChatOpenAI
) -> None:
    backup = ChatOpenAI(model="backup", base_url=server.url, api_key="k", max_retries=0)
    server.script(JsonReply(error_body("busy"), status=503), SseReply(text_stream(["from", " backup"])))
    chain = model.with_fallbacks([backup], exceptions_to_handle=(TransientModelError,))
    assert "".join(c.text for c in chain.stream("hi")) == "from backup"
    assert [b["model"] for b in server.bodies] == ["fake-model", "backup"]


def test_stopping_early_closes_the_stream(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(SseReply(text_stream([str(n) for n in range(50)])), SseReply(text_stream(["next"])))
    stream = model.stream("hi")
    assert next(stream).text == ""
    close = getattr(stream, "close")
    close()
    assert "".join(c.text for c in model.stream("again")) == "next"


async def test_leaving_an_async_stream_early_closes_it(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    from contextlib import aclosing

    server.script(SseReply(text_stream([str(n) for n in range(50)])), SseReply(text_stream(["next"])))
    async with aclosing(model.astream("hi")) as chunks:  # type: ignore[type-var]
        async for _ in chunks:
            break
    assert "".join([c.text async for c in model.astream("again")]) == "next"


def test_streaming_true_makes_invoke_ask_for_a_stream(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(SseReply(text_stream(["Hel", "lo"])))
    message = attrs.evolve(model, streaming=True).invoke("hi")
    assert message.text == "Hello" and message.id == "chatcmpl-s1"
    assert server.bodies[0]["stream"] is True


def test_a_watched_invoke_streams_unless_streaming_is_false(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    quiet = attrs.evolve(model, streaming=False)

    def ask(question: str) -> str:
        return model.invoke(question).text

    def ask_quietly(question: str) -> str:
        return quiet.invoke(question).text

    server.script(SseReply(text_stream(["a", "b"])), JsonReply(completion("ab")))
    events = list(RunnableLambda(ask).stream_events("hi"))
    assert [e["data"]["chunk"].text for e in events if e["event"] == "on_chat_model_stream"][1:3] == ["a", "b"]
    assert server.bodies[0]["stream"] is True
    events = list(RunnableLambda(ask_quietly).stream_events("hi"))
    assert not [e for e in events if e["event"] == "on_chat_model_stream"]
    assert server.bodies[1]["stream"] is False


def test_disable_streaming_keeps_stream_to_one_request(server: FakeOpenAIServer, model: ChatOpenAI) -> None:
    server.script(JsonReply(completion("whole")))
    assert [c.text for c in attrs.evolve(model, disable_streaming=True).stream("hi")] == ["whole"]
    assert server.bodies[0]["stream"] is False
