"""A runnable of one's own, @chain, and generic helpers."""

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

import attrs

from combinators import Runnable, RunnableLambda, chain
from effects import Scope

A = TypeVar("A")
B = TypeVar("B")


@attrs.frozen
class Repeat(Runnable[str, str]):
    """Repeats its input ``times`` times; streams each copy."""

    times: int = 2

    def step_invoke(self, input: str, scope: Scope, kwargs: Mapping[str, Any]) -> str:
        return input * self.times

    def step_stream(self, inputs: Iterator[str], scope: Scope, kwargs: Mapping[str, Any]) -> Iterator[str]:
        text = "".join(inputs)
        for _ in range(self.times):
            yield text


@attrs.frozen
class Twice(Runnable[A, B]):
    """Runs ``inner`` twice and keeps the second output."""

    inner: Runnable[A, B]
    is_leaf = False

    def step_invoke(self, input: A, scope: Scope, kwargs: Mapping[str, Any]) -> B:
        scope.invoke(self.inner, input, "twice:1")
        return scope.invoke(self.inner, input, "twice:2")


@chain
def clean(text: str) -> str:
    return " ".join(text.split())


def logged(step: Runnable[A, B]) -> Runnable[A, B]:
    return step.with_config(tags=["logged"], metadata={"who": "app"})


def retried(step: Runnable[A, B], attempts: int = 3) -> Runnable[A, B]:
    return step.with_retry(stop_after_attempt=attempts, wait_exponential_jitter=False)


def count_words(text: str) -> int:
    return len(text.split())


pipeline: Runnable[str, int] = clean | Repeat(3) | logged(RunnableLambda(count_words))
twice = Twice(retried(clean))
