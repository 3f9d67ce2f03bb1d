"""Issue 11, item 15: arbitrary requests at every HTTP route of the server (the routes are read
from the app's own OpenAPI schema, so a new route is fuzzed without anyone adding it here, and
the pages are added by hand). No answer is a 5xx, none shows a traceback, every refusal is the
usual JSON error, and a refused request changes nothing: neither the database nor the tables.

One server for the whole module (TestClient, its own SQLite file); 300 examples."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from blot.store.schema import metadata
from server.conftest import Player, make_client, simple_choice, start_with_bots

from .strategies import BODIES, FUZZ, TEXT, examples, json_values

EXAMPLES = examples(300)
QUICK_ANALYSIS = 'import sys; sys.stdin.read(); print(\'{"failed": "not analysed in the fuzz"}\')'
PAGES = ["/", "/table/{table_id}", "/replays", "/replay/{table_id}", "/scoresheet", "/scoresheet/{sheet_id}"]


class World:
    """The module's server and the things its routes are about: a guest, an account, a waiting
    table, a table being played where the guest is to act (no timer: nothing moves by itself), a
    finished table, a score sheet."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.hub = client.app.state.hub
        # an analysis the fuzz starts ends at once (a real one is minutes of a core's time)
        self.hub.analyses.command = [sys.executable, "-c", QUICK_ANALYSIS]
        self.guest = Player(client, "Ani")
        made = client.post("/api/accounts", json={"username": "fuzzer", "password": "correct horse 1"})
        assert made.status_code == 200, made.text
        self.account_token = made.json()["token"]
        self.waiting = self.guest.table("bazar-blot")
        self.playing = start_with_bots(self.guest, "bazar-blot")
        finished = self.guest.table("3-5-8")
        self.guest.post(f"/api/tables/{finished}/leave")
        self.guest.post(f"/api/tables/{finished}/fill-bots", {"level": "random"})
        self.guest.post(f"/api/tables/{finished}/start")
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{finished}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        self.finished = finished
        sheet = client.post("/api/scoresheets", json={"teams": ["A", "B"]}).json()
        self.sheet, self.share = sheet["id"], sheet["share"]
        client.post(f"/api/scoresheets/{self.sheet}/deals", json={"void": True})
        self._wait_for_turn()

    def _wait_for_turn(self) -> None:
        """The playing table waits for the guest (seat 0) from here on."""
        with self.client.websocket_connect(f"/ws/tables/{self.playing}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": self.guest.token, "since": None}))
            while True:
                view = json.loads(ws.receive_text()).get("view")
                if view and view["to_act"] == 0 and view["legal"]:
                    if view["legal"]["kind"] == "card":
                        return
                    ws.send_text(json.dumps({"type": "action", **simple_choice(view)}))

    def state(self) -> tuple[Any, ...]:
        """Everything a refused request must leave as it was: the row count of every table of the
        database (what a game writes — its log, its results, its analysis — counted for this
        module's own tables only: a rematch the fuzz started plays on, and may end, by itself), and
        the state of those tables as the server holds them."""
        mine = [self.waiting, self.playing, self.finished]
        with self.hub.store.engine.connect() as c:
            rows = [
                c.execute(
                    select(func.count()).select_from(t).where(t.c.table_id.in_(mine))
                    if "table_id" in t.c
                    else select(func.count()).select_from(t)
                ).scalar()
                for t in metadata.sorted_tables
            ]
        tables = [
            (t.id, t.n, json.dumps(t.summary(), sort_keys=True))
            for t in (self.hub.tables.get(table_id) for table_id in mine)
            if t is not None and t.status != "finished"
        ]
        return tuple(rows), tuple(tables)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    db = tmp_path_factory.mktemp("fuzz-http") / "blot.sqlite3"
    with make_client(db, host_limit=1000) as client:
        yield World(client)


def _routes(app: Any) -> list[tuple[str, str]]:
    out = [(method.upper(), path) for path, item in app.openapi()["paths"].items() for method in item]
    return out + [("GET", page) for page in PAGES]


@st.composite
def requests(draw: st.DrawFn, world: World) -> tuple[str, str, dict[str, str], bytes]:
    method, template = draw(st.sampled_from(_routes(world.client.app)))
    if draw(st.integers(0, 9)) == 0:
        method = draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]))
    values = {
        "table_id": [world.waiting, world.playing, world.finished, world.sheet],
        "sheet_id": [world.sheet, world.share, world.waiting],
        "share_id": [world.share, world.sheet],
        "number": ["1", "2", "0", "-1", "999999999", "1.5"],
        "username": ["fuzzer", "FUZZER", "Ani"],
    }
    path = template
    for name, known in values.items():
        if "{" + name + "}" in path:
            value = draw(st.one_of(st.sampled_from(known), TEXT))
            path = path.replace("{" + name + "}", quote(value, safe="") or "x")
    if draw(st.booleans()):
        query = draw(st.dictionaries(st.sampled_from(["download", "game", "limit", "x"]), TEXT, max_size=2))
        path += "?" + "&".join(f"{quote(k)}={quote(v, safe='')}" for k, v in query.items())
    headers: dict[str, str] = {}
    token = draw(st.sampled_from([None, world.guest.token, world.account_token, "garbage", "x" * 300]))
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if draw(st.booleans()):
        headers["Content-Type"] = draw(
            st.sampled_from(["application/json", "text/plain", "multipart/form-data"])
        )
    body = draw(BODIES) if method not in ("GET", "HEAD") or draw(st.integers(0, 4)) == 0 else b""
    return method, path, headers, body


@settings(FUZZ, max_examples=EXAMPLES)
@given(data=st.data())
def test_item15_no_request_to_any_route_crashes_or_changes_state_when_refused(
    world: World, data: Any
) -> None:
    method, path, headers, body = data.draw(requests(world))
    before = world.state()
    response = world.client.request(method, path, content=body, headers=headers)
    assert response.status_code < 500, (method, path, response.status_code, response.text[:300])
    assert "Traceback" not in response.text
    if response.status_code >= 400:
        answer = response.json()
        assert isinstance(answer.get("error"), str) and isinstance(answer.get("message"), str), answer
        assert world.state() == before, (method, path, answer)


@settings(FUZZ, max_examples=examples(100))
@given(value=json_values(20))
def test_item15_table_creation_takes_any_json(world: World, value: Any) -> None:
    """The body with the most fields, hit with every shape of each field."""
    body = {"game": "bazar-blot", **value} if isinstance(value, dict) else value
    before = world.state()
    content = json.dumps(body, allow_nan=True).encode()
    response = world.client.post("/api/tables", content=content, headers=world.guest.headers)
    assert response.status_code in (200, 400, 403, 409, 422), response.text
    if response.status_code != 200:
        assert world.state() == before


def test_item15_the_routes_fuzzed_are_every_route(world: World) -> None:
    routes = {path for _, path in _routes(world.client.app)}
    for path in ("/api/players", "/api/tables/{table_id}/bot", "/api/scoresheets/{sheet_id}/deals/{number}"):
        assert path in routes
    assert len(routes) >= 30
