"""A chat model invoked while its run is watched streams (13.11), run-made message ids
(13.5), ``streaming`` / ``disable_streaming``, and ``bind_tools`` on every base."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from functools import reduce
from operator import add
from typing import Any, Literal

import attrs
import pytest

from combinators import RunnableLambda
from combinators.language_models import (
    BaseChatModel,
    ExtractiveChatModel,
    FakeListChatModel,
    GenericFakeChatModel,
    ScriptedChatModel,
    Script,
    SimpleChatModel,
)
from combinators.messages import AIMessage, AIMessageChunk, ToolCall
from combinators.tools import tool
from combinators.messages import Message
from effects.projections.events_v2 import StreamEvent
from tests.message_ids import RUN_ID


@attrs.frozen
class Counting(BaseChatModel):
    """Streams the last message's words; counts which hook answered."""

    used: list[str] = attrs.field(factory=list, eq=False)
    streaming: bool | None = None
    disable_streaming: bool | Literal["tool_calling"] = False

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        self.used.append("generate")
        return AIMessage(messages[-1].text.upper())

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        self.used.append("stream")
        for word in messages[-1].text.upper().split():
            yield AIMessageChunk(word + " ")


def ask_with(model: Any) -> RunnableLambda[str, str]:
    def ask(question: str) -> str:
        return str(model.invoke(question).text)

    async def aask(question: str) -> str:
        return str((await model.ainvoke(question)).text)

    return RunnableLambda(ask, afunc=aask)


def model_events(events: list[StreamEvent]) -> list[StreamEvent]:
    return [e for e in events if e["event"].startswith("on_chat_model")]


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_model_invoked_in_a_watched_step_streams_its_tokens_and_returns_the_whole_message(mode: str) -> None:
    returned: list[object] = []
    model = GenericFakeChatModel(Script(["calm seas ahead"], cycle=True))

    def ask(question: str) -> str:
        message = model.invoke(question)
        returned.append(message)
        return message.text

    async def aask(question: str) -> str:
        message = await model.ainvoke(question)
        returned.append(message)
        return message.text

    step = RunnableLambda(ask, afunc=aask)
    if mode == "sync":
        events = list(step.stream_events("q"))
    else:

        async def collect() -> list[StreamEvent]:
            return [e async for e in step.astream_events("q")]

        events = asyncio.run(collect())
    seen = model_events(events)
    assert [e["event"] for e in seen] == ["on_chat_model_start"] + ["on_chat_model_stream"] * 5 + ["on_chat_model_end"]
    chunks = [e["data"]["chunk"] for e in seen[1:-1]]
    assert [c.text for c in chunks] == ["calm", " ", "seas", " ", "ahead"]
    message_id = f"lc_run--{seen[0]['run_id']}"
    assert {c.id for c in chunks} == {message_id}
    # the caller gets the whole message (not a chunk), with the same id; so does the end event
    assert returned == [AIMessage("calm seas ahead", id=message_id)]
    assert seen[-1]["data"]["output"] == AIMessage("calm seas ahead", id=message_id)
    assert events[-1]["data"]["output"] == "calm seas ahead"


async def test_the_run_log_shows_the_tokens_of_a_model_invoked_in_a_step() -> None:
    model = GenericFakeChatModel(Script(["a b"], cycle=True))
    ops = [op async for patch in ask_with(model).astream_log("q") for op in patch.ops]
    tokens = [op["value"] for op in ops if op["path"].endswith("/streamed_output_str/-")]
    assert tokens == ["a", " ", "b"]
    final = next(op["value"] for op in ops if op["path"] == "/logs/GenericFakeChatModel/final_output")
    assert final["generations"][0][0]["type"] == "ChatGeneration"  # a whole message, as the peer's


def test_unwatched_and_listened_invokes_do_not_stream() -> None:
    model = Counting()
    assert model.invoke("hi there") == AIMessage("HI THERE", id=RUN_ID)  # no run: a fresh id of the same form
    ended: list[Any] = []
    listened = model.with_listeners(on_end=ended.append)
    message = listened.invoke("hi")
    assert model.used == ["generate", "generate"]  # listeners see whole runs only
    assert message.id == f"lc_run--{ended[0].id}-0"  # made in one go: the peer's "-0" id


