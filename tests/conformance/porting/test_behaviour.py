"""Issue 13: behaviour differences a ported LangChain code base meets, one test each."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from combinators import (
    RunnableGenerator,
    RunnableLambda,
    RunnablePassthrough,
    RunnableSequence,
    adispatch_custom_event,
    dispatch_custom_event,
)
from combinators.language_models import FakeListLLM, GenericFakeChatModel, Script


# -- 1. a str stop is one stop sequence ----------------------------------------------------


def test_a_str_stop_is_one_stop_sequence_for_chat_models() -> None:
    model = GenericFakeChatModel(Script(["Never ENDING story END here"], cycle=True))
    assert model.invoke("x", stop="END").text == "Never "
    assert [c.text for c in model.stream("x", stop="END")] == ["Never", " "]


def test_a_str_stop_is_one_stop_sequence_for_text_models() -> None:
    llm = FakeListLLM(["Did NOT stop at D, stops at STOP here"])
    assert llm.invoke("x", stop="STOP") == "Did NOT stop at D, stops at "


def test_a_stop_list_still_cuts_at_the_first_match() -> None:
    model = GenericFakeChatModel(Script(["a b c"], cycle=True))
    assert model.with_kwargs(stop=["c", "b"]).invoke("x").text == "a "


# -- 2. callable objects are detected like functions -----------------------------------------


class AsyncUpper:
    async def __call__(self, chunks: AsyncIterator[str]) -> AsyncIterator[str]:
        async for chunk in chunks:
            yield chunk.upper()


class SyncUpper:
    def __call__(self, chunks: Iterator[str]) -> Iterator[str]:
        for chunk in chunks:
            yield chunk.upper()


class AsyncDouble:
    async def __call__(self, x: int) -> int:
        return 2 * x


def test_a_generator_over_an_async_generator_object_streams() -> None:
    gen = RunnableGenerator(AsyncUpper())

    async def run() -> tuple[list[str], str]:
        return [c async for c in gen.astream("ab")], await gen.ainvoke("cd")

    assert asyncio.run(run()) == (["AB"], "CD")
    for sync_call in (lambda: gen.invoke("x"), lambda: list(gen.stream("x")), lambda: gen.batch(["x"])):
        with pytest.raises(NotImplementedError, match="only an async transform"):
            sync_call()


def test_callable_objects_coerce_like_functions_in_a_pipe() -> None:
    chain = RunnableLambda(str.strip) | SyncUpper()
    assert isinstance(chain.steps[1], RunnableGenerator)
    assert list(chain.stream(" ab ")) == ["AB"]
    achain = RunnableLambda(str.strip) | AsyncUpper()
    assert isinstance(achain.steps[1], RunnableGenerator)

    async def run() -> int:
        return await (RunnableLambda(int) | AsyncDouble()).ainvoke("21")

    assert asyncio.run(run()) == 42


# -- 10. dispatch_custom_event takes the peer's config argument -------------------------------


def test_dispatch_custom_event_accepts_a_config() -> None:
    def step(x: int, config: Any) -> int:
        dispatch_custom_event("progress", {"at": x}, config=config)
        return x

    async def astep(x: int, config: Any) -> int:
        await adispatch_custom_event("progress", {"at": x}, config=config)
        return x

    async def events(runnable: Any) -> list[Any]:
        return [e["data"] async for e in runnable.astream_events(3) if e["event"] == "on_custom_event"]

    assert asyncio.run(events(RunnableLambda(step))) == [{"at": 3}]
    assert asyncio.run(events(RunnableLambda(astep))) == [{"at": 3}]


# -- 12. sequences coerce functions and dicts as `|` does ---------------------------------------


def _length(text: str) -> int:
    return len(text)


def test_sequence_constructors_coerce_dicts_and_functions() -> None:
    rag = RunnableSequence.from_([{"n": _length, "text": RunnablePassthrough()}, lambda d: f"{d['text']}:{d['n']}"])
    assert rag.invoke("abc") == "abc:3"
    direct = RunnableSequence(_length, str)
    assert direct == RunnableLambda(_length) | RunnableLambda(str)
    assert direct.invoke("ab") == "2"
    with pytest.raises(TypeError, match="cannot pipe int"):
        RunnableSequence.from_([RunnableLambda(_length), 5])


# -- 13. any runnable becomes a tool --------------------------------------------------------


def test_retrievers_parsers_and_models_become_tools() -> None:
    from combinators.documents import Document
    from combinators.output_parsers import JsonOutputParser, StrOutputParser
    from combinators.retrievers import Bm25Retriever

    retriever = Bm25Retriever.from_documents([Document("fog rolls in"), Document("sun shines")], k=1)
    assert retriever.input_schema() == {"title": "Bm25RetrieverInput", "type": "string"}
    search = retriever.as_tool(name="search", description="Search the notes.")
    assert search.args == {"__arg1": {"type": "string"}}
    assert search.invoke({"__arg1": "fog"}) == [Document("fog rolls in")]
    assert search.invoke("sun") == [Document("sun shines")]

    model = GenericFakeChatModel(Script(["hi there"], cycle=True))
    ask = model.as_tool(name="ask", description="Ask the model.")
    assert ask.args == {"__arg1": {"type": "string"}}
    assert ask.invoke("hello").text == "hi there"

    assert StrOutputParser().as_tool(name="text", description="d").invoke("x") == "x"
    assert JsonOutputParser().as_tool(name="json", description="d").invoke('{"a": 1}') == {"a": 1}
    assert FakeListLLM(["ok"]).as_tool(name="llm", description="d").invoke("q") == "ok"


# -- 3. the run log's state holds the values ----------------------------------------------------


def test_the_final_log_state_holds_the_values_and_only_its_json_form_is_json() -> None:
    from combinators.messages import AIMessageChunk
    from combinators.output_parsers import StrOutputParser
    from combinators.prompts import ChatPromptTemplate
    from effects.projections import to_jsonable

    model = GenericFakeChatModel(Script(["hello world"], cycle=True))
    logs = list(model.stream_log("hi", diff=False))
    state = logs[-1].state
    streamed = state["streamed_output"]
    assert all(type(chunk) is AIMessageChunk for chunk in streamed)
    assert [chunk.text for chunk in streamed] == ["hello", " ", "world"]
    final = state["final_output"]
    assert type(final) is AIMessageChunk and final.text == "hello world" and final.chunk_position == "last"
    assert final.id == streamed[0].id and str(final.id).startswith("lc_run--")  # the run's message id
    assert to_jsonable(state)["final_output"]["content"] == "hello world"

    chain = ChatPromptTemplate.from_messages([("human", "{q}")]) | model | StrOutputParser()
    patches = list(chain.stream_log({"q": "x"}, include_names=["GenericFakeChatModel"]))
    ops = [op for patch in patches for op in patch.ops]
    streamed = [op["value"] for op in ops if op["path"] == "/logs/GenericFakeChatModel/streamed_output/-"]
    assert type(streamed[0]) is AIMessageChunk and streamed[0].text == "hello"
    assert [op["value"] for op in ops if op["path"] == "/final_output"][-1] == "hello world"


# -- 14. sync batch is structured (documented in the README table) -------------------------------


def test_sync_batch_stops_at_the_first_failure_unless_exceptions_are_returned() -> None:
    started: list[int] = []

    def step(x: int) -> int:
        started.append(x)
        if x == 0:
            raise ValueError("first input fails")
        return x

    runnable = RunnableLambda(step)
    with pytest.raises(ValueError, match="first input fails"):
        runnable.batch([0, 1, 2, 3], {"max_concurrency": 1})
    assert started == [0]  # the other inputs never ran (the peer runs them all, then raises)
    started.clear()
    outcomes = runnable.batch([0, 1, 2, 3], {"max_concurrency": 1}, return_exceptions=True)
    assert sorted(started) == [0, 1, 2, 3] and outcomes[1:] == [1, 2, 3]


def test_fallbacks_forward_the_primary_s_attributes_and_runnable_returning_methods() -> None:
    from combinators import RunnableBinding, RunnableWithFallbacks
    from combinators.language_models import FakeListChatModel

    both = FakeListChatModel(["a"]).with_fallbacks([FakeListChatModel(["b"])])
    assert getattr(both, "responses") == ("a",)
    bound = getattr(both, "bind_tools")([])
    assert isinstance(bound, RunnableWithFallbacks)
    assert isinstance(bound.runnable, RunnableBinding)
    assert all(isinstance(f, RunnableBinding) for f in bound.fallbacks)
    with pytest.raises(AttributeError):
        getattr(both, "no_such_attribute")


def test_a_passthrough_function_gets_the_call_kwargs_and_its_config() -> None:
    from combinators import RunConfig, RunnablePassthrough

    calls: list[tuple[object, ...]] = []

    def tap(x: object, **kwargs: object) -> None:
        calls.append((x, kwargs))

    def tap_with_config(x: object, config: RunConfig) -> None:
        calls.append((x, config.metadata["who"]))

    assert RunnablePassthrough(tap).invoke("hello", my_kwarg="value") == "hello"
    assert asyncio.run(RunnablePassthrough(tap).ainvoke("hi", k=1)) == "hi"
    assert list(RunnablePassthrough(tap_with_config).stream("s", {"metadata": {"who": "me"}})) == ["s"]
    assert calls == [("hello", {"my_kwarg": "value"}), ("hi", {"k": 1}), ("s", "me")]


def test_configurable_alternatives_accept_a_factory() -> None:
    from functools import partial

    from combinators import ConfigurableField
    from combinators.language_models import FakeListChatModel

    made: list[str] = []

    def model(answer: str) -> FakeListChatModel:
        made.append(answer)
        return FakeListChatModel([answer])

    chosen = FakeListChatModel(["default"]).configurable_alternatives(
        ConfigurableField(id="model"),
        other=partial(model, "other"),  # type: ignore[arg-type]  # the typed signature is engineer surface's
    )
    assert made == []  # made only when chosen
    assert chosen.invoke("x", {"configurable": {"model": "other"}}).content == "other"
    assert chosen.invoke("x").content == "default"
    assert made == ["other"]


def test_model_runs_carry_the_peer_s_ls_metadata() -> None:
    from combinators.language_models import FakeListLLM, SimpleChatModel

    class ChatLocal(SimpleChatModel):
        model: str = "qwen2.5"
        temperature: float = 0.2
        max_tokens: int = 64

        def _call(self, messages: Any, stop: Any = None, **kwargs: Any) -> str:
            return "ok"

    events = list(ChatLocal().stream_events("hi", {"metadata": {"user": "u"}}, stop=["\n"]))
    start = events[0]
    assert start["event"] == "on_chat_model_start"
    assert start["metadata"] == {
        "ls_provider": "local",
        "ls_model_name": "qwen2.5",
        "ls_temperature": 0.2,
        "ls_max_tokens": 64,
        "ls_stop": ["\n"],
        "ls_model_type": "chat",
        "user": "u",
    }
    llm_start = next(iter(FakeListLLM(responses=["a"]).stream_events("q")))
    assert llm_start["metadata"]["ls_model_type"] == "llm"


def test_exception_key_reaches_the_fallbacks_in_batch_too() -> None:
    from combinators import RunnableLambda

    def answer(inputs: dict[str, Any]) -> str:
        if inputs["text"] == "foo":
            return "first"
        if "exception" not in inputs:
            raise ValueError("missing exception")
        return f"second after {type(inputs['exception']).__name__}"

    runnable = RunnableLambda(answer)
    with_fallback = runnable.with_fallbacks([runnable], exception_key="exception")
    inputs = [{"text": "foo"}, {"text": "bar"}]
    assert with_fallback.batch(inputs) == ["first", "second after ValueError"]
    assert asyncio.run(with_fallback.abatch(inputs)) == ["first", "second after ValueError"]
    assert inputs == [{"text": "foo"}, {"text": "bar"}]  # the caller's dicts are never changed


def test_a_root_llm_s_v1_end_output_is_its_text() -> None:
    from combinators.language_models import FakeStreamingListLLM

    async def events() -> list[Any]:
        llm = FakeStreamingListLLM(responses=["Hello human!"])
        return [e async for e in llm.astream_events("hello", version="v1")]

    end = asyncio.run(events())[-1]
    assert (end["event"], end["data"]) == ("on_llm_end", {"output": "Hello human!"})


def test_a_vector_store_retriever_s_events_carry_the_store_and_embeddings_names() -> None:
    from combinators import RunnableLambda
    from combinators.embeddings import HashedNgramEmbeddings
    from combinators.vectorstores import InMemoryVectorStore

    retriever = InMemoryVectorStore.from_texts(["fog"], HashedNgramEmbeddings()).as_retriever()
    chain = RunnableLambda(lambda q: q) | retriever
    start = next(e for e in chain.stream_events("fog", version="v2") if e["event"] == "on_retriever_start")
    assert start["tags"] == ["seq:step:2", "InMemoryVectorStore", "HashedNgramEmbeddings"]
    filtered = list(chain.stream_events("fog", version="v2", include_tags=["InMemoryVectorStore"]))
    assert {e["event"] for e in filtered} == {"on_retriever_start", "on_retriever_end"}
