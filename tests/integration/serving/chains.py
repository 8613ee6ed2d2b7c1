"""Chains the serving tests serve."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any, TypedDict

from combinators import Runnable, RunnableLambda
from combinators.language_models import GenericFakeChatModel, Script
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate


def shout(text: str) -> str:
    return text.upper() + "!"


async def letters(text: str) -> AsyncIterator[str]:
    for letter in text:
        await asyncio.sleep(0)
        yield letter


def nothing(text: str) -> Iterator[str]:
    return
    yield text  # a generator that yields nothing


def human_like(text: str) -> dict[str, Any]:
    return {"type": "human", "content": text}


async def fails_after_three(text: str) -> AsyncIterator[str]:
    for token in ("a", "b", "c"):
        yield token
    raise KeyError("the-secret-key")


class Question(TypedDict):
    question: str
    k: int


def answer(q: Question) -> str:
    return f"{q['question']} x{q['k']}"


def chat_chain(replies: list[str] | None = None) -> Runnable[dict[str, Any], str]:
    prompt = ChatPromptTemplate.from_messages([("system", "Be brief."), ("human", "{question}")])
    model = GenericFakeChatModel(Script(replies or ["the lamp flashes twice"], cycle=True))
    return prompt | model | StrOutputParser()


def chat_model_chain(replies: list[str] | None = None) -> Runnable[dict[str, Any], Any]:
    prompt = ChatPromptTemplate.from_messages([("human", "{question}")])
    return prompt | GenericFakeChatModel(Script(replies or ["hello there"], cycle=True))


ROUTES: dict[str, Runnable[Any, Any]] = {
    "/shout": RunnableLambda(shout),
    "/letters": RunnableLambda(letters),
    "/nothing": RunnableLambda(nothing),
    "/human_like": RunnableLambda(human_like),
    "/fails": RunnableLambda(fails_after_three),
    "/answer": RunnableLambda(answer),
    "/chat": chat_chain(),
    "/model": chat_model_chain(),
}
