"""League events through the real server (issue 25): whole events played by bot entrants into
standings checked against the games' records, a duplicate round, forfeits, and bad input
answered with one sentence and nothing changed."""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from blot.cli.main import main
from blot.games import spec

from .conftest import Account, Clock, Player, make_client


def wait_round(organizer: Account, event: str, number: int, seconds: float = 120) -> dict[str, Any]:
    """The event once round ``number`` is over (its games end by themselves: bots)."""
    deadline = time.monotonic() + seconds
    while True:
        data: dict[str, Any] = organizer.client.get(f"/api/events/{event}").json()
        if data["rounds"][number - 1]["status"] == "finished":
            return data
        assert time.monotonic() < deadline, data["rounds"][number - 1]
        time.sleep(0.05)


def points_from_record(client: TestClient, table: str, game: str) -> list[int]:
    """Each seat-order entrant's match points, from the stored record replayed (B-71, T-50)."""
    record = client.get(f"/api/tables/{table}/record").json()
    result = spec(game).replay(record).game.result
    if game == "bazar-blot":
        win = 2 if result.match_score == "2-0" else 1
        return [win if result.winner == team else 0 for team in (0, 1)]
    return [2 - p for p in result.ranking()]


def run_event(client: TestClient, organizer: Account, body: dict[str, Any], bots: int) -> dict[str, Any]:
    event = organizer.post("/api/events", body)["id"]
    for _ in range(bots):
        organizer.post(f"/api/events/{event}/entries", {"bot": "basic"})
    data = client.get(f"/api/events/{event}").json()
    number = 0
    while data["status"] != "finished":
        number += 1
        organizer.post(f"/api/events/{event}/rounds", {"start": True})
        data = wait_round(organizer, event, number)
    return data


def check_against_records(client: TestClient, data: dict[str, Any]) -> None:
    """Every table's result is what its record says, and each entry's points add them up."""
    totals = {e["id"]: 0 for e in data["entries"]}
    for r in data["rounds"]:
        for t in r["tables"]:
            assert t["result"] == points_from_record(client, t["table"], data["game"]), t
            for entry, points in zip(t["entries"], t["result"], strict=True):
                totals[entry] += points
        for entry in r["byes"]:
            totals[entry] += 1
    assert {s["entry"]: s["points"] for s in data["standings"]} == totals
    ranks = [s["rank"] for s in data["standings"]]
    assert ranks == sorted(ranks) and ranks[0] == 1


def test_b71_an_eight_pair_swiss_of_four_rounds_played_by_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with make_client(tmp_path / "db.sqlite3") as client:
        organizer = Account(client, "organizer")
        body = {
            "name": "Spring Swiss",
            "game": "bazar-blot",
            "format": "swiss",
            "rounds": 4,
            "online": True,
            "rated": False,
            "public": True,
            "options": {"target": 51},
        }
        data = run_event(client, organizer, body, 8)
        assert len(data["rounds"]) == 4
        met = set()
        for r in data["rounds"]:
            assert len(r["tables"]) == 4 and r["byes"] == []
            for t in r["tables"]:
                pair = frozenset(t["entries"])
                assert pair not in met  # no two pairs meet twice in a Swiss of 4 rounds of 8
                met.add(pair)
        check_against_records(client, data)
        assert set(data["standings"][0]["tiebreaks"]) == {"buchholz", "sonneborn_berger", "difference"}
        csv = client.get(f"/api/events/{data['id']}/standings?format=csv")
        assert csv.status_code == 200 and csv.text.splitlines()[0].startswith(
            "rank,entry,name,points,buchholz"
        )
        assert len(csv.text.splitlines()) == 9
        # blot event standings FILE.json: the same standings from the exported event
        export = tmp_path / "event.json"
        export.write_text(json.dumps(data))
        main(["event", "standings", str(export), "--json"])
        assert json.loads(capsys.readouterr().out) == [
            {k: v for k, v in s.items() if k != "withdrawn"} | {"withdrawn": False} for s in data["standings"]
        ]
        main(["event", "standings", str(export)])
        assert "Buchholz" in capsys.readouterr().out
        export.write_text("{}")
        with pytest.raises(SystemExit):
            main(["event", "standings", str(export)])
        assert capsys.readouterr().err.strip() == (
            f"error: {export} is not an exported event: it needs entries and rounds (GET /api/events/ID)"
        )


def test_t50_a_six_player_358_round_robin_played_by_bots(tmp_path: Path) -> None:
    with make_client(tmp_path / "db.sqlite3") as client:
        organizer = Account(client, "organizer")
        body = {"name": "Blato", "game": "3-5-8", "format": "round_robin", "rounds": 1, "online": True}
        data = run_event(client, organizer, body, 6)
        met = set()
        for r in data["rounds"]:
            for t in r["tables"]:
                met |= {frozenset((a, b)) for a in t["entries"] for b in t["entries"] if a != b}
        assert len(met) == 15  # every player met every other
        assert data["rounds_total"] == len(data["rounds"]) == 4
        check_against_records(client, data)


