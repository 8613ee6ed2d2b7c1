"""Watching a run: its effect stream and the projections of it (events, run log).

``RunnableWatching`` adds these methods to ``RunnableBatching``; ``Runnable`` builds on it.
The projections load on first use, so importing the library stays cheap.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Literal, TypeVar, overload

from combinators.runnable.batching import RunnableBatching
from effects.config import ConfigLike

if TYPE_CHECKING:
    from effects.event_types import StreamEvent, V1StreamEvent
    from effects.projections.filters import Names, RunTypes
    from effects.projections.run_log import RunLog, RunLogPatch
    from effects.values import Effect
    from effects._runtime.projected_calls import EventsVersion

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)


class RunnableWatching(RunnableBatching[In, Out]):
    """The watching methods of every runnable."""

    __slots__ = ()

    def astream_effects(self, input: In, config: ConfigLike = None, **kwargs: object) -> AsyncIterator[Effect]:
        """The run's effect values as they happen: what every projection folds over.

        Record them with ``effects.projections.recording.record`` to replay a run later.

        >>> import asyncio
        >>> from combinators import RunnableLambda
        >>> async def main():
        ...     return [type(e).__name__ async for e in RunnableLambda(abs).astream_effects(-1)]
        >>> asyncio.run(main())
        ['RunStarted', 'RunStreamed', 'RunEnded']
        """
        from effects._runtime.effect_stream import aobserve

        return aobserve(self, input, config, kwargs)

    def stream_effects(self, input: In, config: ConfigLike = None, **kwargs: object) -> Iterator[Effect]:
        """Sync ``astream_effects`` (the chain runs on a producer thread).

        >>> from combinators import RunnableLambda
        >>> [type(e).__name__ for e in RunnableLambda(abs).stream_effects(-1)][0]
        'RunStarted'
        """
        from effects._runtime.effect_stream import observe

        return observe(self, input, config, kwargs)

    @overload
    def astream_events(
        self,
        input: In,
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
    ) -> AsyncIterator[StreamEvent]: ...

    @overload
    def astream_events(
        self,
        input: In,
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
    ) -> AsyncIterator[V1StreamEvent]: ...

    @overload
    def astream_events(
        self,
        input: In,
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
    ) -> AsyncIterator[StreamEvent | V1StreamEvent]: ...

    @overload
    def astream_events(
        self,
        input: In,
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
    ) -> AsyncIterator[bytes]: ...

    def astream_events(
        self,
        input: In,
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
    ) -> AsyncIterator[StreamEvent | V1StreamEvent] | AsyncIterator[bytes]:
        """Every run's start, stream, end (and error) events, as they happen.

        ``version="v2"`` follows LangChain's schema (``on_chain_start`` ...), plus
        ``on_<type>_error`` for failed runs; ``encoding="text/event-stream"`` gives
        SSE frames as bytes.

        >>> import asyncio
        >>> from combinators import RunnableLambda
        >>> async def main():
        ...     return [e["event"] async for e in RunnableLambda(abs).astream_events(-1)]
        >>> asyncio.run(main())
        ['on_chain_start', 'on_chain_stream', 'on_chain_end']
        """
        from effects._runtime import projected_calls as watch
        from effects.projections.filters import EventFilter

        watch.check_encoding(encoding)
        event_filter = EventFilter(
            include_names, include_types, include_tags, exclude_names, exclude_types, exclude_tags
        )
        if encoding is None:
            return watch.aevents(self, input, config, kwargs, version, event_filter)
        return watch.aevent_stream_bytes(self, input, config, kwargs, version, event_filter)

    @overload
    def stream_events(
        self,
        input: In,
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
        input: In,
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
        input: In,
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
        input: In,
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
        input: In,
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
    ) -> Iterator[StreamEvent | V1StreamEvent] | Iterator[bytes]:
        """Sync ``astream_events`` (the chain runs on a producer thread).

        >>> from combinators import RunnableLambda
        >>> [e["event"] for e in RunnableLambda(abs).stream_events(-1, include_types=["chain"])]
        ['on_chain_start', 'on_chain_stream', 'on_chain_end']
        """
        from effects._runtime import projected_calls as watch
        from effects.projections.filters import EventFilter

        watch.check_encoding(encoding)
        event_filter = EventFilter(
            include_names, include_types, include_tags, exclude_names, exclude_types, exclude_tags
        )
        if encoding is None:
            return watch.events(self, input, config, kwargs, version, event_filter)
        return watch.event_stream_bytes(self, input, config, kwargs, version, event_filter)

    @overload
    def astream_log(
        self,
        input: In,
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
    ) -> AsyncIterator[RunLogPatch]: ...

    @overload
    def astream_log(
        self,
        input: In,
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
    ) -> AsyncIterator[RunLog]: ...

    def astream_log(
        self,
        input: In,
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
    ) -> AsyncIterator[RunLogPatch] | AsyncIterator[RunLog]:
        """The run log as JSON-patch ``RunLogPatch``es (or accumulated ``RunLog``s).

        >>> import asyncio
        >>> from combinators import RunnableLambda
        >>> async def main():
        ...     log = None
        ...     async for patch in RunnableLambda(abs).astream_log(-3):
        ...         log = patch if log is None else log + patch
        ...     return log.state["final_output"]
        >>> asyncio.run(main())
        3
        """
        from effects._runtime import projected_calls as watch
        from effects.projections.filters import EventFilter

        event_filter = EventFilter(
            include_names, include_types, include_tags, exclude_names, exclude_types, exclude_tags
        )
        return watch.alog(  # type: ignore[return-value]
            self, input, config, kwargs, diff, with_streamed_output_list, event_filter
        )

    @overload
    def stream_log(
        self,
        input: In,
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
        input: In,
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
        input: In,
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
    ) -> Iterator[RunLogPatch] | Iterator[RunLog]:
        """Sync ``astream_log``.

        >>> from combinators import RunnableLambda
        >>> logs = list(RunnableLambda(abs).stream_log(-3, diff=False))
        >>> logs[-1].state["final_output"]
        3
        """
        from effects._runtime import projected_calls as watch
        from effects.projections.filters import EventFilter

        event_filter = EventFilter(
            include_names, include_types, include_tags, exclude_names, exclude_types, exclude_tags
        )
        return watch.log(  # type: ignore[return-value]
            self, input, config, kwargs, diff, with_streamed_output_list, event_filter
        )
