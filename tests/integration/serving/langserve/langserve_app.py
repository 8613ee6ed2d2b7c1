"""``chains.py``'s routes as LangChain 0.3 builds them, served by LangServe 0.3.3 (run by
LangServe's own python, see ``bench/langserve_env.py``; never imported by the tests' python).

The same prompts, replies, documents and tool, and the same class names where events show
one; ``/agent`` (our ``agent_loop``) has no LangChain counterpart, so it is not here.
``/upper``, ``/letters`` and ``/fail`` (plain lambdas) are for ``test_compat.py``.
Prints the bound port.
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
from langchain_core.runnables import RunnableLambda, RunnableParallel
from langchain_core.tools import tool
from langserve import add_routes
from pydantic import BaseModel

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))
from bench.serving_apps import serve_printing_port  # (from the repo's root)

ANSWER = "the lamp flashes twice"
AGENT_ANSWER = "6 times 7 is 42."
DOCUMENTS = [
    Document(page_content="The lamp flashes twice every ten seconds.", metadata={"source": "log", "page": 1}),
    Document(page_content="The keeper climbs the tower at dusk.", metadata={"source": "log", "page": 2}),
    Document(page_content="Fog rolls in from the north in winter.", metadata={"source": "almanac", "page": 7}),
]
STOPWORDS = {"the", "in", "at", "from", "every", "a", "of"}


def cycle(text: str) -> Iterator[AIMessage]:
    while True:
        yield AIMessage(content=text)


class Question(BaseModel):
    question: str


class AgentInput(BaseModel):
    input: str


class AgentOutput(BaseModel):
    input: str
    output: str


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.lower()) if w not in STOPWORDS}


class Bm25Retriever(BaseRetriever):
    """Ours is BM25 (k=2); for the tests' queries the best two by shared words are the same."""

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        scored = [(len(_words(query) & _words(d.page_content)), i) for i, d in enumerate(DOCUMENTS)]
        return [DOCUMENTS[i] for score, i in sorted(scored, key=lambda s: (-s[0], s[1])) if score > 0][:2]


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers a and b."""
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


def question(value: dict[str, Any]) -> str:
    return str(value["question"])


def length(value: dict[str, Any]) -> int:
    return len(str(value["question"]))


def upper(text: str) -> str:
    return text.upper()


async def letters(text: str) -> Any:
    # (langchain-core cannot stream a sync generator function asynchronously)
    for letter in text:
        yield letter


def fail(text: str) -> str:
    raise KeyError("server-side secret")


def build_app() -> FastAPI:
    chat_prompt = ChatPromptTemplate.from_messages([("system", "Be brief."), ("human", "{question}")])
    chat = chat_prompt | GenericFakeChatModel(messages=cycle(ANSWER)) | StrOutputParser()
    model = ChatPromptTemplate.from_messages([("human", "{question}")]) | GenericFakeChatModel(messages=cycle(ANSWER))
    as_dict = RunnableParallel(
        answer=chat_prompt | GenericFakeChatModel(messages=cycle(ANSWER)) | StrOutputParser(),
        question=RunnableLambda(question),
        length=RunnableLambda(length),
    )
    agent_prompt = ChatPromptTemplate.from_messages(
        [("system", "You multiply."), ("human", "{input}"), MessagesPlaceholder("agent_scratchpad")]
    )
    agent = AgentExecutor(
        agent=create_tool_calling_agent(ScriptedChatModel(), [multiply], agent_prompt), tools=[multiply]
    )
    app = FastAPI()
    add_routes(app, chat, path="/chat")
    add_routes(app, model, path="/model")
    add_routes(app, Bm25Retriever(), path="/retriever")
    # (a parallel of lambdas has no input schema LangServe can use: it is declared, as LangServe's docs say)
    add_routes(app, as_dict.with_types(input_type=Question), path="/dict")
    # LangServe's documented way to serve an AgentExecutor: its own input schema is empty
    add_routes(app, agent.with_types(input_type=AgentInput, output_type=AgentOutput), path="/agent_executor")
    add_routes(app, chat_prompt, path="/prompt")
    # plain lambdas, for test_compat.py: a string, a stream of letters, an error
    add_routes(app, RunnableLambda(upper), path="/upper")
    add_routes(app, RunnableLambda(letters), path="/letters")
    add_routes(app, RunnableLambda(fail), path="/fail")
    return app


if __name__ == "__main__":
    asyncio.run(serve_printing_port(build_app()))
