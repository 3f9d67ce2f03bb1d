"""Rated tables (issue 13): a finished game moves the ratings (OpenSkill) and the leaderboard
follows; what counts (League rulebook §7): a game ended by agreement is not rated, a player who
leaves and does not come back loses it and the others' game is not rated; tars kapoot (B-55) on
record, and with --league the pair barred from rated tables for a year, for ever the second time
(a clock the test moves); profiles with the rating history and the partner table."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from blot.games import GameSpec, spec

from .conftest import Account, Clock, Player, Socket, make_client, play_out

SMALL = {"options": {"target": 1}}  # Bazar Blot: over after the first played deal


def leaderboard(client: Any, game: str) -> list[dict[str, Any]]:
    answer = client.get(f"/api/leaderboard?game={game}")
    assert answer.status_code == 200, answer.text
    rows: list[dict[str, Any]] = answer.json()["players"]
    return rows


def rated_table(host: Account, game: str, seats: dict[int, Account | str], **body: Any) -> str:
    """A rated table: accounts and bot levels in the given seats (the host sits in seat 0)."""
    table = host.table(game, rated=True, **body)
    for seat, who in seats.items():
        if isinstance(who, str):
            host.post(f"/api/tables/{table}/bot", {"seat": seat, "level": who})
        elif who is not host:
            who.post(f"/api/tables/{table}/sit", {"seat": seat})
    host.post(f"/api/tables/{table}/start")
    return table


def test_a_rated_bazar_game_moves_the_winners_up_and_the_losers_down(client: Any) -> None:
    ani, boris = Account(client, "Ani"), Account(client, "Boris")
    table = rated_table(ani, "bazar-blot", {0: ani, 1: boris, 2: "heuristic", 3: "basic"}, **SMALL)
    assert client.get(f"/api/tables/{table}").json()["settings"]["rated"] is True
    assert leaderboard(client, "bazar-blot") == []
    over = play_out(client, table, {0: ani, 1: boris})["game_over"]
    winners = over["winner"]  # team 0: Ani and heuristic; team 1: Boris and basic (B-70)
    names = {0: "Ani", 1: "Boris", 2: "bot:heuristic", 3: "bot:basic"}
    board = leaderboard(client, "bazar-blot")
    assert sorted(r["username"] for r in board) == sorted(names.values())
    by_name = {r["username"]: r for r in board}
    for seat, name in names.items():
        row = by_name[name]
        assert row["games"] == 1 and row["wins"] == (1 if seat % 2 == winners else 0)
        assert (row["mu"] > 25) == (seat % 2 == winners) and row["mu"] != 25
        assert row["rating"] == round(row["mu"] - 3 * row["sigma"], 1)
    # best first: both winners above both losers
    order = [r["username"] for r in board]
    assert {order[0], order[1]} == {names[winners], names[winners + 2]}
    assert [r["rank"] for r in board] == [1, 2, 3, 4]
    assert by_name["bot:basic"]["bot"] == "basic" and by_name["Ani"]["bot"] is None
    # the match score of B-71 is kept with the game, and the profile shows it all
    profile = client.get("/api/players/ANI").json()
    game = profile["games"]["bazar-blot"]
    assert game["played"] == 1 and game["won"] == (1 if winners == 0 else 0) and game["rated_games"] == 1
    assert [h["rating"] for h in game["history"]] == [by_name["Ani"]["rating"]]
    assert game["partners"] == [
        {"partner": "bot:heuristic", "games": 1, "wins": 1 - winners, "share": float(1 - winners)}
    ]
    recent = profile["recent"][0]
    assert recent["table"] == table and recent["rated"] and recent["ending"] == "played"
    assert recent["match_score"] == over["match_score"] and recent["players"] == list(names.values())
    assert recent["rating_change"] == by_name["Ani"]["rating"]  # from 0.0 (25 - 3 x 25/3)
    bot = client.get("/api/players/bot:basic").json()
    assert bot["bot"] == "basic" and bot["games"]["bazar-blot"]["rated_games"] == 1
    assert client.get("/api/players/nobody").status_code == 404
    assert client.get("/api/leaderboard?game=chess").status_code == 400


def test_a_rated_358_game_ranks_three_players(client: Any) -> None:
    ani = Account(client, "Ani")
    table = rated_table(ani, "3-5-8", {0: ani, 1: "heuristic", 2: "basic"})
    over = play_out(client, table, {0: ani})["game_over"]
    places = client.get("/api/players/Ani").json()["recent"][0]
    board = leaderboard(client, "3-5-8")
    assert len(board) == 3 and all(r["games"] == 1 for r in board)
    # the ranking of three (T-50): the winner gains most, the last loses most
    ranked = sorted(board, key=lambda r: r["mu"], reverse=True)
    first = {0: "Ani", 1: "bot:heuristic", 2: "bot:basic"}[over["winner"]]
    assert ranked[0]["username"] == first and ranked[0]["mu"] > 25 > ranked[2]["mu"]
    assert places["place"] == [r["username"] for r in ranked].index("Ani")
    assert client.get("/api/players/Ani").json()["games"]["3-5-8"]["partners"] is None


def test_a_newcomers_rating_is_provisional_until_the_documented_number_of_games(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41 item 7: a first rated loss showed "-2.8", read as a penalty. Until PROVISIONAL_GAMES
    rated games (10, docs/players.md) the API says ``provisional`` with the count, and the pages
    show a word instead of the number."""
    ani = Account(client, "Ani")
    first = rated_table(ani, "bazar-blot", {0: ani, 1: "basic", 2: "basic", 3: "basic"}, **SMALL)
    play_out(client, first, {0: ani})
    answer = client.get("/api/leaderboard?game=bazar-blot").json()
    assert answer["provisional_games"] == 10
    row = next(r for r in answer["players"] if r["username"] == "Ani")
    assert row["provisional"] is True and row["games"] == 1
    game = client.get("/api/players/Ani").json()["games"]["bazar-blot"]
    assert game["provisional"] is True and game["rated_games"] == 1 and game["provisional_games"] == 10
    seat = client.get(f"/api/tables/{first}/ratings").json()["seats"][0]
    assert seat["provisional"] is True and seat["games"] == 1 and seat["rated"]
    # the threshold crossed (lowered here to 2 rather than playing ten games): the number shows
    monkeypatch.setattr("blot.ratings.PROVISIONAL_GAMES", 2)
    second = rated_table(ani, "bazar-blot", {0: ani, 1: "basic", 2: "basic", 3: "basic"}, **SMALL)
    play_out(client, second, {0: ani})
    row = next(r for r in leaderboard(client, "bazar-blot") if r["username"] == "Ani")
    assert row["provisional"] is False and row["games"] == 2
    assert client.get("/api/players/Ani").json()["games"]["bazar-blot"]["provisional"] is False
    later = client.get(f"/api/tables/{second}/ratings").json()["seats"][0]
    assert later["provisional"] is False and later["games"] == 2
    # the first game's end still says what it said then: provisional, after one game
    assert client.get(f"/api/tables/{first}/ratings").json()["seats"][0]["games"] == 1


