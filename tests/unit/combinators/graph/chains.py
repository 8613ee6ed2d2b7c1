"""The chains whose drawings are golden-tested: the quickstart's, one with a branch, a parallel and a
retry, and an agent (its loop drawn inside)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from combinators import Runnable, RunnableBranch, RunnableLambda, RunnableParallel
from combinators.agents import AgentResult, agent_loop
from combinators.language_models import ExtractiveChatModel, ScriptedChatModel
from combinators.prompts import ChatPromptTemplate
from combinators.tools import tool

ROOT = Path(__file__).resolve().parents[4]


def quickstart() -> Runnable[str, str]:
    """``examples/rag.py``'s chain, with the local model."""
    spec = importlib.util.spec_from_file_location("rag_example", ROOT / "examples" / "rag.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    chain: Runnable[str, str] = module.build_chain(ExtractiveChatModel(max_sentences=2))
    return chain


def is_question(text: str) -> bool:
    return text.rstrip().endswith("?")


def normalise(text: str) -> str:
    return " ".join(text.split())


def as_question(text: str) -> str:
    return text.rstrip("?") + "?"


def word_count(text: str) -> int:
    return len(text.split())


def keywords(text: str) -> list[str]:
    return [w for w in text.lower().split() if len(w) > 3]


def lookup(text: str) -> str:
    return f"looked up {text!r}"


def report(parts: dict[str, Any]) -> str:
    return f"{parts['words']} words, keywords {parts['keys']}: {parts['found']}"


def mixed() -> Runnable[str, str]:
    """A branch, then a parallel with a retried sub-chain in it, then one more step."""
    branch = RunnableBranch((is_question, RunnableLambda(normalise)), RunnableLambda(as_question))
    retried = (RunnableLambda(normalise) | RunnableLambda(lookup)).with_retry(
        stop_after_attempt=3, wait_exponential_jitter=False
    )
    fan_out = RunnableParallel(words=RunnableLambda(word_count), keys=RunnableLambda(keywords), found=retried)
    return branch | fan_out | RunnableLambda(report)


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def halve(x: int) -> float:
    """Halve a number."""
    return x / 2


def answer(result: AgentResult) -> str:
    return result.output or ""


def agent() -> Runnable[str, str]:
    """An agent with a prompt and two tools (drawn inside its loop group), then its answer."""
    prompt = ChatPromptTemplate.from_messages([("human", "{input}"), ("placeholder", "{agent_scratchpad}")])
    loop = agent_loop(ScriptedChatModel(["done"]), [tool(add), tool(halve)], prompt=prompt)
    return loop | RunnableLambda(answer)
