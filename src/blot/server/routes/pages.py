"""The browser client: one page (``blot/web``) for the lobby, tables, replays and score sheets."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from blot.server.routes import DEVICE_COOKIE

WEB = Path(__file__).resolve().parent.parent.parent / "web"

router = APIRouter(include_in_schema=False)


#: Every page is the one client page, which reads the path: the lobby, a table, the replays, a
#: replay, the score sheets, a sheet and a sheet's read-only share; logging in, the account, the
#: leaderboards and a player's profile; the puzzles; the events, an event, a referee's console,
#: the register, a court member's cases; a set of the day's deals' results (issue 45); a join
#: code's page (issue 41 item 10).
PAGES = (
    "/",
    "/table/{table_id}",
    "/replays",
    "/replay/{table_id}",
    "/scoresheet",
    "/scoresheet/{sheet_id}",
    "/scoresheet/shared/{share_id}",
    "/login",
    "/account",
    "/leaderboard",
    "/players/{username}",
    "/puzzles",
    "/puzzles/{puzzle_id}",
    "/events",
    "/event/{event_id}",
    "/event/{event_id}/table/{table}",
    "/event/{event_id}/print/{kind}",
    "/event/{event_id}/boards/{number}",
    "/register",
    "/courts",
    "/friends",
    "/daily/{game}",
    "/join",
    "/join/{code}",
)


async def index(request: Request) -> FileResponse:
    """The page; a browser seen for the first time gets its ``blot_device`` cookie."""
    response = FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})
    if DEVICE_COOKIE not in request.cookies:
        response.set_cookie(
            DEVICE_COOKIE,
            secrets.token_urlsafe(24),
            max_age=2 * 365 * 86400,
            httponly=True,
            samesite="strict",
        )
    return response


for _path in PAGES:
    router.add_api_route(_path, index, methods=["GET"])


#: The page's files a service worker keeps (everything under /static but the icons' sources).
CACHED = (".js", ".css", ".html", ".png")


def _cached_files() -> list[Path]:
    return sorted(
        p
        for p in WEB.rglob("*")
        if p.is_file() and p.suffix in CACHED and p.name not in ("index.html", "sw.js")
    )


#: A file of the page's words in one language: web/i18n/<lang>.js, web/games/<package>.<lang>.js.
_WORDS = re.compile(r"(?:\w+\.)?(hy|bg|ru|en)\.js")


def _language(path: Path) -> str | None:
    """The language of a file of words, else None: a worker keeps the words of its page's
    language only (the page tells it which), as the page downloads only those (issue 39 item 2)."""
    found = _WORDS.fullmatch(path.name)
    return found.group(1) if found and path.parent.name in ("i18n", "games") else None


_worker: dict[tuple[tuple[str, int, int], ...], str] = {}


def worker_script() -> str:
    """``web/sw.js`` with its version, a digest of the page's files, and the list of them it
    caches (made again only when a file changed: the files' sizes and times say so)."""
    files = _cached_files()
    key = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in [*files, WEB / "sw.js"])
    text = _worker.get(key)
    if text is None:
        digest = hashlib.sha256()
        for path in files:
            digest.update(str(path.relative_to(WEB)).encode())
            digest.update(path.read_bytes())
        urls = [f"/static/{p.relative_to(WEB).as_posix()}" for p in files if _language(p) is None]
        words: dict[str, list[str]] = {}
        for p in files:
            if (code := _language(p)) is not None:
                words.setdefault(code, []).append(f"/static/{p.relative_to(WEB).as_posix()}")
        text = (WEB / "sw.js").read_text(encoding="utf-8")
        text = text.replace("__VERSION__", digest.hexdigest()[:16]).replace("__FILES__", json.dumps(urls))
        text = text.replace("__WORDS__", json.dumps(words))
        _worker.clear()
        _worker[key] = text
    return text


@router.get("/sw.js")
async def service_worker() -> Response:
    """The service worker: served from the root so that it serves the whole site, never cached
    by the browser itself (a change of any of the page's files installs a new worker)."""
    return Response(worker_script(), media_type="text/javascript", headers={"Cache-Control": "no-cache"})


@router.get("/manifest.webmanifest")
async def manifest() -> FileResponse:
    """The web app manifest: blot installs as an app (name, icons, colours)."""
    return FileResponse(
        WEB / "manifest.webmanifest",
        media_type="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )
