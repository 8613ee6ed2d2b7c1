"""Our ``RemoteRunnable`` revives messages, chunks, documents and prompt values from the
wire (LangServe's format) on every path: invoke, batch, stream, astream_log and
astream_events (issue 28)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from combinators.documents import Document
from combinators.integrations.serving import RemoteRunnable, serve
from combinators.messages import AIMessage, AIMessageChunk, HumanMessage, SystemMessage
from combinators.prompt_values import ChatPromptValue
from tests.integration.serving.langserve.chains import ANSWER, CALLS, DOCUMENTS, routes
from tests.integration.serving.live import LiveServer, live


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with live(serve(routes())) as running:
        yield running


def _remote(server: LiveServer, path: str) -> RemoteRunnable[Any, Any]:
    return RemoteRunnable(f"{server.url}{path}", timeout=30)


def test_invoke_and_batch_revive_messages_documents_and_prompt_values(server: LiveServer) -> None:
    message = _remote(server, "/model").invoke(CALLS["model"]["input"])
    assert isinstance(message, AIMessage) and message.content == ANSWER
    assert [type(m) for m in _remote(server, "/model").batch([CALLS["model"]["input"]] * 2)] == [AIMessage] * 2
    documents = _remote(server, "/retriever").invoke(CALLS["retriever"]["input"])
    assert documents and all(isinstance(d, Document) for d in documents) and documents[0] == DOCUMENTS[0]
    prompt = _remote(server, "/prompt").invoke(CALLS["prompt"]["input"])
    assert prompt == ChatPromptValue([SystemMessage("Be brief."), HumanMessage(CALLS["prompt"]["input"]["question"])])


def documents_now(server: LiveServer) -> list[Document]:
    found: list[Document] = _remote(server, "/retriever").invoke(CALLS["retriever"]["input"])
    return found


def test_stream_revives_chunks(server: LiveServer) -> None:
    chunks = list(_remote(server, "/model").stream(CALLS["model"]["input"]))
    assert chunks and all(type(c) is AIMessageChunk for c in chunks)
    assert "".join(str(c.content) for c in chunks) == ANSWER


async def test_astream_events_revives_chunks_outputs_and_documents(server: LiveServer) -> None:
    remote = _remote(server, "/model")
    events = [e async for e in remote.astream_events(CALLS["model"]["input"])]
    streamed = [e["data"]["chunk"] for e in events if e["event"] == "on_chat_model_stream"]
    assert streamed and all(type(c) is AIMessageChunk for c in streamed)
    (model_end,) = [e for e in events if e["event"] == "on_chat_model_end"]
    assert isinstance(model_end["data"]["output"], (AIMessage, AIMessageChunk))
    (prompt_end,) = [e for e in events if e["event"] == "on_prompt_end"]
    assert isinstance(prompt_end["data"]["output"], ChatPromptValue)
    await remote.aclose()
    retriever = _remote(server, "/retriever")
    events = [e async for e in retriever.astream_events(CALLS["retriever"]["input"])]
    (retrieved,) = [e for e in events if e["event"] == "on_retriever_end"]
    assert retrieved["data"]["output"] == documents_now(server)
    await retriever.aclose()


async def test_astream_log_revives_the_streamed_output(server: LiveServer) -> None:
    remote = _remote(server, "/chat")
    state: Any = None
    async for patch in remote.astream_log(CALLS["chat"]["input"]):
        state = patch if state is None else state + patch
    assert state.state["final_output"] == ANSWER
    await remote.aclose()
    messages = _remote(server, "/model")
    state = None
    async for patch in messages.astream_log(CALLS["model"]["input"]):
        state = patch if state is None else state + patch
    streamed = state.state["streamed_output"]
    assert streamed and all(type(c) is AIMessageChunk for c in streamed)
    model_logs = [log for name, log in state.state["logs"].items() if "GenericFakeChatModel" in name]
    assert model_logs and all(type(c) is AIMessageChunk for c in model_logs[0]["streamed_output"])
    await messages.aclose()
