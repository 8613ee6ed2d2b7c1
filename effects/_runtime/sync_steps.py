"""A user's sync code under async: on a worker thread of the library's own bounded pool.

Under ``ainvoke``/``astream``/``astream_events``/``abatch`` a plain function (a lambda,
a tool, a retriever's or a model's sync hook) must not hold the event loop: the other
requests of a server would wait behind it, and time limits could not fire. So it runs
on a worker thread, as Starlette, FastAPI and the peer run theirs.

The threads are the library's own, never the loop's default executor: they are daemon
threads, so neither ``asyncio.run``'s executor shutdown nor interpreter exit waits for
one that a time limit or a cancellation abandoned. At most ``WORKERS`` run at once;
more calls queue. A thread cannot be killed: an abandoned call runs to its end, but its
result is dropped, and so is every nested run or custom event it makes after its run
ended (they travel to the loop and are emitted there only while the run is live).

A sync generator runs on one thread for its whole life (its ``finally`` too), handing
its chunks over a bounded queue.

>>> import asyncio
>>> asyncio.run(in_worker(None, sum, [1, 2, 3]))
6
>>> async def tokens():
...     return [t async for t in stream_in_worker(None, lambda: iter("abc"))]
>>> asyncio.run(tokens())
['a', 'b', 'c']
"""

from __future__ import annotations

# asyncio is imported where it is used: `import combinators` stays cheap for sync code.

import os
import queue
import threading
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from contextvars import copy_context
from typing import TYPE_CHECKING, Final, Generic, ParamSpec, TypeVar, cast, final

from effects._runtime.context import CURRENT_SCOPE
from effects.step import Observer
from effects._runtime.scope import PLAIN_SCOPE, RunScope
from effects.scope import Scope
from effects.effect_values import Effect

if TYPE_CHECKING:
    import asyncio

P = ParamSpec("P")
T = TypeVar("T")

WORKERS: Final = 40
"""Worker threads at most (Starlette's and AnyIO's default bound)."""

CHUNKS_AHEAD: Final = 16
"""Chunks a sync generator may make before the consumer has taken them."""


@final
class _Pool:
    """Daemon threads, started as needed up to ``bound``, each pulling work forever."""

    __slots__ = ("bound", "_work", "_idle", "_lock", "_threads")

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self._work: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)
        self._lock = threading.Lock()
        self._threads = 0

    @property
    def threads(self) -> int:
        """Threads started so far (never more than ``bound``)."""
        return self._threads

    def submit(self, work: Callable[[], None]) -> None:
        """Queue ``work`` (which never raises); a thread is started if none is idle."""
        self._work.put(work)
        if self._idle.acquire(blocking=False):
            return
        with self._lock:
            if self._threads >= self.bound:
                return  # every thread is busy: the work waits its turn
            self._threads += 1
            number = self._threads
        threading.Thread(target=self._serve, name=f"combinators-sync-{number}", daemon=True).start()

    def _serve(self) -> None:
        _ON_WORKER.active = True
        while True:
            self._work.get()()
            self._idle.release()


_ON_WORKER: Final = threading.local()
_pool: _Pool = _Pool(WORKERS)


def _new_pool_in_child() -> None:
    # A forked child has none of its parent's threads: start over with an empty pool.
    global _pool
    _pool = _Pool(WORKERS)


os.register_at_fork(after_in_child=_new_pool_in_child)


def worker_pool() -> _Pool:
    """The process's pool of worker threads.

    >>> worker_pool().bound
    40
    """
    return _pool


def on_worker() -> bool:
    """Whether this thread is one of the pool's (nested async work there runs inline:
    a pool waiting on itself could run out of threads).

    >>> on_worker()
    False
    """
    return getattr(_ON_WORKER, "active", False) is True


