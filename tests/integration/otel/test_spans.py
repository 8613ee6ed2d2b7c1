"""Spans of real chains: structure, names, kinds, GenAI attributes, statuses, streaming."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from opentelemetry.trace import SpanKind, StatusCode

from combinators import RunnableLambda, RunnableParallel, RunnablePassthrough
from combinators.documents import Document
from combinators.language_models import BaseChatModel, GenericFakeChatModel, Script
from combinators.messages import AIMessage, AIMessageChunk, Message, ToolCall
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate
from combinators.retrievers import Bm25Retriever
from combinators.tools import tool
from combinators.integrations.otel import OtelConfig
from combinators import RunConfig
from effects.clock import FakeClock, use_clock
from tests.integration.otel.models import ChatAcme
from tests.integration.otel.support import Traced, parent_of


def prompt_model_parser() -> Any:
    prompt = ChatPromptTemplate.from_messages([("system", "Be brief."), ("human", "{question}")])
    return prompt | GenericFakeChatModel(Script(["it is fine"], cycle=True)) | StrOutputParser()


def test_prompt_model_parser_is_one_root_and_three_children(traced: Traced) -> None:
    chain = prompt_model_parser().with_tracing(traced.tracer)
    assert chain.invoke({"question": "how?"}) == "it is fine"
    spans = traced.spans
    assert [span.name for span in spans] == [
        "ChatPromptTemplate",
        "chat GenericFakeChatModel",
        "StrOutputParser",
        "invoke_workflow RunnableSequence",
    ]
    root = traced.named("invoke_workflow RunnableSequence")
    assert root.parent is None and root.kind is SpanKind.INTERNAL
    assert root.attributes is not None
    assert root.attributes["gen_ai.operation.name"] == "invoke_workflow"
    assert root.attributes["gen_ai.workflow.name"] == "RunnableSequence"
    children = [span for span in spans if span is not root]
    assert [parent_of(span, spans) for span in children] == [root, root, root]
    assert {span.context.trace_id for span in spans} == {root.context.trace_id}
    assert [span.kind for span in children] == [SpanKind.INTERNAL, SpanKind.CLIENT, SpanKind.INTERNAL]
    model = traced.named("chat GenericFakeChatModel")
    assert model.attributes is not None
    assert model.attributes["gen_ai.operation.name"] == "chat"
    assert model.attributes["gen_ai.provider.name"] == "genericfakechatmodel"
    assert model.attributes["lcel.run.type"] == "chat_model"
    assert model.attributes["lcel.tags"] == ("seq:step:2",)
    parser = traced.named("StrOutputParser")
    assert parser.attributes is not None and "gen_ai.operation.name" not in parser.attributes
    assert all(span.status.status_code is StatusCode.UNSET for span in spans)


def test_a_model_span_carries_the_request_and_the_typed_reply(traced: Traced) -> None:
    model = ChatAcme().with_kwargs(stop=["\n\n"])
    chain = (RunnableLambda(str.strip) | model).with_tracing(traced.tracer)
    assert chain.invoke(" hi there ").text == "HI THERE"
    span = traced.named("chat acme-large")
    assert span.kind is SpanKind.CLIENT
    assert dict(span.attributes or {}) | {"lcel.run.id": "-"} == {
        "lcel.run.id": "-",
        "lcel.run.type": "chat_model",
        "lcel.tags": ("seq:step:2",),
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "acme",
        "gen_ai.request.model": "acme-large",
        "gen_ai.request.temperature": 0.25,
        "gen_ai.request.max_tokens": 64,
        "gen_ai.request.stop_sequences": ("\n\n",),
        "gen_ai.response.id": "resp-42",
        "gen_ai.response.model": "acme-large-2026",
        "gen_ai.response.finish_reasons": ("stop",),
        "gen_ai.usage.input_tokens": 7,
        "gen_ai.usage.output_tokens": 3,
        "gen_ai.usage.cache_read.input_tokens": 2,
    }


@attrs.frozen
class ChatSlowStart(BaseChatModel):
    """ChatAcme's stream, a quarter of a second (on the fake clock) before its first chunk."""

    clock: FakeClock

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        raise NotImplementedError

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        self.clock.advance(0.25)
        yield from ChatAcme()._stream(messages)  # pyright: ignore[reportPrivateUsage]


