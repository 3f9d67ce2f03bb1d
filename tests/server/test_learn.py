"""Issue 28 on the server: a game played out with a person seated is analysed as it ends (``learn``);
each seat's accuracy is stored with the analysis and shown on the profile; a public table's game
gives puzzles, a private table's never, a game ended before its end none; a puzzle attempt moves
both the solver's rating and the puzzle's (an account's first attempt only)."""

from __future__ import annotations

import json
import time
from datetime import timedelta
from functools import cache
from pathlib import Path
from random import Random
from typing import Any

import pytest
from sqlalchemy import select

from blot.analysis import analyse
from blot.bots import make_bot
from blot.games import spec
from blot.play import play
from blot.puzzles import Puzzle, mine
from blot.store import accuracies, now
from blot.store import puzzles as stored
from blot.store.schema import puzzles as puzzle_table

from .conftest import Account, Player, make_client, play_out, start_with_bots
from .test_analysis import until_settled

BAZAR = "bazar-blot"
SMALL = {"target": 51}


@pytest.fixture
def learning(db: Path) -> Any:
    with make_client(db, learn=True) as c:
        yield c


def count_puzzles(client: Any) -> int:
    return client.app.state.hub.store.read(stored.count)  # type: ignore[no-any-return]


def played(client: Any, host: Player, public: bool = True) -> str:
    """A Bazar Blot game to 51 that ``host`` plays out in seat 0 with three random bots."""
    table = start_with_bots(host, BAZAR, "random", public=public, options=SMALL)
    over = play_out(client, table, {0: host})
    assert over["game_over"] is not None
    return table


def local_analysis(client: Any, table: str) -> tuple[Any, Any, dict[str, Any]]:
    record = client.get(f"/api/tables/{table}/record").json()
    game = spec(BAZAR).replay(record).game
    return game, analyse(game), record


def test_a_public_game_played_by_a_person_is_analysed_as_it_ends_with_accuracy_and_puzzles(
    learning: Any,
) -> None:
    ani = Account(learning, "Ani")
    table = played(learning, ani)
    _, answer = until_settled(learning, table)
    assert answer["status"] == "done", answer
    doc = answer["analysis"]
    game, analysis, _ = local_analysis(learning, table)
    found = analysis.accuracy
    assert found is not None
    assert doc["accuracy"] == [a.to_json() for a in found]
    assert doc["deals"][0]["bidding"] == analysis.deals[0].bidding  # the bidding review too
    # stored per seat, read by the profile (average and trend) and its recent games
    hub = learning.app.state.hub
    assert hub.store.read(accuracies.count) == 4
    profile = learning.get("/api/players/Ani").json()
    mine_now = profile["games"][BAZAR]["accuracy"]
    assert mine_now["games"] == 1 and mine_now["average"] == found[0].accuracy
    assert [p["accuracy"] for p in mine_now["history"]] == [found[0].accuracy]
    assert mine_now["history"][0]["table"] == table
    assert profile["recent"][0]["accuracy"] == found[0].accuracy
    bots = learning.get("/api/players/bot:random").json()["games"][BAZAR]["accuracy"]
    assert bots["games"] == 3  # one bot level, three seats
    # the puzzles the worker mined are the ones mining the record finds, names hidden
    expected = mine(game, analysis)
    assert expected, "the game gave no puzzle: choose another seed"
    assert count_puzzles(learning) == len(expected)
    ids = hub.store.read(
        lambda c: list(c.execute(select(puzzle_table.c.id).order_by(puzzle_table.c.id)).scalars())
    )
    for puzzle_id, p in zip(ids, expected, strict=True):
        shown = learning.get(f"/api/puzzles/{puzzle_id}").json()
        assert (shown["deal"], shown["after"], shown["seat"]) == (p.deal, p.after, p.seat)
        assert "solution" not in shown and "values" not in shown
        assert "Ani" not in json.dumps(shown) and shown["players"] == [f"Player {s}" for s in (1, 2, 3, 4)]
        assert sorted(shown["view"]["legal"]["cards"]) == sorted(c.text for c in p.values)
        assert len(shown["hands"]) == 4 and shown["view"]["to_act"] == p.seat
    assert "Ani" not in json.dumps(hub.store.read(lambda c: list(stored.exported(c))))


def test_a_private_tables_game_is_analysed_but_never_mined(learning: Any) -> None:
    ani = Account(learning, "Ani")
    table = played(learning, ani, public=False)
    assert learning.get(f"/api/tables/{table}/analysis").status_code == 404  # to a stranger
    _, mine_answer = until_settled_as(learning, ani, table)
    assert mine_answer["status"] == "done" and mine_answer["analysis"]["accuracy"] is not None
    game, analysis, _ = local_analysis_as(learning, ani, table)
    assert mine(game, analysis), "the same game at a public table would have given puzzles"
    assert count_puzzles(learning) == 0
    assert learning.app.state.hub.store.read(accuracies.count) == 4


