"""The application: ``create_app(config)`` for tests and ``serve(...)`` for ``blot serve``."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware

from blot.errors import BlotError
from blot.server import secrecy
from blot.server.chat import Chat
from blot.server.config import ServerConfig
from blot.server.errors import RateLimited, Refused
from blot.server.fairplay import FairPlay
from blot.server.guard import Guard
from blot.server.hub import Hub
from blot.server.routes import (
    accounts,
    conduct,
    daily,
    event_exports,
    events,
    friends,
    health,
    joincodes,
    pages,
    players,
    push,
    puzzles,
    quick,
    ratings,
    reasons,
    replays,
    scoresheets,
    tables,
    ws,
)

STATUS = {
    "malformed": 400,
    "illegal": 409,
    "not_your_turn": 409,
    "conflict": 409,
    "not_seated": 403,
    "forbidden": 403,
    "not_found": 404,
    "invalid": 422,
    "unauthorized": 401,
    "rate_limited": 429,
    "server": 503,
}
#: The codes of HTTP errors that come from the framework, not from blot's routes.
HTTP_CODES = {404: "not_found", 405: "malformed", 413: "too_large"}


#: Websocket settings: small messages only; no per-message compression (frames are small and
#: compressing each one for each connection costs more CPU than it saves on a LAN or a phone).
UVICORN_WS: dict[str, Any] = {"ws_max_size": 65536, "ws_per_message_deflate": False}


#: The routers, in the order their paths are matched.
ROUTERS = (
    health,
    players,
    accounts,
    joincodes,
    ratings,
    friends,
    tables,
    replays,
    scoresheets,
    puzzles,
    events,
    event_exports,
    daily,
    quick,
    conduct,
    push,
    reasons,
    ws,
    pages,
)


def create_app(config: ServerConfig) -> FastAPI:
    config.check_bots()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(config)
        app.state.hub = hub
        secrecy.use_clock(config.clock)  # a day's deals open when the day is over (issue 45)
        app.state.chat = Chat(hub)
        app.state.fairplay = FairPlay(hub)
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            app.state.fairplay.close()

    app = FastAPI(
        title="blot",
        summary="Bazar Blot and 3-5-8 in the browser",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )

    @app.exception_handler(Refused)
    async def refused(_request: Request, e: Refused) -> JSONResponse:
        body: dict[str, Any] = {"error": e.code, "message": e.message}
        if e.field is not None:
            body["field"] = e.field
        e.answer(body)
        headers = {"Retry-After": str(e.retry_after)} if isinstance(e, RateLimited) else None
        return JSONResponse(body, status_code=STATUS.get(e.code, 400), headers=headers)

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, e: HTTPException) -> JSONResponse:
        code = HTTP_CODES.get(e.status_code, "malformed")
        if e.status_code == 404:
            refused = Refused(code, "no_such_route")
            body = refused.answer({"error": code, "message": refused.message})
        else:
            body = {"error": code, "message": str(e.detail)}  # the framework's own words, unkeyed
        return JSONResponse(body, e.status_code, headers=e.headers)

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(_request: Request, e: RequestValidationError) -> JSONResponse:
        where = ", ".join(".".join(str(p) for p in err.get("loc", ())) for err in e.errors()[:3])
        refused = Refused("malformed", "bad_parameter", where=where)
        return JSONResponse(refused.answer({"error": "malformed", "message": refused.message}), 400)

    @app.exception_handler(BlotError)
    async def blot_error(_request: Request, e: BlotError) -> JSONResponse:
        return await refused(_request, Refused.of(e))

    for module in ROUTERS:
        app.include_router(module.router)
    _presenters_outside(app)
    app.mount("/static", StaticFiles(directory=pages.WEB), name="static")
    app.add_middleware(Guard, config=config)
    # the page's scripts, styles and JSON travel compressed (a phone's first load; websockets
    # are not touched)
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)
    return app


def _presenters_outside(app: FastAPI) -> None:
    """Serve the page presenter of each game registered from outside blot's tree (its spec's
    ``web_presenter`` file) where the page looks for it, ``/static/games/<package>.js``; blot's
    own games' presenters are static files (web/games/)."""
    from blot.games import SPECS

    for game in SPECS.values():
        if game.web_presenter is None:
            continue
        app.add_api_route(
            f"/static/games/{game.package}.js", _file_route(Path(game.web_presenter)), include_in_schema=False
        )


def _file_route(path: Path) -> Callable[[], Awaitable[FileResponse]]:
    """An endpoint that answers the JavaScript file ``path``."""

    async def presenter() -> FileResponse:
        return FileResponse(path, media_type="text/javascript")

    return presenter


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``, or BlotError in one sentence (the port is taken, the
    address is not this machine's)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
            sock.listen(2048)
        except OSError:
            sock.close()
            raise
    except OSError as e:
        reason = getattr(e, "strerror", None) or str(e)
        raise BlotError(f"cannot listen on {host}:{port}: {reason}") from None
    sock.set_inheritable(True)
    return sock


def uvicorn_config(app: FastAPI, config: ServerConfig, **extra: Any) -> Any:
    """uvicorn's settings for ``app``: small websocket messages, the guarded protocols
    (:mod:`blot.server.transport`), and ``X-Forwarded-For`` believed only from the proxies named
    (uvicorn's own default believes loopback)."""
    import uvicorn

    from blot.server.transport import guarded_protocols

    http, ws = guarded_protocols(config)
    return uvicorn.Config(
        app,
        log_level="warning",
        lifespan="on",
        http=http,
        ws=ws or "none",
        proxy_headers=bool(config.trusted_proxies),
        forwarded_allow_ips=list(config.trusted_proxies) or None,
        **UVICORN_WS,
        **extra,
    )


def serve(config: ServerConfig, sock: socket.socket) -> None:
    """Run the server on a listening socket (:func:`listen`) until interrupted."""
    import uvicorn

    server = uvicorn.Server(uvicorn_config(create_app(config), config))
    quiet_collector()
    server.run(sockets=[sock])


def quiet_collector() -> None:
    """Fewer and shorter pauses of Python's cycle collector: what the server loaded at start is
    left out of its scans (``gc.freeze``), and it runs after 50,000 new objects rather than 700.
    With the defaults its full scans of the tables in memory stopped every table for up to
    150 ms (``benchmarks/server_load.py --think 0.1``, 500 people: p99 129 ms, 32 ms after)."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
