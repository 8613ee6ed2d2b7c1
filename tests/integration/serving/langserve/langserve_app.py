"""The five chains as LangChain 0.3 builds them, served by LangServe 0.3.3 (run by LangServe's
own python, see ``bench/langserve_env.py``; never imported by the tests' python).

Each route mirrors one in ``chains.py`` (ours): the same prompts, replies, documents and
tool, and the same class names where a name shows in events. Prints the bound port.
"""

import asyncio
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from langchain.agents import AgentExecutor, create_tool_calling_agent
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableLambda
from langchain_core.tools import tool
from langserve import add_routes
from pydantic import BaseModel

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))
from bench.serving_apps import serve_printing_port  # (from the repo's root)

ANSWER = "the lamp flashes twice"
GREETING = "hello there"
AGENT_ANSWER = "6 times 7 is 42."
DOCUMENTS = [
    Document(page_content="the lamp flashes twice", metadata={"source": "log.md", "page": 1}),
    Document(page_content="the keeper sleeps at noon", metadata={"source": "log.md", "page": 2}),
]


def cycle(text: str) -> Iterator[AIMessage]:
    while True:
        yield AIMessage(content=text)


class AgentInput(BaseModel):
    input: str


class AgentOutput(BaseModel):
    input: str
    output: str


class LighthouseRetriever(BaseRetriever):
    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return list(DOCUMENTS)


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


class ScriptedChatModel(BaseChatModel):
    """Calls ``multiply`` until a tool's result is in the conversation, then answers."""

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self

    def _reply(self, messages: list[BaseMessage]) -> AIMessage:
        if any(isinstance(m, ToolMessage) for m in messages):
            return AIMessage(content=AGENT_ANSWER)
        return AIMessage(content="", tool_calls=[{"name": "multiply", "args": {"a": 6, "b": 7}, "id": "call-1"}])

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._reply(messages))])

    def _stream(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> Iterator[ChatGenerationChunk]:
        reply = self._reply(messages)
        if reply.tool_calls:
            call = reply.tool_calls[0]
            chunk = AIMessageChunk(
                content="",
                tool_call_chunks=[{"name": call["name"], "args": '{"a": 6, "b": 7}', "id": call["id"], "index": 0}],
            )
            yield ChatGenerationChunk(message=chunk)
            return
        for token in re.split(r"(\s)", str(reply.content)):
            if token:
                yield ChatGenerationChunk(message=AIMessageChunk(content=token))
                if run_manager is not None:
                    run_manager.on_llm_new_token(token)


def build_app() -> FastAPI:
    chat_prompt = ChatPromptTemplate.from_messages([("system", "Be brief."), ("human", "{question}")])
    chat = chat_prompt | GenericFakeChatModel(messages=cycle(ANSWER)) | StrOutputParser()
    messages = ChatPromptTemplate.from_messages([("human", "{question}")]) | GenericFakeChatModel(
        messages=cycle(GREETING)
    )

    def facts(question: dict[str, Any]) -> dict[str, Any]:
        text = question["question"]
        return {"question": text, "length": len(text), "words": text.split(), "nested": {"ok": True}}

    agent_prompt = ChatPromptTemplate.from_messages(
        [("system", "You multiply."), ("human", "{input}"), MessagesPlaceholder("agent_scratchpad")]
    )
    agent = AgentExecutor(
        agent=create_tool_calling_agent(ScriptedChatModel(), [multiply], agent_prompt), tools=[multiply]
    )
    app = FastAPI()
    add_routes(app, chat, path="/chat")
    add_routes(app, messages, path="/messages")
    add_routes(app, LighthouseRetriever(), path="/retriever")
    add_routes(app, RunnableLambda(facts), path="/dict")
    # LangServe's documented way to serve an AgentExecutor: its own input schema is empty
    add_routes(app, agent.with_types(input_type=AgentInput, output_type=AgentOutput), path="/agent")
    add_routes(app, chat_prompt, path="/prompt")
    return app


if __name__ == "__main__":
    asyncio.run(serve_printing_port(build_app()))