def test_a_streamed_model_gets_time_to_first_chunk_and_a_chunk_count_but_no_span_per_chunk(
    traced: Traced,
) -> None:
    with use_clock(FakeClock(start=100.0)) as clock:
        chain = ChatSlowStart(clock).with_tracing(traced.tracer)
        chunks = []
        for chunk in chain.stream("one two three"):
            chunks.append(chunk)
            clock.advance(0.5)
    assert len(chunks) == 4
    [span] = traced.spans
    attributes = span.attributes or {}
    assert attributes["lcel.stream.chunk_count"] == 4
    assert attributes["gen_ai.response.time_to_first_chunk"] == 0.25
    assert attributes["lcel.stream.time_to_first_chunk"] == 0.25
    assert attributes["gen_ai.response.finish_reasons"] == ("length",)
    assert attributes["gen_ai.usage.output_tokens"] == 3
    assert span.events == ()
    assert span.start_time == 100_000_000_000 and span.end_time == 102_250_000_000


def test_chunk_events_are_opt_in_and_capped_at_128(traced: Traced) -> None:
    def count(n: int) -> Iterator[int]:
        yield from range(n)

    RunnableLambda(count).with_tracing(traced.tracer, OtelConfig(stream_events=True)).invoke(3)
    few = list(RunnableLambda(count).with_tracing(traced.tracer, OtelConfig(stream_events=True)).stream(3))
    many = list(RunnableLambda(count).with_tracing(traced.tracer, OtelConfig(stream_events=True)).stream(500))
    assert few == [0, 1, 2] and len(many) == 500
    invoked, streamed, long = traced.spans
    assert invoked.events == ()
    assert [event.attributes for event in streamed.events] == [{"lcel.chunk.index": i} for i in range(3)]
    assert len(long.events) == 128 and (long.attributes or {})["lcel.stream.chunk_count"] == 500


def test_a_batch_of_three_is_three_traces(traced: Traced) -> None:
    chain = (RunnableLambda(abs) | RunnableLambda(str)).with_tracing(traced.tracer)
    assert chain.batch([-1, -2, -3]) == ["1", "2", "3"]
    roots = [span for span in traced.spans if span.parent is None]
    assert len(roots) == 3 and len(traced.spans) == 9
    assert len({span.context.trace_id for span in traced.spans}) == 3
    for root in roots:
        members = [s for s in traced.spans if s.context.trace_id == root.context.trace_id]
        assert sorted(s.name for s in members) == ["abs", "invoke_workflow RunnableSequence", "str"]


def test_the_config_entry_traces_each_item_of_a_batch(traced: Traced) -> None:
    from combinators.integrations.otel import OtelTracing

    config = RunConfig(tracing=OtelTracing(traced.tracer))
    assert RunnableLambda(abs).batch([-1, -2], config) == [1, 2]
    assert [span.name for span in traced.spans] == ["invoke_workflow abs"] * 2
    assert len({span.context.trace_id for span in traced.spans}) == 2
    assert RunnableLambda(abs).invoke(-3, {"tracing": OtelTracing(traced.tracer)}) == 3
    assert len(traced.spans) == 3


def test_parallel_branches_share_their_parent(traced: Traced) -> None:
    chain = RunnableParallel(a=RunnableLambda(abs), b=RunnablePassthrough[int](), c=RunnableLambda(str))
    assert asyncio.run(chain.with_tracing(traced.tracer).ainvoke(-4)) == {"a": 4, "b": -4, "c": "-4"}
    parallel = traced.named("invoke_workflow RunnableParallel<a,b,c>")
    branches = [traced.named(name) for name in ("abs", "RunnablePassthrough", "str")]
    assert [parent_of(span, traced.spans) for span in branches] == [parallel] * 3
    assert parallel.parent is None


def boom(x: int) -> int:
    raise ValueError(f"no luck with {x}")


def test_a_failing_step_is_an_error_and_so_is_its_chain(traced: Traced) -> None:
    chain = (RunnableLambda(abs) | RunnableLambda(boom)).with_tracing(traced.tracer)
    with pytest.raises(ValueError, match="no luck"):
        chain.invoke(-1)
    failed, root = traced.named("boom"), traced.named("invoke_workflow RunnableSequence")
    for span in (failed, root):
        assert span.status.status_code is StatusCode.ERROR
        assert span.status.description == "ValueError"
        assert (span.attributes or {})["error.type"] == "ValueError"
        [event] = span.events
        assert event.name == "exception" and dict(event.attributes or {}) == {"exception.type": "ValueError"}
    assert traced.named("abs").status.status_code is StatusCode.UNSET


def test_a_fallback_that_recovers_leaves_the_primary_failed_and_the_root_unset(traced: Traced) -> None:
    chain = (RunnableLambda(abs) | RunnableLambda(boom).with_fallbacks([RunnableLambda(str)])).with_tracing(
        traced.tracer
    )
    assert chain.invoke(-2) == "2"
    assert traced.named("boom").status.status_code is StatusCode.ERROR
    assert traced.named("str").status.status_code is StatusCode.UNSET
    fallbacks = parent_of(traced.named("boom"), traced.spans)
    assert fallbacks is not None and fallbacks.name == "RunnableWithFallbacks"
    assert fallbacks.status.status_code is StatusCode.UNSET
    assert traced.named("invoke_workflow RunnableSequence").status.status_code is StatusCode.UNSET


