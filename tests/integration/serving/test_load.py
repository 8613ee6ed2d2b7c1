"""Load, bounded: 200 concurrent streaming requests from one client all complete correctly,
and nothing is left afterwards (no request task, no run, no connection)."""

from __future__ import annotations

import asyncio
import json

import httpx

from combinators import RunnableLambda
from combinators.integrations.serving import serve
from effects.projections import SseFrameParser
from tests.integration.serving.chains import letters
from tests.integration.serving.live import live

REQUESTS = 200


async def test_200_concurrent_streams() -> None:
    app = serve({"/letters": RunnableLambda(letters)})
    with live(app) as server:
        limits = httpx.Limits(max_connections=REQUESTS, max_keepalive_connections=0)
        async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as client:

            async def one(i: int) -> str:
                text = f"request {i:03d}"
                parser = SseFrameParser()
                async with client.stream("POST", "/letters/stream", json={"input": text}) as response:
                    assert response.status_code == 200
                    frames = [f async for chunk in response.aiter_bytes() for f in parser.feed(chunk)]
                assert frames[0].event == "metadata" and frames[-1].event == "end"
                return "".join(json.loads(f.data or "") for f in frames if f.event == "data")

            async with asyncio.timeout(120):
                outputs = await asyncio.gather(*(one(i) for i in range(REQUESTS)))
        assert outputs == [f"request {i:03d}" for i in range(REQUESTS)]
        assert await asyncio.to_thread(server.settle) == []
        assert server.app_gate().runs_in_flight == 0
        for _ in range(250):
            if server.connections() == 0:
                break
            await asyncio.sleep(0.02)
        assert server.connections() == 0
