"""The browser client: one page (``blot/web``) for the lobby, tables, replays and score sheets."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

WEB = Path(__file__).resolve().parent.parent.parent / "web"

router = APIRouter(include_in_schema=False)


def _index() -> FileResponse:
    return FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/")
async def lobby() -> FileResponse:
    return _index()


@router.get("/table/{table_id}")
async def table_page(table_id: str) -> FileResponse:
    return _index()


@router.get("/replays")
async def replays_page() -> FileResponse:
    return _index()


@router.get("/replay/{table_id}")
async def replay_page(table_id: str) -> FileResponse:
    return _index()


@router.get("/scoresheet")
async def scoresheets_page() -> FileResponse:
    return _index()


@router.get("/scoresheet/{sheet_id}")
async def scoresheet_page(sheet_id: str) -> FileResponse:
    return _index()


@router.get("/scoresheet/shared/{share_id}")
async def shared_scoresheet_page(share_id: str) -> FileResponse:
    return _index()
