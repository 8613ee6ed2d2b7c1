"""What each kind of function becomes: RunnableLambda, @chain, RunnableGenerator, pure.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from collections.abc import AsyncIterator, Iterator
from typing import TypeVar, reveal_type

from combinators import RunConfig, Runnable, RunnableGenerator, RunnableLambda, chain, pure


T = TypeVar("T")


def parse(text: str) -> int:
    return int(text)


def identity(value: T) -> T:
    return value


async def aparse(text: str) -> int:
    return int(text)


async def aparse_bytes(data: bytes) -> int:
    return int(data)


def words(text: str) -> Iterator[str]:
    yield from text.split()


async def awords(text: str) -> AsyncIterator[str]:
    for word in text.split():
        yield word


def parse_with_config(text: str, config: RunConfig) -> int:
    return int(text)


async def aparse_with_config(text: str, config: RunConfig) -> int:
    return int(text)


def route(text: str) -> Runnable[str, int]:
    return RunnableLambda(parse)


def upper_chunks(chunks: Iterator[str]) -> Iterator[str]:
    for chunk in chunks:
        yield chunk.upper()


async def aupper_chunks(chunks: AsyncIterator[str]) -> AsyncIterator[str]:
    async for chunk in chunks:
        yield chunk.upper()


def add(x: int, y: int) -> int:
    return x + y


parse_bytes = RunnableLambda(aparse_bytes)


@chain
def shout(text: str) -> str:
    return text.upper()


@chain
async def ashout(text: str) -> str:
    return text.upper()


@chain
def shout_words(text: str) -> Iterator[str]:
    yield from text.upper().split()


@chain
def shout_with_config(text: str, config: RunConfig) -> str:
    return text.upper()


# ---------------------------------------------------------------- RunnableLambda


def lambda_of_a_sync_function() -> None:
    reveal_type(RunnableLambda(parse))  # R: RunnableLambda[str, int, str]


def lambda_of_an_async_function() -> None:
    reveal_type(RunnableLambda(aparse))  # R: RunnableLambda[str, int, Never]


def lambda_of_a_sync_and_async_pair() -> None:
    reveal_type(RunnableLambda(parse, aparse))  # R: RunnableLambda[str, int, str]


def lambda_of_a_generator_streams_its_yields() -> None:
    reveal_type(RunnableLambda(words))  # R: RunnableLambda[str, str, str]


def lambda_of_an_async_generator_streams_its_yields() -> None:
    reveal_type(RunnableLambda(awords))  # R: RunnableLambda[str, str, Never]


def lambda_of_a_config_taking_function() -> None:
    reveal_type(RunnableLambda(parse_with_config))  # R: RunnableLambda[str, int, str]


def lambda_of_an_async_config_taking_function() -> None:
    reveal_type(RunnableLambda(aparse_with_config))  # R: RunnableLambda[str, int, Never]


def lambda_of_a_function_returning_a_runnable_runs_it() -> None:
    reveal_type(RunnableLambda(route))  # R: RunnableLambda[str, int, str]


def lambda_with_name_and_thread() -> None:
    reveal_type(RunnableLambda(parse, name="parse", in_thread=True))  # R: RunnableLambda[str, int, str]


def lambda_of_a_method() -> None:
    reveal_type(RunnableLambda(str.upper))  # R: RunnableLambda[str, str, str]


def lambda_of_a_generic_function_is_a_known_limitation() -> None:
    # KNOWN LIMITATION: on mypy a generic function fits the first constructor overload
    # (the async generator one), even as RunnableLambda[int, int](identity); pyright
    # keeps it generic. Wrap it in a function with concrete types (next case).
    reveal_type(RunnableLambda(identity))  # R-mypy: RunnableLambda[AsyncIterator[Never], Never, Never]  # R-pyright: RunnableLambda[T@identity, T@identity, T@identity]


def lambda_of_a_generic_function_given_a_type() -> None:
    def identity_of_int(value: int) -> int:
        return identity(value)

    reveal_type(RunnableLambda(identity_of_int))  # R: RunnableLambda[int, int, int]


def lambda_afunc_must_take_the_same_input() -> object:
    # mypy solves the input to Never (the meet of str and bytes) instead of failing;
    # the Never-input runnable is then rejected at its first use (invoke, |).
    return RunnableLambda(parse, aparse_bytes)  # pyright: ignore[reportCallIssue, reportArgumentType]  # E: - / reportCallIssue, reportArgumentType


def lambda_async_func_with_an_afunc_is_a_known_hole() -> None:
    # KNOWN HOLE: an async func plus an afunc is a TypeError when built, but the
    # (sync func, afunc) overload accepts it with the output widened to object.
    reveal_type(RunnableLambda(aparse, aparse))  # R-mypy: RunnableLambda[str, object, str]  # R-pyright: RunnableLambda[str, CoroutineType[Any, Any, int] | int, str]


def lambda_name_must_be_a_string() -> object:
    return RunnableLambda(parse, name=3)  # type: ignore[call-overload]  # E: call-overload / reportCallIssue, reportArgumentType


def lambda_needs_a_callable() -> object:
    return RunnableLambda(3)  # type: ignore[call-overload]  # E: call-overload / reportCallIssue, reportArgumentType


def lambda_second_parameter_must_be_the_config() -> object:
    return RunnableLambda(add)  # type: ignore[arg-type]  # E: arg-type / reportCallIssue, reportArgumentType


# ---------------------------------------------------------------- @chain


def chain_of_a_sync_function() -> None:
    reveal_type(shout)  # R: Runnable[str, str]


def chain_of_an_async_function() -> None:
    reveal_type(ashout)  # R: RunnableLambda[str, str, Never]


def chain_of_a_generator() -> None:
    reveal_type(shout_words)  # R: Runnable[str, str]


def chain_of_a_config_taking_function() -> None:
    reveal_type(shout_with_config)  # R: Runnable[str, str]


def chain_result_is_checked_when_piped() -> object:
    return shout | parse_bytes  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def chain_second_parameter_must_be_the_config() -> object:
    return chain(add)  # type: ignore[arg-type]  # E: arg-type / reportCallIssue, reportArgumentType, reportUnknownVariableType


# ---------------------------------------------------------------- RunnableGenerator


def generator_of_a_sync_transform() -> None:
    reveal_type(RunnableGenerator(upper_chunks))  # R: RunnableGenerator[str, str, str]


def generator_of_an_async_transform() -> None:
    reveal_type(RunnableGenerator(aupper_chunks))  # R: RunnableGenerator[str, str, Never]


def generator_of_a_sync_and_async_pair() -> None:
    reveal_type(RunnableGenerator(upper_chunks, aupper_chunks))  # R: RunnableGenerator[str, str, str]


# ---------------------------------------------------------------- pure


def pure_ignores_its_input() -> None:
    reveal_type(pure(3))  # R: Runnable[object, int]


def pure_fits_after_any_step() -> None:
    reveal_type(RunnableLambda(parse) | pure("done"))  # R: Runnable[str, str]
