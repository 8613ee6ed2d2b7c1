"""The other nodes built directly: RunnableBranch, RunnableEach, RunnablePassthrough.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from typing import reveal_type

from combinators import Runnable, RunnableBranch, RunnableEach, RunnableLambda, RunnablePassthrough


def parse(text: str) -> int:
    return int(text)


def is_big(n: int) -> bool:
    return n > 10


def half(n: int) -> float:
    return n / 2


def to_float(n: int) -> float:
    return float(n)


def show(n: int) -> str:
    return str(n)


def decode(data: bytes) -> str:
    return data.decode()


def log(n: int) -> None:
    print(n)


parse_r = RunnableLambda(parse)  # Runnable[str, int]
half_r = RunnableLambda(half)  # Runnable[int, float]
show_r = RunnableLambda(show)  # Runnable[int, str]
decode_r = RunnableLambda(decode)  # Runnable[bytes, str]


# ---------------------------------------------------------------- RunnableBranch


def branch_of_runnables() -> None:
    reveal_type(RunnableBranch((is_big, half_r), RunnableLambda(to_float)))  # R: RunnableBranch[int, float]


def branch_of_functions() -> None:
    reveal_type(RunnableBranch((is_big, half), to_float))  # R: RunnableBranch[int, float]


def branch_outputs_are_joined() -> None:
    reveal_type(RunnableBranch((is_big, half_r), show_r))  # R-mypy: RunnableBranch[int, object]  # R-pyright: RunnableBranch[int, float | str]


def branch_in_a_pipe() -> None:
    reveal_type(parse_r | RunnableBranch((is_big, half_r), to_float))  # R: Runnable[str, float]


def branch_target_input_must_fit() -> object:
    # KNOWN DIFFERENCE: standing alone, mypy solves the input to Never (the meet of
    # int and bytes) and accepts the call; in a pipe it checks it (next case).
    return RunnableBranch((is_big, decode_r), to_float)  # pyright: ignore[reportArgumentType]  # E: - / reportArgumentType


def branch_condition_input_must_fit() -> object:
    return RunnableBranch((decode, half_r), half_r)  # pyright: ignore[reportArgumentType]  # E: - / reportArgumentType


def branch_default_input_must_fit_in_a_pipe() -> object:
    return parse_r | RunnableBranch((is_big, half_r), decode_r)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def branch_output_must_fit_the_declared_output() -> Runnable[int, float]:
    # A branch returning another type than the declared output is an error at the branch.
    return RunnableBranch((is_big, show_r), half_r)  # type: ignore[arg-type]  # E: arg-type / reportReturnType


def branch_output_must_fit_its_type_arguments() -> object:
    return RunnableBranch[int, float]((is_big, show_r), half_r)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def branch_with_type_arguments() -> None:
    reveal_type(RunnableBranch[int, float]((is_big, half_r), to_float))  # R: RunnableBranch[int, float]


# ---------------------------------------------------------------- RunnableEach, RunnablePassthrough


def each_node() -> None:
    reveal_type(RunnableEach(half_r))  # R: RunnableEach[int, float]


def passthrough_of_a_side_effect() -> None:
    reveal_type(RunnablePassthrough(log))  # R: RunnablePassthrough[int]


def passthrough_keeps_the_piped_type() -> None:
    reveal_type(parse_r | RunnablePassthrough(log) | half_r)  # R: Runnable[str, float]


def passthrough_side_effect_must_take_the_input() -> object:
    return RunnableLambda(decode) | RunnablePassthrough(log)  # type: ignore[arg-type]  # E: arg-type / reportOperatorIssue, reportUnknownVariableType
