"""A timeout for reading a request's headers, which uvicorn does not have.

Without one, a client that opens a connection and sends nothing, or sends its headers a
byte at a time, holds the connection (and a place under ``--limit-concurrency``) for as
long as it likes. ``header_timeout_protocol(seconds)`` is uvicorn's h11 protocol with a
timer: armed when a connection opens and when a request's first bytes arrive, stopped
once its headers are complete; when it fires, the connection is closed. The body's pace
and the run's time are the app's business (``max_body_bytes``, ``timeout``).

>>> protocol = header_timeout_protocol(10.0)
>>> protocol.header_timeout, protocol.__name__
(10.0, 'HeaderTimeoutH11Protocol')
"""

from __future__ import annotations

import asyncio
import logging
from typing import ClassVar, Final, cast

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log: Final = logging.getLogger("combinators.serving")


class HeaderTimeoutH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing connections whose headers take too long."""

    header_timeout: ClassVar[float] = 10.0
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(cast(asyncio.Transport, transport))
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._arm()  # a request has begun and its headers have not ended
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            log.info("closed a connection whose request headers took more than %g s", self.header_timeout)
            self.transport.close()


def header_timeout_protocol(seconds: float) -> type[HeaderTimeoutH11Protocol]:
    """The protocol class for uvicorn's ``http`` setting, with this header timeout."""
    if seconds <= 0:
        raise ValueError(f"the header timeout must be positive, got {seconds!r}")
    namespace: dict[str, object] = {"header_timeout": float(seconds)}
    return type("HeaderTimeoutH11Protocol", (HeaderTimeoutH11Protocol,), namespace)
