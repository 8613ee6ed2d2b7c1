"""A live uvicorn server on 127.0.0.1, port 0, in a thread of its own; probes for runs."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any, final

import uvicorn
from starlette.types import ASGIApp


@final
class LiveServer:
    """uvicorn serving ``app`` on 127.0.0.1 (the bound port read back), in its own loop."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", http="h11", lifespan="off")
        self.server = uvicorn.Server(config)
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="live-uvicorn", daemon=True)
        self.port = 0

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve())

    def start(self) -> LiveServer:
        self._thread.start()
        for _ in range(500):
            if self.server.started:
                break
            threading.Event().wait(0.01)
        assert self.server.started, "uvicorn did not start"
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def call(self, coroutine: Any) -> Any:
        """Run a coroutine in the server's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(10)

    def tasks(self) -> list[str]:
        """The tasks running in the server's loop besides uvicorn's own main task."""

        async def names() -> list[str]:
            me = asyncio.current_task()
            return sorted(
                repr(t.get_coro())
                for t in asyncio.all_tasks()
                if t is not me and "Server.serve" not in repr(t.get_coro())
            )

        return list(self.call(names()))

    def app_gate(self) -> Any:
        """The served app's run gate (runs in flight, the deepest stream queue seen)."""
        return getattr(self.app, "state").serving

    def connections(self) -> int:
        return len(self.server.server_state.connections)

    def settle(self, timeout: float = 5.0) -> list[str]:
        """Wait until no request task is left (or the timeout); the tasks still there."""
        left = self.tasks()
        for _ in range(int(timeout / 0.02)):
            if not left:
                break
            threading.Event().wait(0.02)
            left = self.tasks()
        return left

    def stop(self) -> None:
        self.server.should_exit = True
        self._thread.join(10)
        self.loop.close()


@contextmanager
def live(app: ASGIApp) -> Iterator[LiveServer]:
    server = LiveServer(app).start()
    try:
        yield server
    finally:
        server.stop()


@final
class Probe:
    """What a served step saw, shared across the server's thread and the test's."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.cancelled = threading.Event()
        self.finally_ran = threading.Event()
        self.produced = 0

    async def tokens(self, text: str) -> AsyncIterator[str]:
        """200 tokens, 20 ms apart, recording how they stop."""
        self.started.set()
        try:
            for i in range(200):
                await asyncio.sleep(0.02)
                self.produced += 1
                yield f"{text}{i} "
        except asyncio.CancelledError:
            self.cancelled.set()
            raise
        except GeneratorExit:
            self.cancelled.set()
            raise
        finally:
            self.finally_ran.set()
