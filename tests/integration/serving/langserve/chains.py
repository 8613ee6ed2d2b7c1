"""What our server serves to LangServe's and LangChain.js's clients, and ``langserve_app.py``
serves the same with LangChain 0.3 (the same prompts, replies, documents and tool, the same
class names where events show one):

``/chat``            prompt | chat model | parser: ``{"question": str}`` -> str
``/model``           prompt | chat model: ``{"question": str}`` -> ``AIMessage``
``/retriever``       a retriever: str -> list of ``Document``
``/dict``            a parallel: ``{"question": str}`` -> ``{"answer", "question", "length"}``
``/agent``           ``agent_loop`` with a ``multiply`` tool: str -> ``AgentResult`` (ours only:
                     LangChain has no counterpart, so LangServe does not serve it)
``/agent_executor``  LangChain's agent API: ``{"input": str}`` -> ``{"input", "output"}``
``/prompt``          a chat prompt: ``{"question": str}`` -> ``ChatPromptValue``
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from combinators import Runnable, RunnableLambda, RunnableParallel
from combinators.agents import AgentExecutor, LoopPolicy, agent_loop, create_tool_calling_agent
from combinators.documents import Document
from combinators.language_models import GenericFakeChatModel, Script, ScriptedChatModel, ToolPickingChatModel
from combinators.messages import AIMessage, Message, ToolCall, ToolMessage
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate, MessagesPlaceholder
from combinators.retrievers import Bm25Retriever
from combinators.tools import tool

ANSWER: Final = "the lamp flashes twice"
AGENT_ANSWER: Final = "6 times 7 is 42."
DOCUMENTS: Final = (
    Document("The lamp flashes twice every ten seconds.", metadata={"source": "log", "page": 1}),
    Document("The keeper climbs the tower at dusk.", metadata={"source": "log", "page": 2}),
    Document("Fog rolls in from the north in winter.", metadata={"source": "almanac", "page": 7}),
)
CALLS: Final[dict[str, dict[str, Any]]] = {
    "chat": {"input": {"question": "How does the lamp flash?"}, "batch": [{"question": "one?"}, {"question": "two?"}]},
    "model": {"input": {"question": "How does the lamp flash?"}, "batch": [{"question": "one?"}, {"question": "two?"}]},
    "retriever": {"input": "lamp flashes", "batch": ["lamp", "fog"]},
    "dict": {"input": {"question": "How does the lamp flash?"}, "batch": [{"question": "one?"}, {"question": "two?"}]},
    "agent": {"input": "Multiply 6 and 7", "batch": ["Multiply 6 and 7", "Multiply 3 and 5"]},
    "agent_executor": {"input": {"input": "6 x 7?"}, "batch": [{"input": "6 x 7?"}, {"input": "6 x 7?"}]},
    "prompt": {"input": {"question": "q"}, "batch": [{"question": "one?"}, {"question": "two?"}]},
}
"""By route: the input each client sends, and the two inputs of its batch."""


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers a and b."""
    return a * b


def chat_prompt() -> ChatPromptTemplate:
    return ChatPromptTemplate.from_messages([("system", "Be brief."), ("human", "{question}")])


def chat() -> Runnable[dict[str, Any], str]:
    return chat_prompt() | GenericFakeChatModel(Script([ANSWER], cycle=True)) | StrOutputParser()


def question(value: dict[str, Any]) -> str:
    return str(value["question"])


def length(value: dict[str, Any]) -> int:
    return len(str(value["question"]))


def _agent_reply(messages: Sequence[Message]) -> AIMessage:
    # Calls the tool until its result is in the conversation, then answers (as LangServe's side).
    if any(isinstance(m, ToolMessage) for m in messages):
        return AIMessage(AGENT_ANSWER)
    return AIMessage("", tool_calls=[ToolCall("multiply", {"a": 6, "b": 7}, id="call-1")])


def agent_executor() -> Runnable[dict[str, Any], dict[str, Any]]:
    prompt = ChatPromptTemplate.from_messages(
        [("system", "You multiply."), ("human", "{input}"), MessagesPlaceholder("agent_scratchpad")]
    )
    model = ScriptedChatModel([_agent_reply] * 10_000)
    return AgentExecutor(agent=create_tool_calling_agent(model, [multiply], prompt), tools=[multiply])


def routes() -> dict[str, Runnable[Any, Any]]:
    """Fresh chains (a model's script has a position), keyed by route path."""
    model = ChatPromptTemplate.from_messages([("human", "{question}")]) | GenericFakeChatModel(
        Script([ANSWER], cycle=True)
    )
    return {
        "/chat": chat(),
        "/model": model,
        "/retriever": Bm25Retriever.from_documents(list(DOCUMENTS), k=2),
        "/dict": RunnableParallel(answer=chat(), question=RunnableLambda(question), length=RunnableLambda(length)),
        "/agent": agent_loop(ToolPickingChatModel(), [multiply], policy=LoopPolicy(max_iterations=4)),
        "/agent_executor": agent_executor(),
        "/prompt": chat_prompt(),
    }
