"""A runnable of an async-only function: its sync calls are type errors, the rest is typed.

``RunnableLambda(async_f)``, ``@chain`` of an ``async def`` and an async ``@tool`` raise
``InputError`` when called synchronously; their type (``...[..., Never]``) says so: the sync
calls take ``Never``. Async calls, composition and tool lists are unaffected.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from collections.abc import AsyncIterator, Iterator
from typing import reveal_type

from combinators import Runnable, RunnableGenerator, RunnableLambda, RunnableTool, StreamEvent, chain
from combinators.language_models import ScriptedChatModel
from combinators.tools import StructuredTool, Tool, tool
from combinators.agents import agent_loop


def parse(text: str) -> int:
    return int(text)


def half(n: int) -> float:
    return n / 2


async def aparse(text: str) -> int:
    return int(text)


async def awords(text: str) -> AsyncIterator[str]:
    for word in text.split():
        yield word


async def alookup(text: str) -> str:
    return text[::-1]


async def aupper(chunks: AsyncIterator[str]) -> AsyncIterator[str]:
    async for chunk in chunks:
        yield chunk.upper()


@chain
async def ashout(text: str) -> str:
    return text.upper()


@tool
async def fetch(url: str) -> str:
    """Fetch a page."""
    return url


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


aparse_r = RunnableLambda(aparse)
parse_r = RunnableLambda(parse)
aupper_r = RunnableGenerator(aupper)


# ---------------------------------------------------------------- the sync calls are errors


def lambda_invoked() -> object:
    return aparse_r.invoke("1")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def lambda_streamed() -> object:
    return aparse_r.stream("1")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def async_generator_streamed() -> object:
    return RunnableLambda(awords).stream("a b")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def lambda_batched() -> object:
    return aparse_r.batch(["1", "2"])  # type: ignore[list-item]  # E: list-item / reportArgumentType


def lambda_batched_returning_exceptions() -> object:
    return aparse_r.batch(["1"], return_exceptions=True)  # type: ignore[list-item]  # E: list-item / reportArgumentType, reportCallIssue, reportUnknownVariableType


def lambda_batch_results() -> object:
    return aparse_r.batch_results(["1"])  # type: ignore[list-item]  # E: list-item / reportArgumentType


def lambda_batched_as_completed() -> object:
    return aparse_r.batch_as_completed(["1"])  # type: ignore[list-item]  # E: list-item / reportArgumentType


def lambda_transformed() -> object:
    return aparse_r.transform(iter(["1"]))  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def lambda_stream_events() -> object:
    return aparse_r.stream_events("1")  # type: ignore[call-overload]  # E: call-overload / reportArgumentType


def lambda_stream_log() -> object:
    return aparse_r.stream_log("1", diff=False)  # type: ignore[call-overload]  # E: call-overload / reportArgumentType, reportCallIssue, reportUnknownVariableType


def generator_invoked() -> object:
    return aupper_r.invoke("ab")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def generator_transformed() -> object:
    return aupper_r.transform(iter(["a", "b"]))  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def lambda_as_a_tool_invoked() -> object:
    return aparse_r.as_tool(name="parse").invoke("1")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def chain_invoked() -> object:
    return ashout.invoke("hi")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def tool_invoked() -> object:
    return fetch.invoke({"url": "https://example.org"})  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def tool_invoked_with_a_tool_call() -> object:
    call = {"name": "fetch", "args": {"url": "x"}, "id": "c1", "type": "tool_call"}
    return fetch.invoke(call)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def structured_tool_of_a_coroutine_invoked() -> object:
    return StructuredTool.from_function(coroutine=alookup, description="Look up.").invoke("x")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def single_input_tool_of_a_coroutine_invoked() -> object:
    return Tool("lookup", None, "Look up.", coroutine=alookup).invoke("x")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


# ---------------------------------------------------------------- what they are


def lambda_of_an_async_function() -> None:
    reveal_type(aparse_r)  # R: RunnableLambda[str, int, Never]


def chain_of_an_async_function() -> None:
    reveal_type(ashout)  # R: RunnableLambda[str, str, Never]


def lambda_as_a_tool() -> None:
    reveal_type(aparse_r.as_tool())  # R: RunnableTool[int, ..., object, Never]


def lambda_as_a_tool_with_a_misspelled_keyword() -> None:
    # The mirror takes as_tool's keywords as one TypedDict (Unpack[ToolOptions]): still checked by name.
    aparse_r.as_tool(nmae="parse")  # type: ignore[call-overload]  # E: call-overload / reportCallIssue


def sync_lambda_as_a_tool() -> None:
    reveal_type(parse_r.as_tool())  # R: RunnableTool[int, ..., object, str | Mapping[str, Any] | ToolCallLike]


async def lambda_as_a_tool_awaited() -> None:
    reveal_type(await aparse_r.as_tool().ainvoke("1"))  # R: int


def tool_of_an_async_function() -> None:
    reveal_type(fetch)  # R-mypy: RunnableTool[str | ToolMessage, [url: str], str, Never]  # R-pyright: RunnableTool[str | ToolMessage, (url: str), str, Never]


# ---------------------------------------------------------------- the async calls are typed


async def lambda_awaited() -> None:
    reveal_type(await aparse_r.ainvoke("1"))  # R: int


async def lambda_batched_concurrently() -> None:
    reveal_type(await aparse_r.abatch(["1", "2"]))  # R: list[int]


def generator_streamed_async() -> None:
    reveal_type(aupper_r.atransform(awords("a b")))  # R: AsyncIterator[str]


def chain_streamed_async() -> None:
    reveal_type(ashout.astream("hi"))  # R: AsyncIterator[str]


def chain_events() -> AsyncIterator[StreamEvent]:
    return ashout.astream_events("hi")


async def tool_awaited() -> None:
    reveal_type(await fetch.ainvoke({"url": "https://example.org"}))  # R: str | ToolMessage


async def tool_called_with_typed_arguments() -> None:
    reveal_type(await fetch.acall("https://example.org"))  # R: str


# ---------------------------------------------------------------- composing them


def lambda_piped() -> None:
    reveal_type(aparse_r | half)  # R: Runnable[str, float]


def lambda_piped_into() -> None:
    reveal_type(ashout | parse_r)  # R: Runnable[str, int]


def lambda_in_a_pipe_is_still_checked() -> object:
    return aparse_r | ashout  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def lambda_retried() -> None:
    reveal_type(aparse_r.with_retry())  # R: Runnable[str, int]


def tools_of_an_agent() -> None:
    reveal_type(agent_loop(ScriptedChatModel(["ok"]), [fetch, add]))  # R: Runnable[str | Sequence[object] | Mapping[str, object], AgentResult]


def tools_in_a_list() -> list[RunnableTool[object]]:
    return [fetch, add]


def annotated_as_a_lambda() -> RunnableLambda[str, int]:
    return aparse_r


def annotated_as_a_runnable() -> Runnable[str, int]:
    return aparse_r


def generator_annotated_as_a_generator() -> RunnableGenerator[str, str]:
    return aupper_r


def generator_piped() -> None:
    reveal_type(aupper_r | parse_r)  # R: Runnable[str, int]


# ---------------------------------------------------------------- sync ones keep every sync call


def sync_lambda_invoked() -> None:
    reveal_type(parse_r.invoke("1"))  # R: int


def sync_lambda_batched() -> None:
    reveal_type(parse_r.batch(["1"], return_exceptions=True))  # R: list[int | Exception]


def sync_lambda_batched_as_completed() -> None:
    reveal_type(parse_r.batch_as_completed(["1"]))  # R: Iterator[tuple[int, int]]


def sync_lambda_stream_log() -> None:
    reveal_type(parse_r.stream_log("1", diff=False))  # R: Iterator[RunLog]


def sync_lambda_stream_events() -> Iterator[object]:
    return parse_r.stream_events("1", version="v1")


def sync_lambda_with_a_wrong_input() -> object:
    return parse_r.invoke(1)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def sync_tool_invoked() -> None:
    reveal_type(add.invoke({"a": 1, "b": 2}))  # R: int | ToolMessage


# ---------------------------------------------------------------- known holes


def invoke_any_lambda(step: RunnableLambda[str, int]) -> int:
    return step.invoke("1")


def upcast_loses_the_restriction() -> None:
    # KNOWN HOLE: the restriction is the value's own type. A chain built from it (|, with_retry,
    # ...) is a Runnable, and a parameter typed RunnableLambda[str, int] or Runnable[str, int]
    # takes it too: their sync calls type-check, then raise InputError at run time.
    reveal_type(invoke_any_lambda(aparse_r))  # R: int
    reveal_type((aparse_r | half).invoke("1"))  # R: float


def typed_call_of_an_async_tool() -> None:
    # KNOWN HOLE: a tool's typed sync ``call`` takes the function's own parameters, so an async
    # tool's ``call`` type-checks (and raises InputError): use ``acall``.
    reveal_type(fetch.call("https://example.org"))  # R: str
