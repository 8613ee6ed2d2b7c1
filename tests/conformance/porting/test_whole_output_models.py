"""Models without a token stream of their own, against langchain-core 1.8.3 live (issue 26):
ours and the peer's, alone and in ``prompt | model | parser``, give the same stream events
in ``astream_events`` v1 and v2 and the same ``streamed_output`` paths in ``astream_log``.

The peer's facts: alone, v2 shows no ``on_chat_model_stream``/``on_llm_stream`` (its
whole output reaches the stream after its run ended), v1 shows it as one stream event and
the log as the root's one ``streamed_output``; in a chain no projection shows a stream of
the model, and its whole output flows on as one chunk.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from langchain_core.language_models.chat_models import BaseChatModel as TheirBaseChatModel
from langchain_core.language_models.chat_models import SimpleChatModel as TheirSimpleChatModel
from langchain_core.language_models.fake import FakeListLLM as TheirFakeListLLM
from langchain_core.language_models.fake_chat_models import FakeListChatModel as TheirFakeListChatModel
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel as TheirMessagesList
from langchain_core.language_models.fake_chat_models import ParrotFakeChatModel as TheirParrot
from langchain_core.messages import AIMessage as TheirAIMessage
from langchain_core.output_parsers import StrOutputParser as TheirStrParser
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.prompts import ChatPromptTemplate as TheirChatPrompt
from langchain_core.prompts import PromptTemplate as TheirPrompt

from combinators.language_models import (
    FakeListChatModel,
    FakeListLLM,
    FakeMessagesListChatModel,
    ParrotFakeChatModel,
)
from combinators.messages import AIMessage
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate, PromptTemplate
from tests.unit.combinators.components.models.test_models_stream_events import OnlyGenerate, Simple


class TheirSimple(TheirSimpleChatModel):
    def _call(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> str:
        return "simple reply"

    @property
    def _llm_type(self) -> str:
        return "simple"


class TheirOnlyGenerate(TheirBaseChatModel):
    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=TheirAIMessage("generated reply"))])

    @property
    def _llm_type(self) -> str:
        return "generate"


PAIRS: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {
    "ParrotFakeChatModel": (ParrotFakeChatModel, TheirParrot),
    "FakeMessagesListChatModel": (
        lambda: FakeMessagesListChatModel(responses=[AIMessage("listed")]),
        lambda: TheirMessagesList(responses=[TheirAIMessage("listed")]),
    ),
    "SimpleChatModel": (Simple, TheirSimple),
    "BaseChatModel._generate": (OnlyGenerate, TheirOnlyGenerate),
    "FakeListLLM": (lambda: FakeListLLM(responses=["completed"]), lambda: TheirFakeListLLM(responses=["completed"])),
    "FakeListChatModel (streams)": (
        lambda: FakeListChatModel(responses=["ab"]),
        lambda: TheirFakeListChatModel(responses=["ab"]),
    ),
}


def _build(name: str, side: int, nested: bool) -> tuple[Any, object]:
    model = PAIRS[name][side]()
    if not nested:
        return model, "hello"
    text = name == "FakeListLLM"
    if side == 0:
        prompt: Any = (
            PromptTemplate.from_template("{x}") if text else ChatPromptTemplate.from_messages([("human", "{x}")])
        )
        return prompt | model | StrOutputParser(), {"x": "hello"}
    prompt = TheirPrompt.from_template("{x}") if text else TheirChatPrompt.from_messages([("human", "{x}")])
    return prompt | model | TheirStrParser(), {"x": "hello"}


def _kind(value: object) -> str:
    # The peer's parsers give a str subclass, its Parrot the input message (ours: an AIMessage).
    if isinstance(value, str):
        return "str"
    name = type(value).__name__
    return "AIMessage" if name == "HumanMessage" else name


def _streams(name: str, side: int, nested: bool, projection: str) -> list[tuple[str, str]]:
    async def main() -> list[tuple[str, str]]:
        runnable, value = _build(name, side, nested)
        if projection == "log":
            return [
                (op["path"], _kind(op["value"]))
                async for patch in runnable.astream_log(value)
                for op in patch.ops
                if "streamed_output" in op["path"] and not op["path"].endswith("streamed_output_str/-")
            ]
        return [
            (f"{e['event']}:{e['name'].removeprefix('Their')}", _kind(e["data"]["chunk"]))
            async for e in runnable.astream_events(value, version=projection)
            if e["event"].endswith("_stream")
        ]

    return asyncio.run(main())


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("projection", ["v2", "v1", "log"])
@pytest.mark.parametrize("nested", [False, True], ids=["alone", "in a chain"])
@pytest.mark.parametrize("name", PAIRS)
def test_stream_events_and_log_equal_langchain_s(name: str, nested: bool, projection: str) -> None:
    ours, theirs = _streams(name, 0, nested, projection), _streams(name, 1, nested, projection)
    assert ours == theirs
    if not nested and projection == "v2":
        assert bool(ours) == name.endswith("(streams)")
