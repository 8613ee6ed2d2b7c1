"""Backpressure and limits: a bounded frame queue, max_concurrent_runs, timeouts, pings."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

import httpx

from combinators import RunnableLambda
from combinators.integrations.serving import serve
from effects.projections import SseFrameParser
from tests.integration.serving.live import Probe, live

BIG = 64 * 1024
COUNT = 400


def test_a_slow_reader_slows_the_run_and_the_queue_stays_within_its_bound() -> None:
    produced: list[int] = []

    async def blocks(text: str) -> AsyncIterator[str]:
        for i in range(COUNT):
            produced.append(i)
            yield text * BIG

    app = serve({"/blocks": RunnableLambda(blocks)}, queue_size=8)
    with live(app) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        with client.stream("POST", "/blocks/stream", json={"input": "x"}) as response:
            chunks = response.iter_raw(BIG)
            next(chunks)
            time.sleep(1.0)  # the reader stalls: the socket fills, then the queue, then the run waits
            stalled_at = len(produced)
            assert stalled_at < COUNT, "the run went on as if nobody had to read"
            assert 0 < server.app_gate().peak_queue_depth <= 8
            received = 1 + sum(1 for _ in chunks)
        assert received > 1 and len(produced) == COUNT
        assert server.app_gate().peak_queue_depth <= 8


def test_max_concurrent_runs_answers_503_with_retry_after() -> None:
    probe = Probe()
    app = serve({"/slow": RunnableLambda(probe.tokens), "/fast": RunnableLambda(str.upper)}, max_concurrent_runs=1)
    with live(app) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        with client.stream("POST", "/slow/stream", json={"input": "t"}) as first:
            assert probe.started.wait(5)
            busy = client.post("/fast/invoke", json={"input": "x"})
            assert busy.status_code == 503 and busy.headers["retry-after"] == "1"
            assert busy.json()["type"] == "Busy" and busy.json()["retryable"] is True
            first.close()
        assert probe.cancelled.wait(5)
        assert server.settle() == []
        assert client.post("/fast/invoke", json={"input": "x"}).json()["output"] == "X"


def test_a_per_request_timeout_is_504_or_an_error_frame() -> None:
    probe = Probe()
    app = serve({"/slow": RunnableLambda(probe.tokens)}, timeout=0.3)
    with live(app) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        response = client.post("/slow/invoke", json={"input": "t"})
        assert response.status_code == 504 and response.json()["type"] == "Timeout"
        assert probe.cancelled.wait(5) and probe.finally_ran.is_set()
        parser = SseFrameParser()
        with client.stream("POST", "/slow/stream", json={"input": "t"}) as stream:
            frames = [f for chunk in stream.iter_bytes() for f in parser.feed(chunk)]
        assert frames[0].event == "metadata" and frames[1].event == "data"
        assert frames[-1].event == "error" and json.loads(frames[-1].data or "")["status_code"] == 504
        assert server.settle() == []


def test_an_idle_stream_gets_ping_comments() -> None:
    async def late(text: str) -> AsyncIterator[str]:
        await asyncio.sleep(0.35)
        yield text

    app = serve({"/late": RunnableLambda(late)}, ping_interval=0.1)
    with live(app) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        raw = client.post("/late/stream", json={"input": "x"}).content
    assert raw.count(b": ping\n\n") >= 2
    assert raw.endswith(b'event: data\ndata: "x"\n\nevent: end\n\n')