def test_a_duplicate_round_deals_the_same_cards_at_every_table(tmp_path: Path) -> None:
    with make_client(tmp_path / "db.sqlite3") as client:
        organizer = Account(client, "organizer")
        body = {
            "name": "Duplicate night",
            "game": "bazar-blot",
            "format": "duplicate",
            "rounds": 1,
            "deals": 3,
        }
        data = run_event(client, organizer, body, 6)
        tables = data["rounds"][0]["tables"]
        assert len(tables) == 3
        records = [client.get(f"/api/tables/{t['table']}/record").json() for t in tables]
        for record in records:
            assert len(record["deals"]) == 3
            assert [(d["dealer"], d["hands"]) for d in record["deals"]] == [
                (d["dealer"], d["hands"]) for d in records[0]["deals"]
            ]
            assert record["options"]["target"] == 10_000  # only the round's deals end it
        for t, record in zip(tables, records, strict=True):
            replayed = spec("bazar-blot").replay(record).game.result
            assert t["boards"] == [list(r.points) for r in replayed.deals]
        # matchpoints: each pair against the two others of its direction, 2 per deal each
        percent = {s["entry"]: s["points"] for s in data["standings"]}
        assert set(percent) == {e["id"] for e in data["entries"]}
        assert sum(percent.values()) == 6 * 50  # every comparison gives 2 points between two pairs


def forfeit_sweep(client: TestClient, clock: Clock, seconds: float) -> None:
    """Move the server's clock ``seconds`` on and run the events' sweep (issue 39 item 5)."""
    clock.move(seconds)
    client.portal.call(client.app.state.hub.tournaments.sweep.sweep)  # type: ignore[attr-defined]


def test_an_entrant_who_does_not_come_loses_by_forfeit(tmp_path: Path) -> None:
    """The forfeit time is on the server's clock: a sweep a moment before it forfeits nothing,
    the sweep once the clock has passed it does (no real second waited)."""
    clock = Clock()
    with make_client(tmp_path / "db.sqlite3", clock=clock, event_sweep_seconds=3600) as client:
        organizer = Account(client, "organizer")
        ani, gohar = Account(client, "ani"), Account(client, "gohar")
        event = organizer.post(
            "/api/events",
            {"name": "Club night", "rounds": 1, "forfeit_seconds": 30, "options": {"target": 51}},
        )["id"]
        ani.post(f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]})
        data = gohar.post(f"/api/events/{event}/entries/{data_entry(client, event)}/confirm")
        assert all(e["confirmed"] for e in data["entries"])
        organizer.post(f"/api/events/{event}/entries", {"bot": "basic"})
        organizer.post(f"/api/events/{event}/rounds", {"start": True})
        next_game = ani.client.get("/api/events/next", headers=ani.headers).json()["games"]
        assert [g["round"] for g in next_game] == [1]  # "your table is ready"
        started = client.get(f"/api/events/{event}").json()["rounds"][0]["tables"][0]["table"]
        forfeit_sweep(client, clock, 29.9)
        assert client.get(f"/api/tables/{started}").json()["status"] == "playing"  # not yet
        forfeit_sweep(client, clock, 0.2)
        data = wait_round(organizer, event, 1, seconds=30)
        table = data["rounds"][0]["tables"][0]
        humans = next(e["id"] for e in data["entries"] if e["bot"] is None)
        assert table["result"] == [0 if e == humans else 1 for e in table["entries"]]
        summary = client.get(f"/api/tables/{table['table']}").json()
        assert summary["ended"] == "forfeit" and summary["status"] == "finished"


def test_only_an_entrant_whose_turn_came_loses_by_forfeit(tmp_path: Path) -> None:
    """Two pairs of persons, nobody moves: the game waits on the first to bid, so that pair did
    not come; the other pair never had a turn and wins by forfeit (it did not fail to come)."""
    clock = Clock()
    with make_client(tmp_path / "db.sqlite3", clock=clock, event_sweep_seconds=3600) as client:
        organizer = Account(client, "organizer")
        for name in ("ani", "gohar", "davit", "emma"):
            Account(client, name)
        body = {"name": "Club night", "rounds": 1, "forfeit_seconds": 30, "options": {"target": 51}}
        event = organizer.post("/api/events", body)["id"]
        organizer.post(f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]})
        organizer.post(f"/api/events/{event}/entries", {"usernames": ["davit", "emma"]})
        table = organizer.post(f"/api/events/{event}/rounds", {"start": True})["rounds"][0]["tables"][0][
            "table"
        ]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:  # a spectator sees whose turn it is
            ws.send_json({"type": "hello", "token": None})
            waited_on = ws.receive_json()["view"]["to_act"]
        forfeit_sweep(client, clock, 30.1)
        data = wait_round(organizer, event, 1, seconds=30)
        result = data["rounds"][0]["tables"][0]["result"]
        assert result == ([0, 1] if waited_on in (0, 2) else [1, 0]), (waited_on, result)
        summary = client.get(f"/api/tables/{table}").json()
        assert summary["ended"] == "forfeit"


