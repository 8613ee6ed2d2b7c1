"""Stream events of a model without a token stream of its own (issue 26), as langchain-core
1.8.3 shows them (probed on ParrotFakeChatModel, FakeMessagesListChatModel, a
SimpleChatModel and a BaseChatModel with only ``_generate``, FakeListLLM):

- called alone (the root), v2 shows its start and end only: its whole output reaches the
  stream after its run ended, so no ``on_chat_model_stream``/``on_llm_stream``; v1 shows
  that output as one stream event (the root's output stream), and the log has it once in
  the root's ``streamed_output``;
- inside ``prompt | model | parser``, no version and no log shows a stream of the model:
  its whole output flows on as one chunk, which the parser and the chain stream;
- ``stream``/``astream`` still give the whole output, as one chunk.

A model with a token stream (``FakeListChatModel``) shows its chunks in every case.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal

import attrs
import pytest

from combinators import Runnable
from combinators.language_models import (
    BaseChatModel,
    FakeListChatModel,
    FakeListLLM,
    FakeMessagesListChatModel,
    ParrotFakeChatModel,
    SimpleChatModel,
)
from combinators.messages import AIMessage, AIMessageChunk, Message
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate, PromptTemplate


@attrs.frozen
class Simple(SimpleChatModel):
    def _call(self, messages: list[Message], stop: list[str] | None = None) -> str:
        return "simple reply"


@attrs.frozen
class OnlyGenerate(BaseChatModel):
    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return AIMessage("generated reply")


WHOLE: dict[str, tuple[Callable[[], Runnable[Any, Any]], str, str]] = {
    # model, its stream event, the text of its whole output for the input "hello"
    "ParrotFakeChatModel": (ParrotFakeChatModel, "on_chat_model_stream", "hello"),
    "FakeMessagesListChatModel": (
        lambda: FakeMessagesListChatModel(responses=[AIMessage("listed")]),
        "on_chat_model_stream",
        "listed",
    ),
    "SimpleChatModel": (Simple, "on_chat_model_stream", "simple reply"),
    "BaseChatModel._generate": (OnlyGenerate, "on_chat_model_stream", "generated reply"),
    "FakeListLLM": (lambda: FakeListLLM(responses=["completed"]), "on_llm_stream", "completed"),
}


def _text(value: object) -> str:
    return value if isinstance(value, str) else str(getattr(value, "text"))


def _chain(name: str) -> Runnable[Any, str]:
    make, event, _ = WHOLE[name]
    prompt: Runnable[Any, Any] = (
        PromptTemplate.from_template("{x}")
        if event == "on_llm_stream"
        else ChatPromptTemplate.from_messages([("human", "{x}")])
    )
    return prompt | make() | StrOutputParser()


def _events(
    runnable: Runnable[Any, Any], input: object, version: Literal["v1", "v2"], sync: bool
) -> list[dict[str, Any]]:
    if sync:
        return [dict(e) for e in runnable.stream_events(input, version=version)]

    async def main() -> list[dict[str, Any]]:
        return [dict(e) async for e in runnable.astream_events(input, version=version)]

    return asyncio.run(main())


def _log_paths(runnable: Runnable[Any, Any], input: object, sync: bool) -> list[tuple[str, object]]:
    if sync:
        patches = list(runnable.stream_log(input))
    else:

        async def main() -> list[Any]:
            return [p async for p in runnable.astream_log(input)]

        patches = asyncio.run(main())
    ops: list[dict[str, Any]] = [dict(op) for p in patches for op in p.ops]
    return [(op["path"], op["value"]) for op in ops if "streamed_output" in op["path"]]


SYNC = pytest.mark.parametrize("sync", [False, True], ids=["async", "sync"])


@SYNC
@pytest.mark.parametrize("name", WHOLE)
def test_alone_v2_shows_start_and_end_only(name: str, sync: bool) -> None:
    make, event, _ = WHOLE[name]
    events = _events(make(), "hello", "v2", sync)
    kinds = [e["event"] for e in events]
    prefix = event.removesuffix("_stream")
    assert kinds == [f"{prefix}_start", f"{prefix}_end"]


@SYNC
@pytest.mark.parametrize("name", WHOLE)
def test_alone_v1_shows_its_whole_output_as_one_stream_event(name: str, sync: bool) -> None:
    make, event, text = WHOLE[name]
    events = _events(make(), "hello", "v1", sync)
    prefix = event.removesuffix("_stream")
    assert [e["event"] for e in events] == [f"{prefix}_start", event, f"{prefix}_end"]
    chunk = events[1]["data"]["chunk"]
    assert _text(chunk) == text
    assert type(chunk) is (str if event == "on_llm_stream" else AIMessage)


@SYNC
@pytest.mark.parametrize("name", WHOLE)
def test_alone_the_log_streams_its_whole_output_once(name: str, sync: bool) -> None:
    make, _, text = WHOLE[name]
    paths = _log_paths(make(), "hello", sync)
    assert [path for path, _ in paths] == ["/streamed_output/-"]
    assert _text(paths[0][1]) == text


@SYNC
@pytest.mark.parametrize("name", WHOLE)
def test_alone_its_stream_gives_its_whole_output_as_one_chunk(name: str, sync: bool) -> None:
    make, _, text = WHOLE[name]
    if sync:
        chunks = list(make().stream("hello"))
    else:

        async def main() -> list[Any]:
            return [c async for c in make().astream("hello")]

        chunks = asyncio.run(main())
    assert [_text(c) for c in chunks] == [text]


@SYNC
@pytest.mark.parametrize("version", ["v1", "v2"])
@pytest.mark.parametrize("name", WHOLE)
def test_in_a_chain_no_version_shows_a_stream_of_the_model(name: str, version: Literal["v1", "v2"], sync: bool) -> None:
    _, event, text = WHOLE[name]
    events = _events(_chain(name), {"x": "hello"}, version, sync)
    streamed = [(e["event"], e["name"], e["data"]["chunk"]) for e in events if e["event"].endswith("_stream")]
    assert streamed == [("on_parser_stream", "StrOutputParser", text), ("on_chain_stream", "RunnableSequence", text)]
    assert [e["event"] for e in events].count(event.removesuffix("_stream") + "_end") == 1


@SYNC
@pytest.mark.parametrize("name", WHOLE)
def test_in_a_chain_the_log_shows_no_stream_of_the_model(name: str, sync: bool) -> None:
    _, _, text = WHOLE[name]
    paths = _log_paths(_chain(name), {"x": "hello"}, sync)
    assert paths == [("/logs/StrOutputParser/streamed_output/-", text), ("/streamed_output/-", text)]


@SYNC
@pytest.mark.parametrize("version", ["v1", "v2"])
@pytest.mark.parametrize("nested", [False, True], ids=["alone", "in a chain"])
def test_a_model_with_a_token_stream_shows_its_chunks(nested: bool, version: Literal["v1", "v2"], sync: bool) -> None:
    model = FakeListChatModel(responses=["ab"])
    runnable: Runnable[Any, Any] = (ChatPromptTemplate.from_messages([("human", "{x}")]) | model) if nested else model
    events = _events(runnable, {"x": "hello"} if nested else "hello", version, sync)
    chunks = [e["data"]["chunk"] for e in events if e["event"] == "on_chat_model_stream"]
    assert [c.content for c in chunks] == ["a", "b"]
    assert all(type(c) is AIMessageChunk for c in chunks)


@SYNC
@pytest.mark.parametrize("bound", ["bind", "with_config"])
def test_a_bound_model_alone_is_still_the_root_that_shows_no_v2_stream(bound: str, sync: bool) -> None:
    # As the peer's _ChatModelBinding / RunnableBinding of ParrotFakeChatModel (probed): v2
    # start and end only; v1 the whole message as one stream event.
    model = ParrotFakeChatModel()
    runnable = model.bind(stop=["zz"]) if bound == "bind" else model.with_config(run_name="parrot")
    assert [e["event"] for e in _events(runnable, "hello", "v2", sync)] == ["on_chat_model_start", "on_chat_model_end"]
    v1 = [e["event"] for e in _events(runnable, "hello", "v1", sync)]
    assert v1 == ["on_chat_model_start", "on_chat_model_stream", "on_chat_model_end"]