def test_a_provider_id_is_kept() -> None:
    model = ScriptedChatModel(["fine"])
    events = list(ask_with(model).stream_events("q"))
    end = model_events(events)[-1]
    assert end["data"]["output"].id.startswith("scripted-")


def test_streaming_false_never_streams_and_true_always_does() -> None:
    never = Counting(streaming=False)
    events = list(ask_with(never).stream_events("a b"))
    assert never.used == ["generate"]
    assert not [e for e in events if e["event"] == "on_chat_model_stream"]
    always = Counting(streaming=True)
    assert always.invoke("a b") == AIMessage("A B ", id=RUN_ID)  # unwatched, still added up from the stream
    assert always.used == ["stream"]


def test_disable_streaming_gives_one_whole_message() -> None:
    disabled = Counting(disable_streaming=True)
    assert list(disabled.stream("a b")) == [AIMessage("A B", id=RUN_ID)]
    events = list(ask_with(disabled).stream_events("a b"))
    assert not [e for e in events if e["event"] == "on_chat_model_stream"]


def test_disable_streaming_tool_calling_only_when_tools_are_bound() -> None:
    @tool
    def noop() -> str:
        """Do nothing."""
        return ""

    model = Counting(disable_streaming="tool_calling")
    assert [type(c) for c in model.stream("a b")] == [AIMessageChunk, AIMessageChunk]
    assert [type(c) for c in model.bind_tools([noop]).stream("a b")] == [AIMessage]


@tool
def add_numbers(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@attrs.frozen
class Parrot(SimpleChatModel):
    def _call(self, messages: list[Message], stop: list[str] | None = None) -> str:
        return messages[-1].text


BASES = [
    GenericFakeChatModel(Script(["x"], cycle=True)),
    FakeListChatModel(["x"]),
    ExtractiveChatModel(),
    Parrot(),
    ScriptedChatModel(["x"]),
    Counting(),
]


@pytest.mark.parametrize("model", BASES, ids=lambda m: type(m).__name__)
def test_bind_tools_on_every_chat_model(model: BaseChatModel) -> None:
    bound = model.bind_tools([add_numbers], tool_choice="add_numbers")
    kwargs: dict[str, Any] = getattr(bound, "kwargs")
    assert [spec["function"]["name"] for spec in kwargs["tools"]] == ["add_numbers"]
    assert kwargs["tools"][0]["function"]["parameters"]["required"] == ["a", "b"]
    assert kwargs["tool_choice"] == {"type": "function", "function": {"name": "add_numbers"}}
    assert isinstance(bound.invoke("x"), AIMessage)


def test_scripted_model_sees_the_bound_tools() -> None:
    model = ScriptedChatModel(["x", "y"])
    model.bind_tools([add_numbers]).invoke("a")
    model.invoke("b")
    assert [c.tools for c in model.calls] == [("add_numbers",), ()]


@pytest.mark.parametrize(
    "make",
    [
        lambda m: GenericFakeChatModel(Script([m])),
        lambda m: ScriptedChatModel([m]),
    ],
    ids=["GenericFakeChatModel", "ScriptedChatModel"],
)
def test_tool_call_chunks_stream_and_merge(make: Any) -> None:
    calls = [ToolCall("add_numbers", {"a": 1, "b": 2}, id="c1"), ToolCall("add_numbers", {"a": 3, "b": 4}, id="c2")]
    chunks = list(make(AIMessage("Adding.", tool_calls=calls)).stream("go"))
    with_calls = [c for c in chunks if c.tool_call_chunks]
    assert [c.text for c in with_calls] == ["", ""]  # a tool-call chunk has empty content
    assert [c.tool_call_chunks[0].index for c in with_calls] == [0, 1]
    total: AIMessageChunk = reduce(add, chunks)
    assert total.text == "Adding."
    assert total.to_message().tool_calls == tuple(calls)
    assert chunks[-1].chunk_position == "last"


async def test_async_stream_of_tool_calls_merges_too() -> None:
    calls = [ToolCall("add_numbers", {"a": 1, "b": 2}, id="c1")]
    chunks = [c async for c in ScriptedChatModel([AIMessage("", tool_calls=calls)]).astream("go")]
    total = reduce(add, chunks)
    assert isinstance(total, AIMessageChunk) and total.to_message().tool_calls == tuple(calls)
