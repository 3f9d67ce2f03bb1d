"""``GET /health``: whether this process can serve (a load balancer stops sending traffic to one
that answers 503)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from blot.server.routes import hub_of

router = APIRouter(tags=["health"])


@router.get("/health")
async def health(request: Request) -> JSONResponse:
    """``{"node", "cluster", "tables", "private_tables", "database", "broker"}``: this process's
    id, whether it is one of a cluster, the public tables it drives (and how many private ones),
    and whether it reaches its database and its broker (503 when it cannot reach either). It
    answers any ``Host``."""
    ok, report = await hub_of(request).health_report()
    return JSONResponse(report, status_code=200 if ok else 503)
