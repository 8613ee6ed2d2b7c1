"""One batch on its way through a Dask cluster: a window of chunks, outcomes as they land.

Chunks are submitted as impure tasks (identical inputs run as many times as asked), at
most ``window`` of them in flight when a ``max_concurrency`` is set (each chunk runs its
items one after another, so that is also the number of items running), refilled as
chunks finish. Finished chunks are fetched together, in one round trip per wake-up.
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Final, TypedDict, final

import attrs
from distributed import CancelledError, Client, Event, Future
from returns.result import Failure

from combinators.integrations.dask.travel import unpack
from combinators.integrations.dask.worker import run_chunk
from effects.executors import ExecutorError, ItemOutcome, RemoteError

_WAKE: Final = object()


def cancel_event(batch: str) -> str:
    """The name of the ``distributed.Event`` that cancels ``batch``'s running items."""
    return f"combinators-cancel-{batch}"


class TaskOptions(TypedDict, total=False):
    """The options of a batch's tasks (``Client.map``'s keywords).

    >>> options: TaskOptions = {"retries": 0, "resources": {"GPU": 1}}
    >>> sorted(options)
    ['resources', 'retries']
    """

    retries: int
    resources: dict[str, float]


class ChunkTask(TypedDict):
    """The keyword arguments every chunk's ``run_chunk`` gets besides its chunk (the
    shipped step's future arrives on the worker as its bytes).

    >>> sorted(ChunkTask.__required_keys__)
    ['asynchronous', 'cancel', 'step', 'token']
    """

    step: Future[bytes]
    token: str
    cancel: str
    asynchronous: bool


@final
@attrs.define(eq=False)
class DaskSubmission:
    """A ``effects.Submission`` on Dask (made by ``DaskExecutor.submit``): it submits its
    first chunks (up to ``window``) when made."""

    client: Client
    batch: str
    chunks: Sequence[tuple[tuple[int, ...], bytes]]
    window: int | None
    task_options: TaskOptions
    task_kwargs: ChunkTask
    waiting: deque[int] = attrs.field(init=False)
    in_flight: dict[Future[bytes], int] = attrs.field(init=False, factory=dict[Future[bytes], int])
    landed: queue.SimpleQueue[object] = attrs.field(init=False, factory=queue.SimpleQueue[object])
    ready: deque[ItemOutcome] = attrs.field(init=False, factory=deque[ItemOutcome])
    lock: threading.Lock = attrs.field(init=False, factory=threading.Lock)
    cancelled: bool = attrs.field(init=False, default=False)

    def __attrs_post_init__(self) -> None:
        self.waiting = deque(range(len(self.chunks)))
        self._submit(len(self.chunks) if self.window is None else self.window)

    def __iter__(self) -> Iterator[ItemOutcome]:
        return self

    def __next__(self) -> ItemOutcome:
        while not self.ready:
            with self.lock:
                if self.cancelled or not (self.in_flight or self.waiting):
                    raise StopIteration
            # The futures stay inside _fetch: a traceback that distributed or pickle keeps
            # from what follows must not keep them (and their results) on the cluster.
            for chunk, landed in self._fetch(self._wait()):
                if isinstance(landed, bytes):
                    self.ready.extend(self._read(chunk, landed))
                else:
                    self.ready.extend(self._failed(chunk, landed, ""))
            self._submit(self._free())
        return self.ready.popleft()

    def cancel(self) -> None:
        with self.lock:
            if self.cancelled:
                return
            self.cancelled = True
            self.waiting.clear()
            running = list(self.in_flight)
            self.in_flight.clear()
            landed, self.landed = self.landed, queue.SimpleQueue()
        landed.put(_WAKE)  # wakes a consumer waiting there; later arrivals go nowhere
        if running:
            # The event first: a queued task that starts meanwhile stops before its
            # first item; then the scheduler drops what has not started. The event stays
            # set on the scheduler (a few bytes per cancelled batch): a worker that looks
            # late must still see it.
            Event(cancel_event(self.batch), client=self.client).set()
            self.client.cancel(running)

    def _stopped(self) -> bool:
        with self.lock:
            return self.cancelled

    def _wait(self) -> list[Future[bytes]]:
        arrivals = [self.landed.get()]
        while True:
            try:
                arrivals.append(self.landed.get_nowait())
            except queue.Empty:
                break
        return [f for f in arrivals if isinstance(f, Future)]

    def _fetch(self, landed: list[Future[bytes]]) -> list[tuple[int, bytes | BaseException]]:
        """What the landed tasks of this batch brought: each chunk's blob, or its error."""
        with self.lock:
            if self.cancelled:
                return []
            mine = [(f, self.in_flight.pop(f)) for f in landed if f in self.in_flight]
        finished = [(f, c) for f, c in mine if f.status == "finished"]
        try:
            blobs: list[bytes] = self.client.gather([f for f, _ in finished]) if finished else []
        except CancelledError:
            if self._stopped():
                return []
            raise
        fetched: list[tuple[int, bytes | BaseException]] = [
            (chunk, blob) for (_, chunk), blob in zip(finished, blobs, strict=True)
        ]
        return fetched + [(chunk, self._lost(future)) for future, chunk in mine if future.status != "finished"]

    def _free(self) -> int:
        with self.lock:
            return len(self.waiting) if self.window is None else self.window - len(self.in_flight)

    def _submit(self, count: int) -> None:
        with self.lock:
            if self.cancelled:
                return
            picked = [self.waiting.popleft() for _ in range(min(count, len(self.waiting)))]
        if not picked:
            return
        futures: list[Future[bytes]] = self.client.map(
            run_chunk,
            [self.chunks[c][1] for c in picked],
            key=[f"combinators_{self.batch}-{c}" for c in picked],  # one task group per batch,
            pure=False,
            **self.task_options,
            **self.task_kwargs,
        )
        with self.lock:
            self.in_flight.update(zip(futures, picked, strict=True))
        for future in futures:
            future.add_done_callback(self.landed.put)

    def _lost(self, future: Future[bytes]) -> BaseException:
        """Why a task brought nothing: it failed itself (a worker died past its retries, the
        step could not be loaded there), the cluster went away or lost the shipped
        runnable, or someone else cancelled it."""
        if future.status == "error":
            error = future.exception()
            if error is not None:
                return error
        status = self.client.status
        if status != "running":
            return ExecutorError(
                f"the Dask cluster went away while the batch ran (the client is {status}):"
                f" the task {future.key} never finished"
            )
        step = self.task_kwargs["step"]
        if step.status != "finished":
            return ExecutorError(
                f"the cluster lost the runnable shipped for this batch (every worker that held it died or"
                f" restarted): the task {future.key} could not run; the next batch ships it again"
            )
        return CancelledError(f"the task {future.key} was cancelled outside this batch")

    def _read(self, chunk: int, blob: bytes) -> list[ItemOutcome]:
        try:
            return unpack(blob)
        except Exception as error:  # a type the driver cannot import, say
            unread = RemoteError(type(error).__qualname__, f"the outcome could not be read here: {error}", "")
            return self._failed(chunk, unread, "")

    def _failed(self, chunk: int, error: BaseException, where: str) -> list[ItemOutcome]:
        return [ItemOutcome(index, Failure(error), (), where) for index in self.chunks[chunk][0]]
