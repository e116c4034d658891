"""The server under uvicorn: connection caps and header timeouts below the ASGI application.

What an ASGI application cannot see, because it is called only once a
request's headers have arrived, is guarded here, at the socket:

* a connection must send the headers of a request within
  :attr:`Limits.header_timeout <splendor.server.limits.Limits.header_timeout>`
  of opening (or of the previous response), or it is answered ``408`` and
  closed, however slowly it trickles bytes (uvicorn's own keep-alive timeout
  is restarted by every byte);
* no more sockets are kept open than :func:`socket_cap` allows (the
  connection cap plus a quarter, for idle keep-alive connections and those
  still sending their headers): one more is answered ``503`` and closed at
  once, so the process never runs out of file descriptors;
* the logs of uvicorn and asyncio (a failed ``accept`` among them) are rate
  limited (:class:`~splendor.server.limits.RateLimitFilter`).

:func:`config` builds the :class:`uvicorn.Config` of ``splendor serve``.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from typing import Any, Final

import attrs
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from splendor.server.limits import Limits, throttle

__all__ = ["config", "fit_descriptors", "guarded_protocol", "socket_cap"]

_log = logging.getLogger("splendor.server")

#: The largest WebSocket frame: a bigger one closes the connection (1009).
WS_MAX_SIZE: Final = 65536
#: File descriptors kept free for the database, logs and the listening socket.
_SPARE_FDS: Final = 64

_BUSY: Final = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\n"
    b"retry-after: 5\r\nconnection: close\r\ncontent-length: 22\r\n\r\ntoo many connections\r\n"
)
_LATE: Final = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain\r\n"
    b"connection: close\r\ncontent-length: 29\r\n\r\nthe headers came too slowly\r\n"
)


def socket_cap(limits: Limits) -> int:
    """The most sockets kept open: the connection cap and a quarter more."""
    return limits.max_connections + limits.max_connections // 4 + 16


def guarded_protocol(limits: Limits) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the socket cap and the header timeout of ``limits``."""
    cap = socket_cap(limits)

    class GuardedH11Protocol(H11Protocol):
        """An h11 connection that must send its headers in time, refused above the cap."""

        _late: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)  # type: ignore[arg-type]  # uvicorn's own narrowing
            if len(self.connections) > cap:
                _log.warning("refused a connection: %d sockets open", cap)
                self.transport.write(_BUSY)
                self.transport.close()
                return
            self._arm()

        def _arm(self) -> None:
            if self._late is not None:
                self._late.cancel()
            self._late = self.loop.call_later(limits.header_timeout, self._too_late, self.cycle)

        def _too_late(self, cycle: object) -> None:
            # No request began since the timer was set (``cycle`` is the one
            # of the last response, or None): the headers are late.
            if self.cycle is cycle and not self.transport.is_closing():
                self.transport.write(_LATE)
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def handle_websocket_upgrade(self, event: Any) -> None:
            if self._late is not None:
                self._late.cancel()
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._late is not None:
                self._late.cancel()
            super().connection_lost(exc)

    return GuardedH11Protocol


def fit_descriptors(limits: Limits) -> Limits:
    """Raise the soft limit of open files to what the caps need; shrink the caps if it cannot."""
    needed = socket_cap(limits) + _SPARE_FDS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        top = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (top, hard))
            soft = top
        except (ValueError, OSError):
            pass
    if soft != resource.RLIM_INFINITY and soft < needed:
        fit = max(1, (soft - _SPARE_FDS - 16) * 4 // 5)
        _log.warning(
            "only %d files may be open: at most %d connections (ulimit -n raises it)", soft, fit
        )
        return attrs.evolve(
            limits,
            max_connections=fit,
            max_connections_per_client=min(limits.max_connections_per_client, fit),
        )
    return limits


def config(app: Any, host: str, port: int, limits: Limits, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration of ``splendor serve`` for ``app`` (options passed on)."""
    throttle("uvicorn.error", "asyncio", "splendor.server")
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(limits),
        ws_max_size=WS_MAX_SIZE,
        timeout_keep_alive=limits.keep_alive_timeout,
        timeout_graceful_shutdown=limits.shutdown_timeout,
        **options,
    )
