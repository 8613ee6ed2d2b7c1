"""The routes of a served runnable, with LangServe's paths and JSON shapes.

``POST invoke``  ``{"output": X, "metadata": {"run_id", "feedback_tokens": []}}``
``POST batch``   ``{"output": [X, ...], "metadata": {"run_ids", "responses"}}`` (plus
``"errors": [null | error, ...]`` when the body asks ``"return_exceptions": true``)
``POST stream``, ``stream_log``, ``stream_events``: server-sent events, ``data`` frames
(chunks; ``{"ops": [...]}`` patches; events), then ``end`` or one ``error`` frame;
``stream`` sends a ``metadata`` frame (the run id) first, as LangServe does, and the
other two none (LangServe's client warns on one there).

Every route runs the ``auth`` hook before it reads the body; no principal is a 401.
Each is served at ``<path>/c/{config_hash}/<route>`` too, LangServe's config-in-the-path
form (``config_hash``), under the same rule as the body's ``config``.

>>> sorted(POST_ROUTES)
['batch', 'invoke', 'stream', 'stream_events', 'stream_log']
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from typing import Final, Literal, final

import attrs
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from combinators.integrations.serving.bodies import (
    Filters,
    optional_bool,
    optional_object,
    per_input,
    problem,
    read_json,
    read_version,
    required,
)
from combinators.integrations.serving.config import call_hook, server_config
from combinators.integrations.serving.config_hash import path_config, with_path_config
from combinators.integrations.serving.errors import INTERNAL_ERROR, ErrorInfo, ErrorMap, Rejected, error_info, invalid
from combinators.integrations.serving.http import (
    ClientGone,
    TrackedSend,
    read_body,
    run_while_connected,
    send_bytes,
    send_error,
)
from combinators.integrations.serving.json_limits import OutputNotEncodable, encoded
from combinators.integrations.serving.options import Served
from combinators.integrations.serving.streaming import (
    data_frame,
    error_frame,
    metadata_frame,
    send_event_stream,
)
from combinators.integrations.serving.wire import RefusedWireValue, from_request, to_wire
from combinators import RunConfig
from effects.projections import JsonValue
from effects.guards import is_str_mapping

log: Final = logging.getLogger("combinators.serving")

UNAUTHORIZED: Final = ErrorInfo(401, "Unauthorized", "no valid credentials")
BUSY: Final = ErrorInfo(503, "Busy", "the server is running as many runs as it may", True, 1.0)


async def authenticate(served: Served, request: Request) -> object:
    """The principal the ``auth`` hook names (``True`` without a hook); 401 when ``None``."""
    auth = served.options.auth
    if auth is None:
        return True
    principal = await call_hook(auth(request))
    if principal is None:
        raise Rejected(UNAUTHORIZED)
    return principal


def _input(served: Served, value: object, loc: tuple[str | int, ...]) -> object:
    problems = served.input_check.problems(value, loc)
    if problems:
        raise invalid(f"the input does not fit {served.path}'s input schema", *problems)
    return _read_wire(served, value, loc)


def _read_wire(served: Served, value: object, loc: tuple[str | int, ...]) -> object:
    try:
        return from_request(value, served.types)
    except RefusedWireValue as refused:
        where = [*loc, *refused.where]
        detail = problem(tuple(where), refused.reason, "wire")
        raise Rejected(ErrorInfo(400, "RefusedInput", refused.reason, detail=(detail,))) from None


@final
@attrs.define(eq=False)
class Call:
    """A checked request: inputs, the client's configs, and what the route asked for."""

    inputs: list[object]
    configs: list[RunConfig]
    body: Mapping[str, object]
    principal: object
    request: Request
    filters: Filters = Filters()
    version: Literal["v1", "v2"] = "v2"

    async def run_configs(self, served: Served) -> list[RunConfig]:
        """The configs the runs get (hooks applied, the server's name and fresh run ids)."""
        options = served.options
        return [
            await server_config(
                config, options.per_request, self.principal, self.request, served.path, options.new_run_id()
            )
            for config in self.configs
        ]


def read_one(served: Served, body: Mapping[str, object], principal: object, request: Request) -> Call:
    """An invoke or stream body."""
    optional_object(body, "kwargs")
    value = _input(served, required(body, "input"), ("body", "input"))
    config = served.policy.read(body.get("config"), ("body", "config"))
    return Call([value], [config], body, principal, request)