def data_entry(client: TestClient, event: str) -> int:
    return int(client.get(f"/api/events/{event}").json()["entries"][0]["id"])


def test_bad_input_is_refused_in_one_sentence_and_changes_nothing(tmp_path: Path) -> None:
    with make_client(tmp_path / "db.sqlite3") as client:
        organizer = Account(client, "organizer")
        ani, gohar, davit = Account(client, "ani"), Account(client, "gohar"), Account(client, "davit")
        event = organizer.post("/api/events", {"name": "Cup", "rounds": 2, "options": {"target": 51}})["id"]
        before = client.get(f"/api/events/{event}").json()
        cases = [
            (
                ani,
                {"usernames": ["ani"]},
                400,
                "an entry of Bazar Blot is a pair of two accounts: usernames is a list of 2",
            ),
            (ani, {"usernames": ["ani", "ANI"]}, 400, "a pair is two different accounts: ani is named twice"),
            (ani, {"usernames": ["ani", "nobody"]}, 404, "there is no account nobody"),
            (
                ani,
                {"usernames": ["gohar", "davit"]},
                403,
                "you may enter yourself (with your partner); the organizer enters others",
            ),
            (ani, {"bot": "basic"}, 403, "only the event's organizer adds bot entrants"),
            (
                organizer,
                {"bot": "nobody"},
                400,
                "a bot entrant is a level: basic, expert, heuristic, pimc, random",
            ),
        ]
        for who, body, status, message in cases:
            answer = who.post(f"/api/events/{event}/entries", body, status=status)
            assert answer["message"] == message
        assert client.get(f"/api/events/{event}").json() == before
        ani.post(f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]})
        entered = client.get(f"/api/events/{event}").json()
        for body in ({"usernames": ["gohar", "davit"]}, {"usernames": ["ani", "davit"]}):
            who = gohar if "gohar" in body["usernames"] else ani
            answer = who.post(f"/api/events/{event}/entries", body, status=409)
            assert answer["message"] == f"{who.username} is already entered in this event"
        assert client.get(f"/api/events/{event}").json() == entered
        answer = davit.post(f"/api/events/{event}/rounds", {"start": True}, status=403)
        assert answer["message"] == "only the event's organizer starts its rounds"
        answer = organizer.post(f"/api/events/{event}/rounds", {"start": True}, status=409)
        assert answer["message"] == "a round needs at least 2 confirmed entries"  # gohar has not confirmed
        assert (answer["reason"], answer["params"]) == ("round_needs_confirmed", {"n": "2"})  # issue 26
        for body, message in [
            ({"name": " "}, "name is needed"),
            ({"name": "x", "format": "knockout"}, "format is swiss, round_robin, duplicate"),
            (
                {"name": "x", "game": "3-5-8", "format": "duplicate"},
                "3-5-8 is not played in duplicate",
            ),
            ({"name": "x", "rounds": 0}, "rounds is a whole number between 1 and 30"),
            (
                {"name": "x", "game": "3-5-8", "online": False},
                "3-5-8 has no Davtar for referees to keep: its events are online",
            ),
            (
                {"name": "x", "online": False, "format": "duplicate"},
                "duplicate is played online: the server deals the same cards at every table",
            ),
            (
                {"name": "x", "online": False, "rated": True},
                "ratings move only with online games: an over-the-board event is not rated",
            ),
        ]:
            assert organizer.post("/api/events", body, status=400)["message"] == message
        guest_answer = client.post("/api/events", json={"name": "x"}, headers=Player(client, "Guest").headers)
        assert guest_answer.json()["message"] == "only an account can run an event: sign up or log in first"


