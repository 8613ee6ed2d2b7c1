"""Batches, with every outcome a returns Result."""

from collections.abc import Sequence
from typing import TypeVar

from returns.result import Failure, Success

from combinators import Runnable, RunnableLambda


def parse(text: str) -> int:
    return int(text)


parser = RunnableLambda(parse)


def parsed_or_zero(texts: list[str]) -> list[int]:
    out: list[int] = []
    for result in parser.batch_results(texts, {"max_concurrency": 4, "tags": ["batch"]}):
        match result:
            case Success(value):
                out.append(value)
            case Failure(_):
                out.append(0)
    return out


def errors_of(texts: list[str]) -> list[Exception]:
    return [r for r in parser.batch(texts, return_exceptions=True) if isinstance(r, Exception)]


In = TypeVar("In")
Out = TypeVar("Out")


def run_all(r: Runnable[In, Out], xs: Sequence[In]) -> list[Out]:
    """The idiomatic helper: any runnable over any sequence of its inputs."""
    return r.batch(xs)


async def arun_all(r: Runnable[In, Out], xs: Sequence[In]) -> list[Out]:
    return await r.abatch(xs)


def outcomes_of(r: Runnable[In, Out], xs: Sequence[In]) -> list[Success[Out] | Failure[Exception]]:
    return r.batch_results(xs)


def first_done(r: Runnable[In, Out], xs: Sequence[In]) -> tuple[int, Out] | None:
    return next(r.batch_as_completed(xs), None)


def parsed(texts: Sequence[str]) -> list[int]:
    return run_all(parser, texts)
