"""``GET /api/reasons/{lang}``: every refusal's sentence in one language of the page, the same
catalogue the server renders its English from (:mod:`blot.reasons`), so that a page says a
refusal's ``reason`` and ``params`` in its reader's language without a copy of its own."""

from __future__ import annotations

import hashlib
import json
from functools import cache

from fastapi import APIRouter, Request, Response

from blot.reasons import LANGUAGES, sentences
from blot.server.errors import Refused

router = APIRouter(tags=["pages"])


@cache
def _body(lang: str) -> tuple[bytes, str]:
    """The catalogue of one language as JSON, and its entity tag (the catalogue changes only
    with the server's code, so once per process)."""
    body = json.dumps(sentences(lang), ensure_ascii=False, sort_keys=True).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:16] + '"'


@router.get("/api/reasons/{lang}")
async def reasons(lang: str, request: Request) -> Response:
    """``{key: sentence}`` with ``{name}`` for each part; cached by the browser for an hour and
    revalidated by its entity tag (304 when unchanged). An unknown language is 404."""
    if lang not in LANGUAGES:
        # the path is the asker's: said back at most 12 characters of it, not a page of it
        shown = lang if len(lang) <= 12 else lang[:12] + "…"
        raise Refused("not_found", "unknown_language", lang=shown, languages=", ".join(LANGUAGES))
    body, tag = _body(lang)
    headers = {"ETag": tag, "Cache-Control": "public, max-age=3600"}
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
