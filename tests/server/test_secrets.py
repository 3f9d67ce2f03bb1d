"""No password, password hash or token in any response, websocket message or log line of a whole
session (issue 13), but each token once: in the answer that made it for its owner."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from blot.store.schema import players

from .conftest import Socket, make_client, simple_choice

PASSWORD = "a secret no one sees"
NEW_PASSWORD = "another secret nobody sees"


def test_a_whole_session_never_shows_a_secret(db: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    seen: list[tuple[str, str]] = []  # (what, text) of every response and message

    def keep(response: Any) -> None:
        response.read()
        headers = "\n".join(f"{k}: {v}" for k, v in response.headers.items())
        what = f"{response.request.method} {response.request.url.path}"
        seen.append((what, headers + "\n" + response.text))

    with make_client(db) as client:
        client.event_hooks["response"].append(keep)
        made = client.post("/api/accounts", json={"username": "Ani", "password": PASSWORD}).json()
        token = made["token"]
        auth = {"Authorization": f"Bearer {token}"}
        other = client.post("/api/login", json={"username": "ani", "password": PASSWORD}).json()["token"]
        client.post("/api/login", json={"username": "ani", "password": "wrong " + PASSWORD})
        client.post("/api/accounts", json={"username": "ANI", "password": PASSWORD})
        client.post("/api/accounts", json={"username": "Bo", "password": PASSWORD})
        client.get("/api/me", headers=auth)
        table = client.post(
            "/api/tables", json={"game": "bazar-blot", "rated": True, "options": {"target": 1}}, headers=auth
        ).json()["id"]
        client.post(f"/api/tables/{table}/fill-bots", json={"level": "basic"}, headers=auth)
        client.post(f"/api/tables/{table}/start", headers=auth)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, token)
            while (view := sock.my_turn(0))["game_over"] is None:
                sock.play(0, simple_choice(view))
            sock.send(type="action", action="AS", token=token)  # an odd message is answered, not echoed
            sock.receive()
            seen.extend(("ws", json.dumps(m)) for m in sock.frames)
        for path in (
            "/api/tables",
            f"/api/tables/{table}",
            "/api/replays",
            f"/api/tables/{table}/replay",
            f"/api/tables/{table}/record",
            "/api/leaderboard?game=bazar-blot",
            "/api/players/Ani",
            "/api/games",
            "/",
            "/leaderboard",
            "/players/Ani",
            "/account",
            "/static/app.js",
            "/api/openapi.json",
        ):
            client.get(path, headers=auth)
        client.put("/api/password", json={"password": PASSWORD, "new_password": NEW_PASSWORD}, headers=auth)
        client.put("/api/password", json={"password": PASSWORD, "new_password": NEW_PASSWORD}, headers=auth)
        client.post("/api/logout", headers={"Authorization": f"Bearer {other}"})
        client.request("DELETE", "/api/account", json={"password": NEW_PASSWORD + "?"}, headers=auth)
        with client.app.state.hub.store.engine.connect() as c:
            query = select(players.c.password_hash).where(players.c.id == made["id"])
            stored_hash = c.execute(query).scalar()
    assert stored_hash and stored_hash.startswith("$argon2id$")
    secrets = {
        "password": PASSWORD,
        "new password": NEW_PASSWORD,
        "hash": stored_hash,
        "hash body": stored_hash.rsplit("$", 1)[1],
        "token hash": hashlib.sha256(token.encode()).hexdigest(),
    }
    makers = {token: "POST /api/accounts", other: "POST /api/login"}
    assert len(seen) > 40
    for what, text in seen:
        for name, secret in secrets.items():
            assert secret not in text, (name, what)
        for tok, maker in makers.items():
            if tok in text:
                assert what == maker, what
    assert sum(token in text for _, text in seen) == 1 and sum(other in text for _, text in seen) == 1
    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
    for secret in (*secrets.values(), token, other):
        assert secret not in logged
