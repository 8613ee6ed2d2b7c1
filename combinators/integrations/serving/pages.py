"""The GET routes: JSON Schemas, the OpenAPI document, its ``docs`` page, the playground's
static files, and ``/`` (the playground, or an index of the served paths).

Each runs the ``auth`` hook first, like the POST routes: the docs and the playground are
no way around it. The playground is one HTML page with plain JavaScript, shipped in the
package (no build step); it talks to the routes next to it, with the page's credentials.
The docs page is one self-contained HTML file that reads the ``openapi.json`` next to it
(no CDN: it works offline).

>>> sorted(PLAYGROUND_FILES)
['index.html', 'playground.css', 'playground.js']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from importlib import resources
from typing import Final, final

import attrs
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from combinators.integrations.serving.config_hash import path_config
from combinators.integrations.serving.errors import INTERNAL_ERROR, ErrorInfo, Rejected, log
from combinators.integrations.serving.http import send_bytes, send_error, send_json
from combinators.integrations.serving.options import Served
from combinators.integrations.serving.routes import authenticate
from effects.projections import JsonValue

PLAYGROUND_FILES: Final = {
    "index.html": b"text/html; charset=utf-8",
    "playground.js": b"text/javascript; charset=utf-8",
    "playground.css": b"text/css; charset=utf-8",
}
NOT_FOUND: Final = ErrorInfo(404, "NotFound", "no such file")
HTML: Final = b"text/html; charset=utf-8"
STYLESHEET: Final = "/playground.css"
"""Where ``serve`` answers the stylesheet of the pages at its root (``Stylesheet``)."""


def playground_file(name: str) -> bytes:
    """The bytes of one of the playground's files.

    >>> playground_file("index.html").startswith(b"<!doctype html>")
    True
    """
    return resources.files("combinators.integrations.serving.playground").joinpath(name).read_bytes()


async def allowed(served: Served, request: Request, send: Send) -> bool:
    """Whether the ``auth`` hook names a principal and a config hash in the path (``/c/...``)
    holds only what clients may set; when not, the 401, 400 or 422 has been answered."""
    try:
        await authenticate(served, request)
        path_config(served, request)
    except Rejected as rejected:
        await send_error(send, rejected.info)
        return False
    except Exception:
        log.exception("the auth hook failed on %s", request.url.path)
        await send_error(send, INTERNAL_ERROR)
        return False
    return True


@attrs.frozen(eq=False)
class _Page:
    """A GET route that runs the ``auth`` hook first: ``answer`` only when it allows."""

    served: Served

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        if await allowed(self.served, request, send):
            await self.answer(request, send)

    async def answer(self, request: Request, send: Send) -> None:
        raise NotImplementedError


@final
@attrs.frozen(eq=False)
class JsonPage(_Page):
    """A GET route answering a JSON document (computed per request: schemas may be costly once)."""

    document: Callable[[], JsonValue]

    async def answer(self, request: Request, send: Send) -> None:
        await send_json(send, 200, self.document())


@final
@attrs.frozen(eq=False)
class PlaygroundPage(_Page):
    """The playground's files, under ``<path>/playground/`` (``index.html`` at the folder)."""

    async def answer(self, request: Request, send: Send) -> None:
        name = request.path_params.get("file_path") or "index.html"
        content_type = PLAYGROUND_FILES.get(name)
        if content_type is None:
            await send_error(send, NOT_FOUND)
            return
        headers = [(b"content-type", content_type), (b"cache-control", b"no-cache")]
        await send_bytes(send, 200, playground_file(name), headers)


@final
@attrs.frozen(eq=False)
class Redirect(_Page):
    """``<path>/playground`` to ``<path>/playground/`` (the page's links are relative), once
    the ``auth`` hook has named a principal."""

    target: str

    async def answer(self, request: Request, send: Send) -> None:
        config_hash = request.path_params.get("config_hash")  # checked by allowed: URL-safe characters
        target = self.target if config_hash is None else self.target.replace("{config_hash}", config_hash)
        await _redirect(send, target)


async def _redirect(send: Send, target: str) -> None:
    await send_bytes(send, 307, b"", [(b"location", target.encode("utf-8"))])


def _html_headers() -> list[tuple[bytes, bytes]]:
    return [(b"content-type", HTML), (b"cache-control", b"no-cache")]


@final
@attrs.frozen(eq=False)
class DocsPage(_Page):
    """The OpenAPI page: ``docs.html``, which reads the ``openapi.json`` next to it."""

    async def answer(self, request: Request, send: Send) -> None:
        await send_bytes(send, 200, playground_file("docs.html"), _html_headers())


@final
@attrs.frozen(eq=False)
class Stylesheet(_Page):
    """``/playground.css``: the playground's stylesheet for the pages at the root (the index
    of several paths), served whether or not the playground is.

    >>> from starlette.testclient import TestClient
    >>> from combinators import RunnableLambda
    >>> from combinators.integrations.serving import serve
    >>> app = serve({"/a": RunnableLambda(str), "/b": RunnableLambda(str)}, playground=False)
    >>> with TestClient(app) as client:
    ...     client.get("/playground.css").headers["content-type"]
    'text/css; charset=utf-8'
    """

    async def answer(self, request: Request, send: Send) -> None:
        headers = [(b"content-type", PLAYGROUND_FILES["playground.css"]), (b"cache-control", b"no-cache")]
        await send_bytes(send, 200, playground_file("playground.css"), headers)


def _base(served: Served) -> str:
    return "" if served.path == "/" else served.path


def index_html(served: Sequence[Served]) -> bytes:
    """The page ``/`` answers when several paths are served: each with its links.

    >>> from combinators import RunnableLambda
    >>> from combinators.integrations.serving.http import RunGate
    >>> from combinators.integrations.serving.options import ServeOptions
    >>> served = [Served(RunnableLambda(str), p, ServeOptions(), RunGate(None)) for p in ("/a", "/b")]
    >>> b'href="/b/playground/"' in index_html(served)
    True
    >>> b'<link rel="stylesheet" href="/playground.css">' in index_html(served)
    True
    """
    rows: list[str] = []
    for one in served:
        base = escape(_base(one))
        links = [f'<a href="{base}/playground/">playground</a>'] if one.options.playground else []
        links += [
            f'<a href="{base}/input_schema">input schema</a>',
            f'<a href="{base}/output_schema">output schema</a>',
        ]
        rows.append(f"<li><code>{escape(one.path)}</code> {' · '.join(links)}</li>")
    page = (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Served chains</title>'
        f'<link rel="stylesheet" href="{STYLESHEET}"></head>'
        '<body class="index"><header><h1>Served chains</h1><nav><a href="/docs">API docs</a></nav></header>'
        f'<main class="index"><ul class="panel">{"".join(rows)}</ul></main></body></html>\n'
    )
    return page.encode("utf-8")


@final
class IndexPage:
    """``/``: one served path redirects to its playground (or, without one, to ``/docs``);
    several get an index of their links."""

    __slots__ = ("served",)

    def __init__(self, served: Sequence[Served]) -> None:
        self.served = tuple(served)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not await allowed(self.served[0], Request(scope, receive), send):
            return
        if len(self.served) == 1:
            (one,) = self.served
            await _redirect(send, f"{_base(one)}/playground/" if one.options.playground else "/docs")
            return
        await send_bytes(send, 200, index_html(self.served), _html_headers())
