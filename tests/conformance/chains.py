"""Golden-transcript scenarios: each chain defined ONCE, built in either library.

A builder takes a ``Library`` (our classes or langchain-core's) and returns the chain
built from the same plain functions below, so a golden measured on the peer and the
transcript of our run describe the same chain.

Every step is given both a sync function (for ``stream_events`` / ``stream_log`` in our
library) and an async one (for ``astream_*``), made from the same plain function:

- the peer's ``RunnableGenerator`` only streams under ``astream_events`` when it has an
  async transform (a sync-only transform is run to completion in a thread first), so
  every generator transform here comes with an async twin (``transform_pair``);
- the peer runs a sync-only ``RunnableLambda`` in a thread pool when called
  asynchronously, which would make the interleaving of parallel branches depend on
  thread timing; an async twin (``lambda_pair``) keeps every peer run on the event loop
  and its transcript deterministic.

This module imports neither library: ``tests.conformance.make_goldens`` passes the
peer's namespace, ``tests.conformance.test_goldens`` ours.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Library:
    """The names a scenario needs, from one library."""

    name: str
    RunnableLambda: Any
    RunnableGenerator: Any
    RunnableParallel: Any
    RunnablePassthrough: Any
    RunnableSequence: Any
    dispatch_custom_event: Callable[[str, Any], None]
    adispatch_custom_event: Callable[[str, Any], Awaitable[None]]
    PromptTemplate: Any
    ChatPromptTemplate: Any
    StrOutputParser: Any
    fake_chat_model: Callable[[list[str]], Any]
    """A chat model that streams each reply word by word (words and the spaces between)."""
    whole_chat_model: Callable[[list[str]], Any]
    """A chat model without a token stream: each reply whole (``FakeMessagesListChatModel``)."""
    tool: Callable[[Callable[..., Any]], Any]
    """The ``@tool`` decorator."""


def ours() -> Library:
    """Our library's namespace."""
    import combinators as c
    from combinators.components.models.fakes import GenericFakeChatModel, Script
    from combinators.language_models import FakeMessagesListChatModel
    from combinators.components.parsers.text import StrOutputParser
    from combinators.prompts import ChatPromptTemplate, PromptTemplate
    from combinators.tools import tool

    def fake_chat_model(replies: list[str]) -> Any:
        # Cycling: a test may run the same chain more than once (sync and async).
        return GenericFakeChatModel(Script(replies, cycle=True))

    def whole_chat_model(replies: list[str]) -> Any:
        return FakeMessagesListChatModel(responses=list(replies))

    return Library(
        "combinators",
        c.RunnableLambda,
        c.RunnableGenerator,
        c.RunnableParallel,
        c.RunnablePassthrough,
        c.RunnableSequence,
        c.dispatch_custom_event,
        c.adispatch_custom_event,
        PromptTemplate,
        ChatPromptTemplate,
        StrOutputParser,
        fake_chat_model,
        whole_chat_model,
        tool,
    )


def peer() -> Library:
    """langchain-core's namespace (the optional ``bench`` extra)."""
    from langchain_core.callbacks import adispatch_custom_event, dispatch_custom_event
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel, GenericFakeChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.output_parsers import StrOutputParser
    from langchain_core.prompts import ChatPromptTemplate, PromptTemplate
    from langchain_core.tools import tool
    from langchain_core.runnables import (
        RunnableGenerator,
        RunnableLambda,
        RunnableParallel,
        RunnablePassthrough,
        RunnableSequence,
    )

    def fake_chat_model(replies: list[str]) -> Any:
        return GenericFakeChatModel(messages=iter([AIMessage(r) for r in replies]))

    def whole_chat_model(replies: list[str]) -> Any:
        return FakeMessagesListChatModel(responses=[AIMessage(r) for r in replies])

    return Library(
        "langchain-core",
        RunnableLambda,
        RunnableGenerator,
        RunnableParallel,
        RunnablePassthrough,
        RunnableSequence,
        dispatch_custom_event,
        adispatch_custom_event,
        PromptTemplate,
        ChatPromptTemplate,
        StrOutputParser,
        fake_chat_model,
        whole_chat_model,
        tool,
    )


# ---------------------------------------------------------------- twins of plain functions


def lambda_pair(lib: Library, fn: Callable[[Any], Any], *, turns: int = 0) -> Any:
    """``RunnableLambda(fn, afunc=<async fn>)``: the same function, both ways.

    ``turns``: the async twin first yields to the event loop that many times, so a
    parallel branch finishes after its siblings in a fixed order. This is needed for
    deterministic peer goldens: the peer's ``RunnableParallel`` iterates over the *set*
    returned by ``asyncio.wait(FIRST_COMPLETED)``, so branches that finish in the same
    loop turn come out in hash order (seen: the golden flipped between two runs).
    Yielding to the loop is a count of turns, not a duration, so this is not timing.
    """

    async def afn(x: Any) -> Any:
        for _ in range(turns):
            await asyncio.sleep(0)
        return fn(x)

    afn.__name__ = afn.__qualname__ = fn.__name__
    return lib.RunnableLambda(fn, afunc=afn)


