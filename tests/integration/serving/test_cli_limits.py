"""The command line's connection limits, on a real uvicorn on 127.0.0.1: idle keep-alive
connections are closed, oversized headers are refused, connections past the limit get
503, and the defaults are the documented ones."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Generator
from contextlib import contextmanager

import pytest

pytest.importorskip("uvicorn")

import uvicorn

from combinators import RunnableLambda
from combinators.integrations.serving import serve
from combinators.integrations.serving.cli import SERVER_DEFAULTS, parse_args, server_config
from combinators.integrations.serving.header_timeout import HeaderTimeoutH11Protocol


@contextmanager
def cli_server(*flags: str) -> Generator[tuple[int, uvicorn.Server]]:
    """The app the command line would serve, with its settings, on a free port."""
    args = parse_args(["examples.rag:chain", "--port", "0", "--log-level", "critical", *flags])
    server = uvicorn.Server(server_config(args, serve({"/echo": RunnableLambda(str)})))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=lambda: loop.run_until_complete(server.serve()), daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        time.sleep(0.01)
    assert server.started
    try:
        yield server.servers[0].sockets[0].getsockname()[1], server
    finally:
        server.should_exit = True
        thread.join(10)
        loop.close()


def request(port: int, extra_headers: str = "") -> bytes:
    body = b'{"input": "hi"}'
    head = (
        f"POST /echo/invoke HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n{extra_headers}\r\n"
    )
    return head.encode() + body


def read_answer(connection: socket.socket) -> bytes:
    connection.settimeout(5)
    data = b""
    while b"\r\n\r\n" not in data:
        try:
            part = connection.recv(65536)
        except ConnectionResetError:  # a refused request may end with a reset
            break
        if not part:
            break
        data += part
    return data


def read_response(connection: socket.socket) -> bytes:
    """One whole response (headers and a ``content-length`` body)."""
    data = read_answer(connection)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(
        next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
    )
    while len(body) < length:
        body += connection.recv(65536)
    return head + b"\r\n\r\n" + body


def test_the_defaults_are_the_documented_ones() -> None:
    args = parse_args(["examples.rag:chain"])
    config = server_config(args, None)
    assert (config.timeout_keep_alive, config.limit_concurrency, config.h11_max_incomplete_event_size) == (
        SERVER_DEFAULTS["timeout_keep_alive"],
        SERVER_DEFAULTS["limit_concurrency"],
        SERVER_DEFAULTS["h11_max_incomplete_event_size"],
    )
    assert issubclass(config.http, HeaderTimeoutH11Protocol) and config.http.header_timeout == 10.0
    assert config.forwarded_allow_ips == "127.0.0.1"
    assert (config.timeout_keep_alive, config.limit_concurrency) == (5.0, 256)


@pytest.mark.parametrize("flag", ["--limit-concurrency", "--timeout-keep-alive", "--h11-max-incomplete-event-size"])
def test_limits_must_be_positive(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["examples.rag:chain", flag, "0"])
    assert "must be positive" in capsys.readouterr().err


def test_an_idle_keep_alive_connection_is_closed() -> None:
    with (
        cli_server("--timeout-keep-alive", "0.5") as (port, _),
        socket.create_connection(("127.0.0.1", port)) as connection,
    ):
        connection.sendall(request(port))
        rest = read_answer(connection)
        assert rest.startswith(b"HTTP/1.1 200")
        connection.settimeout(10)
        while True:  # the body, then the end of the connection (not a 10 s timeout)
            part = connection.recv(65536)
            if not part:
                break
            rest += part
        assert b'"output":"hi"' in rest


def test_oversized_headers_are_refused() -> None:
    with cli_server("--h11-max-incomplete-event-size", "2048") as (port, _):
        with socket.create_connection(("127.0.0.1", port)) as small:
            small.sendall(request(port, "X-Note: " + "a" * 1000 + "\r\n"))
            assert read_answer(small).startswith(b"HTTP/1.1 200")
        with socket.create_connection(("127.0.0.1", port)) as big:
            # Headers that have not ended (a client sending them slowly) are what the
            # limit bounds: past 2 KiB the server stops waiting for the rest.
            big.sendall(request(port, "X-Note: " + "a" * 8000 + "\r\n")[:8000])
            answer = read_answer(big)
            assert answer == b"" or answer.startswith(b"HTTP/1.1 4"), answer[:100]


def test_connections_past_the_limit_get_503() -> None:
    with cli_server("--limit-concurrency", "2") as (port, server):
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
        try:
            for _ in range(500):  # until the server has accepted both
                if len(server.server_state.connections) >= 2:
                    break
                time.sleep(0.01)
            with socket.create_connection(("127.0.0.1", port)) as third:
                third.sendall(request(port))
                assert read_answer(third).startswith(b"HTTP/1.1 503")
        finally:
            for connection in held:
                connection.close()
        for _ in range(500):  # until the server has seen them go
            if not server.server_state.connections:
                break
            time.sleep(0.01)
        with socket.create_connection(("127.0.0.1", port)) as later:
            later.sendall(request(port))
            assert read_answer(later).startswith(b"HTTP/1.1 200")


def _closed_within(connection: socket.socket, seconds: float) -> bool:
    """Whether the server closes the connection within ``seconds`` (reading what it sends)."""
    connection.settimeout(seconds)
    try:
        while connection.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


def test_headers_that_take_too_long_close_the_connection() -> None:
    with cli_server("--timeout-headers", "0.5", "--timeout-keep-alive", "30") as (port, _):
        with socket.create_connection(("127.0.0.1", port)) as silent:
            assert _closed_within(silent, 10)  # connected, sent nothing
        with socket.create_connection(("127.0.0.1", port)) as slow:
            slow.sendall(b"POST /echo/invoke HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
            assert _closed_within(slow, 10)
        with socket.create_connection(("127.0.0.1", port)) as kept:
            kept.sendall(request(port))
            assert read_response(kept).startswith(b"HTTP/1.1 200")
            kept.sendall(b"POST /echo/invoke HTTP/1.1\r\n")  # the next request on the same connection, stalled
            assert _closed_within(kept, 10)


def test_a_request_whose_headers_arrive_in_time_is_served() -> None:
    with cli_server("--timeout-headers", "2") as (port, _), socket.create_connection(("127.0.0.1", port)) as client:
        whole = request(port)
        client.sendall(whole[:20])
        time.sleep(0.3)
        client.sendall(whole[20:])
        assert read_response(client).startswith(b"HTTP/1.1 200")
        time.sleep(2.5)  # past the header timeout, but the connection is idle: keep-alive's business
        client.sendall(request(port))
        assert read_answer(client).startswith(b"HTTP/1.1 200")