def until_settled_as(client: Any, who: Player, table: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    seen = []
    deadline = time.monotonic() + 120
    while True:
        answer = client.get(f"/api/tables/{table}/analysis", headers=who.headers).json()
        if answer.get("status") not in ("queued", "running"):
            return seen, answer
        seen.append(answer)
        assert time.monotonic() < deadline, "the analysis never ended"
        time.sleep(0.02)


def local_analysis_as(client: Any, who: Player, table: str) -> tuple[Any, Any, dict[str, Any]]:
    record = client.get(f"/api/tables/{table}/record", headers=who.headers).json()
    game = spec(BAZAR).replay(record).game
    return game, analyse(game), record


def test_a_game_ended_by_agreement_is_not_analysed_by_itself_and_never_mined(learning: Any) -> None:
    ani = Account(learning, "Ani")
    table = start_with_bots(ani, BAZAR, "random", options=SMALL)
    ended = ani.post(f"/api/tables/{table}/end", {"agree": True})
    assert ended["status"] == "finished" and ended["ended"] == "agreement"
    assert learning.get(f"/api/tables/{table}/analysis").json() == {"status": "none"}
    ani.post(f"/api/tables/{table}/analysis")
    _, answer = until_settled(learning, table)
    assert answer["status"] == "done" and answer["analysis"]["accuracy"] is None
    assert count_puzzles(learning) == 0
    assert learning.app.state.hub.store.read(accuracies.count) == 0


def test_without_learn_a_finished_game_waits_until_its_analysis_is_asked_for(client: Any) -> None:
    ani = Account(client, "Ani")
    table = played(client, ani)
    assert client.get(f"/api/tables/{table}/analysis").json() == {"status": "none"}


def test_at_a_start_the_finished_games_without_an_analysis_are_analysed(db: Path) -> None:
    with make_client(db) as client:  # learn off: the game ends unanalysed
        table = played(client, Account(client, "Ani"))
        assert client.get(f"/api/tables/{table}/analysis").json() == {"status": "none"}
    with make_client(db, learn=True) as client:
        deadline = time.monotonic() + 120
        while (answer := client.get(f"/api/tables/{table}/analysis").json())["status"] != "done":
            assert answer["status"] in ("none", "queued", "running") and time.monotonic() < deadline, answer
            time.sleep(0.05)
        assert answer["analysis"]["accuracy"] is not None
        assert client.get("/api/players/Ani").json()["recent"][0]["accuracy"] is not None


@cache
def mined() -> tuple[dict[str, Any], tuple[Puzzle, ...]]:
    """A finished game's record and its puzzles (mined once for the tests below)."""
    game_spec = spec(BAZAR)
    game = game_spec.new_game(game_spec.rules(None, SMALL), rng=Random(6))
    play(game, [make_bot(game_spec, "basic", Random(60 + s)) for s in range(4)], until=lambda g: g.is_over)
    found = tuple(mine(game, analyse(game)))
    assert len(found) >= 2, "the game gave too few puzzles: choose another seed"
    return game_spec.record_of(game, ["Ani", "Bagrat", "Gohar", "Davit"]), found


def with_puzzles(client: Any) -> tuple[Puzzle, ...]:
    record, found = mined()
    hub = client.app.state.hub
    assert hub.store.write(lambda c: stored.add(c, record, list(found), now())) == len(found)
    assert hub.store.write(lambda c: stored.add(c, record, list(found), now())) == 0  # kept once
    return found


def puzzle_row(client: Any, puzzle_id: int) -> Any:
    return client.app.state.hub.store.read(lambda c: stored.get(c, puzzle_id))


def by_position(found: tuple[Puzzle, ...], shown: dict[str, Any]) -> Puzzle:
    return next(p for p in found if (p.deal, p.after) == (shown["deal"], shown["after"]))


def test_a_puzzle_attempt_moves_both_ratings_once(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # every account established at once here (tests/server/test_fair_limits.py: the threshold)
    monkeypatch.setattr(stored, "ESTABLISHED_ATTEMPTS", 0)
    monkeypatch.setattr(stored, "ESTABLISHED_AGE", timedelta(0))
    found = with_puzzles(client)
    ani = Account(client, "Ani")
    first = client.get("/api/puzzles/next", headers=ani.headers).json()
    assert first["you"] == {"rated": True, "rating": None}
    p = by_position(found, first)
    wrong = next(c.text for c in p.values if c not in p.solution)
    before = puzzle_row(client, first["id"])
    answer = ani.post(f"/api/puzzles/{first['id']}/attempt", {"card": wrong})
    assert answer["solved"] is False and answer["rated"] is True and answer["first"] is True
    assert answer["solution"] == [c.text for c in p.solution]
    assert answer["values"] == {c.text: v for c, v in p.values.items()}
    assert answer["rating"]["after"] < answer["rating"]["before"] == 0.0
    after = puzzle_row(client, first["id"])
    assert after.mu > before.mu and after.sigma < before.sigma  # the puzzle won: it is harder
    assert (after.attempts, after.solved) == (1, 0)
    # a second attempt at the same puzzle moves nothing
    again = ani.post(f"/api/puzzles/{first['id']}/attempt", {"card": p.solution[0].text})
    assert again["solved"] is True and again["rated"] is False and again["first"] is False
    assert puzzle_row(client, first["id"]).mu == after.mu
    # the next puzzle is another one; solving it moves the solver up and the puzzle down
    second = client.get("/api/puzzles/next", headers=ani.headers).json()
    assert second["id"] != first["id"] and second["you"]["rating"]["rating"] == answer["rating"]["after"]
    q = by_position(found, second)
    right = ani.post(f"/api/puzzles/{second['id']}/attempt", {"card": q.solution[-1].text})
    assert right["solved"] is True and right["rating"]["after"] > right["rating"]["before"]
    assert puzzle_row(client, second["id"]).mu < before.mu


def test_guests_solve_without_a_rating_and_bad_attempts_are_refused(client: Any) -> None:
    found = with_puzzles(client)
    guest = Player(client, "Gohar")
    shown = client.get("/api/puzzles/next", headers=guest.headers).json()
    assert shown["you"] == {"rated": False, "rating": None}
    p = by_position(found, shown)
    before = puzzle_row(client, shown["id"])
    answer = guest.post(f"/api/puzzles/{shown['id']}/attempt", {"card": p.solution[0].text})
    assert answer["solved"] is True and answer["rated"] is False and answer["rating"] is None
    after = puzzle_row(client, shown["id"])
    assert (after.mu, after.sigma, after.attempts) == (before.mu, before.sigma, 1)
    assert client.get("/api/puzzles/next", headers=guest.headers).json()["id"] != shown["id"]
    # nobody at all: answered, kept nowhere
    anyone = client.post(f"/api/puzzles/{shown['id']}/attempt", json={"card": p.solution[0].text}).json()
    assert anyone["solved"] is True and anyone["first"] is False
    legal = {c.text for c in p.values}
    illegal = next(c for c in ("AS", "AH", "AD", "AC", "7S", "7H", "7D", "7C") if c not in legal)
    refused = guest.post(f"/api/puzzles/{shown['id']}/attempt", {"card": illegal}, status=409)
    assert refused["error"] == "illegal" and refused["message"].startswith(f"{illegal} is not a card")
    for body in ({"card": "XX"}, {}):
        assert guest.post(f"/api/puzzles/{shown['id']}/attempt", body, status=400)["error"] == "malformed"
    assert guest.post("/api/puzzles/99999/attempt", {"card": "AS"}, status=404)["error"] == "not_found"
    assert client.get("/api/puzzles/99999").status_code == 404
    assert client.get("/api/puzzles/next?game=chess").status_code == 400


def test_the_next_puzzle_is_one_not_tried_until_none_is_left(client: Any) -> None:
    found = with_puzzles(client)
    ani = Account(client, "Ani")
    seen = set()
    for _ in found:
        shown = client.get("/api/puzzles/next", headers=ani.headers).json()
        assert shown["id"] not in seen
        seen.add(shown["id"])
        ani.post(f"/api/puzzles/{shown['id']}/attempt", {"card": by_position(found, shown).solution[0].text})
    left = client.get("/api/puzzles/next", headers=ani.headers)
    assert left.status_code == 404 and left.json()["error"] == "not_found"
    assert client.get("/api/puzzles/next?game=3-5-8").status_code == 404


def test_the_puzzle_of_the_day_is_the_same_all_day(client: Any) -> None:
    none = client.get("/api/puzzles/daily")  # the lobby asks: no error while there is none
    assert none.status_code == 200 and none.json() is None
    assert client.get("/api/puzzles/daily?game=bazar-blot").status_code == 404
    with_puzzles(client)
    first = client.get("/api/puzzles/daily").json()
    assert client.get("/api/puzzles/daily?game=bazar-blot").json()["id"] == first["id"]
    assert "solution" not in first