def test_rated_tables_are_for_accounts(client: Any) -> None:
    guest = Player(client, "Guest")
    answer = client.post("/api/tables", json={"game": "3-5-8", "rated": True}, headers=guest.headers)
    assert answer.status_code == 403
    assert answer.json()["message"] == "rated tables are for players with an account: sign up or log in"
    assert (
        client.post("/api/tables", json={"game": "3-5-8", "rated": "yes"}, headers=guest.headers).status_code
        == 400
    )
    ani = Account(client, "Ani")
    table = ani.table("3-5-8", rated=True)
    guest.post(f"/api/tables/{table}/sit", {"seat": 1}, status=403)
    Account(client, "Boris").post(f"/api/tables/{table}/sit", {"seat": 1})


def test_a_game_ended_by_agreement_is_not_rated(client: Any) -> None:
    ani, boris = Account(client, "Ani"), Account(client, "Boris")
    table = rated_table(ani, "bazar-blot", {0: ani, 1: boris, 2: "basic", 3: "basic"})
    stranger = Account(client, "Carl")
    stranger.post(f"/api/tables/{table}/end", {"agree": True}, status=403)
    ani.post(f"/api/tables/{table}/end", {"agree": "yes"}, status=400)
    assert ani.post(f"/api/tables/{table}/end", {"agree": True})["end_votes"] == [0]
    assert boris.post(f"/api/tables/{table}/end", {"agree": False})["end_votes"] == []  # declined
    assert ani.post(f"/api/tables/{table}/end", {"agree": True})["status"] == "playing"
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, ani.token)
        sock.receive()
        ended = boris.post(f"/api/tables/{table}/end", {"agree": True})
        assert ended["status"] == "finished" and ended["ended"] == "agreement"
        event = sock.until(
            lambda m: m["type"] == "event" and m["event"]["kind"] == "end" and m["event"]["ended"]
        )
        assert event["event"]["seat"] == 1 and event["table"]["ended"] == "agreement"
    ani.post(f"/api/tables/{table}/end", {"agree": True}, status=409)  # over
    assert leaderboard(client, "bazar-blot") == []
    recent = client.get("/api/players/Boris").json()["recent"]
    assert [(g["table"], g["ending"], g["place"], g["rated"]) for g in recent] == [
        (table, "agreement", None, False)
    ]
    assert client.get("/api/players/Boris").json()["games"]["bazar-blot"]["played"] == 0
    listed = {g["id"]: g for g in client.get("/api/replays").json()["games"]}
    assert listed[table]["summary"]["ended"] == "agreement"
    # the end is in the table's log: a restarted server folds it back
    hub = client.app.state.hub
    assert [e.kind for e in hub.store.log(table)][-2:] == ["end", "end"]


