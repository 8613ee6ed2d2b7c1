"""The seed's agent: a tool-calling agent whose run is read from its events, offline.

    agent = create_tool_calling_agent(model, tools, prompt)
    executor = AgentExecutor(agent=agent, tools=tools).with_config(run_name="Agent")
    async for event in executor.astream_events({"input": question}, version="v1"): ...

It prints what the seed's event handlers print: the agent's start (with its input),
each tool's start (its arguments) and end (its output), the model's tokens as they
stream (a model asking for a tool streams empty content, so those are skipped), and
the agent's end (its output).

The tools: ``search_archive`` (BM25 over the bundled Gullhaven notes,
``examples/corpus/``) and ``calculator`` (arithmetic, evaluated safely). The model
is ``ToolPickingChatModel``: it calls the tool whose description best matches the
question with arguments taken from the question, then answers with the result's
sentence that best matches it (its docstring says exactly how). Set
``OPENAI_BASE_URL`` (and ``OPENAI_API_KEY``, ``OPENAI_MODEL``) to run the same agent
on a server that speaks the OpenAI chat-completions protocol instead.

    python examples/agent.py ["your question"] [--version v1|v2]
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import json
import operator
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from combinators import Runnable
from combinators.documents import format_documents_as_string, load_text_documents
from combinators.language_models import ToolPickingChatModel
from combinators.prompts import ChatPromptTemplate, MessagesPlaceholder
from combinators.retrievers import ENGLISH_STOPWORDS, Bm25Index
from combinators.tools import tool
from combinators.agents import AgentExecutor, create_tool_calling_agent
from combinators.language_models import BaseChatModel

CORPUS = Path(__file__).parent / "corpus"
DEFAULT_QUESTION = "What pattern of flashes does the light show?"

_ARCHIVE = Bm25Index.from_documents(load_text_documents(CORPUS), stopwords=ENGLISH_STOPWORDS).as_retriever(k=3)


@tool
def search_archive(query: str) -> str:
    """Search the Gullhaven archive: the town, its light and lighthouse, keepers, harbour,
    tides, ferry, weather, market and people.

    Args:
        query: What to look for, in plain words.
    """
    return format_documents_as_string(_ARCHIVE.invoke(query))


_OPERATORS: dict[type[ast.AST], Callable[..., float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.USub: operator.neg,
}


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_evaluate(node.left), _evaluate(node.right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_evaluate(node.operand))
    raise ValueError(f"not arithmetic: {ast.unparse(node)}")


@tool
def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression: numbers, + - * / and parentheses.

    Args:
        expression: The expression, for example "12 * (3 + 4)".
    """
    value = _evaluate(ast.parse(expression, mode="eval").body)
    return str(int(value)) if value == int(value) else str(value)


TOOLS = [search_archive, calculator]

PROMPT = ChatPromptTemplate.from_messages(
    [
        ("system", "You are a helpful assistant. Use a tool to answer, then answer in one sentence."),
        MessagesPlaceholder("chat_history", optional=True),
        ("human", "{input}"),
        MessagesPlaceholder("agent_scratchpad"),
    ]
)


def chat_model() -> BaseChatModel:
    """The local tool-picking model, or an OpenAI-compatible server when configured."""
    base_url = os.environ.get("OPENAI_BASE_URL")
    if not base_url:
        return ToolPickingChatModel()
    from combinators.integrations.openai.chat import ChatOpenAI

    return ChatOpenAI(model=os.environ.get("OPENAI_MODEL", "gpt-4o-mini"), base_url=base_url)


def build_agent(model: BaseChatModel) -> Runnable[Any, dict[str, Any]]:
    """The seed's agent: a tool-calling agent run by an executor named "Agent"."""
    agent = create_tool_calling_agent(model, TOOLS, PROMPT)
    return AgentExecutor(agent=agent, tools=TOOLS).with_config(run_name="Agent")


def token(event: Mapping[str, Any]) -> str | None:
    """A model token to print (a model asking for a tool streams empty content)."""
    if event["event"] != "on_chat_model_stream":
        return None
    content = event["data"]["chunk"].content
    return content if isinstance(content, str) and content else None


def handle(event: Mapping[str, Any]) -> list[str]:
    """What the seed's handlers print for an event other than a token (v1 or v2: the same names)."""
    kind, name, data = event["event"], event["name"], event["data"]
    if kind == "on_chain_start" and name == "Agent":
        return ["-----", f"Starting agent: {name} with input: {json.dumps(data.get('input'))}"]
    if kind == "on_chain_end" and name == "Agent":
        return ["-----", f"Finished agent: {name}", f"Agent output was: {data['output']['output']}", "-----"]
    if kind == "on_tool_start":
        return ["-----", f"Starting tool: {name} with inputs: {json.dumps(data.get('input'))}"]
    if kind == "on_tool_end":
        return ["-----", f"Finished tool: {name}", f"Tool output was: {data['output']}", "-----"]
    return []


async def run(question: str, version: Literal["v1", "v2"] = "v1") -> list[str]:
    """The lines the handlers print for one run of the agent (the tokens of one model
    call on one line, separated by ``|``)."""
    agent = build_agent(chat_model())
    lines: list[str] = []
    tokens: list[str] = []
    async for event in agent.astream_events({"input": question}, version=version):
        text = token(event)
        if text is not None:
            tokens.append(text)
            continue
        shown = handle(event)
        if shown and tokens:
            lines.append("Tokens: " + "|".join(tokens))
            tokens = []
        lines.extend(shown)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("question", nargs="?", default=DEFAULT_QUESTION)
    parser.add_argument("--version", choices=["v1", "v2"], default="v1")
    args = parser.parse_args()
    for line in asyncio.run(run(args.question, args.version)):
        print(line)


if __name__ == "__main__":
    main()
