"""Issue 13: subclassing as LangChain users do, a ``Runnable`` with ``invoke`` and the
component bases with declared fields."""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import AsyncIterator, Iterator
from typing import Any

import attrs
import pytest

from combinators import Runnable, RunnableLambda
from combinators.documents import Document
from combinators.language_models import BaseChatModel, LLM, SimpleChatModel
from combinators.messages import AIMessage, AIMessageChunk
from combinators.output_parsers import StrOutputParser
from combinators.retrievers import BaseRetriever
from combinators.tools import BaseTool
from combinators.components.messages.message_classes import Message
from combinators.components.tools.specs import tool_to_openai
from tests.message_ids import RUN_ID


class Upper(Runnable[str, str]):
    def invoke(self, input: str, config: Any = None, **kwargs: Any) -> str:
        return input.upper()


class Words(Runnable[str, str]):
    def invoke(self, input: str, config: Any = None, **kwargs: Any) -> str:
        return input

    def stream(self, input: str, config: Any = None, **kwargs: Any) -> Iterator[str]:
        for word in input.split():
            yield word + " "

    async def ainvoke(self, input: str, config: Any = None, **kwargs: Any) -> str:
        return "async " + input

    async def astream(self, input: str, config: Any = None, **kwargs: Any) -> AsyncIterator[str]:
        for word in input.split():
            yield "<" + word + ">"


def test_a_runnable_with_only_invoke_works_everywhere() -> None:
    chain = RunnableLambda(str.strip) | Upper()
    assert chain.invoke(" a ") == "A"
    assert chain.batch([" a ", "b"]) == ["A", "B"]
    assert list(chain.stream(" hi ")) == ["HI"]

    async def run() -> tuple[Any, ...]:
        events = [(e["event"], e["name"]) async for e in chain.astream_events(" x ")]
        return await chain.ainvoke(" q "), await chain.abatch(["z"]), [c async for c in chain.astream("w")], events

    ainvoked, abatched, astreamed, events = asyncio.run(run())
    assert (ainvoked, abatched, astreamed) == ("Q", ["Z"], ["W"])
    assert ("on_chain_start", "Upper") in events and ("on_chain_end", "Upper") in events


def test_a_runnables_own_stream_ainvoke_and_astream_are_used() -> None:
    chain = RunnableLambda(str.strip) | Words()
    assert list(chain.stream(" a b ")) == ["a ", "b "]

    async def run() -> tuple[Any, ...]:
        streamed = [c async for c in chain.astream(" a b ")]
        kinds = [e["event"] async for e in chain.astream_events(" a b ") if e["name"] == "Words"]
        return streamed, await Words().ainvoke("x"), await chain.ainvoke(" c "), kinds

    streamed, direct, via_chain, kinds = asyncio.run(run())
    assert streamed == ["<a>", "<b>"]
    assert (direct, via_chain) == ("async x", "async c")
    assert kinds == ["on_chain_start", "on_chain_stream", "on_chain_stream", "on_chain_end"]


SEEN_CONFIGS: list[Any] = []


class Recorder(Runnable[str, int]):
    """Records the config its peer-style ``invoke`` receives."""

    def invoke(self, input: str, config: Any = None, **kwargs: Any) -> int:
        SEEN_CONFIGS.append(config)
        return len(input)


def test_a_peer_style_invoke_receives_the_config_as_a_plain_dict() -> None:
    # The peer's merged config: tags, metadata and configurable always, other keys once set.
    SEEN_CONFIGS.clear()
    assert Recorder().with_config(tags=["a-tag"]).invoke("hello") == 5
    assert list(Recorder().with_config(tags=["a-tag"]).stream("hi", {"metadata": {"k": "v"}})) == [2]
    assert Recorder().with_config(recursion_limit=5).batch(["a", "bb"], [{"tags": ["t"]}, {}]) == [1, 2]
    assert asyncio.run(Recorder().ainvoke("abc", {"max_concurrency": 3})) == 3
    assert all(type(config) is dict for config in SEEN_CONFIGS)
    assert SEEN_CONFIGS[:2] == [
        {"tags": ["a-tag"], "metadata": {}, "configurable": {}},
        {"tags": ["a-tag"], "metadata": {"k": "v"}, "configurable": {}},
    ]
    batched = sorted(SEEN_CONFIGS[2:4], key=lambda config: len(config["tags"]))
    assert batched == [
        {"tags": [], "metadata": {}, "configurable": {}, "recursion_limit": 5},
        {"tags": ["t"], "metadata": {}, "configurable": {}, "recursion_limit": 5},
    ]
    assert SEEN_CONFIGS[4] == {"tags": [], "metadata": {}, "configurable": {}, "max_concurrency": 3}


