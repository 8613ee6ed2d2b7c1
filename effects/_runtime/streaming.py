"""Runs in streaming mode: ``stream_run``/``astream_run`` drive a node's stream inside
its scope, and ``StreamWatch`` keeps the run's effects (start, chunks, end or failure)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import AsyncExitStack, ExitStack
from typing import TYPE_CHECKING, Generic, TypeVar, final

from effects._runtime.context import CURRENT_SCOPE
from effects.clock import timestamps
from effects._runtime.limiter import LENDER, Lease, aleased, leased
from effects.step import Step
from effects._runtime.closing import aclose_all, aiter_of, close_iterator, closing
from effects._runtime.total import Total, atotal_or_nothing, total_or_nothing
from effects.effect_values import NOTHING, Nothing, RunStreamed
from effects._runtime.building import STREAMED_SLOTS, ended, started, streamed
from effects._fast import NEW

if TYPE_CHECKING:
    from effects._runtime.scope import RunScope

In = TypeVar("In")
Out = TypeVar("Out")

# A RunStreamed built slot by slot: the per-chunk effect without a call of the generated
# __init__ of a frozen attrs class (a third of an event's cost).
_SET_RUN, _SET_CHUNK, _SET_AT = STREAMED_SLOTS


_COMPACT_EVERY = 63
"""Hot loops keep chunks with a bare append and add them up every 64 (a bit mask)."""


@final
class StreamWatch(Generic[In, Out]):
    """The effects of one run in streaming mode.

    A run whose input is not known up front starts when its first input chunk
    arrives (or when it produces or ends without reading any), as the peer's
    events show; it reports its input, added up, at its end. One that fails
    before it started is not reported at all.
    """

    __slots__ = (
        "scope", "node", "known", "observed", "started", "seen", "total", "emits", "run", "now", "observers",
    )  # fmt: skip

    def __init__(self, scope: RunScope, node: Step[In, Out], known: In | Nothing) -> None:
        self.scope = scope
        self.node = node
        self.known = known
        self.run = run = scope.run
        self.observed = run is not None
        # The root's chunks are the output stream; a child shows its chunks only if
        # it streams them itself (as in the peer: no stream events for a retriever,
        # a prompt or a model without a token stream).
        self.emits = run is not None and (not run.parent_ids or (node.emits_stream_events and not node.relays_chunks))
        self.observers = scope.observers
        self.started = False
        self.seen: Total[In] = Total()
        self.total: Total[Out] = Total()

    def adds_up_input(self) -> bool:
        """Whether the run's input stream is added up before it runs: its events show the
        whole input at its start, as the peer's do."""
        return self.observed and self.known is NOTHING and self.node.input_known_at_start

    def added_up(self, whole: In | Nothing) -> tuple[In, ...]:
        """The input stream once added up (``whole``), which is now the known input."""
        if whole is NOTHING:
            return ()
        self.known = whole
        return (whole,)

    def begin(self) -> tuple[bool, list[Out] | None]:
        """Enter the run (where its stream starts, in the caller's context): started if its
        input is known. Whether to tap the input (the run then starts at its first chunk and
        reports its input at its end); and the list that holds the output until the run has
        ended, for a step that does not stream by itself (it computes its output in one go:
        its run ends before its output flows on, so the next step starts after this one
        ended, as the peer's events show for tools, prompts and retrievers)."""
        # Read once per run, not once per chunk: a run keeps its clock and observers.
        self.now = timestamps(self.scope.clock)
        if self.observed and self.known is not NOTHING:
            self.start()
        held: list[Out] | None = [] if self.observed and not self.node.emits_stream_events else None
        return self.observed and self.known is NOTHING, held

    def start(self) -> None:
        self.started = True
        shown = self.known if self.known is NOTHING else self.shown_input()
        self.scope.emit_effect(started(self.scope.run_info(), shown, self.now()))

    def tap(self, inputs: Iterator[In]) -> Iterator[In]:
        for item in inputs:
            self.saw(item)
            yield item

    async def atap(self, inputs: AsyncIterator[In]) -> AsyncIterator[In]:
        scope, seen = self.scope, self.seen
        listening, keep, count = scope.listening, seen.append, 0
        async with closing(inputs) as stream:
            async for item in stream:
                if not self.started:
                    self.start()
                keep(item)
                count += 1
                if not count & _COMPACT_EVERY:
                    seen.compact()
                if listening:
                    await scope.await_listeners()
                yield item

    def saw(self, item: In) -> None:
        if not self.started:
            self.start()
        self.seen.add(item)

    def streamed(self, chunk: Out) -> None:
        if not self.started:
            self.start()
        self.total.add(chunk)
        run = self.run
        if self.emits and run is not None:
            effect = streamed(run, chunk, self.now())
            for observer in self.observers:
                observer.emit(effect)

    def shown_input(self) -> object:
        run = self.scope.run_info()
        if self.known is not NOTHING:
            return self.known if not run.parent_ids else self.node.describe_input(self.known)
        seen = self.seen.value()
        return None if seen is NOTHING else self.node.describe_input(seen)

    def failed(self, error: BaseException) -> None:
        if not self.started:
            # It never got an input (the error came from upstream) and produced
            # nothing: as in the peer, a run that never started is not reported.
            return
        raw = self.known if self.known is not NOTHING else self.seen.value()
        self.scope.emit_effect(self.scope.failure(self.node, raw, self.shown_input(), error))

    def ended(self) -> None:
        if not self.started:
            self.start()
        total = self.total.value()
        output = None if total is NOTHING else self.node.describe_output(total)
        self.scope.emit_effect(ended(self.scope.run_info(), self.shown_input(), output, self.now()))


