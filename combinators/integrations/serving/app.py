"""``serve`` and ``mount``: any runnable over HTTP, with LangServe's wire protocol.

>>> from combinators import RunnableLambda
>>> from starlette.testclient import TestClient
>>> def shout(text: str) -> str:
...     return text.upper() + "!"
>>> app = serve({"/shout": RunnableLambda(shout)})
>>> with TestClient(app) as client:
...     client.post("/shout/invoke", json={"input": "hi"}).json()["output"]
'HI!'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypedDict, Unpack
from uuid import UUID

import attrs

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from combinators import AnyRunnable, Runnable
from combinators.integrations.serving.config import AuthHook, PerRequestHook, config_schema
from combinators.integrations.serving.errors import ErrorInfo, ErrorMap
from combinators.integrations.serving.http import RunGate
from combinators.integrations.serving.openapi import openapi_document
from combinators.integrations.serving.options import ClientConfigurable, ServeOptions, Served
from combinators.integrations.serving.pages import (
    STYLESHEET,
    DocsPage,
    IndexPage,
    JsonPage,
    PlaygroundPage,
    Redirect,
    Stylesheet,
)
from combinators.integrations.serving.routes import POST_ROUTES, PostRoute
from effects.authoring import is_a
from effects.projections.jsonable import JsonValue


class ServeSettings(TypedDict, total=False):
    """The keyword arguments of ``serve`` and ``mount`` (the fields of ``ServeOptions``).

    >>> settings: ServeSettings = {"max_concurrent_runs": 8, "timeout": 30.0}
    >>> serve({}, **settings).state.serving.limit
    8
    """

    config_keys: Sequence[str]
    client_configurable: ClientConfigurable
    auth: AuthHook | None
    per_request: PerRequestHook | None
    error_map: ErrorMap | None
    max_body_bytes: int
    max_json_depth: int
    max_int_digits: int
    max_concurrent_runs: int | None
    timeout: float | None
    queue_size: int
    ping_interval: float
    input_types: Sequence[type]
    playground: bool
    new_run_id: Callable[[], UUID]


def _path(path: str) -> str:
    if not path.startswith("/"):
        raise ValueError(f"a path must start with '/', got {path!r}")
    trimmed = path.rstrip("/")
    return trimmed or "/"


def _routes(served: Served) -> list[BaseRoute]:
    base = "" if served.path == "/" else served.path
    # Each route also under LangServe's /c/{config_hash}/ (a config in the path: config_hash.py).
    prefixes = (base, f"{base}/c/{{config_hash}}")
    routes: list[BaseRoute] = [
        Route(f"{prefix}/{name}", PostRoute(served, name), methods=["POST"])
        for prefix in prefixes
        for name in POST_ROUTES
    ]
    runnable = served.runnable
    schemas = {
        "input_schema": lambda: dict(served.input_check.schema),
        "output_schema": runnable.output_schema,
        "config_schema": lambda: config_schema(served.policy, runnable.config_schema()),
        "graph": lambda: _graph(served),
    }
    routes += [
        Route(f"{prefix}/{name}", JsonPage(served, page), methods=["GET"])
        for prefix in prefixes
        for name, page in schemas.items()
    ]
    if served.options.playground:
        page = PlaygroundPage(served)
        for prefix in prefixes:
            routes += [
                Route(f"{prefix}/playground", Redirect(served, f"{prefix}/playground/"), methods=["GET"]),
                Route(f"{prefix}/playground/", page, methods=["GET"]),
                Route(f"{prefix}/playground/{{file_path}}", page, methods=["GET"]),
            ]
    return routes


def _graph(served: Served) -> dict[str, JsonValue]:
    """The chain's graph as data for a client's drawings: names, kinds and edges, each
    node's run path starting with the root run's name here (the served path) so that the
    runs a client adopts mark their nodes. Only the ends carry schemas (the input and
    output schemas the schema pages publish anyway): an inner step's schema may show what
    the server does not publish (a function's defaults, say)."""
    graph = served.runnable.get_graph()
    ends = (graph.first_node().id, graph.last_node().id)
    nodes = tuple(
        n if n.id in ends else attrs.evolve(n, path=(served.path, *n.path[1:]), input_schema={}, output_schema={})
        for n in graph.nodes
    )
    data: dict[str, JsonValue] = attrs.evolve(graph, nodes=nodes).to_json()
    return data


def _served(runnable: AnyRunnable, path: str, options: ServeOptions, gate: RunGate) -> Served:
    if not is_a(runnable, Runnable):  # callers may ignore the types
        raise TypeError(f"{path} must be served a Runnable, got {type(runnable).__name__}")
    return Served(runnable, _path(path), options, gate)


def serve(runnables: Mapping[str, AnyRunnable], **settings: Unpack[ServeSettings]) -> Starlette:
    """A Starlette (ASGI) app serving each runnable at its path, plus ``/openapi.json``,
    its page ``/docs``, ``/playground.css`` (the root pages' stylesheet) (and ``<path>/openapi.json``, ``<path>/docs`` for each path) and
    ``/``: the playground of the one path served, or an index of several.

    Run it with uvicorn (``uvicorn.run(app)``), or from the command line with
    ``python -m combinators.integrations.serving module:attribute``. The settings are
    shared by all paths (``max_concurrent_runs`` counts runs on every path together):

    - ``config_keys``: the config keys a client may set (``("configurable",)``);
    - ``client_configurable``: the ``configurable`` ids a client may set (none by
      default; others are dropped), one set for all paths or ``{path: ids}``; an id a
      component declares sensitive (a URL, a key, headers) is refused here unless its
      ``ConfigurableField`` says ``client_settable=True`` (see docs/security.md);
    - ``auth(request)``: the principal, or ``None`` for a 401; runs before the body is
      read, on every route; ``per_request(config, principal, request)``: the run's config;
    - ``error_map(exception)``: an ``ErrorInfo``, or ``None`` for the defaults;
    - ``max_body_bytes`` (413 above it), ``max_json_depth`` and ``max_int_digits`` (a
      400 naming the limit, before anything runs), ``max_concurrent_runs`` (503 when full),
      ``timeout`` (504 or an error frame), ``queue_size`` (frames a stream may hold
      ahead of its reader), ``ping_interval`` (seconds between keep-alive comments);
    - ``input_types``: your attrs classes that inputs may carry; ``playground``: serve the page.

    >>> from combinators import RunnableLambda
    >>> app = serve({"/echo": RunnableLambda(str)}, max_concurrent_runs=4)
    >>> app.state.serving.limit
    4
    """
    options = ServeOptions(**settings)
    gate = RunGate(options.max_concurrent_runs)
    served = [_served(runnable, path, options, gate) for path, runnable in runnables.items()]
    chosen = options.client_configurable
    unknown = sorted(set(chosen) - {one.path for one in served}) if isinstance(chosen, Mapping) else []
    if unknown:
        raise ValueError(f"client_configurable names paths that are not served: {', '.join(unknown)}")
    routes = [route for one in served for route in _routes(one)]
    if served:
        routes += [
            Route("/", IndexPage(served), methods=["GET"]),
            Route("/openapi.json", JsonPage(served[0], lambda: openapi_document(served)), methods=["GET"]),
            Route("/docs", DocsPage(served[0]), methods=["GET"]),
            Route(STYLESHEET, Stylesheet(served[0]), methods=["GET"]),
        ]
        routes += [route for one in served if one.path != "/" for route in _docs_routes(one)]
    app = Starlette(routes=routes, exception_handlers={HTTPException: _json_http_error})
    app.state.serving = gate
    return app


async def _json_http_error(request: Request, error: Exception) -> Response:
    """404 and 405 as JSON too, in the error shape every route answers."""
    status = error.status_code if isinstance(error, HTTPException) else 500
    reason = error.detail if isinstance(error, HTTPException) else "Internal Server Error"
    kind = {404: "NotFound", 405: "MethodNotAllowed"}.get(status, f"HTTP{status}")
    headers = dict(error.headers or {}) if isinstance(error, HTTPException) else {}
    return JSONResponse(ErrorInfo(status, kind, reason).to_json(), status, headers)


def _docs_routes(served: Served) -> list[BaseRoute]:
    """``<path>/openapi.json`` (this path's document) and ``<path>/docs``, its page (the
    playground links to ``../docs``)."""
    base = "" if served.path == "/" else served.path
    return [
        Route(f"{base}/openapi.json", JsonPage(served, lambda: openapi_document([served])), methods=["GET"]),
        Route(f"{base}/docs", DocsPage(served), methods=["GET"]),
    ]


def mount(app: Starlette, path: str, runnable: AnyRunnable, **settings: Unpack[ServeSettings]) -> None:
    """Add a runnable's routes (and ``<path>/openapi.json``, ``<path>/docs``) to an existing Starlette app.

    Takes the same settings as ``serve``; ``max_concurrent_runs`` counts this path's runs.

    >>> from combinators import RunnableLambda
    >>> app = Starlette()
    >>> mount(app, "/echo", RunnableLambda(str))
    >>> sorted({route.path for route in app.routes if route.path.startswith("/echo/s")})
    ['/echo/stream', '/echo/stream_events', '/echo/stream_log']
    """
    options = ServeOptions(**settings)
    served = _served(runnable, path, options, RunGate(options.max_concurrent_runs))
    for route in [*_routes(served), *_docs_routes(served)]:
        app.router.routes.append(route)
