"""The method combinators: .pipe, .map, .bind (with pure) and .each.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from collections.abc import AsyncIterator, Iterator, Sequence
from typing import reveal_type

from combinators import RunConfig, Runnable, RunnableLambda, pure


def parse(text: str) -> int:
    return int(text)


def half(n: int) -> float:
    return n / 2


async def ahalf(n: int) -> float:
    return n / 2


def halves(chunks: Iterator[int]) -> Iterator[float]:
    for n in chunks:
        yield n / 2


async def ahalves(chunks: AsyncIterator[int]) -> AsyncIterator[float]:
    async for n in chunks:
        yield n / 2


def digits(n: int) -> Iterator[str]:
    yield from str(n)


async def adigits(n: int) -> AsyncIterator[str]:
    for digit in str(n):
        yield digit


def half_with_config(n: int, config: RunConfig) -> float:
    return n / 2


def choose(n: int) -> Runnable[int, float]:
    return RunnableLambda(half) if n > 0 else pure(0.0)


def choose_for_text(n: int) -> Runnable[str, float]:
    return pure(float(n))


def choose_for_bytes(n: int) -> Runnable[bytes, float]:
    return pure(float(n))


def scale_anything(n: int) -> Runnable[object, float]:
    return pure(n / 2)


def decode(data: bytes) -> str:
    return data.decode()


def total(numbers: list[int]) -> int:
    return sum(numbers)


parse_r = RunnableLambda(parse)  # Runnable[str, int]
half_r = RunnableLambda(half)  # Runnable[int, float]


# ---------------------------------------------------------------- .pipe


def pipe_runnable() -> None:
    reveal_type(parse_r.pipe(half_r))  # R: Runnable[str, float]


def pipe_function_with_a_name() -> None:
    reveal_type(parse_r.pipe(half, name="halve"))  # R: Runnable[str, float]


def pipe_async_function() -> None:
    reveal_type(parse_r.pipe(ahalf))  # R: Runnable[str, float]


def pipe_function_returning_a_runnable() -> None:
    reveal_type(parse_r.pipe(choose))  # R: Runnable[str, float]


def pipe_stream_transform() -> None:
    reveal_type(parse_r.pipe(halves))  # R: Runnable[str, float]


def pipe_async_stream_transform() -> None:
    reveal_type(parse_r.pipe(ahalves))  # R: Runnable[str, float]


def pipe_config_taking_function() -> None:
    reveal_type(parse_r.pipe(half_with_config))  # R: Runnable[str, float]


def pipe_dict() -> None:
    reveal_type(parse_r.pipe({"half": half_r, "same": half}))  # R: Runnable[str, dict[str, Any]]


def pipe_inline_lambda_is_inferred() -> None:
    reveal_type(parse_r.pipe(lambda n: n * 2))  # R: Runnable[str, int]


def pipe_runnable_mismatch() -> object:
    return half_r.pipe(parse_r)  # type: ignore[arg-type]  # E: arg-type / reportCallIssue, reportArgumentType, reportUnknownVariableType


def pipe_function_mismatch() -> object:
    return parse_r.pipe(decode)  # type: ignore[arg-type]  # E: arg-type / reportCallIssue, reportArgumentType, reportUnknownVariableType


def pipe_dict_branch_mismatch() -> object:
    return parse_r.pipe({"ok": half, "bad": decode})  # type: ignore[dict-item]  # E: dict-item / reportCallIssue, reportArgumentType, reportUnknownVariableType


# ---------------------------------------------------------------- .map


def map_function() -> None:
    reveal_type(parse_r.map(half))  # R: Runnable[str, float]


def map_inline_lambda_is_inferred() -> None:
    reveal_type(parse_r.map(lambda n: n + 1))  # R: Runnable[str, int]


def map_async_function_is_awaited() -> None:
    reveal_type(parse_r.map(ahalf))  # R: Runnable[str, float]


def map_generator_streams_its_yields() -> None:
    reveal_type(parse_r.map(digits))  # R: Runnable[str, str]


def map_async_generator_streams_its_yields() -> None:
    reveal_type(parse_r.map(adigits))  # R: Runnable[str, str]


def map_function_returning_a_runnable_runs_it() -> None:
    reveal_type(parse_r.map(choose))  # R: Runnable[str, float]


def map_config_taking_function() -> None:
    reveal_type(parse_r.map(half_with_config))  # R: Runnable[str, float]


def map_mismatch() -> object:
    return parse_r.map(decode)  # type: ignore[arg-type]  # E: arg-type / reportCallIssue, reportArgumentType, reportUnknownVariableType


# ---------------------------------------------------------------- .bind and pure


def bind_chooses_the_next_runnable_on_the_same_input() -> None:
    reveal_type(parse_r.bind(choose_for_text))  # R: Runnable[str, float]


def bind_to_pure() -> None:
    reveal_type(parse_r.bind(pure))  # R: Runnable[str, int]


def pure_then_bind() -> None:
    reveal_type(pure(2).bind(scale_anything))  # R: Runnable[object, float]


def bind_after_pure_must_accept_any_input() -> object:
    # pure takes any input, so the runnable chosen next must take any input too.
    return pure(2).bind(choose)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def bind_next_runnable_must_take_the_same_input() -> object:
    return parse_r.bind(choose_for_bytes)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def bind_function_must_take_the_output() -> object:
    return half_r.bind(choose_for_text)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


# ---------------------------------------------------------------- .each


def each_maps_over_a_list() -> None:
    reveal_type(half_r.each())  # R: Runnable[Sequence[int], list[float]]


def each_then_pipe() -> None:
    reveal_type(parse_r.each() | total)  # R: Runnable[Sequence[str], int]


def each_input_must_be_a_sequence() -> object:
    return half_r.each().invoke(3)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def each_element_type_is_checked() -> object:
    return half_r.each().invoke(["1"])  # type: ignore[list-item]  # E: list-item / reportArgumentType


def each_of_sequence_consumer() -> object:
    items: Sequence[str] = ["1", "2"]
    return parse_r.each().invoke(items)
