"""A client that disconnects cancels its run on every route: finally blocks run, no task is left."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from combinators import RunnableLambda
from combinators.integrations.serving import serve
from tests.integration.serving.live import LiveServer, Probe, live

PROBES: dict[str, Probe] = {}


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    routes = {}
    for route in ("invoke", "batch", "stream", "stream_log", "stream_events"):
        PROBES[route] = Probe()
        routes[f"/{route}"] = RunnableLambda(PROBES[route].tokens)
    with live(serve(routes)) as running:
        yield running


@pytest.mark.parametrize("route", ["invoke", "batch"])
async def test_a_disconnect_cancels_invoke_and_batch(server: LiveServer, route: str) -> None:
    probe = PROBES[route]
    body = {"inputs": ["t"]} if route == "batch" else {"input": "t"}
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        request = asyncio.ensure_future(client.post(f"/{route}/{route}", json=body))
        assert await asyncio.to_thread(probe.started.wait, 5)
        request.cancel()  # httpx closes the connection
        with pytest.raises(asyncio.CancelledError):
            await request
    assert await asyncio.to_thread(probe.cancelled.wait, 5)
    assert probe.finally_ran.is_set() and probe.produced < 200
    assert await asyncio.to_thread(server.settle) == []
    assert server.app_gate().runs_in_flight == 0


@pytest.mark.parametrize("route", ["stream", "stream_log", "stream_events"])
async def test_a_disconnect_cancels_streams(server: LiveServer, route: str) -> None:
    probe = PROBES[route]
    async with (
        httpx.AsyncClient(base_url=server.url, timeout=30) as client,
        client.stream("POST", f"/{route}/{route}", json={"input": "t"}) as response,
    ):
        seen = b""
        async for chunk in response.aiter_bytes():
            seen += chunk
            if seen.count(b"event: data") >= 2:
                break
    assert await asyncio.to_thread(probe.cancelled.wait, 5)
    assert probe.finally_ran.is_set() and probe.produced < 200
    assert await asyncio.to_thread(server.settle) == []
    assert server.app_gate().runs_in_flight == 0