@final
class _Relay:
    """The observers of a run, as a worker thread sees them: effects go to the loop's
    thread in order, and are emitted there only while the run is live."""

    __slots__ = ("observers", "wants_chunks", "live", "_loop", "_lock", "_waiting", "_scheduled")

    def __init__(self, loop: asyncio.AbstractEventLoop, observers: tuple[Observer, ...]) -> None:
        self.observers = observers
        self.wants_chunks = any(getattr(o, "wants_chunks", False) is True for o in observers)
        self.live = True
        self._loop = loop
        self._lock = threading.Lock()
        self._waiting: deque[Effect] = deque()
        self._scheduled = False

    def emit(self, effect: Effect) -> None:
        with self._lock:
            self._waiting.append(effect)
            if self._scheduled:
                return  # a delivery is on its way and takes this one too
            self._scheduled = True
        _call_in_loop(self._loop, self.deliver)

    def deliver(self) -> None:
        """Emit the effects that arrived so far (in the loop's thread)."""
        with self._lock:
            effects = list(self._waiting)
            self._waiting.clear()
            self._scheduled = False
        if not self.live:
            return  # the run ended (a time limit, a cancellation): too late to be seen
        for effect in effects:
            for observer in self.observers:
                observer.emit(effect)


def _call_in_loop(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> None:
    try:
        loop.call_soon_threadsafe(callback)
    except RuntimeError:  # the loop is closed: nobody is waiting any more
        pass


def _thread_scope(scope: Scope | None, loop: asyncio.AbstractEventLoop) -> tuple[RunScope, _Relay | None]:
    """The scope a worker thread runs in, and the relay of its effects (None when nobody
    observes). Async listeners are the loop's to await: the thread's nested runs leave
    them pending for the run's next wait."""
    run_scope = scope if isinstance(scope, RunScope) else CURRENT_SCOPE.get() or PLAIN_SCOPE
    if not run_scope.observers:
        return run_scope, None
    relay = _Relay(loop, run_scope.observers)
    return RunScope(run_scope.config, (relay,), run_scope.run, run_scope.limiters, run_scope.deadline), relay


def _entered(scope: RunScope, call: Callable[[], T]) -> T:
    # Nested calls and custom events of the function find their run through the context.
    CURRENT_SCOPE.set(scope)
    return call()


def _settle(future: asyncio.Future[T], result: T) -> None:
    if not future.done():  # else cancelled: the run ended without it
        future.set_result(result)


def _settle_failed(future: asyncio.Future[T], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)


def _as_raisable(error: BaseException) -> BaseException:
    # A future refuses StopIteration (it would end a generator awaiting it by mistake).
    if isinstance(error, StopIteration):
        return RuntimeError(f"a sync step raised StopIteration: {error!r}")
    return error


async def in_worker(scope: Scope | None, func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``func(*args, **kwargs)`` on a worker thread, awaited without holding the loop.

    ``scope`` is the run it belongs to (None: the one running here), so its nested runs
    and custom events are that run's. When the awaiting task is cancelled (a time
    limit), the call is abandoned: its thread runs on, its result and later events are
    dropped.
    """
    import asyncio

    if on_worker():
        return func(*args, **kwargs)
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()
    thread_scope, relay = _thread_scope(scope, loop)
    context = copy_context()

    def work() -> None:
        try:
            result = context.run(_entered, thread_scope, lambda: func(*args, **kwargs))
        except BaseException as error:
            raisable = _as_raisable(error)
            _call_in_loop(loop, lambda: _settle_failed(future, raisable))
        else:
            _call_in_loop(loop, lambda: _settle(future, result))

    _pool.submit(work)
    try:
        return await future
    finally:
        if relay is not None:
            relay.live = False


class Handoff(Generic[T]):
    """Items from a producer thread to a consumer, at most ``ahead`` of them waiting: the
    producer waits for room, and stops once the consumer has gone (``close``). The
    consumer's side is the subclass's (a thread's, or an event loop's with ``wake``).

    >>> handoff: Handoff[str] = Handoff(1)
    >>> handoff.put("a"), list(handoff.items)
    (True, ['a'])
    >>> handoff.close()
    >>> handoff.put("b")  # the consumer has gone: nothing waits for room
    False
    """

    __slots__ = ("lock", "items", "ahead", "done", "error", "closed")

    def __init__(self, ahead: int) -> None:
        self.lock = threading.Condition()
        self.items: deque[T] = deque()
        self.ahead = ahead
        self.done = False
        self.error: BaseException | None = None
        self.closed = False
        """Set when the consumer has gone: the producer stops at its next item."""

    # -- the producer thread's side

    def put(self, item: T) -> bool:
        """Hand over one item (waiting for room); False once the consumer has gone."""
        with self.lock:
            while len(self.items) >= self.ahead and not self.closed:
                self.lock.wait()
            if self.closed:
                return False
            self.items.append(item)
            self.wake()
            return True

    def finish(self, error: BaseException | None) -> None:
        """The producer is done (``error``: how it failed)."""
        with self.lock:
            self.done = True
            self.error = error
            self.wake()

    def wake(self) -> None:
        """Tell the consumer that an item or the end has come (called under the lock)."""
        self.lock.notify_all()

    # -- the consumer's side

    def close(self) -> None:
        """The consumer has gone: the producer stops waiting for room."""
        with self.lock:
            self.closed = True
            self.lock.notify_all()


@final
class _Channel(Handoff[T]):
    """Chunks from a worker thread to the loop: at most ``CHUNKS_AHEAD`` waiting."""

    __slots__ = ("_loop", "_waiter")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(CHUNKS_AHEAD)
        self._loop = loop
        self._waiter: asyncio.Future[None] | None = None

    def wake(self) -> None:
        waiter, self._waiter = self._waiter, None
        if waiter is not None:
            _call_in_loop(self._loop, lambda: _settle(waiter, None))

    async def get(self) -> tuple[bool, T, BaseException | None]:
        """(True, the next chunk, None), or (False, _, the generator's error or None) at
        its end."""
        while True:
            with self.lock:
                if self.items:
                    chunk = self.items.popleft()
                    self.lock.notify()
                    return True, chunk, None
                if self.done:
                    return False, cast(T, None), self.error
                waiter = self._waiter = self._loop.create_future()
            await waiter


async def stream_in_worker(scope: Scope | None, make: Callable[[], Iterator[T]]) -> AsyncIterator[T]:
    """The chunks of the sync iterator ``make()`` makes, made on one worker thread for
    its whole life (closed there too when the consumer stops early).

    ``scope`` is as for ``in_worker``; a consumer that stops (or is cancelled) abandons
    the generator: it is closed at its next chunk, and its later events are dropped.
    """
    import asyncio

    if on_worker():
        for item in make():
            yield item
        return
    loop = asyncio.get_running_loop()
    thread_scope, relay = _thread_scope(scope, loop)
    channel: _Channel[T] = _Channel(loop)
    context = copy_context()

    def produce() -> None:
        iterator = make()
        try:
            for chunk in iterator:
                if not channel.put(chunk):
                    break
        finally:
            close = getattr(iterator, "close", None)  # a generator stopped early runs its finally here
            if close is not None:
                close()

    def work() -> None:
        try:
            context.run(_entered, thread_scope, produce)
        except BaseException as error:
            channel.finish(_as_raisable(error))
        else:
            channel.finish(None)

    _pool.submit(work)
    try:
        while True:
            more, chunk, error = await channel.get()
            if relay is not None:
                relay.deliver()  # what the generator emitted before this point comes first
            if not more:
                if error is not None:
                    raise error
                return
            yield chunk
    finally:
        channel.close()
        if relay is not None:
            relay.live = False


__all__ = ["WORKERS", "Handoff", "in_worker", "on_worker", "stream_in_worker", "worker_pool"]
