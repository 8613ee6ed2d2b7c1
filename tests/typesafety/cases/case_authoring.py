"""Writing a runnable against the documented hooks (docs/internals.md), and the typed
step protocol: children run through the scope are checked.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any, reveal_type

import attrs

from combinators import Runnable, RunnableLambda
from combinators.authoring import DrawText, DrawThrough, InputDraw
from effects import Scope, Step
from effects.authoring import arun_on_total, run_on_total


def parse(text: str) -> int:
    return int(text)


parse_r = RunnableLambda(parse)  # Runnable[str, int]


@attrs.frozen
class Shout(Runnable[str, str]):
    """Every hook, with the signatures written as docs/internals.md documents them."""

    run_type: str = "prompt"
    is_leaf: bool = True
    input_known_at_start: bool = True

    @property
    def name(self) -> str:
        return "shout"

    def step_invoke(self, input: str, scope: Scope, kwargs: Mapping[str, Any]) -> str:
        return input.upper()

    def step_stream(self, inputs: Iterator[str], scope: Scope, kwargs: Mapping[str, Any]) -> Iterator[str]:
        for chunk in inputs:
            yield chunk.upper()

    async def step_ainvoke(self, input: str, scope: Scope, kwargs: Mapping[str, Any]) -> str:
        return input.upper()

    async def step_astream(
        self, inputs: AsyncIterator[str], scope: Scope, kwargs: Mapping[str, Any]
    ) -> AsyncIterator[str]:
        async for chunk in inputs:
            yield chunk.upper()

    def describe_input(self, input: str) -> object:
        return {"text": input}

    def describe_output(self, output: str) -> object:
        return {"shouted": output}

    @property
    def emits_stream_events(self) -> bool:
        return True

    def input_draw(self) -> InputDraw:
        return DrawText()


@attrs.frozen
class Twice(Runnable[str, int]):
    """A container: its child runs through the scope, typed ``Mapping[str, object]`` kwargs."""

    inner: Runnable[str, int]
    is_leaf = False

    def step_invoke(self, input: str, scope: Scope, kwargs: Mapping[str, object]) -> int:
        first = scope.invoke(self.inner, input, "twice:1", kwargs)
        return first + scope.invoke(self.inner, input, "twice:2")

    def input_draw(self) -> InputDraw:
        return DrawThrough((self.inner,))


def a_documented_subclass_is_a_runnable() -> None:
    reveal_type(Shout() | parse_r)  # R: Runnable[str, int]


def as_step(step: Step[str, str]) -> Step[str, str]:
    return step


def a_documented_subclass_is_a_step() -> None:
    reveal_type(as_step(Shout()))  # R: Step[str, str]


def a_child_call_is_typed(scope: Scope) -> None:
    reveal_type(scope.invoke(parse_r, "1"))  # R: int


def an_async_child_call_is_typed(scope: Scope) -> None:
    reveal_type(scope.ainvoke(parse_r, "1"))  # R: Awaitable[int]


def a_child_stream_is_typed(scope: Scope, chunks: Iterator[str]) -> None:
    reveal_type(scope.stream(parse_r, chunks))  # R: Iterator[int]


def a_child_call_with_the_wrong_input(scope: Scope) -> object:
    return scope.invoke(parse_r, 1)  # type: ignore[misc]  # E: misc / reportArgumentType


def a_child_stream_of_the_wrong_chunks(scope: Scope, chunks: Iterator[bytes]) -> object:
    return scope.stream(parse_r, chunks)  # type: ignore[misc]  # E: misc / reportArgumentType


def a_container_of_the_wrong_child() -> object:
    return Twice(RunnableLambda(str.upper))  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def lengths(text: str) -> Iterator[int]:
    yield len(text)


async def alengths(text: str) -> AsyncIterator[int]:
    yield len(text)


def a_stream_on_the_whole_input_is_typed(chunks: Iterator[str]) -> None:
    reveal_type(run_on_total(chunks, lengths))  # R: Iterator[int]


def an_async_stream_on_the_whole_input_is_typed(chunks: AsyncIterator[str]) -> None:
    reveal_type(arun_on_total(chunks, alengths))  # R: AsyncIterator[int]


def a_stream_on_the_wrong_chunks(chunks: Iterator[bytes]) -> object:
    return run_on_total(chunks, lengths)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def the_scope_shows_its_run(scope: Scope) -> None:
    reveal_type(scope.run)  # R: RunInfo | None
    reveal_type(scope.runs_inline)  # R: bool


def the_runtime_side_of_a_scope_is_not_the_authors(scope: Scope) -> object:
    return scope.limiters  # type: ignore[attr-defined]  # E: attr-defined / reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType


def a_scope_is_not_built_by_authors() -> object:
    return Scope()  # type: ignore[misc]  # E: misc / reportAbstractUsage


@attrs.frozen
class Misdrawn(Runnable[str, str]):
    """``input_draw`` answers a ``Draw...`` value, not a bare type (``DrawValues(str)``)."""

    def input_draw(self) -> InputDraw:
        return str  # type: ignore[return-value]  # E: return-value / reportReturnType
