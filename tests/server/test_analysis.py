"""Issue 14, item 2 on the server: the analysis of a finished game (``POST`` and ``GET
/api/tables/{id}/analysis``) runs in a process of its own with its progress, is stored once and
never computed again, forgets nothing but what was in flight at a restart, and is never computed
or served for a game that is not over (no hidden card is valued)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

from blot.analysis import analyse, cost
from blot.games import spec
from blot.server import analyses
from blot.server.analysis_worker import document
from blot.store import analyses as stored

from .conftest import Player, Socket, make_client, simple_choice, start_with_bots

BAZAR, TFE = "bazar-blot", "3-5-8"
NOT_FINISHED = {
    "error": "not_found",
    "message": "no finished game at this table",
    "reason": "no_finished_game",
    "params": {},
}


def finished_table(player: Player, game: str, **options: Any) -> str:
    """A game played out by random bots (the player hosts it without a seat)."""
    table = player.table(game, options=options or None)
    player.post(f"/api/tables/{table}/leave")
    player.post(f"/api/tables/{table}/fill-bots", {"level": "random"})
    player.post(f"/api/tables/{table}/start")
    deadline = time.monotonic() + 60
    while player.client.get(f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.05)
    return table


def until_settled(client: Any, table: str, limit: float = 120) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every answer of GET while the analysis is queued or running, and the last one."""
    seen = []
    deadline = time.monotonic() + limit
    while True:
        answer = client.get(f"/api/tables/{table}/analysis").json()
        if answer["status"] not in ("queued", "running"):
            return seen, answer
        seen.append(answer)
        assert time.monotonic() < deadline, "the analysis never ended"
        time.sleep(0.02)


def rows(client: Any) -> int:
    hub = client.app.state.hub
    return hub.store.read(stored.count)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("loss", "large", "expected"),
    [
        (0, 10, "none"),
        (1, 10, "small"),
        (9, 10, "small"),
        (10, 10, "large"),
        (40, 10, "large"),
        (1, 1, "large"),
    ],
)
def test_a_cards_cost_from_its_loss(loss: int, large: int, expected: str) -> None:
    assert cost(loss, large) == expected


def test_thresholds_bazar_10_card_points_and_3_5_8_every_trick() -> None:
    assert spec(BAZAR).analysis_module().large == 10
    assert spec(TFE).analysis_module().large == 1


def test_an_unfinished_game_is_never_analysed_nor_served(db: Path) -> None:
    with make_client(db) as client:
        ani = Player(client, "Ani")
        waiting = ani.table(BAZAR)
        playing = start_with_bots(ani, BAZAR)  # seat 0 is Ani's: the game waits for her
        assert client.get(f"/api/tables/{playing}").json()["status"] == "playing"
        for table in (waiting, playing, "nosuchtable", "x" * 30):
            for method in ("GET", "POST"):
                answer = client.request(method, f"/api/tables/{table}/analysis", headers=ani.headers)
                assert (answer.status_code, answer.json()) == (404, NOT_FINISHED), (table, method)
        hub = client.app.state.hub
        assert hub.analyses.started == 0 and not hub.analyses.jobs and rows(client) == 0


def test_start_progress_a_restart_mid_way_and_stored_once(db: Path) -> None:
    with make_client(db) as client:
        table = finished_table(Player(client, "Ani"), TFE)
        assert client.get(f"/api/tables/{table}/analysis").json() == {"status": "none"}
        first = client.post(f"/api/tables/{table}/analysis").json()
        assert first == {"status": "running", "done": 0, "total": 9}
        assert client.post(f"/api/tables/{table}/analysis").json()["status"] == "running"  # the same one
        job = client.app.state.hub.analyses.jobs[table]
        deadline = time.monotonic() + 30
        while job.process is None and time.monotonic() < deadline:  # its process has started
            time.sleep(0.01)
    # the server stopped mid-way: its process is stopped, nothing of it is stored
    assert job.process is not None and job.process.poll() is not None
    with make_client(db) as client:
        assert client.get(f"/api/tables/{table}/analysis").json() == {"status": "none"}
        assert rows(client) == 0
        assert client.post(f"/api/tables/{table}/analysis").json()["status"] == "running"
        seen, answer = until_settled(client, table)
        assert answer["status"] == "done", answer
        done = [s["done"] for s in seen]
        assert done == sorted(done) and {s["total"] for s in seen} == {9}
        assert any(0 < d < 9 for d in done), done  # the progress moved deal by deal
        analysis = answer["analysis"]
        assert analysis["game"] == TFE and len(analysis["deals"]) == 9 and analysis["large"] == 1
        assert client.post(f"/api/tables/{table}/analysis").json() == answer  # stored: not computed again
        assert client.app.state.hub.analyses.started == 1 and rows(client) == 1
    with make_client(db) as client:
        assert client.post(f"/api/tables/{table}/analysis").json() == answer
        assert client.get(f"/api/tables/{table}/analysis").json() == answer
        assert client.app.state.hub.analyses.started == 0


