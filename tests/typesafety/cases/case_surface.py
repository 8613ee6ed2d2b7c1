"""The call surface generated from the spec: batches over any Sequence, the str overload
that catches batch("abc"), the two binds, the two maps, events as SSE bytes, pick(required=True).

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from collections.abc import AsyncIterator, Iterator, Sequence
from typing import TypeVar, reveal_type

from returns.result import Failure, Success

from combinators import Runnable, RunnableLambda, pure
from effects.event_types import StreamEvent

In = TypeVar("In")
Out = TypeVar("Out")


def parse(text: str) -> int:
    return int(text)


def half(n: int) -> float:
    return n / 2


def shout(text: str) -> str:
    return text.upper()


def counts(text: str) -> dict[str, int]:
    return {"chars": len(text)}


def choose(n: int) -> Runnable[str, float]:
    return pure(n / 2)


parse_r = RunnableLambda(parse)
half_r = RunnableLambda(half)
count_r = RunnableLambda(counts)
chain = parse_r | half_r  # Runnable[str, float]
texts: Sequence[str] = ("4", "2")


# ---------------------------------------------------------------- Sequence inputs (issue 27)


def run_all(r: Runnable[In, Out], xs: Sequence[In]) -> list[Out]:
    return r.batch(xs)


async def arun_all(r: Runnable[In, Out], xs: Sequence[In]) -> list[Out]:
    return await r.abatch(xs)


def results_of(r: Runnable[In, Out], xs: Sequence[In]) -> list[Success[Out] | Failure[Exception]]:
    return r.batch_results(xs)


async def aresults_of(r: Runnable[In, Out], xs: Sequence[In]) -> list[Success[Out] | Failure[Exception]]:
    return await r.abatch_results(xs)


def completed_of(r: Runnable[In, Out], xs: Sequence[In]) -> Iterator[tuple[int, Out]]:
    return r.batch_as_completed(xs)


def acompleted_of(r: Runnable[In, Out], xs: Sequence[In]) -> AsyncIterator[tuple[int, Out]]:
    return r.abatch_as_completed(xs)


def a_generic_helper_gives_the_precise_result() -> None:
    reveal_type(run_all(chain, texts))  # R: list[float]


def a_generic_helper_of_results_gives_the_precise_result() -> None:
    reveal_type(results_of(parse_r, texts))  # R: list[Success[int] | Failure[Exception]]


def batch_takes_a_sequence() -> None:
    reveal_type(chain.batch(texts))  # R: list[float]


def batch_takes_a_tuple() -> None:
    reveal_type(chain.batch(("4", "2"), return_exceptions=True))  # R: list[float | Exception]


def batch_results_take_a_sequence() -> None:
    reveal_type(chain.batch_results(texts))  # R: list[Success[float] | Failure[Exception]]


def batch_as_completed_takes_a_sequence() -> None:
    reveal_type(chain.batch_as_completed(texts))  # R: Iterator[tuple[int, float]]


def abatch_as_completed_takes_a_sequence() -> None:
    reveal_type(chain.abatch_as_completed(texts, return_exceptions=True))  # R: AsyncIterator[tuple[int, float | Exception]]


async def abatch_takes_a_sequence() -> None:
    reveal_type(await chain.abatch(texts))  # R: list[float]


async def abatch_results_take_a_sequence() -> None:
    reveal_type(await chain.abatch_results(texts))  # R: list[Success[float] | Failure[Exception]]


def a_sequence_of_the_wrong_input() -> object:
    return half_r.batch(texts)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def a_generic_helper_given_the_wrong_inputs() -> object:
    return run_all(half_r, texts)  # type: ignore[misc]  # E: misc / reportArgumentType


# ---------------------------------------------------------------- batch("abc") (issue 27)


def batch_of_one_string() -> object:
    return chain.batch("42")  # type: ignore[deprecated]  # E: deprecated / reportDeprecated


async def abatch_of_one_string() -> object:
    return await chain.abatch("42")  # type: ignore[deprecated]  # E: deprecated / reportDeprecated


def batch_results_of_one_string() -> object:
    return chain.batch_results("42")  # type: ignore[deprecated]  # E: deprecated / reportDeprecated


def batch_as_completed_of_one_string() -> object:
    return chain.batch_as_completed("42")  # type: ignore[deprecated]  # E: deprecated / reportDeprecated


def batch_of_one_string_for_another_input() -> object:
    return half_r.batch("42")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def batch_of_a_list_of_one_string_is_fine() -> None:
    reveal_type(chain.batch(["42"]))  # R: list[float]


# ---------------------------------------------------------------- the two binds (issues 26, 27)


def bind_of_a_function_is_the_reader_bind() -> None:
    reveal_type(parse_r.bind(choose))  # R: Runnable[str, float]


def bind_of_keywords_binds_call_arguments() -> None:
    reveal_type(parse_r.bind(stop=["\n"]))  # R: RunnableBinding[str, int]


def bind_of_keywords_keeps_the_pipe_typed() -> None:
    reveal_type(parse_r.bind(base=10) | half_r)  # R: Runnable[str, float]


def bind_of_a_function_and_keywords() -> object:
    return parse_r.bind(choose, stop=["\n"])  # type: ignore[call-overload]  # E: call-overload / reportCallIssue, reportUnknownVariableType


def bind_of_a_function_of_another_output() -> object:
    return half_r.bind(choose)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


# ---------------------------------------------------------------- the two maps (issue 26)


def map_of_a_function_is_the_functor_map() -> None:
    reveal_type(parse_r.map(half))  # R: Runnable[str, float]


def map_of_nothing_is_langchains_element_wise_map() -> None:
    reveal_type(parse_r.map())  # R: Runnable[Sequence[str], list[int]]


def total(numbers: list[int]) -> int:
    return sum(numbers)


def map_of_nothing_keeps_the_pipe_typed() -> None:
    reveal_type(parse_r.map() | RunnableLambda(total))  # R: Runnable[Sequence[str], int]


# ---------------------------------------------------------------- events as SSE bytes


def stream_events_as_server_sent_events() -> None:
    reveal_type(chain.stream_events("4", encoding="text/event-stream"))  # R: Iterator[bytes]


def astream_events_as_server_sent_events() -> None:
    reveal_type(chain.astream_events("4", version="v1", encoding="text/event-stream", include_tags=["x"]))  # R: AsyncIterator[bytes]


def stream_events_v2_by_default() -> Iterator[StreamEvent]:
    return chain.stream_events("4", exclude_types=["prompt"])


def stream_events_of_an_unknown_encoding() -> object:
    return chain.stream_events("4", encoding="json")  # type: ignore[call-overload]  # E: call-overload / reportCallIssue, reportArgumentType, reportUnknownVariableType


# ---------------------------------------------------------------- pick (issue 27)


def pick_of_keys_may_be_none() -> None:
    reveal_type(count_r.pick(["chars"]))  # R: Runnable[str, dict[str, int] | None]


def pick_of_required_keys_is_never_none() -> None:
    reveal_type(count_r.pick(["chars"], required=True))  # R: Runnable[str, dict[str, int]]
