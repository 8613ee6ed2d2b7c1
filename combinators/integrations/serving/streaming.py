"""Server-sent event answers with backpressure: the run feeds a bounded queue of frames.

The run (the producer) puts frames in a queue of at most ``queue_size`` frames; the
writer takes what is there and sends it in one write. A slow reader fills the socket,
then the queue, then the producer waits: the run slows down instead of memory growing.
When the client disconnects, the run is cancelled and its ``finally`` blocks run. An
idle stream gets a ``: ping`` comment every ``ping_interval`` seconds.

Frames are the ones ``effects.projections.sse`` writes (the encoder of
``astream_events(encoding="text/event-stream")``): ``metadata`` first (on ``/stream``), then ``data``
frames, then ``end``, or an ``error`` frame as the last frame.

>>> metadata_frame("r-1")
b'event: metadata\\ndata: {"run_id":"r-1"}\\n\\n'
>>> error_frame(ErrorInfo(504, "Timeout", "slow", True))
b'event: error\\ndata: {"status_code":504,"type":"Timeout","message":"slow","retryable":true}\\n\\n'
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncGenerator, Callable
from typing import Final

from starlette.types import Receive, Send

from combinators.integrations.serving.errors import ErrorInfo, ErrorMap
from combinators.integrations.serving.http import RunGate, wait_for_disconnect
from combinators.integrations.serving.json_limits import OutputNotEncodable, encoded
from combinators.integrations.serving.wire import to_wire
from effects.projections import SSE_END, compact_json, sse_comment, sse_frame

SSE_HEADERS: Final = (
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
)
log: Final = logging.getLogger("combinators.serving")
PING: Final = sse_comment("ping")
MAX_WRITE_FRAMES: Final = 256
"""Frames sent in one write at most (a burst is written together, not one by one)."""


def metadata_frame(run_id: str) -> bytes:
    """The first frame of ``/stream``: the run's id."""
    return sse_frame("metadata", compact_json({"run_id": run_id}))


def data_frame(value: object, error_map: ErrorMap | None = None) -> bytes:
    """One ``data`` frame with a value in its wire form, exceptions in it as ``error_map``
    answers them (``OutputNotEncodable`` when it has none: too deep, or a lone surrogate).

    >>> data_frame({"type": "human", "content": "hi"})
    b'event: data\\ndata: {"type":"human","content":"hi"}\\n\\n'
    """
    return b"event: data\ndata: " + encoded(lambda: to_wire(value, error_map)) + b"\n\n"


def error_frame(info: ErrorInfo) -> bytes:
    """The last frame of a stream that failed."""
    return sse_frame("error", compact_json(info.to_json()))


async def send_event_stream(
    send: Send,
    receive: Receive,
    first: bytes,
    frames: AsyncGenerator[bytes, None],
    *,
    queue_size: int,
    ping_interval: float,
    gate: RunGate,
    timeout: float | None,
    on_error: Callable[[Exception], bytes],
) -> bool:
    """Answer with ``first``, ``frames``, then ``end`` (or ``on_error``'s frame when the run
    fails or passes ``timeout``); False when the client left before the end."""
    await send({"type": "http.response.start", "status": 200, "headers": list(SSE_HEADERS)})
    await send({"type": "http.response.body", "body": first, "more_body": True})  # b"": headers only
    queue: asyncio.Queue[bytes | None] = asyncio.Queue(queue_size)
    producer = asyncio.ensure_future(_produce(frames, queue, gate, timeout, on_error))
    writer = asyncio.ensure_future(_write(queue, send, ping_interval))
    watcher = asyncio.ensure_future(wait_for_disconnect(receive))
    try:
        await asyncio.wait((writer, watcher), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (producer, writer, watcher):
            if not task.done():
                task.cancel()
        await asyncio.gather(producer, writer, watcher, return_exceptions=True)
    if writer.cancelled():
        return False
    writer.result()  # a failure to write is the server's own error: let it show
    return True


async def _produce(
    frames: AsyncGenerator[bytes, None],
    queue: asyncio.Queue[bytes | None],
    gate: RunGate,
    timeout: float | None,
    on_error: Callable[[Exception], bytes],
) -> None:
    # aclosing: a producer cancelled while it waits for room still closes the run's
    # generators, so their finally blocks run before the request ends. The timeout
    # covers the waits for room too: a run is timed as the client sees it.
    try:
        async with contextlib.aclosing(frames), asyncio.timeout(timeout):
            async for frame in frames:
                await queue.put(frame)
                gate.note_queue_depth(queue.qsize())
    except OutputNotEncodable as error:  # the run's own output: one line, no traceback
        log.warning("a stream ended: %s", error.info.message)
        await queue.put(error_frame(error.info))
    except Exception as error:
        await queue.put(on_error(error))
    else:
        await queue.put(SSE_END)
    await queue.put(None)


async def _write(queue: asyncio.Queue[bytes | None], send: Send, ping_interval: float) -> None:
    while True:
        if queue.empty():
            try:
                async with asyncio.timeout(ping_interval):
                    frame = await queue.get()
            except TimeoutError:
                await send({"type": "http.response.body", "body": PING, "more_body": True})
                continue
        else:
            frame = queue.get_nowait()
        batch: list[bytes] = []
        while frame is not None:
            batch.append(frame)
            if queue.empty() or len(batch) >= MAX_WRITE_FRAMES:
                break
            frame = queue.get_nowait()
        if batch:
            await send({"type": "http.response.body", "body": b"".join(batch), "more_body": True})
        if frame is None:
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
