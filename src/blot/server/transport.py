"""Connections before any request: slow clients and floods from one address (issue 22 item 4).

uvicorn waits for a request's headers as long as the client likes, and accepts any number of
connections from one address, so 1,000 half-open requests held every file descriptor of a server
under ``ulimit -n 1024`` for as long as the attacker liked. The HTTP and websocket protocols
here are uvicorn's own with two guards added through the ``asyncio.Protocol`` methods and two of
uvicorn's long-standing hooks (``on_response_complete``, ``handle_websocket_upgrade``):

- **headers in time**: a connection whose request headers are not complete within
  :attr:`ServerConfig.header_timeout` seconds of its first byte (or of the connection, for the
  first request) is closed;
- **connections per address**: at most :attr:`ServerConfig.connections_per_address` open at once
  (HTTP and websockets together, counted by the address the connection comes from, an IPv6 one
  by its /64, which is the proxy's behind a reverse proxy: raise the limit there); one more is
  closed at once.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from blot.server.config import ServerConfig
from blot.server.limits import network

#: The end of a request's headers.
_END = b"\r\n\r\n"
#: Bytes of a request kept to find the end of its headers (longer headers are refused anyway).
_SCAN = 65536


class _Addresses:
    """Open connections per address, shared by the HTTP and websocket protocols of one server."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: Counter[str] = Counter()

    def admit(self, transport: asyncio.BaseTransport) -> str | None:
        """The address of a new connection, counted; None (the connection closed) when its
        address has ``limit`` open already."""
        address = _peer(transport)
        if self.open[address] >= self.limit:
            transport.close()
            return None
        self.open[address] += 1
        return address

    def give(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


def _peer(transport: asyncio.BaseTransport) -> str:
    """The connection's address as the limit counts it: an IPv6 address by its /64 (issue 38
    item 7; :func:`blot.server.limits.network`)."""
    peer = transport.get_extra_info("peername")
    return network(str(peer[0])) if isinstance(peer, tuple | list) and peer else "unknown"


def guarded_protocols(config: ServerConfig) -> tuple[type[Any], type[Any] | None]:
    """uvicorn's HTTP and websocket protocol classes with the guards of the module's docstring,
    for ``uvicorn.Config(http=..., ws=...)``."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    addresses = _Addresses(config.connections_per_address)
    timeout = config.header_timeout

    class GuardedHttp(AutoHTTPProtocol):  # type: ignore[valid-type, misc]
        _address: str | None = None
        _timer: asyncio.TimerHandle | None = None
        _seen = b""

        def connection_made(self, transport: Any) -> None:
            self._address = addresses.admit(transport)
            if self._address is not None:
                super().connection_made(transport)
                self._expect_headers()

        def _expect_headers(self) -> None:
            self._seen = b""
            self._cancel()
            self._timer = asyncio.get_running_loop().call_later(timeout, self._too_slow)

        def _cancel(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _too_slow(self) -> None:
            self._timer = None
            self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self._timer is not None:
                self._seen = (self._seen + data)[-_SCAN:]
                if _END in self._seen:
                    self._cancel()
            super().data_received(data)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self._address is not None and not self.transport.is_closing():
                self._expect_headers()  # the next request of a kept-alive connection

        def _release(self) -> None:
            self._cancel()
            if self._address is not None:
                addresses.give(self._address)
                self._address = None

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._release()  # the websocket protocol counts the connection from here on
            super().handle_websocket_upgrade(*args)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._address is None:  # refused at once: uvicorn never saw it
                return
            self._release()
            super().connection_lost(exc)

    if AutoWebSocketsProtocol is None:
        return GuardedHttp, None
    return GuardedHttp, _guarded_websocket(AutoWebSocketsProtocol, addresses)


def _guarded_websocket(base: Any, addresses: _Addresses) -> type[Any]:
    """uvicorn's websocket protocol counting its connection against the address's limit."""

    class GuardedWebsocket(base):  # type: ignore[misc]
        _address: str | None = None

        def connection_made(self, transport: Any) -> None:
            self._address = addresses.admit(transport)
            if self._address is not None:
                super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._address is None:
                return
            addresses.give(self._address)
            self._address = None
            super().connection_lost(exc)

    return GuardedWebsocket