def test_the_stored_analysis_is_the_librarys_with_each_cards_cost(db: Path) -> None:
    with make_client(db) as client:
        table = finished_table(Player(client, "Ani"), BAZAR, target=1)
        client.post(f"/api/tables/{table}/analysis")
        _, answer = until_settled(client, table)
        record = client.get(f"/api/tables/{table}/record").json()
    expected = document(analyse(spec(BAZAR).replay(record).game))
    assert answer == {"status": "done", "analysis": expected}
    cards = [c for d in expected["deals"] for c in d["cards"]]
    assert cards and all(c["cost"] == cost(c["loss"], 10) for c in cards)
    assert all(set(d["dd_table"]) == {"S", "H", "D", "C", "NT"} for d in expected["deals"])


def test_a_game_ended_by_agreement_is_analysed_only_in_its_finished_deals(db: Path) -> None:
    with make_client(db) as client:
        ani = Player(client, "Ani")
        table = start_with_bots(ani, BAZAR)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            sock = Socket(ws, ani.token)
            while (view := sock.my_turn(0))["deal_number"] < 2:
                sock.play(0, simple_choice(view))
            sock.play(0, simple_choice(view))  # deal 2 is under way
        ani.post(f"/api/tables/{table}/end", {"agree": True})
        assert len(client.get(f"/api/tables/{table}/replay").json()["deals"]) == 2
        client.post(f"/api/tables/{table}/analysis")
        _, answer = until_settled(client, table)
        assert [d["number"] for d in answer["analysis"]["deals"]] == [1]


def test_at_most_the_queue_limit_and_the_others_wait(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analyses, "QUEUE_LIMIT", 2)
    with make_client(db) as client:
        ani = Player(client, "Ani")
        tables = [finished_table(ani, BAZAR, target=1) for _ in range(3)]
        hub = client.app.state.hub
        hub.analyses.command = [sys.executable, "-c", "import time; time.sleep(60)"]
        answers = [client.post(f"/api/tables/{t}/analysis") for t in tables]
        assert [a.json()["status"] for a in answers[:2]] == ["running", "queued"]
        assert answers[2].status_code == 429 and answers[2].headers["retry-after"] == "30"
        refused = answers[2].json()["message"]
        assert refused == "the server is analysing 2 games already: try again in a minute"
        running = hub.analyses.jobs[tables[0]]
        deadline = time.monotonic() + 20
        while running.process is None:
            assert time.monotonic() < deadline
            time.sleep(0.02)
    assert running.process.poll() is not None  # stopped with the server


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ('print(\'{"failed": "ValueError: no"}\')', "ValueError: no"),
        ("import sys; sys.exit(3)", "the analysis stopped before its end"),
        ("print('hello')", "the analysis process wrote something that is not its protocol"),
    ],
)
def test_a_failed_analysis_says_why_and_may_be_asked_again(db: Path, script: str, message: str) -> None:
    with make_client(db) as client:
        table = finished_table(Player(client, "Ani"), BAZAR, target=1)
        hub = client.app.state.hub
        hub.analyses.command = [sys.executable, "-c", script]
        client.post(f"/api/tables/{table}/analysis")
        _, answer = until_settled(client, table)
        assert answer == {"status": "failed", "message": message}
        assert rows(client) == 0
        hub.analyses.command = list(analyses.WORKER)
        assert client.post(f"/api/tables/{table}/analysis").json()["status"] == "running"
        _, answer = until_settled(client, table)
        assert answer["status"] == "done"