class Notes(BaseRetriever):
    documents: list[Document]
    k: int = 1

    def _get_relevant_documents(self, query: str) -> list[Document]:
        return [d for d in self.documents if query in d.page_content][: self.k]


def test_a_retriever_declares_its_fields() -> None:
    notes = Notes(documents=[Document("fog at sea"), Document("fog inland")], k=2)
    assert notes.invoke("fog") == [Document("fog at sea"), Document("fog inland")]
    assert attrs.has(Notes) and notes == Notes(documents=list(notes.documents), k=2)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        notes.k = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(notes)) == notes
    assert repr(notes).startswith("Notes(documents=[Document(")


class Echo(BaseChatModel):
    prefix: str = "> "

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return AIMessage(self.prefix + messages[-1].text)

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        for char in self.prefix + messages[-1].text:
            yield AIMessageChunk(char)


class Shout(SimpleChatModel):
    times: int

    def _call(self, messages: list[Message], stop: list[str] | None = None) -> str:
        return messages[-1].text.upper() * self.times


class Reverse(LLM):
    suffix: str = ""

    def _call(self, prompt: str, stop: list[str] | None = None) -> str:
        return prompt[::-1] + self.suffix


def test_models_declare_their_fields() -> None:
    assert (Echo(prefix=">> ") | StrOutputParser()).invoke("hi") == ">> hi"
    assert [c.text for c in Echo().stream("ab")] == [">", " ", "a", "b"]
    assert Shout(times=2).invoke("hey") == AIMessage("HEYHEY", id=RUN_ID)
    assert Reverse(suffix="!").invoke("abc") == "cba!"
    assert Echo() == Echo() and Echo(prefix="x") != Echo()


class Calculator(BaseTool):
    name: str = "calculator"
    description: str = "Multiply two numbers."
    scale: int = 1

    def _run(self, a: int, b: int, run_manager: Any = None) -> int:
        return a * b * self.scale


class Lookup(BaseTool):
    """Looks a word up."""

    table: dict[str, str] = attrs.field(factory=dict)

    async def _arun(self, word: str) -> str:
        return self.table.get(word, "?")


def test_tools_written_as_classes() -> None:
    calculator = Calculator(scale=10)
    assert calculator.name == "calculator" and calculator.args == {"a": {"type": "integer"}, "b": {"type": "integer"}}
    assert calculator.invoke({"a": 2, "b": 3}) == 60
    call = {"name": "calculator", "args": {"a": 1, "b": 1}, "id": "c9", "type": "tool_call"}
    assert calculator.invoke(call).tool_call_id == "c9"
    assert asyncio.run(calculator.ainvoke({"a": 1, "b": 2})) == 20  # _run on a thread
    lookup = Lookup(table={"fog": "mist"})
    assert lookup.name == "Lookup" and lookup.description == "Looks a word up."  # its docstring
    assert asyncio.run(lookup.ainvoke("fog")) == "mist"
    assert asyncio.run(lookup.ainvoke({"word": "sun"})) == "?"

    async def kinds() -> list[str]:
        return [e["event"] async for e in calculator.astream_events({"a": 1, "b": 1})]

    assert asyncio.run(kinds())[0] == "on_tool_start"
    with pytest.raises(Exception, match="invalid arguments"):
        calculator.invoke({"a": "x", "b": 1})


class Undescribed(BaseTool):
    name: str = "undescribed"

    def _run(self, text: str) -> str:
        return text


def test_a_tool_class_takes_its_own_docstring_as_its_description_never_its_bases() -> None:
    assert Lookup()._tool.description == "Looks a word up."  # the tool it runs as
    assert tool_to_openai(Lookup())["function"]["description"] == "Looks a word up."  # what a model is told
    with pytest.raises(Exception, match="description"):
        Undescribed().invoke({"text": "x"})  # the peer requires one too


def test_an_explicit_attrs_decorator_still_works() -> None:
    @attrs.frozen
    class Fixed(BaseRetriever):
        answer: str

        def _get_relevant_documents(self, query: str) -> list[Document]:
            return [Document(self.answer)]

    assert Fixed("yes").invoke("q") == [Document("yes")]
    assert "__slots__" in Fixed.__dict__
