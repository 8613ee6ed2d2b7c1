"""The three servers of W14, each a uvicorn process (h11, one worker) on 127.0.0.1, port 0.

``python -m bench.serving_apps ours|raw|langserve`` serves our ``serve({"/echo": ...})``,
a raw Starlette JSON echo, or the same trivial chain on LangServe (run by LangServe's own
python: this module imports nothing of ours at the top). Each prints its port on a line
of its own once it listens.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from typing import Any, Final

ECHO_PATH: Final = "/echo"


def echo(text: str) -> str:
    return text


def ours_app() -> Any:
    from combinators import RunnableLambda
    from combinators.integrations.serving import serve

    return serve({ECHO_PATH: RunnableLambda(echo)})


def raw_app() -> Any:
    """The floor: Starlette reading JSON and answering it with the same sync ``echo``, with
    no chain behind it; ``echo`` runs in Starlette's thread pool, as Starlette runs sync
    code (and both servers run the chain's sync step: never in the event loop)."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    async def invoke(request: Request) -> Response:
        body = await request.json()
        return JSONResponse({"output": await run_in_threadpool(echo, body["input"]), "metadata": {}})

    async def stream(request: Request) -> Response:
        body = await request.json()
        output = await run_in_threadpool(echo, body["input"])

        async def frames() -> AsyncIterator[bytes]:
            yield b"event: data\ndata: " + json.dumps(output).encode() + b"\n\nevent: end\n\n"

        return StreamingResponse(frames(), media_type="text/event-stream")

    return Starlette(
        routes=[
            Route(f"{ECHO_PATH}/invoke", invoke, methods=["POST"]),
            Route(f"{ECHO_PATH}/stream", stream, methods=["POST"]),
        ]
    )


def langserve_app() -> Any:
    """The trivial chain on LangServe (FastAPI, ``add_routes``)."""
    from fastapi import FastAPI
    from langchain_core.runnables import RunnableLambda
    from langserve import add_routes

    app = FastAPI()
    add_routes(app, RunnableLambda(echo), path=ECHO_PATH)
    return app


async def serve_printing_port(app: Any) -> None:
    """Serve ``app`` on uvicorn (h11, no access log) and print the bound port once it listens."""
    import uvicorn

    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error", http="h11", access_log=False)
    server = uvicorn.Server(config)
    task = asyncio.ensure_future(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    print(server.servers[0].sockets[0].getsockname()[1], flush=True)
    await task


if __name__ == "__main__":
    apps = {"ours": ours_app, "raw": raw_app, "langserve": langserve_app}
    asyncio.run(serve_printing_port(apps[sys.argv[1]]()))
