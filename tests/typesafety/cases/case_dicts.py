"""Dict outputs: ``.pick`` and ``.assign`` (and ``RunnablePassthrough.assign``).

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from collections.abc import Mapping
from typing import Any, reveal_type

from combinators import RunnableLambda, RunnableParallel, RunnablePassthrough


def parse(text: str) -> int:
    return int(text)


def count(text: str) -> dict[str, int]:
    return {"chars": len(text), "words": len(text.split())}


def as_mapping(text: str) -> Mapping[str, float]:
    return {"length": float(len(text))}


def total(doc: Mapping[str, Any]) -> int:
    return len(doc)


def summary(doc: dict[str, Any]) -> str:
    return str(doc)


def show(n: int) -> str:
    return str(n)


parse_r = RunnableLambda(parse)  # Runnable[str, int]
count_r = RunnableLambda(count)  # Runnable[str, dict[str, int]]
mapping_r = RunnableLambda(as_mapping)  # Runnable[str, Mapping[str, float]]
total_r = RunnableLambda(total)  # Runnable[Mapping[str, Any], int]
show_r = RunnableLambda(show)  # Runnable[int, str]


# ---------------------------------------------------------------- .pick


def pick_one_key() -> None:
    reveal_type(count_r.pick("chars"))  # R: Runnable[str, int | None]


def pick_keys() -> None:
    reveal_type(count_r.pick(["chars", "words"]))  # R: Runnable[str, dict[str, int] | None]


def pick_from_a_mapping() -> None:
    reveal_type(mapping_r.pick("length"))  # R: Runnable[str, float | None]


def pick_from_a_parallel_dict() -> None:
    reveal_type((parse_r | RunnableParallel(n=show_r)).pick("n"))  # R: Runnable[str, Any | None]


def pick_on_a_non_dict_output() -> object:
    return parse_r.pick("n")  # type: ignore[misc]  # E: misc / reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType


def pick_keys_on_a_non_dict_output() -> object:
    return parse_r.pick(["n"])  # type: ignore[misc]  # E: misc / reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType


def picked_value_may_be_none() -> object:
    return count_r.pick("chars") | show_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def pick_key_must_be_a_string() -> object:
    return count_r.pick(3)  # type: ignore[call-overload]  # E: call-overload / reportCallIssue, reportArgumentType, reportUnknownVariableType


# ---------------------------------------------------------------- .assign


def assign_a_function() -> None:
    reveal_type(count_r.assign(size=total))  # R: Runnable[str, dict[str, Any]]


def assign_a_runnable_and_a_lambda() -> None:
    reveal_type(count_r.assign(size=total_r, chars=lambda d: d["chars"]))  # R: Runnable[str, dict[str, Any]]


def assign_on_a_mapping() -> None:
    reveal_type(mapping_r.assign(size=total))  # R: Runnable[str, dict[str, Any]]


def passthrough_assign() -> None:
    reveal_type(RunnablePassthrough.assign(size=total))  # R: Runnable[Mapping[str, Any], dict[str, Any]]


def passthrough_assign_after_a_dict_step() -> None:
    reveal_type(count_r | RunnablePassthrough.assign(size=total) | summary)  # R: Runnable[str, str]


def assign_on_a_non_dict_output() -> object:
    return parse_r.assign(size=total)  # type: ignore[misc]  # E: misc / reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType


def passthrough_assign_after_a_non_dict_step() -> object:
    return parse_r | RunnablePassthrough.assign(size=total)  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def assign_mapper_must_be_callable() -> object:
    return count_r.assign(size=3)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def assign_mapper_must_take_the_whole_dict() -> object:
    return count_r.assign(text=show)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def assign_mapper_taking_a_dict() -> None:
    # The mappers get the input as a dict: the natural annotation `dict[str, Any]` fits.
    reveal_type(count_r.assign(text=summary))  # R: Runnable[str, dict[str, Any]]
