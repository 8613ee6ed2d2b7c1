"""Fan-out: a positional, tuple-typed parallel(), a dict-parallel with assign/pick, a branch."""

from typing import Any

from combinators import Runnable, RunnableBranch, RunnableLambda, RunnableParallel, parallel


def words(text: str) -> list[str]:
    return text.split()


def length(text: str) -> int:
    return len(text)


def shout(text: str) -> str:
    return text.upper()


def is_loud(text: str) -> bool:
    return text.isupper()


def summary(parts: tuple[list[str], int, str]) -> str:
    found, size, loud = parts
    return f"{len(found)} words, {size} chars: {loud}"


def ratio(parts: dict[str, Any]) -> float:
    return float(parts["size"]) / max(1, len(parts["words"]))


stats: Runnable[str, tuple[list[str], int, str]] = parallel(
    RunnableLambda(words), RunnableLambda(length), RunnableLambda(shout)
)
described = stats | summary

by_key = RunnableParallel(words=RunnableLambda(words), size=RunnableLambda(length))
with_ratio = by_key.assign(ratio=ratio)
only_ratio = with_ratio.pick("ratio", required=True)


def first_word(text: str) -> str:
    found, _, _ = stats.invoke(text)
    return found[0] if found else ""


routed: Runnable[str, str] = RunnableBranch((is_loud, RunnableLambda(str.lower)), shout)
"""Loud text is lowered, the rest shouted: each branch returns the declared ``str``."""
