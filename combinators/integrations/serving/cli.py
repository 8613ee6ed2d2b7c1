"""The command line: ``python -m combinators.integrations.serving module:attribute``.

The attribute is a runnable, or a function without arguments that returns one. It is
served at ``--path`` (``/<attribute>`` by default) on uvicorn; the first line printed is
the URL it answers at.

uvicorn's connection limits get safe defaults (``SERVER_DEFAULTS``): idle keep-alive
connections close after 5 s, at most 256 connections (and tasks) at once (503 past
them), a request line and headers of at most 16 KiB (the h11 protocol is used, so the
limit applies), and headers must arrive within 10 s (``--timeout-headers``: uvicorn has
no such timeout, so the command line adds one; see ``header_timeout``). Behind a proxy,
see docs/security.md ("Running behind a proxy").

>>> parse_args(["examples.rag:chain", "--port", "0"]).path is None
True
>>> load_target("combinators.integrations.serving.cli:nothing_here")
Traceback (most recent call last):
...
ValueError: combinators.integrations.serving.cli has no attribute 'nothing_here'
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from combinators import AnyRunnable, Runnable
from combinators.integrations.serving.app import serve

if TYPE_CHECKING:
    import uvicorn
    from starlette.applications import Starlette
    from typing_extensions import TypeIs

SERVER_DEFAULTS: Final = {
    "timeout_keep_alive": 5.0,
    "limit_concurrency": 256,
    "h11_max_incomplete_event_size": 16 * 1024,
    "forwarded_allow_ips": "127.0.0.1",
    "timeout_headers": 10.0,
}
"""The uvicorn settings the command line sets unless told otherwise."""

_SERVER_FLAGS: Final[tuple[tuple[str, type[float] | type[int] | type[str], str], ...]] = (
    ("timeout_keep_alive", float, "seconds an idle keep-alive connection stays open"),
    ("limit_concurrency", int, "connections and tasks at once before new requests get 503"),
    ("h11_max_incomplete_event_size", int, "bytes a request line and its headers may take"),
    ("timeout_headers", float, "seconds a request's line and headers may take to arrive"),
    ("forwarded_allow_ips", str, "comma-separated proxy addresses whose X-Forwarded-* headers are trusted"),
)
"""The uvicorn flags of the command line: each one's name, type and meaning."""


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    # --help shows the docstring's prose, not its doctest examples
    about = (__doc__ or "").split("\n>>>", 1)[0].strip()
    ap = argparse.ArgumentParser(prog="python -m combinators.integrations.serving", description=about)
    ap.add_argument("target", help="module:attribute, a runnable or a function that returns one")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    ap.add_argument("--path", default=None, help="where to serve it (default: /<attribute>)")
    ap.add_argument("--config-keys", default="configurable", help="comma-separated config keys clients may set")
    ap.add_argument(
        "--client-configurable",
        default="",
        help="comma-separated configurable ids clients may set (default: none; sensitive fields never)",
    )
    ap.add_argument("--max-concurrent-runs", type=int, default=None)
    ap.add_argument("--max-body-bytes", type=int, default=10 * 1024 * 1024)
    ap.add_argument("--timeout", type=float, default=None, help="seconds a run may take")
    ap.add_argument("--no-playground", action="store_true")
    ap.add_argument("--log-level", default="info")
    server = ap.add_argument_group("connections (uvicorn)")
    for name, kind, meaning in _SERVER_FLAGS:
        server.add_argument(
            f"--{name.replace('_', '-')}",
            type=kind,
            default=SERVER_DEFAULTS[name],
            help=f"{meaning} (default: %(default)s)",
        )
    args = ap.parse_args(argv)
    for name in ("timeout_keep_alive", "limit_concurrency", "h11_max_incomplete_event_size", "timeout_headers"):
        if getattr(args, name) <= 0:
            ap.error(f"--{name.replace('_', '-')} must be positive, got {getattr(args, name)}")
    return args


def server_config(args: argparse.Namespace, app: Starlette) -> uvicorn.Config:
    """The ``uvicorn.Config`` of the parsed arguments.

    >>> args = parse_args(["examples.rag:chain", "--limit-concurrency", "8"])
    >>> config = server_config(args, None)
    >>> config.limit_concurrency, config.timeout_keep_alive, config.h11_max_incomplete_event_size
    (8, 5.0, 16384)
    >>> config.http.header_timeout
    10.0
    """
    import uvicorn

    from combinators.integrations.serving.header_timeout import header_timeout_protocol

    return uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        # h11 (with a header timeout): the header size limit is h11's (httptools has its own)
        http=header_timeout_protocol(args.timeout_headers),
        timeout_keep_alive=args.timeout_keep_alive,
        limit_concurrency=args.limit_concurrency,
        h11_max_incomplete_event_size=args.h11_max_incomplete_event_size,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )


def _is_runnable(value: object) -> TypeIs[AnyRunnable]:
    return isinstance(value, Runnable)


def load_target(spec: str) -> AnyRunnable:
    """The runnable named by ``module:attribute`` (a function without arguments is called)."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"expected module:attribute, got {spec!r}")
    value: object = importlib.import_module(module_name)
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise ValueError(f"{module_name} has no attribute {attribute!r}")
        value = getattr(value, part)
    if not _is_runnable(value) and callable(value):
        value = value()
    if not _is_runnable(value):
        raise ValueError(f"{spec} is a {type(value).__name__}, not a runnable (or a function returning one)")
    return value


async def _serve(args: argparse.Namespace, path: str, runnable: AnyRunnable) -> None:
    import uvicorn

    app = serve(
        {path: runnable},
        config_keys=[key for key in args.config_keys.split(",") if key],
        client_configurable={key for key in args.client_configurable.split(",") if key},
        max_concurrent_runs=args.max_concurrent_runs,
        max_body_bytes=args.max_body_bytes,
        timeout=args.timeout,
        playground=not args.no_playground,
    )
    server = uvicorn.Server(server_config(args, app))
    running = asyncio.ensure_future(server.serve())
    while not server.started and not running.done():
        await asyncio.sleep(0.02)
    if server.started:
        port = server.servers[0].sockets[0].getsockname()[1]
        url = f"http://{args.host}:{port}{path}"
        print(f"serving {args.target} at {url} (playground: {url}/playground/)", flush=True)
    await running


def main(argv: Sequence[str] | None = None) -> int:
    """Serve until interrupted; 2 when the target cannot be loaded."""
    args = parse_args(argv)
    path = args.path or "/" + args.target.partition(":")[2].split(".")[-1]
    try:
        runnable = load_target(args.target)
    except (ImportError, ValueError) as error:
        print(f"error: {error}")
        return 2
    try:
        asyncio.run(_serve(args, path, runnable))
    except KeyboardInterrupt:
        pass
    return 0
