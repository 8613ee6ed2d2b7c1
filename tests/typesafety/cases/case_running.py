"""Running a chain: invoke, ainvoke, batch (and its variants), stream, astream, transform.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from collections.abc import AsyncIterator, Iterator
from typing import reveal_type

from combinators import RunnableLambda


def parse(text: str) -> int:
    return int(text)


def half(n: int) -> float:
    return n / 2


async def text_chunks() -> AsyncIterator[str]:
    yield "4"
    yield "2"


chain = RunnableLambda(parse) | half  # Runnable[str, float]


# ---------------------------------------------------------------- sync


def invoke_gives_the_output() -> None:
    reveal_type(chain.invoke("4"))  # R: float


def invoke_with_config_and_kwargs() -> None:
    reveal_type(chain.invoke("4", {"tags": ["t"]}, base=10))  # R: float


def batch_gives_a_list() -> None:
    reveal_type(chain.batch(["4", "2"]))  # R: list[float]


def batch_returning_exceptions() -> None:
    reveal_type(chain.batch(["4", "x"], return_exceptions=True))  # R: list[float | Exception]


def batch_not_returning_exceptions() -> None:
    reveal_type(chain.batch(["4"], return_exceptions=False))  # R: list[float]


def batch_results_are_results() -> None:
    reveal_type(chain.batch_results(["4", "x"]))  # R: list[Success[float] | Failure[Exception]]


def batch_as_completed_gives_indexed_outputs() -> None:
    reveal_type(chain.batch_as_completed(["4", "2"]))  # R: Iterator[tuple[int, float]]


def batch_as_completed_returning_exceptions() -> None:
    reveal_type(chain.batch_as_completed(["4"], return_exceptions=True))  # R: Iterator[tuple[int, float | Exception]]


def stream_gives_chunks() -> None:
    reveal_type(chain.stream("4"))  # R: Iterator[float]


def transform_streams_over_input_chunks() -> None:
    reveal_type(chain.transform(iter(["4", "2"])))  # R: Iterator[float]


def output_assigned_to_its_type() -> float:
    out: float = chain.invoke("4")
    return out


def invoke_with_a_wrong_input() -> object:
    return chain.invoke(4)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def invoke_result_of_a_wrong_type() -> str:
    return chain.invoke("4")  # type: ignore[return-value]  # E: return-value / reportReturnType


def invoke_result_assigned_to_a_wrong_type() -> object:
    out: str = chain.invoke("4")  # type: ignore[assignment]  # E: assignment / reportAssignmentType
    return out


def invoke_with_a_wrong_config() -> object:
    return chain.invoke("4", 3)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def batch_with_a_wrong_input() -> object:
    return chain.batch(["4", 2])  # type: ignore[list-item]  # E: list-item / reportCallIssue, reportArgumentType, reportUnknownVariableType


def batch_with_exceptions_is_not_a_list_of_outputs() -> object:
    out: list[float] = chain.batch(["4"], return_exceptions=True)  # type: ignore[assignment]  # E: assignment / reportAssignmentType
    return out


def stream_chunks_have_the_output_type() -> object:
    for chunk in chain.stream("4"):
        text: str = chunk  # type: ignore[assignment]  # E: assignment / reportAssignmentType
        return text
    return None


def stream_with_a_wrong_input() -> object:
    return chain.stream(4)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def transform_with_wrong_input_chunks() -> object:
    return chain.transform([4, 2])  # type: ignore[list-item]  # E: list-item / reportArgumentType


# ---------------------------------------------------------------- async


async def ainvoke_gives_the_output() -> None:
    reveal_type(await chain.ainvoke("4"))  # R: float


async def abatch_gives_a_list() -> None:
    reveal_type(await chain.abatch(["4", "2"]))  # R: list[float]


async def abatch_returning_exceptions() -> None:
    reveal_type(await chain.abatch(["4"], return_exceptions=True))  # R: list[float | Exception]


async def abatch_results_are_results() -> None:
    reveal_type(await chain.abatch_results(["4"]))  # R: list[Success[float] | Failure[Exception]]


async def abatch_as_completed_gives_indexed_outputs() -> None:
    reveal_type(chain.abatch_as_completed(["4"]))  # R: AsyncIterator[tuple[int, float]]


async def astream_gives_chunks() -> None:
    reveal_type(chain.astream("4"))  # R: AsyncIterator[float]


async def astream_chunks() -> None:
    reveal_type([chunk async for chunk in chain.astream("4")])  # R: list[float]


async def atransform_streams_over_input_chunks() -> None:
    reveal_type(chain.atransform(text_chunks()))  # R: AsyncIterator[float]


async def ainvoke_with_a_wrong_input() -> object:
    return await chain.ainvoke(4)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


async def ainvoke_must_be_awaited() -> object:
    out: float = chain.ainvoke("4")  # type: ignore[assignment]  # E: assignment / reportAssignmentType
    return out


async def astream_with_a_wrong_input() -> object:
    return chain.astream(b"4")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def sync_iteration_of_astream() -> object:
    return [chunk for chunk in chain.astream("4")]  # type: ignore[attr-defined]  # E: attr-defined / reportGeneralTypeIssues, reportUnknownVariableType


def batch_return_exceptions_from_a_bool() -> None:
    flag = bool(len("maybe") % 2)
    reveal_type(chain.batch(["4"], return_exceptions=flag))  # R: list[float | Exception]


async def abatch_return_exceptions_from_a_bool() -> None:
    flag = bool(len("maybe") % 2)
    reveal_type(await chain.abatch(["4"], return_exceptions=flag))  # R: list[float | Exception]


def batch_as_completed_return_exceptions_from_a_bool() -> None:
    flag = bool(len("maybe") % 2)
    reveal_type(chain.batch_as_completed(["4"], return_exceptions=flag))  # R: Iterator[tuple[int, float | Exception]]


def typed_iterators() -> tuple[Iterator[float], AsyncIterator[float]]:
    return chain.stream("4"), chain.astream("4")
