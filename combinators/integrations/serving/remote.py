"""``RemoteRunnable``: a served chain, called over HTTP, as an ordinary runnable of ours.

It speaks LangServe's protocol, so it can call our servers and LangServe's. Unobserved,
``invoke`` posts to ``/invoke`` and ``stream`` reads ``/stream``. When someone watches
(``astream_events``, ``astream_log``, listeners, recordings, a parent's events), it
reads ``/stream_events`` instead and adopts the server's runs as child runs of its own
(``Scope.adopt``: run ids kept, parents re-pointed, ``{"remote": url}`` added to their
metadata): a remote chain inside ``pre | remote | post`` shows its model's tokens and
tools like a local one. Closing the local stream closes the HTTP
stream, which cancels the server's run. Errors come back typed (``RemoteRunnableError``; a 429
is a ``RemoteRateLimited``, which ``with_retry`` can target).

>>> remote = RemoteRunnable[str, str]("http://127.0.0.1:8000/chat/", timeout=30)
>>> remote
RemoteRunnable('http://127.0.0.1:8000/chat', timeout=30)
>>> remote.input_schema()
{'title': 'RemoteRunnableInput'}
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any, Never, TypedDict, TypeVar, Unpack, cast, final

import attrs

from combinators.graph import Fragment, Graph, GraphBuilder, RunPlace
from combinators import Runnable
from combinators.authoring import init_fields, sensitive
from combinators.integrations.serving.bodies import InputCheck
from combinators.integrations.serving.remote_errors import RemoteRunnableError
from combinators.integrations.serving.remote_events import ServerEvents
from combinators.integrations.serving.remote_http import (
    RemoteAuth,
    ClientSettings,
    Connections,
    aget_json,
    apost_json,
    asse_frames,
    post_json,
    sse_frames,
)
from combinators.integrations.serving.wire import WireTypes, from_wire, to_wire, wire_types
from effects import NOTHING, RunStreamed, Scope
from effects.projections.jsonable import JsonValue
from combinators import InputError, InputValueError, RunConfig
from effects.authoring import atotal_or_nothing, total_or_nothing, is_dict, is_list_or_tuple, is_mapping, is_str_mapping

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)


def _json_only(value: object) -> object:
    """Config values that are JSON data; others (local objects) are left out, as LangServe does."""
    if is_mapping(value):
        return {key: _json_only(item) for key, item in value.items() if isinstance(key, str) and _is_json(item)}
    if is_list_or_tuple(value):
        return [_json_only(item) for item in value if _is_json(item)]
    return value


def _output(answer: object) -> object:
    return answer.get("output") if is_dict(answer) else None


def _is_json(value: object) -> bool:
    return value is None or isinstance(value, str | int | float | bool | list | tuple | Mapping)


def _config(config: RunConfig) -> dict[str, object]:
    return {
        "tags": list(config.tags),
        "metadata": _json_only(config.metadata),
        "recursion_limit": config.recursion_limit,
        "configurable": _json_only(config.configurable),
    }


class RemoteOptions(TypedDict, total=False):
    """``RemoteRunnable``'s keyword parameters but ``schemas``, as ``connect`` takes them.

    >>> RemoteOptions(timeout=5.0, headers={"x-team": "a"})
    {'timeout': 5.0, 'headers': {'x-team': 'a'}}
    """

    timeout: float | None
    headers: Mapping[str, str] | None
    auth: RemoteAuth
    output_types: Sequence[type]


@final
@attrs.frozen(init=False, repr=False)
class RemoteRunnable(Runnable[In, Out]):
    """A chain served at ``url`` (the path a runnable was mounted at), as a runnable.

    ``timeout`` (seconds) bounds each HTTP request; ``headers`` and ``auth`` (an
    ``httpx.Auth`` or a ``(user, password)`` pair) go with every request;
    ``output_types`` are your attrs classes the answers may carry. ``close()`` /
    ``await aclose()`` close its connection pool (or use it as a context manager).
    """

    # Where requests go and with which headers: a served chain's clients may never set them.
    url: str = attrs.field(metadata=sensitive("endpoint"))
    settings: ClientSettings = attrs.field(metadata=sensitive("header"))
    output_types: tuple[type, ...]
    schemas: tuple[Mapping[str, JsonValue], Mapping[str, JsonValue]] | None = attrs.field(eq=False, hash=False)
    """The server's input and output schemas, once ``connect`` has read them."""
    served_graph: Graph | None = attrs.field(eq=False, hash=False)
    """The served chain's graph, once ``connect`` has read it (our servers publish it at
    ``<path>/graph``; LangServe's do not)."""
    connections: Connections = attrs.field(eq=False, hash=False)
    _types: WireTypes = attrs.field(eq=False, hash=False)
    _check: InputCheck | None = attrs.field(eq=False, hash=False)

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        """The served chain's inside, framed as served, when ``connect`` read its graph;
        else one node drawn as a remote runnable (carrying the server's schemas once
        ``connect`` read them; a LangServe server publishes no graph)."""
        if self.served_graph is None:
            return graph.step(self, place, kind="remote")
        return graph.embedded(self.served_graph, place, label=f"served ({self.name})", kind="remote")

    def __init__(
        self,
        url: str,
        *,
        timeout: float | None = None,
        headers: Mapping[str, str] | None = None,
        auth: RemoteAuth = None,
        output_types: Sequence[type] = (),
        schemas: tuple[Mapping[str, JsonValue], Mapping[str, JsonValue]] | None = None,
        graph: Graph | None = None,
    ) -> None:
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"RemoteRunnable needs an http(s) URL, got {url!r}")
        settings = ClientSettings(timeout, dict(headers or {}), auth)
        types = tuple(output_types)
        check = InputCheck(schemas[0]) if schemas is not None else None
        init_fields(
            self, url.rstrip("/"), settings, types, schemas, graph, Connections(settings), wire_types(types), check
        )

    def __repr__(self) -> str:
        timeout = "" if self.settings.timeout is None else f", timeout={self.settings.timeout!r}"
        return f"RemoteRunnable({self.url!r}{timeout})"

    # ------------------------------------------------------------------ set-up

    @classmethod
    async def connect(cls, url: str, **options: Unpack[RemoteOptions]) -> RemoteRunnable[Any, Any]:
        """A remote runnable that knows the server's schemas and checks inputs before sending,
        and draws the served chain's inside when the server publishes its graph (ours do)
        (``options``: the constructor's ``timeout``, ``headers``, ``auth``, ``output_types``)."""
        probe: RemoteRunnable[Never, object] = RemoteRunnable(url, **options)
        try:
            input_schema = await aget_json(probe.connections, f"{probe.url}/input_schema")
            output_schema = await aget_json(probe.connections, f"{probe.url}/output_schema")
            graph = await _served_graph(probe)
        finally:
            await probe.aclose()
        if not isinstance(input_schema, dict) or not isinstance(output_schema, dict):
            raise ValueError(f"{url} did not answer JSON Schemas for its input and output")
        return RemoteRunnable(url, **options, schemas=(input_schema, output_schema), graph=graph)

    def close(self) -> None:
        """Close the sync connection pool (a later call opens a new one)."""
        self.connections.close()

    async def aclose(self) -> None:
        """Close the connection pools."""
        await self.connections.aclose()

    def __enter__(self) -> RemoteRunnable[In, Out]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> RemoteRunnable[In, Out]:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def input_schema(self) -> dict[str, JsonValue]:
        """The server's input schema once connected (else an open one, as LangServe's).

        >>> RemoteRunnable("http://127.0.0.1:1/x", schemas=({"type": "string"}, {})).input_schema()
        {'type': 'string'}
        """
        return dict(self.schemas[0]) if self.schemas else {"title": "RemoteRunnableInput"}

    def output_schema(self) -> dict[str, JsonValue]:
        """The server's output schema once connected.

        >>> RemoteRunnable("http://127.0.0.1:1/x").output_schema()
        {'title': 'RemoteRunnableOutput'}
        """
        return dict(self.schemas[1]) if self.schemas else {"title": "RemoteRunnableOutput"}

    # ------------------------------------------------------------------ running

    def _body(self, input: object, scope: Scope, kwargs: Mapping[str, object]) -> dict[str, object]:
        if kwargs:
            raise InputError(
                f"{self!r} takes no keyword arguments (the server would not pass them on), got {sorted(kwargs)}"
            )
        if self._check is not None:
            problems = self._check.problems(to_wire(input), ("input",))
            if problems:
                where = "; ".join(f"{p['loc']}: {p['msg']}" for p in problems)
                raise InputValueError(f"{self!r} expects an input that fits the server's input schema: {where}")
        return {"input": to_wire(input), "config": _config(scope.config), "kwargs": {}}

    def _out(self, value: object) -> Out:
        # What the server answered, decoded: of the output type the caller gave this remote.
        return cast(Out, value)

    def _decode(self, value: object) -> Out:
        return self._out(from_wire(value, self._types))

    def step_invoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        body = self._body(input, scope, kwargs)
        if scope.run is None:
            answer = post_json(self.connections, f"{self.url}/invoke", body)
            return self._decode(_output(answer))
        events = ServerEvents(self.url, self._types)
        for _ in self._observed(body, scope, events):
            pass
        return self._root_output(events)

    async def step_ainvoke(self, input: In, scope: Scope, kwargs: Mapping[str, object]) -> Out:
        body = self._body(input, scope, kwargs)
        if scope.run is None:
            answer = await apost_json(self.connections, f"{self.url}/invoke", body)
            return self._decode(_output(answer))
        events = ServerEvents(self.url, self._types)
        async for _ in self._aobserved(body, scope, events):
            pass
        return self._root_output(events)

    def step_stream(self, inputs: Iterator[In], scope: Scope, kwargs: Mapping[str, object]) -> Iterator[Out]:
        body = self._body(total_or_nothing(inputs), scope, kwargs)
        if scope.run is not None:
            for chunk in self._observed(body, scope, ServerEvents(self.url, self._types)):
                yield self._out(chunk)
            return
        with sse_frames(self.connections, f"{self.url}/stream", body) as frames:
            for event, data in frames:
                if event == "data":
                    yield self._decode(data)

    async def step_astream(
        self, inputs: AsyncIterator[In], scope: Scope, kwargs: Mapping[str, object]
    ) -> AsyncIterator[Out]:
        body = self._body(await atotal_or_nothing(inputs), scope, kwargs)
        if scope.run is not None:
            async for chunk in self._aobserved(body, scope, ServerEvents(self.url, self._types)):
                yield self._out(chunk)
            return
        async with asse_frames(self.connections, f"{self.url}/stream", body) as frames:
            async for event, data in frames:
                if event == "data":
                    yield self._decode(data)

    # ------------------------------------------------------------------ observed runs

    def _observed(self, body: dict[str, object], scope: Scope, events: ServerEvents) -> Iterator[object]:
        """The server root's chunks, adopting every run of the server's as it comes."""
        with sse_frames(self.connections, f"{self.url}/stream_events", body) as frames:
            for kind, data in frames:
                effect = events.effect(data) if kind == "data" else None
                if effect is not None:
                    scope.adopt((effect,), self._where)
                    if isinstance(effect, RunStreamed) and str(effect.run.run_id) == events.root_id:
                        yield effect.chunk

    async def _aobserved(self, body: dict[str, object], scope: Scope, events: ServerEvents) -> AsyncIterator[object]:
        async with asse_frames(self.connections, f"{self.url}/stream_events", body) as frames:
            async for kind, data in frames:
                effect = events.effect(data) if kind == "data" else None
                if effect is not None:
                    scope.adopt((effect,), self._where)
                    if isinstance(effect, RunStreamed) and str(effect.run.run_id) == events.root_id:
                        yield effect.chunk

    @property
    def _where(self) -> dict[str, object]:
        """The metadata every adopted run gets: where it ran."""
        return {"remote": self.url}

    def _root_output(self, events: ServerEvents) -> Out:
        if events.root_output is NOTHING:
            raise InputValueError(f"{self!r}: the server's events ended without its run's output")
        return self._out(events.root_output)


async def _served_graph(probe: RemoteRunnable[Never, object]) -> Graph | None:
    """The graph the server publishes, or None where it publishes none (a LangServe
    server answers 404)."""
    try:
        data = await aget_json(probe.connections, f"{probe.url}/graph")
    except RemoteRunnableError as error:
        if error.status == 404:
            return None
        raise
    if not is_str_mapping(data):
        raise ValueError(f"{probe.url}/graph did not answer a graph")
    return Graph.from_json(data)