def transform_pair(lib: Library, per_chunk: Callable[[Any], list[Any]]) -> Any:
    """``RunnableGenerator(sync, async)`` yielding ``per_chunk(c)`` for every input chunk."""

    def transform(chunks: Iterator[Any]) -> Iterator[Any]:
        for chunk in chunks:
            yield from per_chunk(chunk)

    async def atransform(chunks: AsyncIterator[Any]) -> AsyncIterator[Any]:
        async for chunk in chunks:
            for out in per_chunk(chunk):
                yield out

    for f in (transform, atransform):
        f.__name__ = f.__qualname__ = per_chunk.__name__
    return lib.RunnableGenerator(transform, atransform)


# ---------------------------------------------------------------- plain functions


def add_one(x: int) -> int:
    return x + 1


def double(x: int) -> int:
    return x * 2


def describe(x: int) -> str:
    return f"n={x}"


def fail(x: int) -> int:
    raise ValueError(f"boom: {x}")


def words(text: str) -> list[str]:
    """Generator source: one chunk per word of each input chunk."""
    return [w + " " for w in text.split()]


def shout(chunk: str) -> list[str]:
    return [chunk.upper()]


def bracket(chunk: str) -> list[str]:
    return ["[", chunk.strip(), "]"]


DOCUMENTS = (
    {"id": "d1", "page_content": "LCEL composes runnables with the pipe operator."},
    {"id": "d2", "page_content": "Runnables stream their output chunk by chunk."},
    {"id": "d3", "page_content": "Bananas are yellow."},
)


def retrieve(question: str) -> list[dict[str, str]]:
    """A retriever-like step: the documents sharing a word with the question."""
    asked = {w.strip("?.,").lower() for w in question.split()}
    return [dict(d) for d in DOCUMENTS if asked & {w.strip("?.,").lower() for w in d["page_content"].split()}]


def format_prompt(inputs: dict[str, Any]) -> str:
    context = "\n".join(d["page_content"] for d in inputs["context"])
    return f"Context:\n{context}\nQuestion: {inputs['question']}"


def answer_tokens(prompt: str) -> list[str]:
    """A fake token-streaming model: the first context line, word by word."""
    first = prompt.splitlines()[1]
    return ["Answer:"] + [" " + w for w in first.split()]


def to_record(text: str) -> dict[str, str]:
    return {"text": text}


def length(record: dict[str, Any]) -> int:
    return len(record["text"])


def upper_text(record: dict[str, Any]) -> str:
    return str(record["text"]).upper()


# ---------------------------------------------------------------- scenarios

SLOW = 20
"""Event-loop turns a "slow" parallel branch waits (see ``lambda_pair``)."""


def lambdas(lib: Library) -> Any:
    """A sequence of three lambdas."""
    return lambda_pair(lib, add_one) | lambda_pair(lib, double) | lambda_pair(lib, describe)


def generators(lib: Library) -> Any:
    """A generator source through two generator transforms."""
    return transform_pair(lib, words) | transform_pair(lib, shout) | transform_pair(lib, bracket)


def retrieval(lib: Library) -> Any:
    """The seed's retrieval shape: {retriever, passthrough} | format | token stream."""
    inputs = lib.RunnableParallel(context=lambda_pair(lib, retrieve, turns=SLOW), question=lib.RunnablePassthrough())
    return inputs | lambda_pair(lib, format_prompt) | transform_pair(lib, answer_tokens)


def assign(lib: Library) -> Any:
    """``to_record.assign(length=..., upper=...)``."""
    return lambda_pair(lib, to_record).assign(
        length=lambda_pair(lib, length), upper=lambda_pair(lib, upper_text, turns=SLOW)
    )


def failing(lib: Library) -> Any:
    """A sequence whose second step raises."""
    return lambda_pair(lib, add_one) | lambda_pair(lib, fail) | lambda_pair(lib, double)


def retried_step(lib: Library) -> Any:
    """A sequence whose second step is retried (and succeeds): streamed, the retry is no
    run of its own, the step's run sits at its place."""
    return lambda_pair(lib, add_one) | lambda_pair(lib, double).with_retry(stop_after_attempt=2)


def fallback_step(lib: Library) -> Any:
    """A sequence whose second step fails over to a fallback: the wrapper's run shows no
    stream events of its own, the fallback's run does."""
    return lambda_pair(lib, add_one) | lambda_pair(lib, fail).with_fallbacks([lambda_pair(lib, double)])


def custom_events(lib: Library) -> Any:
    """A lambda that dispatches two custom events (sync and async twins)."""

    def report_progress(x: int) -> int:
        lib.dispatch_custom_event("progress", {"step": 1, "of": 2})
        lib.dispatch_custom_event("progress", {"step": 2, "of": 2})
        return x * 10

    async def areport_progress(x: int) -> int:
        await lib.adispatch_custom_event("progress", {"step": 1, "of": 2})
        await lib.adispatch_custom_event("progress", {"step": 2, "of": 2})
        return x * 10

    areport_progress.__name__ = areport_progress.__qualname__ = "report_progress"
    return lambda_pair(lib, add_one) | lib.RunnableLambda(report_progress, afunc=areport_progress)