def test_a_round_started_twice_at_once_is_started_once(tmp_path: Path) -> None:
    with make_client(tmp_path / "db.sqlite3", bot_delay=5.0) as client:
        organizer = Account(client, "organizer")
        event = organizer.post("/api/events", {"name": "Race", "rounds": 3})["id"]
        for _ in range(4):
            organizer.post(f"/api/events/{event}/entries", {"bot": "basic"})
        answers: list[Any] = []

        def start() -> None:
            answers.append(
                client.post(f"/api/events/{event}/rounds", json={"start": True}, headers=organizer.headers)
            )

        threads = [threading.Thread(target=start) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(a.status_code for a in answers) == [200, 409, 409, 409]
        for a in answers:
            if a.status_code == 409:
                assert a.json()["message"] in (
                    "round 1 has already been started",
                    "round 1 is still being played",
                )
        data = client.get(f"/api/events/{event}").json()
        assert len(data["rounds"]) == 1 and len(data["rounds"][0]["tables"]) == 2
        assert all(t["table"] is not None for t in data["rounds"][0]["tables"])


MADE = {"contract": {"team": 0, "level": 8, "strain": "S", "multiplier": 1}, "card_points": [130, 32]}


def test_l4_to_l8_an_over_the_board_round_kept_by_referees(tmp_path: Path) -> None:
    """L-4 … L-8: the referee keeps the table's Davtar, announces, rules on a dispute with a
    B-72 penalty, asks a court without naming the players, applies its answer; a player's
    conflict of interest makes the referee step down; the finished sheet is the result."""
    with make_client(tmp_path / "db.sqlite3") as client:
        organizer, referee, sage = (
            Account(client, "organizer"),
            Account(client, "arbiter"),
            Account(client, "sage"),
        )
        ani, _, _, emma = (Account(client, n) for n in ("ani", "gohar", "davit", "emma"))
        event = organizer.post(
            "/api/events", {"name": "League day", "online": False, "rounds": 1, "options": {"target": 51}}
        )["id"]
        organizer.post(f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]})
        organizer.post(f"/api/events/{event}/entries", {"usernames": ["davit", "emma"]})
        answer = organizer.post(f"/api/events/{event}/entries", {"bot": "basic"}, status=409)
        assert answer["message"] == "bots play online: an over-the-board event has no bot entrants"
        data = organizer.post(f"/api/events/{event}/rounds", {"start": True})
        table = data["rounds"][0]["tables"][0]
        # the League's rules: a referee at every table before play starts (L-6)
        assert data["rounds"][0]["status"] == "awaiting_referees"
        assert data["rounds"][0]["without_referee"] == [1] and table["sheet"] is None
        path = f"/api/events/{event}/tables/{table['id']}"
        answer = organizer.post(f"{path}/referee", {"username": "ani"}, status=409)
        assert answer["message"] == "ani plays in this event and cannot referee it"
        data = organizer.post(f"{path}/referee", {"username": "arbiter"})
        assert data["rounds"][0]["tables"][0]["sheet"] is not None  # organizers see the sheet's id
        assert referee.post(f"{path}/notes", {"kind": "lunch"}, status=400)["message"].startswith(
            "an announcement is one of"
        )
        assert (
            ani.post(f"{path}/notes", {"kind": "start"}, status=403)["message"]
            == "only this table's referee does that"
        )
        console = referee.client.get(f"{path}/console", headers=referee.headers).json()
        sheet = console["sheet"]
        referee.post(f"{path}/notes", {"kind": "start", "text": "round 1 begins"})
        referee.post(f"/api/scoresheets/{sheet}/deals", MADE)
        # a dispute: a card played against the rules by team 1 (B-72: 16 plus the deal's declarations)
        console = referee.post(
            f"{path}/disputes",
            {
                "claim": "Davit played a heart holding a spade",
                "explanation": "he did not see it",
                "ruling": "innocent; misplay scored by B-72",
                "penalty": {"kind": "misplay", "team": 1, "declaration_points": 0},
            },
        )
        dispute = next(n for n in console["notes"] if n["kind"] == "dispute")
        assert dispute["penalty"] == {"kind": "misplay", "team": 1, "declaration_points": 0, "deal": 2}
        stored = client.get(f"/api/scoresheets/{sheet}").json()
        assert stored["deals"][1]["entry"] == {
            "penalty": {"kind": "misplay", "team": 1, "declaration_points": 0}
        }
        # an escalation names nobody (a question with a name is refused), and the court sees
        # the case, not who it was
        named = {"court": "conduct", "question": "Did Ani signal to GOHAR? Davit & Emma say so."}
        assert referee.post(f"{path}/cases", named, status=400)["message"].startswith(
            "the question holds a player's username"
        )
        question = "Did a player signal to his partner? The opponents say so; the pair denies it."
        console = referee.post(f"{path}/cases", {"court": "conduct", "question": question})
        case = console["cases"][0]
        assert case["question"] == question
        assert sage.client.get("/api/courts/conduct/cases", headers=sage.headers).status_code == 403
        client.app.state.hub.store.write(lambda c: add_court_member(c, sage.id, "conduct"))  # blot admin
        seen = sage.client.get("/api/courts/conduct/cases", headers=sage.headers).json()
        text = json.dumps(seen)
        assert seen["cases"][0]["question"] == case["question"]
        assert not any(
            name in text.lower() for name in ("ani", "gohar", "davit", "emma", event.lower(), "league day")
        )
        sage.post(f"/api/cases/{case['id']}/answer", {"answer": "No dishonour proven; play on."})
        assert sage.post(f"/api/cases/{case['id']}/answer", {"answer": "again"}, status=409)["message"] == (
            "this case has been answered already"
        )
        console = referee.post(f"{path}/cases/{case['id']}/apply", {"applied": "announced to the table"})
        assert console["cases"][0]["answer"] == "No dishonour proven; play on."
        # a conflict of interest: the referee steps down, the sheet stays
        assert organizer.post(f"{path}/conflict", {"reason": "x"}, status=403)["message"].startswith(
            "only a player"
        )
        data = emma.post(f"{path}/conflict", {"reason": "the referee is Ani's cousin"})
        assert data["rounds"][0]["tables"][0]["referee"] is None
        assert referee.post(f"{path}/notes", {"kind": "end"}, status=403)
        answer = referee.post(f"/api/scoresheets/{sheet}/deals", MADE, status=403)  # stepped down (L-8)
        assert (
            answer["message"]
            == "this Davtar is an event's: only its table's referee or the organizers edit it"
        )
        organizer.post(f"{path}/referee", {"username": "sage"})
        sage.post(f"/api/scoresheets/{sheet}/deals", MADE)  # 21 + 16 + 21 = 58 : 6 (B-70 at 51)
        sage.post(f"{path}/notes", {"kind": "winner", "text": "ani & gohar"})
        data = client.get(f"/api/events/{event}").json()
        assert data["status"] == "finished"
        assert data["rounds"][0]["tables"][0]["result"] == [2, 0]  # 2-0: the loser has 150 or fewer (B-71)
        assert data["rounds"][0]["tables"][0]["sheet"] == "shared"  # the edit id only for its keepers
        # anybody sees the announcements and that a question went to a court, with its answer,
        # beside no table; the disputes and the conflict (which name people) are the table's
        assert [n["kind"] for n in data["notes"]] == ["start", "winner"]
        assert data["court_questions"] == [{"court": "conduct", "answer": "No dishonour proven; play on."}]
        seen = organizer.client.get(f"/api/events/{event}", headers=organizer.headers).json()
        assert [n["kind"] for n in seen["notes"]] == ["start", "dispute", "conflict", "winner"]
        assert [s["points"] for s in data["standings"]] == [2, 0]


