"""``SyncCalls``: the sync calls of a runnable, typed by the input they take.

A runnable built from an async-only function (``RunnableLambda(async_f)``, ``@chain`` of an
``async def``, an async ``@tool``) raises ``InputError`` when called synchronously. Such a
runnable is typed ``...[..., Never]`` (``RunnableLambda[str, int, Never]``): its ``invoke``,
``stream``, ``batch`` and the other sync calls take ``Never``, so calling one is a type error
(``expected "Never"``), while ``ainvoke``, ``astream``, ``astream_events``, ``|`` and every
combinator keep their types. Otherwise the last type argument is the input (the default).

>>> import asyncio
>>> from combinators import RunnableLambda
>>> async def aparse(text: str) -> int:
...     return int(text)
>>> step = RunnableLambda(aparse)  # RunnableLambda[str, int, Never]: step.invoke("1") is a type error
>>> asyncio.run(step.ainvoke("1"))
1
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Generic, Literal, Never, TypeVar, overload

from effects.config import ConfigLike

if TYPE_CHECKING:
    from returns.result import Failure, Success

    from combinators.nodes.tool import RunnableTool
    from effects.event_types import StreamEvent, V1StreamEvent
    from effects.executors import Executor
    from effects.projections.filters import Names, RunTypes
    from effects.projections.run_log import RunLog, RunLogPatch
    from effects.values import Effect
    from effects._runtime.projected_calls import EventsVersion

Out = TypeVar("Out", covariant=True)
SyncIn = TypeVar("SyncIn")


class SyncCalls(Generic[Out, SyncIn]):
    """The sync calls, taking ``SyncIn``: a base listed before ``Runnable`` (``Never``: none).

    Signatures only, for the checkers: at run time the calls are ``Runnable``'s. A class
    using it passes its own covariant ``SyncIn`` (default: its input), so that an async-only
    value still fits where the default is expected (a list of tools), as a subtype would.
    """

    __slots__ = ()

    if TYPE_CHECKING:

        def invoke(self, input: SyncIn, config: ConfigLike = None, **kwargs: object) -> Out: ...

        # An async-only runnable gives an async-only tool.
        @overload
        def as_tool(
            self: SyncCalls[Out, Never],
            *,
            name: str | None = None,
            description: str | None = None,
            args_schema: Mapping[str, object] | type[object] | None = None,
            arg_types: Mapping[str, object] | None = None,
        ) -> RunnableTool[Out, ..., object, Never]: ...
        @overload
        def as_tool(
            self,
            *,
            name: str | None = None,
            description: str | None = None,
            args_schema: Mapping[str, object] | type[object] | None = None,
            arg_types: Mapping[str, object] | None = None,
        ) -> RunnableTool[Out]: ...
        def as_tool(
            self,
            *,
            name: str | None = None,
            description: str | None = None,
            args_schema: Mapping[str, object] | type[object] | None = None,
            arg_types: Mapping[str, object] | None = None,
        ) -> RunnableTool[Out] | RunnableTool[Out, ..., object, Never]: ...

        def stream(self, input: SyncIn, config: ConfigLike = None, **kwargs: object) -> Iterator[Out]: ...

        def transform(self, inputs: Iterable[SyncIn], config: ConfigLike = None, **kwargs: object) -> Iterator[Out]: ...

        def stream_effects(self, input: SyncIn, config: ConfigLike = None, **kwargs: object) -> Iterator[Effect]: ...

        @overload
        def batch(
            self,
            inputs: list[SyncIn] | tuple[SyncIn, ...],
            config: ConfigLike | Sequence[ConfigLike] = None,
            *,
            return_exceptions: Literal[False] = False,
            progress: bool = False,
            executor: Executor | None = None,
            **kwargs: object,
        ) -> list[Out]: ...
        @overload
        def batch(
            self,
            inputs: list[SyncIn] | tuple[SyncIn, ...],
            config: ConfigLike | Sequence[ConfigLike] = None,
            *,
            return_exceptions: Literal[True],
            progress: bool = False,
            executor: Executor | None = None,
            **kwargs: object,
        ) -> list[Out | Exception]: ...
        @overload
        def batch(
            self,
            inputs: list[SyncIn] | tuple[SyncIn, ...],
            config: ConfigLike | Sequence[ConfigLike] = None,
            *,
            return_exceptions: bool,
            progress: bool = False,
            executor: Executor | None = None,
            **kwargs: object,
        ) -> list[Out | Exception]: ...
        def batch(
            self,
            inputs: list[SyncIn] | tuple[SyncIn, ...],
            config: ConfigLike | Sequence[ConfigLike] = None,
            *,
            return_exceptions: bool = False,
            progress: bool = False,
            executor: Executor | None = None,
            **kwargs: object,
        ) -> list[Out] | list[Out | Exception]: ...

        def batch_results(
            self,
            inputs: list[SyncIn] | tuple[SyncIn, ...],
            config: ConfigLike | Sequence[ConfigLike] = None,
            *,
            executor: Executor | None = None,
            **kwargs: object,
        ) -> list[Success[Out] | Failure[Exception]]: ...

        @overload
        def batch_as_completed(
            self,
            inputs: list[SyncIn] | tuple[SyncIn, ...],
            config: ConfigLike | Sequence[ConfigLike] = None,
            *,
            return_exceptions: Literal[False] = False,
            progress: bool = False,
            executor: Executor | None = None,
            **kwargs: object,
        ) -> Iterator[tuple[int, Out]]: ...
        @overload
        def batch_as_completed(
            self,
            inputs: list[SyncIn] | tuple[SyncIn, ...],
            config: ConfigLike | Sequence[ConfigLike] = None,
            *,
            return_exceptions: Literal[True],
            progress: bool = False,
            executor: Executor | None = None,
            **kwargs: object,
        ) -> Iterator[tuple[int, Out | Exception]]: ...
        @overload
        def batch_as_completed(
            self,
            inputs: list[SyncIn] | tuple[SyncIn, ...],
            config: ConfigLike | Sequence[ConfigLike] = None,
            *,
            return_exceptions: bool,
            progress: bool = False,
            executor: Executor | None = None,
            **kwargs: object,
        ) -> Iterator[tuple[int, Out | Exception]]: ...
        def batch_as_completed(
            self,
            inputs: list[SyncIn] | tuple[SyncIn, ...],
            config: ConfigLike | Sequence[ConfigLike] = None,
            *,
            return_exceptions: bool = False,
            progress: bool = False,
            executor: Executor | None = None,
            **kwargs: object,
        ) -> Iterator[tuple[int, Out]] | Iterator[tuple[int, Out | Exception]]: ...

        @overload
        def stream_events(
            self,
            input: SyncIn,
            config: ConfigLike = None,
            *,
            version: Literal["v2"] = "v2",
            encoding: None = None,
            include_names: Names | None = None,
            include_types: RunTypes | None = None,
            include_tags: Names | None = None,
            exclude_names: Names | None = None,
            exclude_types: RunTypes | None = None,
            exclude_tags: Names | None = None,
            **kwargs: object,
        ) -> Iterator[StreamEvent]: ...
        @overload
        def stream_events(
            self,
            input: SyncIn,
            config: ConfigLike = None,
            *,
            version: Literal["v1"],
            encoding: None = None,
            include_names: Names | None = None,
            include_types: RunTypes | None = None,
            include_tags: Names | None = None,
            exclude_names: Names | None = None,
            exclude_types: RunTypes | None = None,
            exclude_tags: Names | None = None,
            **kwargs: object,
        ) -> Iterator[V1StreamEvent]: ...
        @overload
        def stream_events(
            self,
            input: SyncIn,
            config: ConfigLike = None,
            *,
            version: EventsVersion,
            encoding: None = None,
            include_names: Names | None = None,
            include_types: RunTypes | None = None,
            include_tags: Names | None = None,
            exclude_names: Names | None = None,
            exclude_types: RunTypes | None = None,
            exclude_tags: Names | None = None,
            **kwargs: object,
        ) -> Iterator[StreamEvent | V1StreamEvent]: ...
        @overload
        def stream_events(
            self,
            input: SyncIn,
            config: ConfigLike = None,
            *,
            version: EventsVersion = "v2",
            encoding: Literal["text/event-stream"],
            include_names: Names | None = None,
            include_types: RunTypes | None = None,
            include_tags: Names | None = None,
            exclude_names: Names | None = None,
            exclude_types: RunTypes | None = None,
            exclude_tags: Names | None = None,
            **kwargs: object,
        ) -> Iterator[bytes]: ...
        def stream_events(
            self,
            input: SyncIn,
            config: ConfigLike = None,
            *,
            version: EventsVersion = "v2",
            encoding: Literal["text/event-stream"] | None = None,
            include_names: Names | None = None,
            include_types: RunTypes | None = None,
            include_tags: Names | None = None,
            exclude_names: Names | None = None,
            exclude_types: RunTypes | None = None,
            exclude_tags: Names | None = None,
            **kwargs: object,
        ) -> Iterator[StreamEvent | V1StreamEvent] | Iterator[bytes]: ...

        @overload
        def stream_log(
            self,
            input: SyncIn,
            config: ConfigLike = None,
            *,
            diff: Literal[True] = True,
            with_streamed_output_list: bool = True,
            include_names: Names | None = None,
            include_types: RunTypes | None = None,
            include_tags: Names | None = None,
            exclude_names: Names | None = None,
            exclude_types: RunTypes | None = None,
            exclude_tags: Names | None = None,
            **kwargs: object,
        ) -> Iterator[RunLogPatch]: ...
        @overload
        def stream_log(
            self,
            input: SyncIn,
            config: ConfigLike = None,
            *,
            diff: Literal[False],
            with_streamed_output_list: bool = True,
            include_names: Names | None = None,
            include_types: RunTypes | None = None,
            include_tags: Names | None = None,
            exclude_names: Names | None = None,
            exclude_types: RunTypes | None = None,
            exclude_tags: Names | None = None,
            **kwargs: object,
        ) -> Iterator[RunLog]: ...
        def stream_log(
            self,
            input: SyncIn,
            config: ConfigLike = None,
            *,
            diff: bool = True,
            with_streamed_output_list: bool = True,
            include_names: Names | None = None,
            include_types: RunTypes | None = None,
            include_tags: Names | None = None,
            exclude_names: Names | None = None,
            exclude_types: RunTypes | None = None,
            exclude_tags: Names | None = None,
            **kwargs: object,
        ) -> Iterator[RunLogPatch] | Iterator[RunLog]: ...


__all__ = ["SyncCalls"]
