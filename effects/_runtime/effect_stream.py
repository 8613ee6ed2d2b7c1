"""Watching a run: the effect stream that every projection folds over.

``aobserve`` runs the chain in one producer task and hands its effects to the
consumer as they happen, so a step that does not stream never holds back the
events of the steps before it. The producer pauses while the consumer is
behind (bounded memory) and is cancelled, with everything under it, when the
consumer stops. ``observe`` is the same for sync chains, with a producer thread.

The effects of a failed run are all delivered before its error is raised.
"""

from __future__ import annotations

import asyncio
import threading
from contextvars import copy_context
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import Final, TypeVar, final

from effects._runtime import calls as entry
from effects._runtime.closing import aclose_all, closing
from effects._runtime.sync_steps import Handoff
from effects.step import Step
from effects.effect_values import Effect

In = TypeVar("In")
Out = TypeVar("Out")
T = TypeVar("T")

HIGH_WATER: Final = 512
"""Effects buffered before the producer waits for the consumer."""


@final
class _AsyncBuffer:
    """An observer that queues effects for one consuming task."""

    __slots__ = ("items", "_wakeup", "_room")

    wants_chunks = True  # it shows runs as they happen: models invoked under it stream

    def __init__(self) -> None:
        self.items: deque[Effect] = deque()
        self._wakeup: asyncio.Future[None] | None = None
        self._room: asyncio.Event = asyncio.Event()
        self._room.set()

    def emit(self, effect: Effect) -> None:
        items = self.items
        items.append(effect)
        if len(items) >= HIGH_WATER:
            self._room.clear()
        waiter = self._wakeup  # wake() inline: this runs once per effect
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def wake(self) -> None:
        waiter = self._wakeup
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    @property
    def full(self) -> bool:
        return not self._room.is_set()

    async def drained(self) -> None:
        """Wait until the consumer has caught up (producer side)."""
        await self._room.wait()

    async def arrival(self) -> None:
        """Wait for the next effect or the producer's end (consumer side); at once when
        effects came while the consumer was away (their wake-up found nobody waiting)."""
        if self.items:
            return
        self._wakeup = asyncio.get_running_loop().create_future()
        try:
            await self._wakeup
        finally:
            self._wakeup = None

    def take(self) -> list[Effect]:
        taken = list(self.items)
        self.items.clear()
        self._room.set()
        return taken


def aobserve(node: Step[In, Out], input: In, config: object, kwargs: Mapping[str, object]) -> AsyncIterator[Effect]:
    """The effects of running ``node`` on ``input`` (streamed), as they happen.

    >>> from combinators import RunnableLambda
    >>> async def main():
    ...     return [type(e).__name__ async for e in aobserve(RunnableLambda(abs), -1, None, {})]
    >>> asyncio.run(main())
    ['RunStarted', 'RunStreamed', 'RunEnded']
    """
    return aobserve_projected(node, input, config, kwargs, _itself)


def _itself(effect: Effect) -> Effect:
    return effect


async def aobserve_projected(
    node: Step[In, Out],
    input: In,
    config: object,
    kwargs: Mapping[str, object],
    project: Callable[[Effect], T | None],
) -> AsyncIterator[T]:
    """``project`` of each effect (``None``s left out), in one loop with the hand-off: a
    projection that gives at most one item per effect needs no iterator of its own."""
    buffer = _AsyncBuffer()

    async def produce() -> None:
        async with closing(entry.astream(node, input, config, kwargs, (buffer,), own_task=True)) as run:
            async for _ in run:
                if buffer.full:
                    await buffer.drained()

    task = asyncio.ensure_future(produce())
    task.add_done_callback(lambda _: buffer.wake())
    try:
        while True:
            done = task.done()  # then every effect it made is in the buffer
            for effect in buffer.take():
                item = project(effect)
                if item is not None:
                    yield item
            if done:
                task.result()  # raises the run's error, after its effects
                return
            if not task.done():  # it may have ended while the consumer had our items
                await buffer.arrival()
    finally:
        # In every state: cancelled and awaited if running, its error read if it
        # failed after the consumer stopped reading (never "never retrieved").
        await aclose_all(tasks=(task,))


class _Abandoned(BaseException):
    """Raised into the producer thread when the consumer has gone away."""


@final
class _ThreadBuffer(Handoff[Effect]):
    """An observer that hands effects from a producer thread to the consumer."""

    __slots__ = ()

    wants_chunks = True

    def __init__(self) -> None:
        super().__init__(HIGH_WATER)

    def emit(self, effect: Effect) -> None:
        if not self.put(effect):
            raise _Abandoned

    def take(self) -> tuple[list[Effect], bool]:
        with self.lock:
            while not self.items and not self.done:
                self.lock.wait()
            taken = list(self.items)
            self.items.clear()
            self.lock.notify_all()
            return taken, self.done and not self.items


def observe(node: Step[In, Out], input: In, config: object, kwargs: Mapping[str, object]) -> Iterator[Effect]:
    """Sync ``aobserve``: the chain runs in a producer thread, effects arrive here.

    >>> from combinators import RunnableLambda
    >>> [type(e).__name__ for e in observe(RunnableLambda(abs), -1, None, {})]
    ['RunStarted', 'RunStreamed', 'RunEnded']
    """
    buffer = _ThreadBuffer()

    def produce() -> None:
        error: BaseException | None = None
        try:
            for _ in entry.stream(node, input, config, kwargs, observers=(buffer,)):
                pass
        except BaseException as caught:  # handed to the consumer, which re-raises it
            error = caught
        buffer.finish(error)

    worker = threading.Thread(target=_in_context(produce), name="combinators-observe", daemon=True)
    worker.start()
    try:
        while True:
            effects, finished = buffer.take()
            yield from effects
            if finished:
                break
        if buffer.error is not None and not isinstance(buffer.error, _Abandoned):
            raise buffer.error
    finally:
        buffer.close()
        worker.join()


def _in_context(target: Callable[[], None]) -> Callable[[], None]:
    context = copy_context()
    return lambda: context.run(target)