def read_log(served: Served, body: Mapping[str, object], principal: object, request: Request) -> Call:
    """A stream_log body: invoke's, plus the filters (``diff`` is always true)."""
    call = read_one(served, body, principal, request)
    optional_bool(body, "diff", True)
    call.filters = Filters.read(body)
    return call


def read_events(served: Served, body: Mapping[str, object], principal: object, request: Request) -> Call:
    """A stream_events body: invoke's, plus the filters and the version."""
    call = read_one(served, body, principal, request)
    call.filters = Filters.read(body)
    call.version = read_version(body)
    return call


def read_batch(served: Served, body: Mapping[str, object], principal: object, request: Request) -> Call:
    """A batch body: every input checked, problems listed per item. ``config`` and
    ``kwargs`` are each one object for every input or a list of one per input (what
    LangChain.js sends); an empty list is none."""
    optional_bool(body, "return_exceptions", False)
    raw = required(body, "inputs")
    if not isinstance(raw, list):
        raise invalid("'inputs' must be a list", problem(("body", "inputs"), "expected an array", "type"))
    items: list[object] = list(raw)  # pyright: ignore[reportUnknownArgumentType]
    per_input(body, "kwargs", len(items))
    problems = [p for i, item in enumerate(items) for p in served.input_check.problems(item, ("body", "inputs", i))]
    if problems:
        raise invalid(f"some inputs do not fit {served.path}'s input schema", *problems)
    sent = per_input(body, "config", len(items))
    kept = [served.policy.read(config, loc) for config, loc in sent]
    inputs = [_read_wire(served, item, ("body", "inputs", i)) for i, item in enumerate(items)]
    return Call(inputs, kept, body, principal, request)


Handler = Callable[[Served, Call, Receive, Send], Awaitable[None]]


async def send_output(send: Send, served: Served, body: Callable[[], JsonValue], run_id: str | None = None) -> None:
    """A 200 with ``body``'s JSON, or, when the output cannot be written as JSON, a short
    ``OutputNotEncodable`` 500 and one log line (no traceback: the run itself ended)."""
    try:
        encoded_body = encoded(body)
    except OutputNotEncodable as error:
        log.warning("%s: %s", served.path, error.info.message)
        await send_error(send, error.info, run_id)
        return
    await send_bytes(send, 200, encoded_body)


async def invoke(served: Served, call: Call, receive: Receive, send: Send) -> None:
    (config,) = await call.run_configs(served)
    run_id = str(config.run_id)
    try:
        output = await run_while_connected(
            served.runnable.ainvoke(call.inputs[0], config), receive, served.options.timeout
        )
    except ClientGone:
        raise
    except Exception as error:
        await send_error(send, error_info(error, served.options.error_map), run_id)
        return
    await send_output(
        send,
        served,
        lambda: {
            "output": to_wire(output, served.options.error_map),
            "metadata": {"run_id": run_id, "feedback_tokens": []},
        },
        run_id,
    )


async def batch(served: Served, call: Call, receive: Receive, send: Send) -> None:
    configs = await call.run_configs(served)
    run_ids: list[JsonValue] = [str(config.run_id) for config in configs]
    return_exceptions = optional_bool(call.body, "return_exceptions", False)
    try:
        outputs = await run_while_connected(
            served.runnable.abatch(call.inputs, configs, return_exceptions=return_exceptions),
            receive,
            served.options.timeout,
        )
    except ClientGone:
        raise
    except Exception as error:
        await send_error(send, error_info(error, served.options.error_map))
        return

    error_map = served.options.error_map

    def answer() -> dict[str, JsonValue]:
        built: dict[str, JsonValue] = {
            "output": [None if isinstance(o, Exception) else to_wire(o, error_map) for o in outputs],
            "metadata": {
                "run_ids": run_ids,
                "responses": [{"run_id": run_id, "feedback_tokens": []} for run_id in run_ids],
            },
        }
        if return_exceptions:
            built["errors"] = [
                error_info(o, error_map).to_json() if isinstance(o, Exception) else None for o in outputs
            ]
        return built

    await send_output(send, served, answer)