def add_court_member(c: Any, player: int, court: str) -> None:
    from blot.store.courts import add_court_member

    add_court_member(c, player, court)


def test_l3_l10_the_leagues_register_and_the_admin_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "db.sqlite3"
    with make_client(db) as client:
        organizer, other = Account(client, "organizer"), Account(client, "helper")
        event = organizer.post("/api/events", {"name": "Cup"})["id"]
        ani, gohar = Account(client, "ani"), Account(client, "gohar")
        from datetime import UTC, datetime

        from blot.store.ratings import insert_tars_kapoot

        table = organizer.table()

        def two(c: Any) -> None:
            insert_tars_kapoot(c, ani.id, gohar.id, table, datetime(2025, 3, 1, tzinfo=UTC))

        client.app.state.hub.store.write(two)
        url = f"sqlite:///{db}"
        main(["admin", "organizer", event, "helper", "--db", url])
        assert capsys.readouterr().out.strip() == "helper now organizes Cup"
        main(["admin", "decision", "2025-04-02", "Cup, round 3", "A warning to both pairs.", "--db", url])
        assert capsys.readouterr().out.strip() == "decision 1 of 2025-04-02 is published in the register"
        with pytest.raises(SystemExit):
            main(["admin", "court", "helper", "supreme", "--db", url])
        assert capsys.readouterr().err.strip() == "error: no court 'supreme': use sages or conduct"
        assert other.client.get(f"/api/events/{event}").json()["organizers"] == [organizer.id, other.id]
        register = client.get("/api/register").json()
        assert register["decisions"] == [
            {
                "id": 1,
                "date": "2025-04-02",
                "decision": "A warning to both pairs.",
                "concerns": "Cup, round 3",
                "kind": None,  # a decision with no dishonour kind: an operator's text (L-10)
                "penance": None,
                "until": None,
                "names": [],
                "case": False,
                "forgiven": None,
                "in_force": False,
            }
        ]
        (ban,) = register["bans"]
        assert ban["players"] == ["ani", "gohar"] and ban["ban"] == "one year"
        assert ban["since"].startswith("2025-03-01") and ban["until"].startswith("2026-03-01")