def chat_prompt_model_parser(lib: Library) -> Any:
    """A chat prompt | a token-streaming fake chat model | ``StrOutputParser``."""
    prompt = lib.ChatPromptTemplate.from_messages(
        [("system", "You are {persona}."), ("human", "Tell me about {topic}")]
    )
    return prompt | lib.fake_chat_model(["Cats purr softly"]) | lib.StrOutputParser()


def whole_model_in_chain(lib: Library) -> Any:
    """A chat prompt | a chat model without a token stream | ``StrOutputParser``: the
    model shows no stream; its whole reply flows on as one chunk."""
    prompt = lib.ChatPromptTemplate.from_messages([("human", "Tell me about {topic}")])
    return prompt | lib.whole_chat_model(["Cats purr softly"]) | lib.StrOutputParser()


def string_prompt_model_parser(lib: Library) -> Any:
    """A one-variable text prompt (given the bare value) | fake chat model | parser."""
    prompt = lib.PromptTemplate.from_template("Tell me a joke about {topic}")
    return prompt | lib.fake_chat_model(["Why did the cat sit on the laptop"]) | lib.StrOutputParser()


def look_up(question: str) -> dict[str, str]:
    """The arguments of a tool call for ``question``."""
    return {"query": question.rstrip("?")}


def tool_in_chain(lib: Library) -> Any:
    """lambda | tool | lambda: a tool reports its start and end only, ended before the
    next step starts."""

    def search(query: str) -> str:
        """Search the notes."""
        return f"notes on {query}"

    return lambda_pair(lib, look_up) | lib.tool(search) | lambda_pair(lib, str.upper)


def failing_tool_call(lib: Library) -> Any:
    """A tool call (with an id) to a tool that raises: ``on_tool_error`` names the call."""

    def divide(a: int, b: int) -> float:
        """Divide a by b."""
        return a / b

    def as_call(args: dict[str, int]) -> dict[str, Any]:
        return {"name": "divide", "args": args, "id": "call_7", "type": "tool_call"}

    return lambda_pair(lib, as_call) | lib.tool(divide)


def model_invoked_in_a_step(lib: Library) -> Any:
    """A lambda that invokes a chat model: watched, the model streams its tokens and the
    message gets an id made from the model's run id."""
    model = lib.fake_chat_model(["Sunny with a light breeze"])

    def ask(question: str) -> str:
        return str(model.invoke(question).content)

    async def aask(question: str) -> str:
        return str((await model.ainvoke(question)).content)

    aask.__name__ = aask.__qualname__ = "ask"
    return lib.RunnableLambda(ask, afunc=aask)


def nested_stream(lib: Library) -> Any:
    """A lambda that streams another lambda with the caller's config (a child run)."""
    inner = lib.RunnableLambda(double)

    def stream_inner(x: int, config: Any) -> int:
        return sum(inner.stream(x, config))

    async def astream_inner(x: int, config: Any) -> int:
        return sum([chunk async for chunk in inner.astream(x, config)])

    astream_inner.__name__ = astream_inner.__qualname__ = "stream_inner"
    return lib.RunnableLambda(stream_inner, afunc=astream_inner)


def filtered(lib: Library) -> Any:
    """Two lambdas, watched with ``include_names=["double"]`` (the root is hidden)."""
    return lambda_pair(lib, add_one) | lambda_pair(lib, double)


@dataclass(frozen=True)
class Scenario:
    name: str
    build: Callable[[Library], Any]
    input: Any
    options: dict[str, Any] = field(default_factory=dict[str, Any])
    """Keyword arguments of the watching call (filters)."""


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("lambdas", lambdas, 3),
    Scenario("generators", generators, "the quick fox"),
    Scenario("retrieval", retrieval, "What is LCEL?"),
    Scenario("assign", assign, "hello"),
    Scenario("failing", failing, 3),
    Scenario("retried_step", retried_step, 3),
    Scenario("fallback_step", fallback_step, 3),
    Scenario("custom_events", custom_events, 1),
    Scenario("chat_prompt_model_parser", chat_prompt_model_parser, {"persona": "a poet", "topic": "cats"}),
    Scenario("string_prompt_model_parser", string_prompt_model_parser, "cats"),
    Scenario("whole_model_in_chain", whole_model_in_chain, {"topic": "cats"}),
    Scenario("tool_in_chain", tool_in_chain, "tides?"),
    Scenario("failing_tool_call", failing_tool_call, {"a": 1, "b": 0}),
    Scenario("model_invoked_in_a_step", model_invoked_in_a_step, "weather?"),
    Scenario("nested_stream", nested_stream, 4),
    Scenario("filtered", filtered, 3, {"include_names": ["double"]}),
)

PROJECTIONS: tuple[str, ...] = ("events_v2", "events_v1", "log")
"""``astream_events(version="v2")``, ``version="v1"``, ``astream_log`` (patch ops)."""
