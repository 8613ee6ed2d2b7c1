"""The GET routes: JSON Schemas, the OpenAPI document and the playground's static files.

Each runs the ``auth`` hook first, like the POST routes: the docs and the playground are
no way around it. The playground is one HTML page with plain JavaScript, shipped in the
package (no build step); it talks to the routes next to it, with the page's credentials.

>>> sorted(PLAYGROUND_FILES)
['index.html', 'playground.css', 'playground.js']
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import Final, final

from starlette.requests import Request
from starlette.types import Receive, Scope, Send

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


def playground_file(name: str) -> bytes:
    """The bytes of one of the playground's files.

    >>> playground_file("index.html").startswith(b"<!doctype html>")
    True
    """
    return resources.files("combinators.integrations.serving.playground").joinpath(name).read_bytes()


async def allowed(served: Served, request: Request, send: Send) -> bool:
    """Whether the ``auth`` hook names a principal; when not, the 401 has been answered."""
    try:
        await authenticate(served, request)
    except Rejected as rejected:
        await send_error(send, rejected.info)
        return False
    except Exception:
        log.exception("the auth hook failed on %s", request.url.path)
        await send_error(send, INTERNAL_ERROR)
        return False
    return True


@final
class JsonPage:
    """A GET route answering a JSON document (computed per request: schemas may be costly once)."""

    __slots__ = ("served", "document")

    def __init__(self, served: Served, document: Callable[[], JsonValue]) -> None:
        self.served = served
        self.document = document

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if await allowed(self.served, Request(scope, receive), send):
            await send_json(send, 200, self.document())


@final
class PlaygroundPage:
    """The playground's files, under ``<path>/playground/`` (``index.html`` at the folder)."""

    __slots__ = ("served",)

    def __init__(self, served: Served) -> None:
        self.served = served

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        if not await allowed(self.served, request, send):
            return
        name = request.path_params.get("file_path") or "index.html"
        content_type = PLAYGROUND_FILES.get(name)
        if content_type is None:
            await send_error(send, NOT_FOUND)
            return
        headers = [(b"content-type", content_type), (b"cache-control", b"no-cache")]
        await send_bytes(send, 200, playground_file(name), headers)


@final
class Redirect:
    """``<path>/playground`` to ``<path>/playground/`` (the page's links are relative)."""

    __slots__ = ("target",)

    def __init__(self, target: str) -> None:
        self.target = target

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send_bytes(send, 307, b"", [(b"location", self.target.encode("utf-8"))])