def test_l3_b55_a_pair_barred_by_tars_kapoot_cannot_enter(tmp_path: Path) -> None:
    """B-55, L-3 with --league: the refusal says why, and nothing is entered."""
    from datetime import UTC, datetime

    from blot.store.ratings import insert_tars_kapoot

    from .conftest import Clock

    clock = Clock(datetime(2025, 6, 1, tzinfo=UTC).timestamp())
    with make_client(tmp_path / "db.sqlite3", league=True, clock=clock) as client:
        organizer, ani, gohar = Account(client, "organizer"), Account(client, "ani"), Account(client, "gohar")
        event = organizer.post("/api/events", {"name": "Cup"})["id"]
        table = organizer.table()
        client.app.state.hub.store.write(
            lambda c: insert_tars_kapoot(c, ani.id, gohar.id, table, datetime(2025, 3, 1, tzinfo=UTC))
        )
        answer = ani.post(f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]}, status=403)
        assert answer["message"] == (
            "ani and gohar suffered tars kapoot on 2025-03-01: under the League's rules they may not play "
            "together as partners at a public table or in an event until 2026-03-01; this online event "
            "(unrated) takes no entry of theirs"  # the kind of event it is (issue 42 item 7)
        )
        assert client.get(f"/api/events/{event}").json()["entries"] == []


def test_l2_an_unfinished_game_is_continued_by_the_same_pairs_in_the_same_seats(tmp_path: Path) -> None:
    """League §7 (L-1, L-2): a game ended by agreement counts for nothing; once each of its
    players asks, it goes on at a new table from its log, the same seats, and the round follows."""
    with make_client(tmp_path / "db.sqlite3", grace=0.05, bot_delay=0.0) as client:
        organizer, ani, gohar = Account(client, "organizer"), Account(client, "ani"), Account(client, "gohar")
        event = organizer.post("/api/events", {"name": "Cup", "rounds": 1, "options": {"target": 51}})["id"]
        organizer.post(f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]})
        organizer.post(f"/api/events/{event}/entries", {"bot": "basic"})
        data = organizer.post(f"/api/events/{event}/rounds", {"start": True})
        old = data["rounds"][0]["tables"][0]["table"]
        ani.post(f"/api/tables/{old}/end", {"agree": True})
        ended = gohar.post(f"/api/tables/{old}/end", {"agree": True})
        assert ended["ended"] == "agreement"
        data = client.get(f"/api/events/{event}").json()
        assert data["rounds"][0]["tables"][0]["status"] == "unfinished"
        assert data["rounds"][0]["tables"][0]["result"] is None and data["status"] == "running"
        asked = ani.post(f"/api/tables/{old}/resume")
        assert asked["id"] == old and asked["resume_asks"] == [0]  # gohar has not asked yet
        answer = organizer.post(f"/api/tables/{old}/resume", status=403)
        assert answer["message"] == "only the players of an unfinished game continue it"
        new = gohar.post(f"/api/tables/{old}/resume")
        assert new["id"] != old and new["status"] in ("playing", "finished")
        assert [s["name"] for s in new["seats"]] == [s["name"] for s in asked["seats"]]
        old_log = client.app.state.hub.store.log(old)
        new_log = client.app.state.hub.store.log(new["id"])
        game_lines = [(e.kind, e.payload) for e in old_log if e.kind not in ("end", "resume_ask", "resumed")]
        assert [(e.kind, e.payload) for e in new_log[: len(game_lines)]] == game_lines
        assert gohar.post(f"/api/tables/{old}/resume")["id"] == new["id"]  # asking again: the same table
        data = wait_round(organizer, event, 1, seconds=60)  # stand-in bots finish it for the absent
        table = data["rounds"][0]["tables"][0]
        assert table["table"] == new["id"] and table["result"] == points_from_record(
            client, new["id"], "bazar-blot"
        )


def finish_sheet(keeper: Account, sheet: str) -> None:
    """Enter made contracts of team 0 until the sheet's game is over (B-70 at 51)."""
    for _ in range(5):
        if keeper.post(f"/api/scoresheets/{sheet}/deals", MADE)["finished"]:
            return
    raise AssertionError("the sheet never finished")


