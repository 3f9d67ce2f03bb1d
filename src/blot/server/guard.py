"""What every request passes through before any route (one ASGI middleware, so that websockets
are covered too):

- **bodies are capped** (:attr:`ServerConfig.body_limit`): a declared ``Content-Length`` above
  the cap is answered 413 before the body is read, and a body sent without one is counted while
  it arrives and refused as soon as it passes the cap, so a client can never make the server
  hold more than the cap;
- **the Host is the server's own** (DNS rebinding: a page of another site whose name was made
  to point at this server): a request or websocket whose ``Host`` is neither an address (an IP
  literal cannot be rebound), ``localhost``, one of :attr:`ServerConfig.hosts` (``blot serve``:
  the ``--host`` name and the machine's name) nor the host of an ``--origin`` is answered 400;
- **other sites are refused**: a state-changing request (anything but GET, HEAD and OPTIONS) or
  a websocket whose ``Origin`` is neither the server's own (the ``Host`` it was sent to) nor one
  of :attr:`ServerConfig.origins` is answered 403 (a websocket's handshake is refused); requests
  without ``Origin`` come from programs, not browsers, and pass;
- **pages are sent with a strict Content-Security-Policy** (scripts and styles from the server's
  own files only, never inline) and the usual hardening headers;
- **nothing unexpected reaches the client as a traceback**: a storage failure answers a JSON
  503 (``server``) and is reported to the hub's :class:`~blot.server.health.StorageHealth` (one
  log line per burst); any other exception answers a JSON 500 (``internal``) with an id that the
  one log line repeats.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from blot.numbers import whole_number
from blot.reasons import Reason
from blot.server.config import ServerConfig, is_address
from blot.server.health import is_storage_failure

log = logging.getLogger("blot.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

#: Every script and style comes from the server's own files; nothing inline, nothing from
#: elsewhere; the page may talk to its own server (HTTP and websocket) only. The installable app
#: (issue 26) needs its manifest and its service worker, both from the server's own files too.
CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _netloc(scheme: str, netloc: str) -> str:
    """``host[:port]`` in lower case, without the scheme's default port."""
    netloc = netloc.lower()
    default = {"http": ":80", "ws": ":80", "https": ":443", "wss": ":443"}.get(scheme)
    if default is not None and netloc.endswith(default):
        return netloc[: -len(default)]
    return netloc


def host_name(host: str) -> str:
    """The name of a ``Host`` header without its port, in lower case (``[::1]:8000`` -> ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    if host.count(":") == 1:
        return host.partition(":")[0]
    return host


class Guard:
    """The ASGI middleware described in the module's docstring."""

    def __init__(self, app: ASGIApp, config: ServerConfig) -> None:
        self.app = app
        self.limit = config.body_limit
        self.allowed = {_netloc(*self._split(o)) for o in config.origins}
        self.allowed_full = {o.rstrip("/").lower() for o in config.origins}
        self.hosts = {"localhost", *(h.lower() for h in config.hosts)}
        self.hosts |= {host_name(urlsplit(o.strip()).netloc) for o in config.origins}

    def host_ok(self, scope: Scope) -> bool:
        """Whether the request's ``Host`` names this server (see the module's docstring)."""
        host = _header(scope, b"host")
        if host is None:
            return True  # HTTP/1.0 without Host: nothing a browser page could send
        name = host_name(host)
        return name in self.hosts or is_address(name)

    @staticmethod
    def _split(origin: str) -> tuple[str, str]:
        parts = urlsplit(origin.strip())
        return parts.scheme.lower(), parts.netloc

    def origin_ok(self, scope: Scope) -> bool:
        """Whether a request's ``Origin`` (when it has one) is the server's own or an allowed one."""
        origin = _header(scope, b"origin")
        if origin is None:
            return True
        if origin.rstrip("/").lower() in self.allowed_full:
            return True
        scheme, netloc = self._split(origin)
        if not scheme or not netloc:
            return False  # "null" (a sandboxed page, a file) or garbage
        host = _header(scope, b"host")
        own = host is not None and _netloc(scheme, netloc) == _netloc(scheme, host)
        return own

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        # /health answers any host: a load balancer checks each process by its own name
        if kind in ("http", "websocket") and scope.get("path") != "/health" and not self.host_ok(scope):
            log.info("request for another host refused (Host %s)", _header(scope, b"host"))
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 4400})
            else:
                await _json(send, 400, "malformed", Reason("other_host"))
            return
        if kind == "websocket":
            if not self.origin_ok(scope):
                log.info("websocket from another site refused (Origin %s)", _header(scope, b"origin"))
                await send({"type": "websocket.close", "code": 4403})
                return
            await self._guarded(scope, receive, send)
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] not in SAFE_METHODS:
            if not self.origin_ok(scope):
                await _json(send, 403, "forbidden", Reason("other_site"))
                return
            declared = _header(scope, b"content-length")
            size = None if declared is None else whole_number(declared, 12)
            if declared is not None and (size is None or size > self.limit):
                await _json(send, 413, "too_large", self._too_large())
                return
            body = await self._read_body(receive)
            if body is None:
                await _json(send, 413, "too_large", self._too_large())
                return
            receive = _replay(body, receive)
        await self._guarded(scope, receive, _with_headers(send))

    def _too_large(self) -> Reason:
        return Reason("body_too_large", n=self.limit)

    async def _read_body(self, receive: Receive) -> bytes | None:
        """The whole body, or None as soon as it passes the cap (the rest is never read)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.close"):
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as e:
            storage = is_storage_failure(e)
            error_id = secrets.token_hex(4)
            if storage:
                hub = getattr(getattr(scope.get("app"), "state", None), "hub", None)
                if hub is not None:
                    hub.health.failed(e)
                else:
                    log.error("storage failure: %s", e)
            else:
                log.error(
                    "internal error %s: %s %s: %s: %s",
                    error_id,
                    scope.get("method", "WEBSOCKET"),
                    scope.get("path"),
                    type(e).__name__,
                    " ".join(str(e).split())[:200],
                )
                log.debug("internal error %s", error_id, exc_info=True)
            if scope["type"] == "websocket":
                if not started:
                    await send({"type": "websocket.close", "code": 1011})
                return
            if started:
                return  # the answer is under way: the client sees a cut response
            if storage:
                await _json(send, 503, "server", Reason("storage_down"))
            else:
                await _json(send, 500, "internal", Reason("internal_error", id=error_id))


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the already read body once, then waits on the real one."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def _with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            present = {bytes(k).lower() for k, _ in headers}
            headers += [(k, v) for k, v in HEADERS if k not in present]
            message["headers"] = headers
        await send(message)

    return sending


async def _json(send: Send, status: int, code: str, reason: Reason) -> None:
    body = json.dumps({"error": code, "message": str(reason), **reason.to_json()}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *HEADERS,
    ]
    if status == 413:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
