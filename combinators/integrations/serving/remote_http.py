"""The HTTP side of ``RemoteRunnable``: its connection pools, JSON calls and SSE frames.

A ``Connections`` holds one ``httpx.Client`` and one ``httpx.AsyncClient`` (per event
loop), made on first use and closed by ``close`` / ``aclose``. Every failure comes out
typed: an error status or an ``error`` frame as the server's ``RemoteRunnableError``, a broken
connection as ``RemoteConnectionError``, a client timeout as ``RemoteTimeout``.

>>> Connections(ClientSettings(timeout=5.0)).settings.timeout
5.0
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, AsyncIterator, Generator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from typing import TypeAlias, TypedDict, final

import attrs
import httpx

from combinators.integrations.serving.errors import ErrorInfo
from combinators._support.service_replies import parse_retry_after
from combinators.integrations.serving.remote_errors import (
    RemoteConnectionError,
    RemoteRunnableError,
    RemoteTimeout,
    remote_error,
)
from effects.projections import JsonValue, SseFrame, SseFrameParser


def _pairs(headers: Mapping[str, str] | tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    items = headers.items() if isinstance(headers, Mapping) else headers
    return tuple(sorted((str(k).lower(), str(v)) for k, v in items))


RemoteAuth: TypeAlias = "httpx.Auth | tuple[str, str] | None"
"""What a remote runnable authenticates with: an ``httpx.Auth``, a ``(user, password)`` pair, or nothing."""


class _ClientKwargs(TypedDict):
    timeout: float | None
    headers: dict[str, str]
    auth: RemoteAuth


@final
@attrs.frozen
class ClientSettings:
    """How to reach the server: timeout (seconds, ``None`` for none), headers, auth.

    >>> ClientSettings(headers={"x-user": "alice"})
    ClientSettings(timeout=None)
    """

    timeout: float | None = None
    headers: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_pairs, repr=False)
    """Sent with every request (kept out of ``repr``: they often carry credentials)."""
    auth: RemoteAuth = attrs.field(default=None, repr=False, hash=False)
    """An ``httpx.Auth`` or a ``(user, password)`` pair."""

    def client_kwargs(self) -> _ClientKwargs:
        return {"timeout": self.timeout, "headers": dict(self.headers), "auth": self.auth}


@final
class Connections:
    """The HTTP clients of one remote runnable (not part of its value: equal remotes may
    have different pools; a copy or an unpickled remote starts with none)."""

    __slots__ = ("settings", "_sync", "_async", "_loop")

    def __init__(self, settings: ClientSettings) -> None:
        self.settings = settings
        self._sync: httpx.Client | None = None
        self._async: httpx.AsyncClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def __reduce__(self) -> tuple[type[Connections], tuple[ClientSettings]]:
        return Connections, (self.settings,)

    def sync(self) -> httpx.Client:
        if self._sync is None:
            self._sync = httpx.Client(**self.settings.client_kwargs())
        return self._sync

    def async_(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        if self._async is None or self._loop is not loop:
            # An AsyncClient's connections belong to the loop that opened them.
            self._async = httpx.AsyncClient(**self.settings.client_kwargs())
            self._loop = loop
        return self._async

    def close(self) -> None:
        if self._sync is not None:
            self._sync.close()
            self._sync = None

    async def aclose(self) -> None:
        self.close()
        if self._async is not None and self._loop is asyncio.get_running_loop():
            await self._async.aclose()
        self._async = None
        self._loop = None


def _failure(response: httpx.Response, body: bytes, url: str) -> RemoteRunnableError:
    try:
        shown: object = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        shown = {"message": body.decode("utf-8", "replace")[:2000] or response.reason_phrase}
    info = ErrorInfo.from_json(shown, response.status_code)
    if info.status_code != response.status_code:
        info = attrs.evolve(info, status_code=response.status_code)
    retry_after = parse_retry_after(response.headers.get("retry-after"))
    if info.retry_after is None and retry_after is not None:
        info = attrs.evolve(info, retry_after=retry_after)
    return remote_error(info, url)


def _transport(error: httpx.TransportError, url: str) -> RemoteRunnableError:
    # No answer came: the message says so (no status); what httpx said stays in the detail.
    if isinstance(error, httpx.TimeoutException):
        return RemoteTimeout(
            ErrorInfo(504, "ClientTimeout", str(error) or type(error).__name__, True), url, answered=False
        )
    return RemoteConnectionError(
        ErrorInfo(503, "ConnectionError", str(error) or type(error).__name__, True), url, answered=False
    )


def _answer(response: httpx.Response, url: str) -> JsonValue:
    if response.status_code >= 400:
        raise _failure(response, response.content, url)
    parsed: JsonValue = response.json()  # JSON text parses to a JsonValue
    return parsed


def post_json(connections: Connections, url: str, body: object) -> JsonValue:
    """POST a JSON body, return the JSON answer (a typed error for an error status)."""
    try:
        response = connections.sync().post(url, json=body)
    except httpx.TransportError as error:
        raise _transport(error, url) from error
    return _answer(response, url)


async def apost_json(connections: Connections, url: str, body: object) -> JsonValue:
    """Async ``post_json``."""
    try:
        response = await connections.async_().post(url, json=body)
    except httpx.TransportError as error:
        raise _transport(error, url) from error
    return _answer(response, url)


async def aget_json(connections: Connections, url: str) -> JsonValue:
    """GET a JSON document."""
    try:
        response = await connections.async_().get(url)
    except httpx.TransportError as error:
        raise _transport(error, url) from error
    return _answer(response, url)


def _data(frame: SseFrame, url: str) -> object:
    if frame.event == "error":
        raise remote_error(ErrorInfo.from_json(json.loads(frame.data or "{}")), url)
    return json.loads(frame.data) if frame.data is not None else None


@contextmanager
def sse_frames(connections: Connections, url: str, body: object) -> Generator[Iterator[tuple[str, object]], None, None]:
    """The ``(event, data)`` frames of a streamed answer, up to ``end``; an ``error``
    frame raises. Leaving the block closes the connection (the server cancels its run)."""
    try:
        with connections.sync().stream("POST", url, json=body, headers={"accept": "text/event-stream"}) as response:
            if response.status_code >= 400:
                raise _failure(response, response.read(), url)
            yield _frames(response.iter_bytes(), url)
    except httpx.TransportError as error:
        raise _transport(error, url) from error


def _frames(chunks: Iterator[bytes], url: str) -> Iterator[tuple[str, object]]:
    parser = SseFrameParser()
    for chunk in chunks:
        for frame in parser.feed(chunk):
            if frame.event == "end":
                return
            yield frame.event or "data", _data(frame, url)
    raise _broken(url)


def _broken(url: str) -> RemoteRunnableError:
    return RemoteConnectionError(
        ErrorInfo(503, "StreamBroken", "the stream ended before its end frame", True),
        url,
        answered=False,
        hint="the stream ended before its end frame",
    )


@asynccontextmanager
async def asse_frames(
    connections: Connections, url: str, body: object
) -> AsyncGenerator[AsyncIterator[tuple[str, object]], None]:
    """Async ``sse_frames``."""
    try:
        async with connections.async_().stream(
            "POST", url, json=body, headers={"accept": "text/event-stream"}
        ) as response:
            if response.status_code >= 400:
                raise _failure(response, await response.aread(), url)
            yield _aframes(response.aiter_bytes(), url)
    except httpx.TransportError as error:
        raise _transport(error, url) from error


async def _aframes(chunks: AsyncIterator[bytes], url: str) -> AsyncIterator[tuple[str, object]]:
    parser = SseFrameParser()
    async for chunk in chunks:
        for frame in parser.feed(chunk):
            if frame.event == "end":
                return
            yield frame.event or "data", _data(frame, url)
    raise _broken(url)
