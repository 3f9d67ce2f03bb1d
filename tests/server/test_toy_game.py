"""Issue 39 item 4: a third game is its own modules and one spec. Toy Duel (tests/toygame), a
two-seat trick game registered only here, is listed by the server with its ruleset's labels,
played through the websocket to its end against a bot, its record read back, and its page
presenter served from the test's own files; it provides no analysis, so none is queued or asked
of it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from blot.games import SPECS, spec
from toygame import registered

from .conftest import Player, Socket, make_client, play_out, start_with_bots


@pytest.fixture
def toy_client(db: Path) -> Iterator[TestClient]:
    """A server made while Toy Duel is in the registry."""
    with registered(), make_client(db, learn=True) as client:
        yield client


def test_the_listing_describes_the_toy_game_from_its_spec(toy_client: TestClient) -> None:
    games = {g["game"]: g for g in toy_client.get("/api/games").json()["games"]}
    toy = games["toy-duel"]
    assert (toy["title"], toy["seats"], toy["teams"], toy["presenter"]) == (
        "Toy Duel",
        2,
        [[0], [1]],
        "toy_duel",
    )
    assert toy["rulesets"] == ["plain"] and toy["ruleset_labels"]["plain"]["hy"] == "Պարզ"
    assert toy["bots"] == ["random"] and not toy["score_sheet"] and not toy["duplicate"]
    assert set(games) == {"bazar-blot", "3-5-8", "toy-duel"}


def test_the_toy_game_plays_to_its_end_through_the_server_and_its_record_replays(
    toy_client: TestClient,
) -> None:
    ani = Player(toy_client, "Ani")
    table = start_with_bots(ani, game="toy-duel", level="random")
    last = play_out(toy_client, table, {0: ani})
    over = last["game_over"]
    assert over is not None and sum(over["totals"]) == 9  # three deals of three tricks
    record = toy_client.get(f"/api/tables/{table}/record").json()
    assert record["game"] == "toy-duel" and len(record["deals"]) == 3
    replayed = spec("toy-duel").replay(record)
    assert replayed.to_json()["totals"] == over["totals"]
    # no analysis: the game provides none (the registry says so), and none was queued for it
    assert toy_client.get(f"/api/tables/{table}/analysis").json()["status"] == "none"
    asked = toy_client.post(f"/api/tables/{table}/analysis")
    assert (asked.status_code, asked.json()["message"]) == (404, "the game toy-duel has no analysis")


def test_a_move_the_toy_rules_refuse_is_answered_with_their_sentence_and_changes_nothing(
    toy_client: TestClient,
) -> None:
    """The toy's refusals are its own sentences (no catalogue outside its package is edited)."""
    ani = Player(toy_client, "Ani")
    table = start_with_bots(ani, game="toy-duel", level="random")
    with toy_client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, ani.token)
        view = sock.my_turn(0)
        missing = next(c for c in ("AS", "KS", "QS", "AH", "KH", "QH") if c not in view["hand"])
        reply = sock.play(0, {"action": missing})
        assert reply["type"] == "error" and reply["message"] == f"seat 0 does not hold {missing}"
        sock.send(type="action", action=view["legal"]["cards"][0])
        played = sock.until(lambda m: m["type"] == "event" and m["event"].get("seat") == 0)
        assert played["event"]["action"] == view["legal"]["cards"][0]


def test_the_toy_presenter_is_served_from_the_tests_own_file(toy_client: TestClient) -> None:
    response = toy_client.get("/static/games/toy_duel.js")
    assert response.status_code == 200 and "javascript" in response.headers["content-type"]
    assert "export function createPresenter" in response.text
    # blot's own presenters are still its static files
    assert toy_client.get("/static/games/bazar.js").status_code == 200


def test_the_toy_game_is_gone_from_the_registry_after_its_tests() -> None:
    assert "toy-duel" not in SPECS


def test_the_solver_warm_up_asks_the_registry_which_games_have_one(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """``blot serve`` compiles the solver of each game that provides an analysis and a search bot:
    blot's two games, not the toy (which has neither), even while it is registered, and the
    warm-up does not fail on it."""
    import blot.play
    from blot.server.hub import warm_solver

    played: list[str] = []

    def play(game: object, bots: object, until: object = None) -> None:
        played.append(type(game).__module__)

    monkeypatch.setattr(blot.play, "play", play)
    with registered():
        warm_solver()
    assert played == ["blot.bazar.game", "blot.three_five_eight.game"]
    assert "warming the solver failed" not in caplog.text