def test_a_cancelled_run_is_marked_cancelled(traced: Traced) -> None:
    async def slow(x: int) -> int:
        await asyncio.sleep(10)
        return x

    async def main() -> None:
        task = asyncio.ensure_future(RunnableLambda(slow).with_tracing(traced.tracer).ainvoke(1))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    [span] = traced.spans
    assert span.status.status_code is StatusCode.ERROR and span.status.description == "cancelled"
    assert (span.attributes or {})["error.type"] == "cancelled"
    assert (span.attributes or {})["lcel.cancelled"] is True


def test_closing_a_stream_early_ends_every_span(traced: Traced) -> None:
    def numbers(x: int) -> Iterator[int]:
        yield from range(x)

    def as_text(xs: Iterator[int]) -> Iterator[str]:
        for x in xs:
            yield str(x)

    stream = (RunnableLambda(numbers) | as_text).with_tracing(traced.tracer).stream(100)
    assert next(iter(stream)) == "0"
    stream.close()
    assert len(traced.spans) == 3
    assert all((span.attributes or {}).get("lcel.cancelled") for span in traced.spans)


def test_tools_retrievers_and_embedding_runs_get_their_genai_names(traced: Traced) -> None:
    @tool
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    traced_add = add.with_tracing(traced.tracer)
    reply = traced_add.invoke(ToolCall("add", {"a": 1, "b": 2}, id="call_7"))
    assert reply.content == "3"
    span = traced.named("execute_tool add")
    assert span.kind is SpanKind.INTERNAL
    assert {k: v for k, v in (span.attributes or {}).items() if k.startswith("gen_ai")} == {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "add",
        "gen_ai.tool.type": "function",
        "gen_ai.tool.description": "Add two numbers.",
        "gen_ai.tool.call.id": "call_7",
    }
    retriever = Bm25Retriever.from_documents([Document("fog over the bay"), Document("sun")], k=1)
    assert len(retriever.with_tracing(traced.tracer).invoke("fog")) == 1
    found = traced.named("retrieval Bm25Retriever")
    assert found.kind is SpanKind.CLIENT
    assert (found.attributes or {})["gen_ai.operation.name"] == "retrieval"


def test_custom_events_become_span_events_without_their_data(traced: Traced) -> None:
    from combinators import dispatch_custom_event

    def step(x: int) -> int:
        dispatch_custom_event("halfway", {"secret_sauce": "ketchup"})
        return x

    with use_clock(FakeClock(start=5.0)):
        RunnableLambda(step).with_tracing(traced.tracer).invoke(1)
    [span] = traced.spans
    [event] = span.events
    assert event.name == "lcel.custom.halfway" and event.timestamp == 5_000_000_000
    assert dict(event.attributes or {}) == {}


def test_text_models_and_embedding_runs_are_named_by_their_operation(traced: Traced) -> None:
    from collections.abc import Mapping

    import attrs

    from combinators import Runnable
    from combinators.language_models import FakeListLLM
    from effects import Scope

    @attrs.frozen
    class Embedder(Runnable[str, list[float]]):
        run_type = "embeddings"

        def step_invoke(self, input: str, scope: Scope, kwargs: Mapping[str, Any]) -> list[float]:
            return [float(len(input))]

        def describe_params(self, kwargs: Mapping[str, Any]) -> Mapping[str, object]:
            return {"provider": "local", "model": "hashed-32"}

    FakeListLLM(responses=["done"]).with_tracing(traced.tracer, OtelConfig(capture="span")).invoke("go")
    Embedder().with_tracing(traced.tracer).invoke("fog")
    text, embedding = traced.spans
    assert (text.name, text.kind) == ("text_completion FakeListLLM", SpanKind.CLIENT)
    assert (text.attributes or {})["gen_ai.operation.name"] == "text_completion"
    assert (text.attributes or {})["gen_ai.output.messages"] == (
        '[{"role": "assistant", "parts": [{"type": "text", "content": "done"}], "finish_reason": "stop"}]'
    )
    assert (embedding.name, embedding.kind) == ("embeddings hashed-32", SpanKind.CLIENT)
    assert {k: v for k, v in (embedding.attributes or {}).items() if k.startswith("gen_ai")} == {
        "gen_ai.operation.name": "embeddings",
        "gen_ai.provider.name": "local",
        "gen_ai.request.model": "hashed-32",
    }