def test_l2_an_over_the_board_game_left_unfinished_is_reopened_by_its_referee(tmp_path: Path) -> None:
    """League §7 (L-1, L-2): the referee announces a game unfinished; its Davtar is then closed to
    deals and penalties, it counts for nothing, and the event goes on to its next round; once the
    referee announces it reopened, the game goes on and its result joins the standings."""
    with make_client(tmp_path / "db.sqlite3") as client:
        organizer, referee = Account(client, "organizer"), Account(client, "arbiter")
        names = ["ani", "gohar", "davit", "emma", "aram", "lilit", "narek", "sona"]
        for name in names:
            Account(client, name)
        body = {"name": "League day", "online": False, "rounds": 2, "options": {"target": 51}}
        event = organizer.post("/api/events", body)["id"]
        for i in range(0, 8, 2):
            organizer.post(f"/api/events/{event}/entries", {"usernames": names[i : i + 2]})

        def tables(data: dict[str, Any], number: int) -> list[dict[str, Any]]:
            return list(data["rounds"][number - 1]["tables"])

        def keep(data: dict[str, Any], number: int) -> list[tuple[str, str]]:
            """The referee assigned to each table of the round (its play starts once every table
            has one, L-6): each table's path and its sheet."""
            paths = [f"/api/events/{event}/tables/{t['id']}" for t in tables(data, number)]
            for path in paths:
                organizer.post(f"{path}/referee", {"username": "arbiter"})
            return [
                (path, referee.client.get(f"{path}/console", headers=referee.headers).json()["sheet"])
                for path in paths
            ]

        (left, left_sheet), (done, done_sheet) = keep(
            organizer.post(f"/api/events/{event}/rounds", {"start": True}), 1
        )
        Account(client, "sage")
        late = organizer.post(f"/api/events/{event}/entries", {"usernames": ["arbiter", "sage"]}, status=409)
        assert late["message"] == "arbiter referees a table of this event and cannot also play in it"
        refused = referee.post(f"{left}/notes", {"kind": "reopened"}, status=409)
        assert refused["message"] == "only a game left unfinished is reopened"
        referee.post(f"/api/scoresheets/{left_sheet}/deals", MADE)
        referee.post(f"{left}/notes", {"kind": "unfinished", "text": "the players agree to stop"})
        assert referee.post(f"{left}/notes", {"kind": "unfinished"}, status=409)["message"] == (
            "this game is unfinished already"
        )
        closed = "this game was left unfinished: its referee announces that it is reopened first"
        before = client.get(f"/api/scoresheets/{left_sheet}").json()
        assert referee.post(f"/api/scoresheets/{left_sheet}/deals", MADE, status=409)["message"] == closed
        penalty = {"kind": "misdeal", "team": 1, "declaration_points": 0}
        dispute = {"claim": "a misdeal", "ruling": "B-72", "penalty": penalty}
        assert referee.post(f"{left}/disputes", dispute, status=409)["message"] == closed
        assert client.get(f"/api/scoresheets/{left_sheet}").json() == before  # nothing changed
        finish_sheet(referee, done_sheet)
        refused = referee.post(f"{done}/notes", {"kind": "unfinished"}, status=409)
        assert refused["message"] == "this game is over: it cannot be left unfinished"
        data = client.get(f"/api/events/{event}").json()
        assert [t["status"] for t in tables(data, 1)] == ["unfinished", "finished"]
        assert tables(data, 1)[0]["result"] is None
        # the unfinished game does not hold the event up (L-2: it is continued whenever agreed)
        data = organizer.post(f"/api/events/{event}/rounds", {"start": True})
        met = {frozenset(t["entries"]) for t in tables(data, 1)}
        assert not met & {frozenset(t["entries"]) for t in tables(data, 2)}
        for _, sheet in keep(data, 2):
            finish_sheet(referee, sheet)
        data = client.get(f"/api/events/{event}").json()
        assert data["status"] == "running" and sum(s["points"] for s in data["standings"]) == 2 + 2 + 2
        referee.post(f"{left}/notes", {"kind": "reopened"})
        finish_sheet(referee, left_sheet)
        data = client.get(f"/api/events/{event}").json()
        assert data["status"] == "finished" and tables(data, 1)[0]["result"] == [2, 0]
        assert sum(s["points"] for s in data["standings"]) == 2 * 4


