"""A local server that speaks the OpenAI protocol: records requests, replays scripted replies.

It listens on 127.0.0.1 on a free port, in a background thread. Each request takes the
next scripted reply (or asks a ``responder`` function); replies are JSON bodies with a
status, server-sent-event streams (optionally cut off mid-stream), or delays, so tests
cover non-streaming calls, token streams, tool-call deltas, error statuses and broken
connections without the internet.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

import attrs


@attrs.frozen
class Recorded:
    """One request the server received."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: dict[str, Any]


@attrs.frozen
class JsonReply:
    """A JSON answer with a status (and headers such as ``retry-after-ms``)."""

    body: object
    status: int = 200
    headers: Mapping[str, str] = attrs.field(factory=dict)
    delay: float = 0.0


@attrs.frozen
class SseReply:
    """A ``text/event-stream`` answer: one ``data:`` event per item, then ``[DONE]``.

    ``break_after`` drops the connection after that many events, without finishing
    the chunked body (a broken stream); ``done=False`` ends cleanly without ``[DONE]``.
    """

    events: Sequence[object]
    break_after: int | None = None
    done: bool = True
    delay: float = 0.0


Reply = JsonReply | SseReply
Responder = Callable[[Recorded], Reply]


def error_body(message: str, *, type_: str = "invalid_request_error", code: str | None = None) -> dict[str, Any]:
    """OpenAI's error shape."""
    return {"error": {"message": message, "type": type_, "param": None, "code": code}}


def completion(
    content: str | None = "",
    *,
    model: str = "fake-model",
    tool_calls: Sequence[Mapping[str, Any]] = (),
    finish_reason: str = "stop",
    usage: Mapping[str, Any] | None = None,
    id: str = "chatcmpl-1",
) -> dict[str, Any]:
    """A ``chat.completion`` body."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [dict(call) for call in tool_calls]
    return {
        "id": id,
        "object": "chat.completion",
        "created": 1700000000,
        "model": model,
        "system_fingerprint": "fp_test",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason, "logprobs": None}],
        "usage": dict(usage) if usage is not None else {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12},
    }


def tool_call(name: str, arguments: str, id: str) -> dict[str, Any]:
    """A complete tool call of a ``chat.completion``."""
    return {"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}


def chunk(
    delta: Mapping[str, Any] | None = None,
    *,
    finish_reason: str | None = None,
    model: str = "fake-model",
    usage: Mapping[str, Any] | None = None,
    choices: bool = True,
    id: str = "chatcmpl-s1",
) -> dict[str, Any]:
    """A ``chat.completion.chunk`` body."""
    body: dict[str, Any] = {
        "id": id,
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": model,
        "system_fingerprint": "fp_test",
        "choices": [{"index": 0, "delta": dict(delta or {}), "finish_reason": finish_reason, "logprobs": None}]
        if choices
        else [],
    }
    if usage is not None:
        body["usage"] = dict(usage)
    return body


def text_stream(
    tokens: Sequence[str], *, usage: Mapping[str, Any] | None = None, model: str = "fake-model"
) -> list[dict[str, Any]]:
    """The chunks of a streamed text reply: a role chunk, one chunk per token, the finish, the usage."""
    events = [chunk({"role": "assistant", "content": ""}, model=model)]
    events += [chunk({"content": token}, model=model) for token in tokens]
    events.append(chunk({}, finish_reason="stop", model=model))
    usage = (
        usage
        if usage is not None
        else {"prompt_tokens": 5, "completion_tokens": len(tokens), "total_tokens": 5 + len(tokens)}
    )
    events.append(chunk(choices=False, usage=usage, model=model))
    return events


def embedding_response(vectors: Sequence[Sequence[float]], *, order: Sequence[int] | None = None) -> dict[str, Any]:
    """An ``/embeddings`` body; ``order`` lists the indexes in the order they are sent."""
    indexes = list(order) if order is not None else list(range(len(vectors)))
    return {
        "object": "list",
        "model": "fake-embed",
        "data": [{"object": "embedding", "index": i, "embedding": list(vectors[i])} for i in indexes],
        "usage": {"prompt_tokens": 1, "total_tokens": 1},
    }


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 10  # a stuck keep-alive connection frees its thread
    server: _Server

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else {}
        recorded = Recorded("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        owner = self.server.owner
        reply = owner.record_and_choose(recorded)
        with owner.tracking():
            if reply.delay:
                time.sleep(reply.delay)
            if isinstance(reply, JsonReply):
                self._send_json(reply)
            else:
                self._send_sse(reply)

    def _send_json(self, reply: JsonReply) -> None:
        data = json.dumps(reply.body).encode()
        self.send_response(reply.status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for key, value in reply.headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _send_sse(self, reply: SseReply) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        for number, event in enumerate(reply.events):
            if reply.break_after is not None and number >= reply.break_after:
                self.close_connection = True
                self.wfile.flush()
                self.connection.shutdown(2)  # drop it: no terminating chunk
                return
            text = event if isinstance(event, str) else f"data: {json.dumps(event)}\n\n"
            self._write_chunk(text.encode())
        if reply.done:
            self._write_chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: FakeOpenAIServer

    def handle_error(self, request: socket.socket | tuple[bytes, socket.socket], client_address: Any) -> None:
        # Tests close streams early on purpose: a client gone mid-exchange is no error.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class FakeOpenAIServer:
    """The server; use as a context manager (``url`` is the API root, ending in ``/v1``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._replies: deque[Reply] = deque()
        self.responder: Responder | None = None
        self.requests: list[Recorded] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._http = _Server(("127.0.0.1", 0), _Handler)
        self._http.owner = self
        # A short poll interval: shutdown() waits up to one interval.
        self._thread = threading.Thread(target=self._http.serve_forever, args=(0.01,), name="fake-openai", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def __enter__(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(5)

    def script(self, *replies: Reply) -> None:
        """Replies for the next requests, in order."""
        with self._lock:
            self._replies.extend(replies)

    def record_and_choose(self, request: Recorded) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self._replies:
                return self._replies.popleft()
            responder = self.responder
        if responder is not None:
            return responder(request)
        return JsonReply(error_body("the fake server has no scripted reply", type_="server_error"), status=500)

    def tracking(self) -> _InFlight:
        return _InFlight(self)

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [request.body for request in self.requests]


class _InFlight:
    def __init__(self, server: FakeOpenAIServer) -> None:
        self.server = server

    def __enter__(self) -> None:
        with self.server._lock:  # pyright: ignore[reportPrivateUsage]
            self.server.in_flight += 1
            self.server.max_in_flight = max(self.server.max_in_flight, self.server.in_flight)

    def __exit__(self, *_: object) -> None:
        with self.server._lock:  # pyright: ignore[reportPrivateUsage]
            self.server.in_flight -= 1
