"""The application: ``create_app(config)`` for tests and ``serve(...)`` for ``blot serve``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from blot.server.config import ServerConfig
from blot.server.errors import RateLimited, Refused
from blot.server.hub import Hub
from blot.server.routes import accounts, pages, players, ratings, replays, scoresheets, tables, ws

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
    "server": 500,
}


#: Websocket settings: small messages only; no per-message compression (frames are small and
#: compressing each one for each connection costs more CPU than it saves on a LAN or a phone).
UVICORN_WS: dict[str, Any] = {"ws_max_size": 65536, "ws_per_message_deflate": False}


def create_app(config: ServerConfig) -> FastAPI:
    config.check_bots()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(config)
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

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
        body = {"error": e.code, "message": e.message}
        if e.field is not None:
            body["field"] = e.field
        headers = {"Retry-After": str(e.retry_after)} if isinstance(e, RateLimited) else None
        return JSONResponse(body, status_code=STATUS.get(e.code, 400), headers=headers)

    for module in (players, accounts, ratings, tables, replays, scoresheets, ws, pages):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=pages.WEB), name="static")
    return app


def serve(config: ServerConfig, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the server until interrupted."""
    import uvicorn

    app = create_app(config)
    uvicorn.run(app, host=host, port=port, log_level="warning", lifespan="on", **UVICORN_WS)