def test_rounds_on_a_schedule_start_by_themselves(tmp_path: Path) -> None:
    """Issue 25 item 3: a round whose scheduled time has come starts when the one before is over
    (the sweep, which any process runs: the round starts once); the listing shows the event
    finished. The server's own sweep waits an hour: the test runs the sweep itself once the
    entries are in, so that no round starts between two entries. The start times are on the
    server's clock, which the test moves (issue 39 item 5): a sweep before them starts nothing."""
    clock = Clock()
    with make_client(tmp_path / "db.sqlite3", clock=clock, event_sweep_seconds=3600) as client:
        sweep = client.app.state.hub.tournaments.sweep.sweep
        organizer = Account(client, "organizer")
        body = {"name": "Timed", "rounds": 2, "options": {"target": 51}}
        for schedule, message in [
            ([], "schedule is a list of the rounds' start times, at most 2"),
            (["soon"], "schedule holds dates and times such as 2026-05-01T18:00:00Z"),
            (
                ["2030-01-02T00:00:00Z", "2030-01-01T00:00:00Z"],
                "schedule lists the rounds' start times in order",
            ),
        ]:
            assert (
                organizer.post("/api/events", {**body, "schedule": schedule}, status=400)["message"]
                == message
            )
        # a start time to come (issue 42 item 6 refuses a past one): two seconds from now
        soon = [(datetime.fromtimestamp(clock.now, UTC) + timedelta(seconds=s)).isoformat() for s in (2, 3)]
        event = organizer.post("/api/events", {**body, "schedule": soon})
        for _ in range(4):  # the organizer's entries (a player's would close at round 1's start)
            organizer.post(f"/api/events/{event['id']}/entries", {"bot": "basic"})
        assert event["settings"]["schedule"] == soon
        clock.move(1.9)
        client.portal.call(sweep)
        assert client.get(f"/api/events/{event['id']}").json()["rounds"] == []  # not yet
        clock.move(1.2)
        deadline = time.monotonic() + 60
        while [e["status"] for e in client.get("/api/events").json()["events"]] != ["finished"]:
            assert time.monotonic() < deadline, client.get(f"/api/events/{event['id']}").json()
            client.portal.call(sweep)  # what the periodic sweep does, in any process
            time.sleep(0.1)
        data = client.get(f"/api/events/{event['id']}").json()
        assert [r["status"] for r in data["rounds"]] == ["finished", "finished"]
        check_against_records(client, data)


def test_changes_decided_on_a_stale_read_are_refused(tmp_path: Path) -> None:
    """Cluster safety: a round is paired on the entries read, an entry is made, confirmed or
    withdrawn on the rounds read; the write locks the event and refuses when either moved
    meanwhile (another request, or another process), and writes nothing."""
    from blot.server.errors import Refused
    from blot.server.tournaments.state import CHANGED

    with make_client(tmp_path / "db.sqlite3", bot_delay=5.0) as client:
        tournaments = client.app.state.hub.tournaments
        organizer = Account(client, "organizer")
        event = organizer.post("/api/events", {"name": "Race", "rounds": 3})["id"]
        entries = [organizer.post(f"/api/events/{event}/entries", {"bot": "basic"}) for _ in range(4)]
        stale = client.portal.call(tournaments.views.load, event)
        gone = entries[-1]["entries"][-1]["id"]
        client.request("DELETE", f"/api/events/{event}/entries/{gone}", headers=organizer.headers)
        with pytest.raises(Refused) as refused:  # paired with an entry that has withdrawn since
            client.portal.call(tournaments.rounds.start, stale)
        assert refused.value.reason == CHANGED  # keyed where raised (issue 39 item 1)
        data = client.get(f"/api/events/{event}").json()
        assert data["rounds"] == [] and len(data["entries"]) == 3
        stale = client.portal.call(tournaments.views.load, event)
        organizer.post(f"/api/events/{event}/rounds", {"start": True})
        with pytest.raises(Refused) as refused:  # an entry decided before the round started
            client.portal.call(tournaments.storage.write, stale.unchanged)
        assert refused.value.reason == CHANGED  # keyed where raised (issue 39 item 1)


def test_l2_a_game_of_no_event_is_continued_too(tmp_path: Path) -> None:
    """League §7 holds at any table: two guests end a game by agreement, both ask, and the game
    goes on at a new table with the same seats and every action of the old one."""
    with make_client(tmp_path / "db.sqlite3", bot_delay=5.0) as client:
        ani, boris = Player(client, "Ani"), Player(client, "Boris")
        old = ani.table(options={"target": 51})
        boris.post(f"/api/tables/{old}/sit", {"seat": 1})
        ani.post(f"/api/tables/{old}/fill-bots", {"level": "basic"})
        ani.post(f"/api/tables/{old}/start")
        ani.post(f"/api/tables/{old}/end", {"agree": True})
        assert boris.post(f"/api/tables/{old}/end", {"agree": True})["ended"] == "agreement"
        assert ani.post(f"/api/tables/{old}/resume")["resume_asks"] == [0]
        new = boris.post(f"/api/tables/{old}/resume")
        assert new["id"] != old and [s["name"] for s in new["seats"][:2]] == ["Ani", "Boris"]
        old_log = client.app.state.hub.store.log(old)
        kept = [(e.kind, e.payload) for e in old_log if e.kind not in ("end", "resume_ask", "resumed")]
        assert [(e.kind, e.payload) for e in client.app.state.hub.store.log(new["id"])][: len(kept)] == kept
