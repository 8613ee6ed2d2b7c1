"""Branches on the same input: ``parallel(a, b)`` (a typed tuple) and ``RunnableParallel`` (a dict).

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from typing import Any, reveal_type

from combinators import RunnableLambda, RunnableParallel, RunnablePassthrough, parallel


def parse(text: str) -> int:
    return int(text)


def half(n: int) -> float:
    return n / 2


def double(n: int) -> int:
    return 2 * n


def decode(data: bytes) -> str:
    return data.decode()


def summary(doc: dict[str, Any]) -> str:
    return str(doc)


def pair_sum(pair: tuple[float, int]) -> float:
    return pair[0] + pair[1]


parse_r = RunnableLambda(parse)  # Runnable[str, int]
half_r = RunnableLambda(half)  # Runnable[int, float]
double_r = RunnableLambda(double)  # Runnable[int, int]
decode_r = RunnableLambda(decode)  # Runnable[bytes, str]
summary_r = RunnableLambda(summary)  # Runnable[dict[str, Any], str]
both_r = parallel(half_r, double_r)  # Runnable[int, tuple[float, int]]


# ---------------------------------------------------------------- parallel(...) -> tuple


def parallel_of_two_is_a_tuple() -> None:
    reveal_type(parallel(half_r, double_r))  # R: Runnable[int, tuple[float, int]]


def parallel_of_three() -> None:
    reveal_type(parallel(half_r, double_r, RunnablePassthrough[int]()))  # R: Runnable[int, tuple[float, int, int]]


def parallel_after_a_step_and_before_a_tuple_consumer() -> None:
    reveal_type(parse_r | parallel(half_r, double_r) | pair_sum)  # R: Runnable[str, float]


def parallel_output_is_checked() -> object:
    return parse_r | parallel(double_r, half_r) | pair_sum  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def parallel_input_is_checked() -> object:
    # mypy checks the call in the context of the piped type, so it flags the branches.
    return decode_r | parallel(half_r, double_r)  # type: ignore[arg-type]  # E: arg-type / reportOperatorIssue, reportUnknownVariableType


def parallel_value_input_is_checked() -> object:
    return decode_r | both_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def parallel_branches_must_take_the_same_input() -> object:
    # KNOWN DIFFERENCE: pyright rejects the call; mypy solves the shared input to
    # Never (the meet of int and bytes) when the call stands alone, and rejects the
    # branch once the call is used in a pipe (see parallel_branches_in_a_pipe).
    # Write the input type down (a pipe, or an annotation) to have mypy check it.
    return parallel(half_r, decode_r)  # pyright: ignore[reportCallIssue, reportArgumentType, reportUnknownVariableType]  # E: - / reportCallIssue, reportArgumentType, reportUnknownVariableType


def parallel_branches_in_a_pipe() -> object:
    return parse_r | parallel(half_r, decode_r)  # type: ignore[arg-type]  # E: arg-type / reportCallIssue, reportArgumentType, reportUnknownVariableType


# ---------------------------------------------------------------- RunnableParallel -> dict[str, Any]


def parallel_dict_from_keywords() -> None:
    reveal_type(RunnableParallel(half=half_r, double=double, same=RunnablePassthrough[int]()))  # R: RunnableParallel[int]


def parallel_dict_from_a_dict_of_runnables() -> None:
    reveal_type(RunnableParallel({"half": half_r, "double": double_r}))  # R: RunnableParallel[int]


def parallel_dict_with_explicit_input_type() -> None:
    # mypy joins the values of a dict literal mixing runnables and functions to
    # `object` before solving In; the keyword form or RunnableParallel[int] avoids it.
    reveal_type(RunnableParallel[int]({"half": half_r, "double": double}))  # R: RunnableParallel[int]


def parallel_dict_output_is_the_documented_any() -> None:
    reveal_type(parse_r | RunnableParallel(half=half_r, double=double_r))  # R: Runnable[str, dict[str, Any]]


def passthrough_in_a_dict_branch() -> None:
    reveal_type(parse_r | {"original": RunnablePassthrough(), "half": half_r} | summary_r)  # R: Runnable[str, str]


def parallel_dict_input_is_checked() -> object:
    return decode_r | RunnableParallel(half=half_r, double=double_r)  # type: ignore[arg-type]  # E: arg-type / reportOperatorIssue, reportUnknownVariableType


def parallel_dict_explicit_input_checks_every_branch() -> object:
    return RunnableParallel[int](half=half_r, text=decode_r)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def parallel_dict_branches_must_take_the_same_input() -> object:
    # KNOWN DIFFERENCE: as with parallel(...), mypy infers RunnableParallel[Never] here.
    return RunnableParallel(half=half_r, text=decode_r)  # pyright: ignore[reportArgumentType]  # E: - / reportArgumentType
