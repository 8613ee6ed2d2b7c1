"""W14: serving a trivial chain over HTTP, ours against LangServe and a raw Starlette echo.

Three uvicorn processes (h11, one worker, no access log), started once: ours
(``serve({"/echo": chain})``), the peer (LangServe 0.3.3 in its own virtual environment:
``bench.langserve_env``) and the floor (Starlette answering the JSON it reads through
the same sync function, run in its thread pool; no chain).
A light asyncio client in this process measures, in interleaved repeats: time per
request on one keep-alive connection (median of many), requests per second over 8
connections, and time to the first ``data`` frame of ``/stream``. Full run only.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from typing import IO, Final

from bench.harness import Outcome, Stat, describe_error
from bench.http_load import post, sequential, throughput
from bench.langserve_env import langserve_python
from bench.libs import PROJECT_ROOT
from bench.record import Results, quotient
from bench.serving_apps import ECHO_PATH

US: Final = 1e6
SEQUENTIAL: Final = 400
CONNECTIONS: Final = 8
SECONDS: Final = 1.5


def _port(process: subprocess.Popen[str]) -> int:
    stream: IO[str] | None = process.stdout
    assert stream is not None
    for line in stream:
        if line.strip().isdigit():
            return int(line)
    raise RuntimeError(f"the server exited ({process.wait()}) before it listened")


def _start(side: str) -> subprocess.Popen[str]:
    python = str(langserve_python()) if side == "peer" else sys.executable
    app = {"ours": "ours", "peer": "langserve", "floor": "raw"}[side]
    command = [python, "-m", "bench.serving_apps", app]
    return subprocess.Popen(command, cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


async def _measure(port: int) -> dict[str, float]:
    invoke = post(f"{ECHO_PATH}/invoke", {"input": "hello", "config": {}, "kwargs": {}})
    stream = post(f"{ECHO_PATH}/stream", {"input": "hello", "config": {}, "kwargs": {}})
    invoke_s, _ = await sequential(port, invoke, SEQUENTIAL)
    stream_s, first_s = await sequential(port, stream, SEQUENTIAL)
    rate = await throughput(port, invoke, CONNECTIONS, SECONDS)
    return {"invoke": invoke_s, "stream": stream_s, "first": first_s, "rate": rate}


def w14_serving(res: Results) -> None:
    if res.settings.quick:
        res.log("W14 skipped in --quick (it starts three servers)")
        return
    sides = {"ours": "ours", "peer": "peer", "floor": "floor"}
    processes: dict[str, subprocess.Popen[str]] = {}
    ports: dict[str, int] = {}
    failed: dict[str, str] = {}
    try:
        for side in sides:
            try:
                processes[side] = _start(side)
                ports[side] = _port(processes[side])
            except Exception as exc:
                failed[side] = describe_error(exc)
        samples: dict[str, dict[str, list[float]]] = {s: {} for s in ports}
        repeats = res.settings.repeat_heavy
        for r in range(repeats):
            order = list(ports)[r % len(ports) :] + list(ports)[: r % len(ports)]
            for side in order:
                try:
                    measured = asyncio.run(_measure(ports[side]))
                except Exception as exc:
                    failed[side] = describe_error(exc)
                    continue
                for key, value in measured.items():
                    samples[side].setdefault(key, []).append(value)
    finally:
        for process in processes.values():
            process.terminate()
            process.wait(20)

    def outcomes(key: str, per: Callable[[float], float] = lambda v: v) -> dict[str, Outcome]:
        out: dict[str, Outcome] = {}
        for side in sides:
            if side in failed:
                out[side] = failed[side]
            elif key in samples.get(side, {}):
                out[side] = Stat(tuple(per(v) for v in samples[side][key]), 1)
            else:
                out[side] = None
        return out

    invoke = res.add(
        "W14",
        "/invoke, one connection: time per request",
        "µs",
        outcomes("invoke"),
        US,
        note="floor: Starlette echoing the JSON it reads through the same sync function in its thread pool",
    )
    rate = res.add("W14", f"/invoke, {CONNECTIONS} connections: requests/s", "req/s", outcomes("rate"))
    res.add("W14", "/stream, one connection: time per request", "µs", outcomes("stream"), US)
    first = res.add("W14", "/stream: time to the first data frame", "µs", outcomes("first"), US)
    res.budget("W14", "/invoke requests/s: ours/peer", rate.ratio("peer"), ">=", 2.5)
    res.budget("W14", "/invoke time per request: ours/floor", invoke.ratio("floor"), "<=", 1.3)
    # The echo is a sync function: both servers run it on a worker thread (one hop each).
    res.budget("W14", "/stream time to first data frame: ours/peer", quotient(first.ours, first.peer), "<=", 1 / 2)
