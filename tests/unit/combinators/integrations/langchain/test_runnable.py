"""from_langchain: LangChain's chat models, retrievers and LCEL chains run inside our
chains with our values in and out, streaming through their own stream, and the call's
config reaching them."""

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.documents import Document as TheirDocument
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage as TheirAIMessage
from langchain_core.output_parsers import StrOutputParser as TheirStrParser
from langchain_core.prompts import ChatPromptTemplate as TheirChatPrompt
from langchain_core.runnables import RunnableConfig as TheirConfig
from langchain_core.runnables import RunnableLambda as TheirLambda
from langchain_core.vectorstores import InMemoryVectorStore

from combinators import Runnable, RunnableLambda
from combinators.documents import Document
from combinators.messages import AIMessage, AIMessageChunk, HumanMessage, SystemMessage
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate
from combinators.integrations.langchain import FromLangChain, from_langchain


def test_a_chat_model_gives_our_message_from_our_prompt() -> None:
    model = from_langchain(FakeListChatModel(responses=["Paris"]))
    chain = ChatPromptTemplate.from_messages([("system", "Be brief."), ("human", "{q}")]) | model | StrOutputParser()
    assert chain.invoke({"q": "capital?"}) == "Paris"
    message = model.invoke([SystemMessage("s"), HumanMessage("hi")])
    assert isinstance(message, AIMessage) and message.content == "Paris"


def test_a_chat_model_streams_our_chunks_through_its_own_stream() -> None:
    model = from_langchain(FakeListChatModel(responses=["abc"]))
    chunks = list(model.stream("hi"))
    assert [chunk.content for chunk in chunks] == ["a", "b", "c"]
    assert all(isinstance(chunk, AIMessageChunk) for chunk in chunks)

    async def collect() -> list[object]:
        return [chunk.content async for chunk in model.astream("hi")]

    assert asyncio.run(collect()) == ["a", "b", "c"]


def test_tool_calls_from_a_fake_model_arrive_as_ours() -> None:
    reply = TheirAIMessage("adding", id="m1", tool_calls=[{"name": "add", "args": {"a": 1, "b": 2}, "id": "call-1"}])
    model = from_langchain(GenericFakeChatModel(messages=iter([reply, reply])))
    message = model.invoke("add")
    assert isinstance(message, AIMessage) and message.id == "m1"
    assert [(call.name, dict(call.args), call.id) for call in message.tool_calls] == [
        ("add", {"a": 1, "b": 2}, "call-1")
    ]
    # Streamed, this fake gives its text as chunks (and no tool call chunks), marked last.
    chunks = list(model.stream("add"))
    assert "".join(str(chunk.content) for chunk in chunks) == "adding"
    assert isinstance(chunks[-1], AIMessageChunk) and chunks[-1].chunk_position == "last"


def test_async_invoke_and_batch_give_our_values() -> None:
    model = from_langchain(FakeListChatModel(responses=["x", "y"]))
    assert asyncio.run(model.ainvoke("hi")).content == "x"
    assert [m.content for m in model.batch(["a", "b"])] in (["y", "x"], ["x", "y"])


def test_a_vector_store_retriever_gives_our_documents() -> None:
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=8))
    store.add_documents([TheirDocument("fog over the bay", id="d1", metadata={"n": 1}), TheirDocument("sun", id="d2")])
    retriever = from_langchain(store.as_retriever(search_kwargs={"k": 1}))
    found = retriever.invoke("fog over the bay")
    assert found == [Document("fog over the bay", {"n": 1}, id="d1")]
    assert (RunnableLambda(str.strip) | retriever).invoke("  sun ") == [Document("sun", id="d2")]


def as_question(text: str) -> dict[str, str]:
    return {"q": text}


def test_an_lcel_chain_runs_inside_ours_with_the_types_given() -> None:
    theirs = TheirChatPrompt.from_messages([("human", "{q}")]) | FakeListChatModel(responses=["42"]) | TheirStrParser()
    answer: Runnable[dict[str, str], str] = from_langchain(theirs, dict, str)
    chain = RunnableLambda(as_question) | answer | RunnableLambda(str.upper)
    assert chain.invoke("meaning?") == "42"
    assert list(answer.stream({"q": "?"})) == ["4", "2"]


def test_tags_metadata_and_configurable_reach_the_object() -> None:
    seen: list[TheirConfig] = []

    def record(text: str, config: TheirConfig) -> str:
        seen.append(config)
        return text

    echo = from_langchain(TheirLambda(record), str, str)
    echo.invoke("x", {"tags": ["t1"], "metadata": {"who": "me"}, "configurable": {"k": 2}, "max_concurrency": 3})
    config = seen[0]
    assert "t1" in config.get("tags", [])
    assert config.get("metadata", {}).get("who") == "me"
    assert config.get("configurable", {}).get("k") == 2
    assert config.get("max_concurrency") == 3


def test_call_keyword_arguments_reach_the_object() -> None:
    model = from_langchain(FakeListChatModel(responses=["stop here"]))
    assert model.invoke("hi", stop=["here"]).content == "stop here"  # the fake ignores stop: it arrives without error


def test_the_wrapper_is_named_after_the_object_and_errors_pass_through() -> None:
    def fail(_: str) -> str:
        raise ValueError("boom")

    wrapped = from_langchain(TheirLambda(fail, name="fail"), str, str)
    assert isinstance(wrapped, FromLangChain) and wrapped.name == "fail"
    with pytest.raises(ValueError, match="boom"):
        wrapped.invoke("x")
    events: Iterator[Any] = iter(from_langchain(FakeListChatModel(responses=["a"])).stream_effects("hi"))
    assert next(events).run.name == "FakeListChatModel"


def test_not_a_runnable_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="from_langchain expects a langchain_core Runnable, got int"):
        from_langchain(3)  # type: ignore[call-overload]


def test_without_the_extra_the_error_names_the_install_line() -> None:
    code = (
        "import sys; sys.modules['langchain_core'] = None\n"
        "try:\n    import combinators.integrations.langchain\n"
        "except Exception as error:\n    print(type(error).__name__, error)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "MissingExtraError" in out and "lcel-combinators[langchain]" in out
