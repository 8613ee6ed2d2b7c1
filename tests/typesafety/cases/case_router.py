"""RouterRunnable: a Literal key type makes a wrong key a type error; the routed types flow through.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from typing import Literal, reveal_type

from combinators import RouterInput, RouterRunnable, Runnable, RunnableLambda


def double(x: int) -> int:
    return x * 2


def negate(x: int) -> int:
    return -x


def show(x: int) -> str:
    return str(x)


double_r = RunnableLambda(double)
negate_r = RunnableLambda(negate)

Op = Literal["double", "negate"]
ops: dict[Op, Runnable[int, int]] = {"double": double_r, "negate": negate_r}


def a_dict_literal_gives_str_keys() -> None:
    reveal_type(RouterRunnable({"double": double_r, "negate": negate_r}))  # R: RouterRunnable[str, int, int]


def a_literal_key_type_is_kept() -> None:
    reveal_type(RouterRunnable(ops))  # R-mypy: RouterRunnable[Literal['double'] | Literal['negate'], int, int]  # R-pyright: RouterRunnable[Literal['double', 'negate'], int, int]


def routing_a_known_key_gives_the_output_type() -> None:
    reveal_type(RouterRunnable(ops).invoke({"key": "double", "input": 2}))  # R: int


def routing_an_unknown_key_is_a_type_error() -> object:
    return RouterRunnable(ops).invoke({"key": "triple", "input": 2})  # type: ignore[typeddict-item]  # E: typeddict-item / reportArgumentType


def routing_a_wrong_input_is_a_type_error() -> object:
    return RouterRunnable(ops).invoke({"key": "double", "input": "2"})  # type: ignore[typeddict-item]  # E: typeddict-item / reportArgumentType


def a_router_pipes_on() -> None:
    # (mypy prints the TypedDict's keys in no fixed order, so the output type is revealed.)
    reveal_type((RouterRunnable(ops) | RunnableLambda(show)).invoke({"key": "negate", "input": 1}))  # R: str


def a_piped_router_still_checks_the_key() -> object:
    return (RouterRunnable(ops) | RunnableLambda(show)).invoke({"key": "halve", "input": 1})  # type: ignore[typeddict-item]  # E: typeddict-item / reportArgumentType


def the_router_input_type_is_a_typed_dict() -> None:
    routed: RouterInput[Op, int] = {"key": "negate", "input": 1}
    reveal_type(routed["key"])  # R-mypy: Literal['double'] | Literal['negate']  # R-pyright: Literal['double', 'negate']
