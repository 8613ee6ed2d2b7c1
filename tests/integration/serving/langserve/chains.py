"""Ours: the five chains of ``langserve_app.py`` (LangServe's), built with the library.

Same prompts, replies, documents and tool, and the same class names where a name shows in
events, so LangServe's clients can be pointed at either server and get the same shapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from combinators import Runnable, RunnableLambda
from combinators.agents import AgentExecutor, create_tool_calling_agent
from combinators.documents import Document
from combinators.language_models import GenericFakeChatModel, Script, ScriptedChatModel
from combinators.messages import AIMessage, Message, ToolCall, ToolMessage
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate, MessagesPlaceholder
from combinators.retrievers import BaseRetriever
from combinators.tools import tool

ANSWER = "the lamp flashes twice"
GREETING = "hello there"
AGENT_ANSWER = "6 times 7 is 42."
DOCUMENTS = (
    Document("the lamp flashes twice", {"source": "log.md", "page": 1}),
    Document("the keeper sleeps at noon", {"source": "log.md", "page": 2}),
)
INPUTS: dict[str, Any] = {
    "chat": {"question": "what does the lamp do?"},
    "messages": {"question": "hi"},
    "retriever": "lamp",
    "dict": {"question": "how tall is the tower"},
    "agent": {"input": "6 x 7?"},
}
"""One input per route (``langserve_client.py`` and the JS client send the same)."""


@attrs.frozen
class LighthouseRetriever(BaseRetriever):
    def _get_relevant_documents(self, query: str) -> list[Document]:
        return list(DOCUMENTS)


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def _agent_reply(messages: Sequence[Message]) -> AIMessage:
    # Calls the tool until its result is in the conversation, then answers (as LangServe's side).
    if any(isinstance(m, ToolMessage) for m in messages):
        return AIMessage(AGENT_ANSWER)
    return AIMessage("", tool_calls=[ToolCall("multiply", {"a": 6, "b": 7}, id="call-1")])


def facts(question: dict[str, Any]) -> dict[str, Any]:
    text = question["question"]
    return {"question": text, "length": len(text), "words": text.split(), "nested": {"ok": True}}


def routes() -> dict[str, Runnable[Any, Any]]:
    """Fresh chains (a model's script has a position), keyed by route path."""
    chat_prompt = ChatPromptTemplate.from_messages([("system", "Be brief."), ("human", "{question}")])
    chat = chat_prompt | GenericFakeChatModel(Script([ANSWER], cycle=True)) | StrOutputParser()
    messages = ChatPromptTemplate.from_messages([("human", "{question}")]) | GenericFakeChatModel(
        Script([GREETING], cycle=True)
    )
    agent_prompt = ChatPromptTemplate.from_messages(
        [("system", "You multiply."), ("human", "{input}"), MessagesPlaceholder("agent_scratchpad")]
    )
    model = ScriptedChatModel([_agent_reply] * 10_000)
    agent = AgentExecutor(agent=create_tool_calling_agent(model, [multiply], agent_prompt), tools=[multiply])
    return {
        "/chat": chat,
        "/messages": messages,
        "/retriever": LighthouseRetriever(),
        "/dict": RunnableLambda(facts),
        "/agent": agent,
        "/prompt": chat_prompt,
    }