async def _stream(
    served: Served,
    call: Call,
    receive: Receive,
    send: Send,
    frames: Callable[[RunConfig], AsyncGenerator[bytes, None]],
    *,
    metadata: bool = False,
) -> None:
    (config,) = await call.run_configs(served)
    options = served.options
    completed = await send_event_stream(
        send,
        receive,
        # LangServe's Python client reads a metadata frame on /stream only; elsewhere it
        # warns "unsupported event type" (the run id is in every event and patch there).
        metadata_frame(str(config.run_id)) if metadata else b"",
        frames(config),
        queue_size=options.queue_size,
        ping_interval=options.ping_interval,
        gate=served.gate,
        timeout=options.timeout,
        on_error=lambda error: error_frame(error_info(error, options.error_map)),
    )
    if not completed:
        raise ClientGone


async def stream(served: Served, call: Call, receive: Receive, send: Send) -> None:
    async def frames(config: RunConfig) -> AsyncGenerator[bytes, None]:
        async for chunk in served.runnable.astream(call.inputs[0], config):
            yield data_frame(chunk, served.options.error_map)

    await _stream(served, call, receive, send, frames, metadata=True)


async def stream_log(served: Served, call: Call, receive: Receive, send: Send) -> None:
    async def frames(config: RunConfig) -> AsyncGenerator[bytes, None]:
        patches = served.runnable.astream_log(call.inputs[0], config, **call.filters.as_kwargs())
        async for patch in patches:
            yield data_frame({"ops": list(patch.ops)}, served.options.error_map)

    await _stream(served, call, receive, send, frames)


async def stream_events(served: Served, call: Call, receive: Receive, send: Send) -> None:
    error_map = served.options.error_map

    async def frames(config: RunConfig) -> AsyncGenerator[bytes, None]:
        events = served.runnable.astream_events(
            call.inputs[0], config, version=call.version, **call.filters.as_kwargs()
        )
        async for event in events:
            yield data_frame(_scrubbed(event, error_map) if event["event"].endswith("_error") else event, error_map)

    await _stream(served, call, receive, send, frames)


def _scrubbed(event: Mapping[str, object], error_map: ErrorMap | None) -> dict[str, object]:
    """An error event carries its error as the error map answers it, never the raw message."""
    given = event["data"]
    data = dict(given) if is_str_mapping(given) else {}
    error = data.get("error")
    if isinstance(error, BaseException):
        data["error"] = error_info(error, error_map, logged=False).to_json()
    return {**event, "data": data}


Reader = Callable[[Served, Mapping[str, object], object, Request], Call]

POST_ROUTES: Final[Mapping[str, tuple[Reader, Handler]]] = {
    "invoke": (read_one, invoke),
    "batch": (read_batch, batch),
    "stream": (read_one, stream),
    "stream_log": (read_log, stream_log),
    "stream_events": (read_events, stream_events),
}


@final
class PostRoute:
    """A POST route as an ASGI app: auth, body, checks, the run gate, then the handler."""

    __slots__ = ("served", "read", "handle")

    def __init__(self, served: Served, name: str) -> None:
        self.served = served
        self.read, self.handle = POST_ROUTES[name]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        tracked = TrackedSend(send)
        try:
            await self._answer(scope, receive, tracked)
        except Exception:
            # A hook that raised, or a bug of ours: still a JSON answer, never text/plain.
            log.exception("%s %s failed", scope["method"], scope["path"])
            if tracked.started:
                raise
            await send_error(send, INTERNAL_ERROR)

    async def _answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        served = self.served
        request = Request(scope, receive)
        try:
            principal = await authenticate(served, request)
            in_path = path_config(served, request)  # LangServe's /c/{config_hash}/... routes
            body = read_json(await read_body(scope, receive, served.options.max_body_bytes), served.json_limits)
            call = self.read(served, body, principal, request)
            call.configs = with_path_config(in_path, call.configs)
        except Rejected as rejected:
            await send_error(send, rejected.info)
            return
        except ClientGone:
            return
        if not served.gate.try_start():
            await send_error(send, BUSY)
            return
        try:
            await self.handle(served, call, receive, send)
        except ClientGone:
            log.info("%s %s: the client disconnected; the run was cancelled (499)", scope["method"], scope["path"])
        finally:
            served.gate.finish()