def grace_passes(client: Any, clock: Clock, table: str) -> None:
    """Boris (seat 1) has gone: the seat is his for the grace period (60 s of the server's clock,
    issue 39 item 5), a stand-in bot plays it once the clock has passed it."""

    def seat() -> dict[str, Any]:
        return dict(client.get(f"/api/tables/{table}").json()["seats"][1])

    deadline = time.monotonic() + 10
    while not (seat()["away"] and clock.pending()):  # his socket closed: the grace timer is set
        assert time.monotonic() < deadline
        time.sleep(0.02)
    clock.move(59.0)
    assert not seat()["substitute"]
    clock.move(1.0)
    while not seat()["substitute"]:
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_a_player_who_leaves_loses_and_the_others_game_is_not_rated(db: Path) -> None:
    clock = Clock()
    with make_client(db, clock=clock) as client:
        ani, boris = Account(client, "Ani"), Account(client, "Boris")
        table = rated_table(ani, "bazar-blot", {0: ani, 1: boris, 2: "basic", 3: "heuristic"}, **SMALL)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            Socket(ws, boris.token).receive()
        # Boris has gone: after the grace period a stand-in bot plays his seat; Ani plays on
        grace_passes(client, clock, table)
        play_out(client, table, {0: ani})
        board = {r["username"]: r for r in leaderboard(client, "bazar-blot")}
        assert list(board) == ["Boris"]  # only the leaver's rating moves: a loss, whoever won
        assert board["Boris"]["mu"] < 25 and board["Boris"]["games"] == 1 and board["Boris"]["wins"] == 0
        mine = client.get("/api/players/Ani").json()["recent"][0]
        his = client.get("/api/players/Boris").json()["recent"][0]
        assert (mine["ending"], mine["rated"]) == ("played", False)
        assert (his["ending"], his["rated"]) == ("left", True) and his["rating_change"] < 0


def test_a_player_who_comes_back_before_the_end_is_rated_as_usual(db: Path) -> None:
    clock = Clock()
    with make_client(db, clock=clock) as client:
        ani, boris = Account(client, "Ani"), Account(client, "Boris")
        table = rated_table(ani, "bazar-blot", {0: ani, 1: boris, 2: "basic", 3: "basic"}, **SMALL)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            Socket(ws, boris.token).receive()
        grace_passes(client, clock, table)
        play_out(client, table, {0: ani, 1: boris})  # Boris is back: he plays his own seat again
        assert {r["username"] for r in leaderboard(client, "bazar-blot")} == {"Ani", "Boris", "bot:basic"}


# --- tars kapoot and the League ----------------------------------------------------------------------

# Ani (seat 0) and Gohar (seat 2) hold no spade and no card that beats the bots' in any suit: after
# Ani's kapoot bid in spades the bots take every trick (tars kapoot, B-55).
TARS_DEAL = {
    "hands": [
        "QH JH 9H 8H QD JD 9D 8D",
        "JS 9S AS 10S AH 10H KH AC",
        "7H 7D KC QC JC 9C 8C 7C",
        "KS QS 8S 7S AD 10D KD 10C",
    ]
}


def kapoot_then_lowest(view: dict[str, Any]) -> dict[str, Any]:
    legal = view["legal"]
    if legal["kind"] == "call":
        if view["seat"] == 0 and "25S" in legal["calls"]:
            return {"action": "25S"}
        return {"action": "pass" if "pass" in legal["calls"] else legal["calls"][0]}
    if legal["kind"] == "declare":
        return {"declare": "none"}
    return {"action": legal["cards"][0]}


@pytest.fixture
def tars_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    bazar = spec("bazar-blot")
    original = GameSpec.random_deal

    def deal(self: GameSpec, rng: Any) -> Any:
        return bazar.cards_from_json(TARS_DEAL) if self is bazar else original(self, rng)

    monkeypatch.setattr(GameSpec, "random_deal", deal)


def tars_kapoot(client: Any, ani: Account, gohar: Account) -> str:
    table = rated_table(ani, "bazar-blot", {0: ani, 1: "basic", 2: gohar, 3: "basic"})
    over = play_out(client, table, {0: ani, 2: gohar}, kapoot_then_lowest)["game_over"]
    assert over["tars_kapoot"] and over["winner"] == 1
    return table


