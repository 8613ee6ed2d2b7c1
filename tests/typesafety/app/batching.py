"""Batches, with every outcome a returns Result."""

from returns.result import Failure, Success

from combinators import RunnableLambda


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
