"""``RunnableSequence(...)`` and ``RunnableSequence.from_(...)``: the typed overload ladders.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from typing import reveal_type

from combinators import Runnable, RunnableLambda, RunnableSequence


def parse(text: str) -> int:
    return int(text)


def half(n: int) -> float:
    return n / 2


def show(x: float) -> str:
    return f"{x:.1f}"


def encode(text: str) -> bytes:
    return text.encode()


def decode(data: bytes) -> str:
    return data.decode()


parse_r = RunnableLambda(parse)  # Runnable[str, int]
half_r = RunnableLambda(half)  # Runnable[int, float]
show_r = RunnableLambda(show)  # Runnable[float, str]
encode_r = RunnableLambda(encode)  # Runnable[str, bytes]
decode_r = RunnableLambda(decode)  # Runnable[bytes, str]


def sequence_of_two() -> None:
    reveal_type(RunnableSequence(parse_r, half_r))  # R: RunnableSequence[str, float]


def sequence_of_three() -> None:
    reveal_type(RunnableSequence(parse_r, half_r, show_r))  # R: RunnableSequence[str, str]


def sequence_of_five() -> None:
    reveal_type(RunnableSequence(encode_r, decode_r, parse_r, half_r, show_r))  # R: RunnableSequence[str, str]


def sequence_with_a_name() -> None:
    reveal_type(RunnableSequence(parse_r, half_r, name="halve"))  # R: RunnableSequence[str, float]


def sequence_is_a_runnable() -> None:
    typed: Runnable[str, float] = RunnableSequence(parse_r, half_r)
    reveal_type(typed | show_r)  # R: Runnable[str, str]


def sequence_of_six_or_more_is_untyped() -> None:
    # The ladder ends at five steps; longer sequences are RunnableSequence[Any, Any].
    # Build them with `|` (every step checked) or nest typed sequences.
    reveal_type(RunnableSequence(encode_r, decode_r, encode_r, decode_r, parse_r, half_r))  # R: RunnableSequence[Any, Any]


def sequence_of_two_mismatch() -> object:
    return RunnableSequence(half_r, parse_r)  # type: ignore[misc]  # E: misc / reportArgumentType


def sequence_of_three_mismatch() -> object:
    return RunnableSequence(parse_r, half_r, half_r)  # type: ignore[misc]  # E: misc / reportArgumentType


def sequence_of_five_mismatch() -> object:
    return RunnableSequence(encode_r, decode_r, parse_r, show_r, half_r)  # type: ignore[misc]  # E: misc / reportArgumentType


def sequence_needs_two_steps() -> object:
    return RunnableSequence(parse_r)  # type: ignore[call-overload]  # E: call-overload / reportCallIssue, reportUnknownVariableType


def sequence_steps_must_be_runnables() -> object:
    return RunnableSequence(parse_r, half)  # type: ignore[call-overload]  # E: call-overload / reportArgumentType


# ---------------------------------------------------------------- from_


def from_tuple_of_two() -> None:
    reveal_type(RunnableSequence.from_((parse_r, half_r)))  # R: RunnableSequence[str, float]


def from_tuple_of_three() -> None:
    reveal_type(RunnableSequence.from_((parse_r, half_r, show_r)))  # R: RunnableSequence[str, str]


def from_tuple_of_five() -> None:
    reveal_type(RunnableSequence.from_((encode_r, decode_r, parse_r, half_r, show_r)))  # R: RunnableSequence[str, str]


def from_list_is_untyped() -> None:
    # A list's steps are one joined type, so it cannot be checked step by step:
    # a list gives RunnableSequence[Any, Any]. Use a tuple to have the steps checked.
    reveal_type(RunnableSequence.from_([parse_r, half_r]))  # R: RunnableSequence[Any, Any]


def from_tuple_of_two_mismatch() -> object:
    return RunnableSequence.from_((half_r, parse_r))  # type: ignore[misc]  # E: misc / reportCallIssue, reportArgumentType, reportUnknownVariableType


def from_tuple_of_three_mismatch() -> object:
    return RunnableSequence.from_((parse_r, show_r, half_r))  # type: ignore[arg-type]  # E: arg-type / reportCallIssue, reportArgumentType, reportUnknownVariableType
