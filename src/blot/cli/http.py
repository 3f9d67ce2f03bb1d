"""The one way the terminal commands call a running server's API (``blot daily``, ``blot event
trf``): a refusal or an unreachable server is a :class:`BlotError` of one sentence."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from blot.errors import BlotError


def server_text(server: str, method: str, path: str, token: str | None, body: Any = None) -> str:
    """The text the server answers to ``method path`` (``body`` sent as JSON)."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:  # a --server that is no URL is refused where it is read, as an unreachable one
        request = urllib.request.Request(
            f"{server.rstrip('/')}{path}", data=data, headers=headers, method=method
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return str(answer.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        try:
            message = json.loads(e.read().decode("utf-8")).get("message") or str(e)
        except ValueError:
            message = str(e)
        raise BlotError(f"the server refused: {message}") from None
    except (urllib.error.URLError, OSError, ValueError) as e:
        raise BlotError(f"{server} cannot be reached: {e}") from None


def server_json(server: str, method: str, path: str, token: str | None, body: Any = None) -> Any:
    """The server's JSON answer to ``method path``; an answer that is not JSON is an unreachable
    server's (no blot server answers so)."""
    text = server_text(server, method, path, token, body)
    try:
        return json.loads(text)
    except ValueError as e:
        raise BlotError(f"{server} cannot be reached: {e}") from None
