"""A small HTTP/1.1 load client on asyncio streams (keep-alive, no parsing beyond framing).

The client must cost far less than the servers it measures, on the same two cores: it
sends pre-built requests and reads only the status line, the length or the chunks.
"""

from __future__ import annotations

import asyncio
import json
from time import perf_counter
from typing import Final, final

HEADER_END: Final = b"\r\n\r\n"


def post(path: str, body: object) -> bytes:
    """The bytes of a keep-alive JSON POST."""
    payload = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        f"content-length: {len(payload)}\r\n\r\n"
    )
    return head.encode() + payload


@final
class Connection:
    """One keep-alive connection; ``send`` returns (status, body, seconds to the first data frame)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @staticmethod
    async def open(port: int) -> Connection:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return Connection(reader, writer)

    async def send(self, request: bytes) -> tuple[int, bytes, float]:
        started = perf_counter()
        self.writer.write(request)
        head = await self.reader.readuntil(HEADER_END)
        status = int(head[9:12])
        lower = head.lower()
        if b"transfer-encoding: chunked" in lower:
            return status, *await self._chunked(started)
        at = lower.index(b"content-length:") + 15
        length = int(lower[at : lower.index(b"\r\n", at)])
        body = await self.reader.readexactly(length)
        return status, body, perf_counter() - started

    async def _chunked(self, started: float) -> tuple[bytes, float]:
        parts: list[bytes] = []
        first_data = 0.0
        while True:
            size = int((await self.reader.readuntil(b"\r\n"))[:-2], 16)
            if size == 0:
                await self.reader.readuntil(b"\r\n")
                return b"".join(parts), first_data
            part = (await self.reader.readexactly(size + 2))[:-2]
            if not first_data and b"event: data" in part:
                first_data = perf_counter() - started
            parts.append(part)

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def sequential(port: int, request: bytes, count: int) -> tuple[float, float]:
    """Median seconds per request and to the first data frame, one connection, one at a time."""
    connection = await Connection.open(port)
    try:
        totals: list[float] = []
        firsts: list[float] = []
        for _ in range(count):
            started = perf_counter()
            status, _, first = await connection.send(request)
            totals.append(perf_counter() - started)
            firsts.append(first)
            if status != 200:
                raise RuntimeError(f"HTTP {status}")
    finally:
        await connection.close()
    totals.sort()
    firsts.sort()
    return totals[len(totals) // 2], firsts[len(firsts) // 2]


async def throughput(port: int, request: bytes, connections: int, seconds: float) -> float:
    """Requests per second over ``connections`` keep-alive connections for about ``seconds``."""
    opened = [await Connection.open(port) for _ in range(connections)]
    done = 0
    deadline = perf_counter() + seconds

    async def worker(connection: Connection) -> None:
        nonlocal done
        while perf_counter() < deadline:
            status, _, _ = await connection.send(request)
            if status != 200:
                raise RuntimeError(f"HTTP {status}")
            done += 1

    started = perf_counter()
    try:
        await asyncio.gather(*(worker(c) for c in opened))
    finally:
        for connection in opened:
            await connection.close()
    return done / (perf_counter() - started)
