"""``|`` between runnables, functions and dicts, in both directions.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any, reveal_type

from combinators import RunConfig, Runnable, RunnableLambda, RunnablePassthrough, pure


def parse(text: str) -> int:
    return int(text)


def half(n: int) -> float:
    return n / 2


def show(x: float) -> str:
    return f"{x:.1f}"


async def ahalf(n: int) -> float:
    return n / 2


def half_with_config(n: int, config: RunConfig) -> float:
    return n / 2


async def ahalf_with_config(n: int, config: RunConfig) -> float:
    return n / 2


def choose(n: int) -> Runnable[int, float]:
    return RunnableLambda(half)


def halves(chunks: Iterator[int]) -> Iterator[float]:
    for n in chunks:
        yield n / 2


async def ahalves(chunks: AsyncIterator[int]) -> AsyncIterator[float]:
    async for n in chunks:
        yield n / 2


def texts(chunks: Iterator[bytes]) -> Iterator[str]:
    for chunk in chunks:
        yield chunk.decode()


async def atexts(chunks: AsyncIterator[bytes]) -> AsyncIterator[str]:
    async for chunk in chunks:
        yield chunk.decode()


def decode(data: bytes) -> str:
    return data.decode()


async def adecode(data: bytes) -> str:
    return data.decode()


def decode_with_config(data: bytes, config: RunConfig) -> str:
    return data.decode()


def route(data: bytes) -> Runnable[bytes, str]:
    return RunnableLambda(decode)


def digits(n: int) -> Iterator[str]:
    yield from str(n)


def summary(doc: dict[str, Any]) -> str:
    return str(doc)


def count_keys(doc: Mapping[str, Any]) -> int:
    return len(doc)


parse_r = RunnableLambda(parse)  # Runnable[str, int]
half_r = RunnableLambda(half)  # Runnable[int, float]
show_r = RunnableLambda(show)  # Runnable[float, str]
summary_r = RunnableLambda(summary)  # Runnable[dict[str, Any], str]
count_keys_r = RunnableLambda(count_keys)  # Runnable[Mapping[str, Any], int]
decode_r = RunnableLambda(decode)  # Runnable[bytes, str]


# ---------------------------------------------------------------- runnable | x


def runnable_or_runnable() -> None:
    reveal_type(parse_r | half_r)  # R: Runnable[str, float]


def runnable_or_runnable_or_runnable() -> None:
    reveal_type(parse_r | half_r | show_r)  # R: Runnable[str, str]


def runnable_or_wider_input() -> None:
    # int output into a float-taking step (int is accepted where float is).
    reveal_type(parse_r | show_r)  # R: Runnable[str, str]


def runnable_or_function() -> None:
    reveal_type(parse_r | half)  # R: Runnable[str, float]


def runnable_or_async_function() -> None:
    reveal_type(parse_r | ahalf)  # R: Runnable[str, float]


def runnable_or_function_returning_a_runnable() -> None:
    reveal_type(parse_r | choose)  # R: Runnable[str, float]


def runnable_or_stream_transform() -> None:
    reveal_type(parse_r | halves)  # R: Runnable[str, float]


def runnable_or_async_stream_transform() -> None:
    reveal_type(parse_r | ahalves)  # R: Runnable[str, float]


def runnable_or_config_taking_function() -> None:
    reveal_type(parse_r | half_with_config)  # R: Runnable[str, float]


def runnable_or_async_config_taking_function() -> None:
    reveal_type(parse_r | ahalf_with_config)  # R: Runnable[str, float]


def runnable_or_pure() -> None:
    reveal_type(parse_r | pure(True))  # R: Runnable[str, bool]


def runnable_or_dict_is_the_documented_any() -> None:
    reveal_type(parse_r | {"half": half_r, "double": half, "same": RunnablePassthrough[int]()})  # R: Runnable[str, dict[str, Any]]


def runnable_or_dict_with_untyped_passthrough() -> None:
    reveal_type(parse_r | {"half": half_r, "original": RunnablePassthrough()})  # R: Runnable[str, dict[str, Any]]


def runnable_or_dict_then_dict_consumer() -> None:
    reveal_type(parse_r | {"half": half_r} | summary_r)  # R: Runnable[str, str]


def runnable_or_runnable_mismatch() -> object:
    return half_r | parse_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def mismatch_in_the_middle_of_a_chain() -> object:
    return parse_r | show_r | half_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def runnable_or_function_mismatch() -> object:
    return parse_r | decode  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def runnable_or_async_function_mismatch() -> object:
    return parse_r | adecode  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def runnable_or_function_returning_a_runnable_mismatch() -> object:
    return parse_r | route  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def runnable_or_stream_transform_mismatch() -> object:
    return parse_r | texts  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def runnable_or_async_stream_transform_mismatch() -> object:
    return parse_r | atexts  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def runnable_or_config_taking_function_mismatch() -> object:
    return parse_r | decode_with_config  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def runnable_or_non_callable() -> object:
    return parse_r | 3  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def dict_branch_runnable_input_does_not_fit() -> object:
    return parse_r | {"text": show_r, "bytes": decode_r}  # type: ignore[dict-item]  # E: dict-item / reportOperatorIssue, reportUnknownVariableType


def dict_branch_function_input_does_not_fit() -> object:
    return parse_r | {"ok": half, "bad": decode}  # type: ignore[dict-item]  # E: dict-item / reportOperatorIssue, reportUnknownVariableType


def dict_branch_must_be_callable() -> object:
    return parse_r | {"ok": half, "bad": 3}  # type: ignore[dict-item]  # E: dict-item / reportOperatorIssue, reportUnknownVariableType


def dict_output_into_a_non_dict_step() -> object:
    return parse_r | {"half": half_r} | show_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


# ---------------------------------------------------------------- x | runnable (__ror__)


def function_or_runnable() -> None:
    reveal_type(parse | half_r)  # R: Runnable[str, float]


def async_function_or_runnable() -> None:
    reveal_type(adecode | parse_r)  # R: Runnable[bytes, int]


def stream_transform_or_runnable() -> None:
    reveal_type(texts | parse_r)  # R: Runnable[bytes, int]


def async_stream_transform_or_runnable() -> None:
    reveal_type(atexts | parse_r)  # R: Runnable[bytes, int]


def function_returning_a_runnable_or_runnable() -> None:
    reveal_type(route | parse_r)  # R: Runnable[bytes, int]


def config_taking_function_or_runnable() -> None:
    reveal_type(decode_with_config | parse_r)  # R: Runnable[bytes, int]


def dict_or_runnable() -> None:
    reveal_type({"n": parse_r, "text": RunnablePassthrough[str]()} | summary_r)  # R: Runnable[str, str]


def dict_of_functions_or_mapping_runnable() -> None:
    reveal_type({"n": parse, "m": parse} | count_keys_r)  # R: Runnable[str, int]


def function_or_runnable_mismatch() -> object:
    return decode | half_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def async_function_or_runnable_mismatch() -> object:
    return adecode | half_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def stream_transform_or_runnable_mismatch() -> object:
    return texts | half_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def dict_or_runnable_that_takes_no_dict() -> object:
    return {"n": parse_r} | half_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


# ---------------------------------------------------------------- limitations


def per_value_generator_as_a_lambda_streams_its_yields() -> None:
    reveal_type(parse_r | RunnableLambda(digits))  # R: Runnable[str, str]


def per_value_generator_right_of_pipe_streams_its_yields() -> None:
    # `|` makes a generator annotated to take one value a per-value generator (it
    # streams its yields), and one annotated to take an iterator a stream transform.
    reveal_type(parse_r | digits)  # R: Runnable[str, str]



def inline_lambda_right_of_pipe_is_not_inferable_by_pyright() -> None:
    # Documented limitation: mypy infers `n: int` from the overloads, pyright leaves
    # the lambda's parameter (and so the output) unknown. Use a named function, or
    # .pipe(lambda ...) / .map(lambda ...), which both checkers infer (case_methods.py).
    doubled = parse_r | (lambda n: n * 2)  # pyright: ignore[reportUnknownLambdaType, reportUnknownVariableType]  # E: - / reportUnknownLambdaType, reportUnknownVariableType
    reveal_type(doubled)  # R-mypy: Runnable[str, int]  # R-pyright: Runnable[str, Unknown]