@pytest.mark.usefixtures("tars_deals")
def test_tars_kapoot_bars_the_pair_for_a_year_then_for_ever(db: Path) -> None:
    clock = Clock(1_750_000_000.0)  # 2025-06-15
    with make_client(db, clock=clock, league=True) as client:
        ani, gohar = Account(client, "Ani"), Account(client, "Gohar")
        first = tars_kapoot(client, ani, gohar)
        records = client.get("/api/players/Gohar").json()["tars_kapoot"]
        assert [(r["partner"], r["table"]) for r in records] == [("Ani", first)]
        assert [r["partner"] for r in client.get("/api/players/Ani").json()["tars_kapoot"]] == ["Gohar"]
        message = (
            "Ani and Gohar suffered tars kapoot on 2025-06-15: under the League's rules they may not "
            "play together as partners at a public table or in an event until 2026-06-15"
        )
        bars = client.get("/api/me", headers=gohar.headers).json()["bars"]
        assert [b["message"] for b in bars] == [message] and bars[0]["players"] == ["Ani", "Gohar"]
        table = ani.table("bazar-blot", rated=True)
        refused = client.post(f"/api/tables/{table}/sit", json={"seat": 2}, headers=gohar.headers)
        assert refused.status_code == 403 and refused.json()["message"] == message
        gohar.post(f"/api/tables/{table}/sit", {"seat": 1})  # opponents may (L-3 bars a pair)
        gohar.post(f"/api/tables/{table}/leave")
        unrated = ani.table("bazar-blot")
        gohar.post(f"/api/tables/{unrated}/sit", {"seat": 2}, status=403)  # public: barred too
        private = ani.table("bazar-blot", public=False)
        gohar.post(f"/api/tables/{private}/sit", {"seat": 2})  # a private unrated table is not
        clock.move(365 * 86400 - 60)
        gohar.post(f"/api/tables/{table}/sit", {"seat": 2}, status=403)
        clock.move(120)  # a year after the first time
        assert client.get("/api/me", headers=gohar.headers).json()["bars"] == []
        gohar.post(f"/api/tables/{table}/sit", {"seat": 2})  # waiting for a start
        second = tars_kapoot(client, ani, gohar)
        assert len(client.get("/api/players/Ani").json()["tars_kapoot"]) == 2 and second != first
        never = (
            "Ani and Gohar suffered tars kapoot twice: under the League's rules they may never again "
            "play together as partners at a public table or in an event"
        )
        ani.post(f"/api/tables/{table}/fill-bots", {"level": "basic"})
        refused = client.post(f"/api/tables/{table}/start", headers=ani.headers)
        assert refused.status_code == 403 and refused.json()["message"] == never
        clock.move(50 * 365 * 86400)
        later = ani.table("bazar-blot", rated=True)
        refused = client.post(f"/api/tables/{later}/sit", json={"seat": 2}, headers=gohar.headers)
        assert refused.json()["message"] == never
        other = ani.table("3-5-8", rated=True)  # 3-5-8 has no partners: everyone plays alone
        gohar.post(f"/api/tables/{other}/sit", {"seat": 1})


@pytest.mark.usefixtures("tars_deals")
def test_without_league_tars_kapoot_is_on_record_but_bars_nobody(client: Any) -> None:
    ani, gohar = Account(client, "Ani"), Account(client, "Gohar")
    tars_kapoot(client, ani, gohar)
    assert len(client.get("/api/players/Gohar").json()["tars_kapoot"]) == 1
    assert client.get("/api/me", headers=gohar.headers).json()["bars"] == []
    tars_kapoot(client, ani, gohar)


def test_a_failure_to_store_the_ratings_does_not_keep_a_game_from_ending(
    client: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*_: Any) -> None:
        raise RuntimeError("the ratings are broken")

    monkeypatch.setattr("blot.league.record_outcome", broken)
    ani = Account(client, "Ani")
    table = rated_table(ani, "bazar-blot", {0: ani, 1: "heuristic", 2: "heuristic", 3: "heuristic"}, **SMALL)
    assert play_out(client, table, {0: ani})["game_over"] is not None
    assert client.get(f"/api/tables/{table}/record").status_code == 200
    assert leaderboard(client, "bazar-blot") == []
    assert "the results of its game could not be stored" in caplog.text


def test_only_a_finished_or_agreed_game_has_an_outcome_to_record(client: Any) -> None:
    ani = Account(client, "Ani")
    table = ani.table("3-5-8")  # not rated: a person alone with bots may end by agreement
    ani.post(f"/api/tables/{table}/fill-bots", {"level": "heuristic"})
    ani.post(f"/api/tables/{table}/start")
    actor = client.app.state.hub.tables[table]
    assert actor.endings.outcome() is None  # being played: nothing to record
    ani.post(f"/api/tables/{table}/end", {"agree": True})
    outcome = actor.endings.outcome()
    assert outcome is not None and outcome.places is None and not outcome.rated
    assert [(s.player, s.bot, s.left) for s in outcome.seats] == [
        (ani.id, None, False),
        (None, "heuristic", False),
        (None, "heuristic", False),
    ]