def stream_run(watch: StreamWatch[In, Out], inputs: Iterator[In], kwargs: Mapping[str, object]) -> Iterator[Out]:
    """Run ``watch.node`` as a stream transform in ``watch.scope`` (an observed, limited or
    configured scope): its effects, permits, deadline and context, chunk by chunk."""
    self, node = watch.scope, watch.node
    upstream = inputs
    if watch.adds_up_input():
        inputs = iter(watch.added_up(total_or_nothing(inputs)))
    tapped, held = watch.begin()
    if tapped:
        inputs = watch.tap(inputs)
    with ExitStack() as stack:
        lease: Lease | None = None
        token = CURRENT_SCOPE.set(self)
        try:
            self.check_deadline()
            if node.is_leaf and self.limiters:
                # Held for the stream's life, lent to nested work only while the node
                # runs (a context variable must not stay set across a yield).
                lease = stack.enter_context(leased(self.limiters))
            chunks = node.step_stream(inputs, self, kwargs)
        finally:
            CURRENT_SCOPE.reset(token)
        try:
            while True:
                token = CURRENT_SCOPE.set(self)
                lending = LENDER.set(lease) if lease is not None else None
                try:
                    chunk = next(chunks)
                except StopIteration:
                    break
                finally:
                    if lending is not None:
                        LENDER.reset(lending)
                    CURRENT_SCOPE.reset(token)
                if watch.observed:
                    watch.streamed(chunk)
                    self.refuse_async_listeners()
                if held is not None:
                    held.append(chunk)
                    continue
                yield chunk
        except BaseException as error:
            close_iterator(chunks)
            if watch.observed:
                watch.failed(error)
                self.refuse_async_listeners()
            # Upstream runs end now, not whenever the garbage collector gets to them.
            close_iterator(inputs)
            close_iterator(upstream)
            raise
    close_iterator(inputs)
    close_iterator(upstream)
    if watch.observed:
        watch.ended()
        self.refuse_async_listeners()
    if held:
        yield from held


async def astream_run(
    watch: StreamWatch[In, Out], inputs: AsyncIterator[In], kwargs: Mapping[str, object]
) -> AsyncIterator[Out]:
    """Async ``stream_run``."""
    self, node = watch.scope, watch.node
    upstream = inputs
    if watch.adds_up_input():
        inputs = aiter_of(watch.added_up(await atotal_or_nothing(inputs)))
    tapped, held = watch.begin()
    if tapped:
        inputs = watch.atap(inputs)
    async with AsyncExitStack() as stack:
        lease: Lease | None = None
        token = CURRENT_SCOPE.set(self)
        try:
            self.check_deadline()
            if node.is_leaf and self.limiters:
                lease = await stack.enter_async_context(aleased(self.limiters))
            chunks = node.step_astream(inputs, self, kwargs)
        finally:
            CURRENT_SCOPE.reset(token)
        bounded = self.deadline is not None
        listening = self.listening
        observed, now = watch.observed, watch.now
        emitting = watch.run if watch.emits else None
        total = watch.total
        keep, observers, count = total.append, watch.observers, 0
        single = observers[0].emit if len(observers) == 1 else None  # the usual watcher: one
        next_chunk = chunks.__anext__
        set_scope, reset_scope = CURRENT_SCOPE.set, CURRENT_SCOPE.reset
        new_effect, set_run, set_chunk, set_at = NEW, _SET_RUN, _SET_CHUNK, _SET_AT
        started = False
        try:
            while True:
                token = set_scope(self)
                lending = LENDER.set(lease) if lease is not None else None
                try:
                    if bounded:
                        chunk = await self.bounded(next_chunk(), node)
                    else:
                        chunk = await next_chunk()
                except StopAsyncIteration:
                    break
                finally:
                    if lending is not None:
                        LENDER.reset(lending)
                    reset_scope(token)
                if observed:
                    # watch.streamed(chunk), inline: this runs once per chunk per run.
                    if not started:
                        if not watch.started:
                            watch.start()
                        started = True
                    keep(chunk)
                    count += 1
                    if not count & _COMPACT_EVERY:
                        total.compact()
                    if emitting is not None:
                        effect = new_effect(RunStreamed)  # RunStreamed(emitting, chunk, now()), unchecked
                        set_run(effect, emitting)
                        set_chunk(effect, chunk)
                        set_at(effect, now())
                        if single is not None:
                            single(effect)
                        else:
                            for observer in observers:
                                observer.emit(effect)
                    if listening:
                        await self.await_listeners()
                if held is not None:
                    held.append(chunk)
                    continue
                yield chunk
        except BaseException as error:
            # Each step runs even if a cancellation interrupts the one before (a
            # consumer leaving while this failure is being cleaned up).
            try:
                await aclose_all((chunks,))
            finally:
                try:
                    if watch.observed:
                        watch.failed(error)
                        await self.await_listeners()
                finally:
                    # The tap too: a node's own generator need not close what it reads.
                    await aclose_all((inputs, upstream))
            raise
    try:
        await aclose_all((inputs, upstream))
    except BaseException as error:
        if watch.observed:
            watch.failed(error)
        raise
    if watch.observed:
        watch.ended()
        await self.await_listeners()
    if held:
        for chunk in held:
            yield chunk
