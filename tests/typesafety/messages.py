"""What a user reads first: the error each checker reports for a typical mistake.

Type-test data (see README.md): no suppression comments here (``make typecheck`` skips this
file); the typesafety run checks it with the cases, and each ``# M-mypy:`` / ``# M-pyright:``
text must be part of that checker's first error on the line (a second marker for the same
checker: part of its second error).
"""

from combinators import RunnableLambda, chain
from combinators.tools import tool


def parse(text: str) -> int:
    return int(text)


def shout(text: str) -> str:
    return text.upper()


async def ashout(text: str) -> str:
    return text.upper()


async def aparse(text: str) -> int:
    return int(text)


@chain
async def aparse_step(text: str) -> int:
    return int(text)


@tool
async def fetch(url: str) -> str:
    """Fetch a page."""
    return url


parse_r = RunnableLambda(parse)


def shout_r_of(n: int) -> RunnableLambda[str, str, str]:
    return RunnableLambda(shout)
shout_r = RunnableLambda(shout)


def pipe_into_a_function_of_another_input() -> None:
    parse_r.pipe(shout)  # M-mypy: incompatible type "Callable[[str], str]"; expected "Callable[[int], Never]"  # M-pyright: No overloads for "pipe" match  # M-pyright: Type "(text: str) -> str" is not assignable to type "(int) -> C@pipe" Parameter 1: type "int" is incompatible with type "str"


def pipe_into_an_async_function_of_another_input() -> None:
    parse_r.pipe(ashout)  # M-mypy: incompatible type "Callable[[str], Coroutine[Any, Any, str]]"; expected "Callable[[int], Never]"  # M-pyright: No overloads for "pipe" match  # M-pyright: Parameter 1: type "int" is incompatible with type "str"


def map_with_a_function_of_another_input() -> None:
    parse_r.map(shout)  # M-mypy: incompatible type "Callable[[str], str]"; expected "Callable[[int], Never]"  # M-pyright: No overloads for "map" match  # M-pyright: Parameter 1: type "int" is incompatible with type "str"


def map_with_an_async_function_of_another_input() -> None:
    parse_r.map(ashout)  # M-mypy: incompatible type "Callable[[str], Coroutine[Any, Any, str]]"; expected "Callable[[int], Never]"  # M-pyright: No overloads for "map" match  # M-pyright: Parameter 1: type "int" is incompatible with type "str"


def bind_with_a_function_and_keywords() -> None:
    parse_r.bind(shout_r_of, stop=["\n"])  # M-mypy: No overload variant of "bind" of "RunnableCalls" matches argument types  # M-pyright: No overloads for "bind" match


def pipe_into_a_runnable_of_another_input() -> None:
    parse_r.pipe(shout_r)  # M-mypy: incompatible type "RunnableLambda[str, str, str]"; expected "Runnable[int, str]"  # M-pyright: No overloads for "pipe" match  # M-pyright: "RunnableLambda[str, str, str]" is not assignable to "Runnable[int, C@pipe]" Type parameter "In@Runnable" is contravariant, but "str" is not a supertype of "int"


def or_into_a_function_of_another_input() -> None:
    parse_r | shout  # M-mypy: Unsupported operand types for | ("RunnableLambda[str, int, str]" and "Callable[[str], str]")  # M-pyright: Operator "|" not supported for types "RunnableLambda[str, int, str]" and "(text: str) -> str"


def fallback_of_another_output() -> None:
    parse_r.with_fallbacks([shout_r])  # M-mypy: List item 0 has incompatible type "RunnableLambda[str, str, str]"; expected "Runnable[str, int]"  # M-pyright: "RunnableLambda[str, str, str]" is not assignable to "Runnable[str, int]"


def fallback_built_in_the_list() -> None:
    # mypy infers the constructor's types from the list's expected item (Runnable[str, int])
    # before it checks the list, so its error is at the constructor, not at the list.
    parse_r.with_fallbacks([RunnableLambda(shout)])  # M-mypy: Argument 1 to "RunnableLambda" has incompatible type "Callable[[str], str]"; expected "Callable[[str], AsyncIterator[int]]"  # M-pyright: "RunnableLambda[str, str, str]" is not assignable to "Runnable[str, int]"


def async_only_lambda_invoked() -> None:
    RunnableLambda(aparse).invoke("1")  # M-mypy: Argument 1 to "invoke" of "SyncCalls" has incompatible type "str"; expected "Never"  # M-pyright: cannot be assigned to parameter "input" of type "Never" in function "invoke"


def async_only_chain_batched() -> None:
    aparse_step.batch(["1", "2"])  # M-mypy: List item 0 has incompatible type "str"; expected "Never"  # M-mypy: List item 1 has incompatible type "str"; expected "Never"  # M-pyright: Argument of type "list[str]" cannot be assigned to parameter "inputs" of type "Sequence[Never]" in function "batch"


def async_only_tool_invoked() -> None:
    fetch.invoke({"url": "https://example.org"})  # M-mypy: Argument 1 to "invoke" of "SyncCalls" has incompatible type "dict[str, str]"; expected "Never"  # M-pyright: cannot be assigned to parameter "input" of type "Never" in function "invoke"
