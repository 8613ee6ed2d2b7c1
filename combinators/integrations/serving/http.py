"""ASGI plumbing: bounded bodies, JSON answers, and runs that stop when the client leaves.

The routes are plain ASGI apps, so the body is read (and limited) by us, the answer is
written by us, and ``receive`` is watched for ``http.disconnect`` while a run works: a
client that goes away cancels its run, on every route.

>>> RunGate(1).try_start(), RunGate(0).try_start()
(True, False)
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Generator, Iterable
from typing import Final, Generic, TypeVar, cast, final

from starlette.types import Message, Receive, Scope, Send

from combinators.integrations.serving.errors import ErrorInfo, Rejected
from effects.projections import JsonValue, compact_json

T = TypeVar("T")

JSON_HEADERS: Final = ((b"content-type", b"application/json"),)


@final
class ClientGone(Exception):
    """The client disconnected before the answer was complete (logged as 499)."""


@final
class RunGate:
    """Counts runs in flight against ``max_concurrent_runs``, and the deepest stream queue seen.

    >>> gate = RunGate(None)
    >>> gate.try_start(), gate.runs_in_flight
    (True, 1)
    >>> gate.finish(); gate.runs_in_flight
    0
    """

    __slots__ = ("limit", "runs_in_flight", "peak_queue_depth")

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.runs_in_flight = 0
        self.peak_queue_depth = 0
        """The most frames any stream's queue has held (never more than its bound)."""

    def try_start(self) -> bool:
        """Count one more run, unless the limit is reached (then nothing changes)."""
        if self.limit is not None and self.runs_in_flight >= self.limit:
            return False
        self.runs_in_flight += 1
        return True

    def finish(self) -> None:
        """Count one run less."""
        self.runs_in_flight -= 1

    def note_queue_depth(self, depth: int) -> None:
        """Remember a stream queue's depth."""
        if depth > self.peak_queue_depth:
            self.peak_queue_depth = depth


@final
class TrackedSend:
    """``send``, remembering whether the answer has started (after that, no other answer)."""

    __slots__ = ("_send", "started")

    def __init__(self, send: Send) -> None:
        self._send = send
        self.started = False

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
        await self._send(message)


async def read_body(scope: Scope, receive: Receive, limit: int) -> bytes:
    """The whole request body; 413 when it is longer than ``limit`` bytes."""
    for name, value in scope["headers"]:
        if name == b"content-length" and value.isdigit() and int(value) > limit:
            raise _too_large(limit)
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientGone
        part: bytes = message.get("body", b"")
        size += len(part)
        if size > limit:
            raise _too_large(limit)
        parts.append(part)
        if not message.get("more_body", False):
            return b"".join(parts)


def _too_large(limit: int) -> Rejected:
    return Rejected(ErrorInfo(413, "RequestTooLarge", f"the request body is larger than {limit} bytes"))


async def send_bytes(
    send: Send, status: int, body: bytes, headers: Iterable[tuple[bytes, bytes]] = JSON_HEADERS
) -> None:
    """A complete answer with this status, headers and body."""
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [*headers, (b"content-length", str(len(body)).encode("ascii"))],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def send_json(send: Send, status: int, body: JsonValue) -> None:
    """A JSON answer."""
    await send_bytes(send, status, compact_json(body).encode("utf-8"))


def error_headers(info: ErrorInfo) -> list[tuple[bytes, bytes]]:
    """JSON headers, plus ``Retry-After`` (whole seconds, rounded up) when the error says when.

    >>> error_headers(ErrorInfo(429, "RateLimited", "slow", True, 0.2))[-1]
    (b'retry-after', b'1')
    """
    headers = list(JSON_HEADERS)
    if info.retry_after is not None:
        seconds = max(1, int(-(-info.retry_after // 1)))
        headers.append((b"retry-after", str(seconds).encode("ascii")))
    return headers


async def send_error(send: Send, info: ErrorInfo, run_id: str | None = None) -> None:
    """An error answer: ``ErrorInfo``'s JSON (with the run id when a run had started)."""
    body = info.to_json()
    if run_id is not None:
        body["run_id"] = run_id
    await send_bytes(send, info.status_code, compact_json(body).encode("utf-8"), error_headers(info))


async def wait_for_disconnect(receive: Receive) -> None:
    """Return when the client disconnects (the body has been read already)."""
    while True:
        message: Message = await receive()
        if message["type"] == "http.disconnect":
            return


def _returned(finished: StopIteration, coroutine: Coroutine[object, object, T]) -> T:
    # What ``coroutine`` returned, carried by the StopIteration it raised: its T, which no check narrows.
    return cast(T, finished.value)


async def run_while_connected(work: Coroutine[object, object, T], receive: Receive, timeout: float | None) -> T:
    """``work``'s result; if the client disconnects first, ``work`` is cancelled (its
    ``finally`` blocks run) and ``ClientGone`` is raised; past ``timeout``, ``TimeoutError``.

    ``work`` runs in the calling task. Its first step runs before anything else: a run that
    finishes without waiting (a quick chain) needs no watcher at all; one that waits is
    resumed under a watcher of ``receive`` that cancels it when the client goes away.
    """
    try:
        waiting = work.send(None)
    except StopIteration as finished:
        return _returned(finished, work)
    resumed = _Resumed(work, waiting)
    task = asyncio.current_task()
    assert task is not None
    gone = False

    def disconnected(watch: asyncio.Task[None]) -> None:
        nonlocal gone
        if not watch.cancelled() and watch.exception() is None:
            gone = True
            task.cancel()

    watch = asyncio.ensure_future(wait_for_disconnect(receive))
    watch.add_done_callback(disconnected)
    try:
        if timeout is None:
            return await resumed
        async with asyncio.timeout(timeout):
            return await resumed
    except asyncio.CancelledError:
        if gone and task.uncancel() == 0:
            raise ClientGone from None
        raise
    finally:
        watch.remove_done_callback(disconnected)
        watch.cancel()


@final
class _Resumed(Generic[T]):
    """A coroutine already started, awaited from where it stopped (``yield from``, resumed)."""

    __slots__ = ("_coroutine", "_waiting")

    def __init__(self, coroutine: Coroutine[object, object, T], waiting: object) -> None:
        self._coroutine = coroutine
        self._waiting = waiting

    def __await__(self) -> Generator[object, object, T]:
        coroutine, waiting = self._coroutine, self._waiting
        while True:
            try:
                sent = yield waiting
            except GeneratorExit:
                coroutine.close()
                raise
            except BaseException as error:  # a cancellation, thrown into the run
                try:
                    waiting = coroutine.throw(error)
                except StopIteration as finished:
                    return _returned(finished, coroutine)
                continue
            try:
                waiting = coroutine.send(sent)
            except StopIteration as finished:
                return _returned(finished, coroutine)
