"""The organizer's desk through the real server (issue 42, items 1, 2, 6, 7), on SQLite and on
PostgreSQL (the ``database`` fixture): pairings published before play and corrected with a record
of who changed what, then started; forbidden pairs and requested byes; everything of an event
settable by API; schedules that cannot misfire on the server's movable clock; and the small
things (no withdrawal after the end, referees named per table, the Davtar's read-only link).
Each bad request is answered with one keyed sentence and changes nothing."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from .conftest import Account, Clock, make_client


def event_with_bots(organizer: Account, bots: int, **body: Any) -> str:
    event = str(organizer.post("/api/events", {"name": "Desk", "rounds": 3, **body})["id"])
    for _ in range(bots):
        organizer.post(f"/api/events/{event}/entries", {"bot": "basic"})
    return event


def met(round_: dict[str, Any]) -> set[tuple[int, int]]:
    return {
        (min(a, b), max(a, b)) for t in round_["tables"] for a, b in itertools.combinations(t["entries"], 2)
    }


def seated(round_: dict[str, Any]) -> list[int]:
    return sorted([e for t in round_["tables"] for e in t["entries"]] + round_["byes"])


def test_item2_a_round_is_published_corrected_with_a_record_then_started(database: Path | str) -> None:
    """Issue 42 item 2: POST rounds publishes (no table opens); the organizer swaps two entrants,
    moves the bye and re-pairs, each change recorded (who, when, what); only "Start" opens the
    tables. Others may read the round but not change it; a started round no longer changes."""
    with make_client(database, bot_delay=5.0) as client:
        organizer = Account(client, "organizer")
        other = Account(client, "other")
        event = event_with_bots(organizer, 5)
        data = organizer.post(f"/api/events/{event}/rounds")
        first = data["rounds"][0]
        assert first["status"] == "published" and data["status"] == "running"
        assert all(t["table"] is None and t["status"] == "published" for t in first["tables"])
        assert len(first["byes"]) == 1 and seated(first) == [e["id"] for e in data["entries"]]
        assert client.get("/api/events/next", headers=organizer.headers).json()["games"] == []

        (a, b), (c, d) = first["tables"][0]["entries"], first["tables"][1]["entries"]
        bye = first["byes"][0]
        swapped = organizer.client.patch(
            f"/api/events/{event}/rounds/1", json={"swap": [a, c]}, headers=organizer.headers
        ).json()
        assert [t["entries"] for t in swapped["tables"]] == [[c, b], [a, d]]
        moved = organizer.client.patch(
            f"/api/events/{event}/rounds/1", json={"bye": d}, headers=organizer.headers
        ).json()
        assert moved["byes"] == [d] and moved["tables"][1]["entries"] == [a, bye]
        assert [(x["by"], x["what"]) for x in moved["changes"]] == [
            ("organizer", {"swap": [a, c]}),
            ("organizer", {"bye": {"to": d, "from": bye}}),
        ]
        assert all(x["at"] for x in moved["changes"])

        for who, body, status, message in [
            (other, {"swap": [a, c]}, 403, "only the event's organizer starts its rounds"),
            (organizer, {"swap": [a, a]}, 400, "swap names two different entries of the round"),
            (organizer, {"swap": [a, 999]}, 409, "entry 999 is not in this round"),
            (organizer, {"bye": d}, 409, f"entry {d} has the bye already"),
            (
                organizer,
                {"turn": 1},
                400,
                "a change of a round is swap (two entries), bye (an entry) or repair (true)",
            ),
        ]:
            answer = client.patch(f"/api/events/{event}/rounds/1", json=body, headers=who.headers)
            assert (answer.status_code, answer.json()["message"]) == (status, message)
        assert client.get(f"/api/events/{event}/rounds/1").json()["changes"] == moved["changes"]
        assert client.get(f"/api/events/{event}/rounds/2").status_code == 404
        refused = organizer.post(f"/api/events/{event}/rounds", status=409)
        assert refused["message"] == "round 1 is published and not started yet: start it, or correct it first"

        repaired = client.patch(
            f"/api/events/{event}/rounds/1", json={"repair": True}, headers=organizer.headers
        ).json()
        assert [t["entries"] for t in repaired["tables"]] == [t["entries"] for t in first["tables"]]
        assert repaired["byes"] == first["byes"] and repaired["changes"][-1]["what"] == {"repair": True}

        assert other.post(f"/api/events/{event}/rounds/1/start", status=403)
        started = organizer.post(f"/api/events/{event}/rounds/1/start")["rounds"][0]
        assert started["status"] == "playing" and all(t["table"] for t in started["tables"])
        again = organizer.post(f"/api/events/{event}/rounds/1/start", status=409)
        assert again["message"] == "this round is not a published one: its pairing can no longer change"
        late = client.patch(f"/api/events/{event}/rounds/1", json={"swap": [a, c]}, headers=organizer.headers)
        assert late.status_code == 409


def test_item2_start_at_once_still_pairs_and_opens_in_one_click(tmp_path: Path) -> None:
    """``{"start": true}``: the one click of before (the page's "pair and start", the scripts)."""
    with make_client(tmp_path / "db.sqlite3", bot_delay=5.0) as client:
        organizer = Account(client, "organizer")
        event = event_with_bots(organizer, 4)
        data = organizer.post(f"/api/events/{event}/rounds", {"start": True})
        assert data["rounds"][0]["status"] == "playing"
        assert all(t["table"] for t in data["rounds"][0]["tables"])
        bad = organizer.post(f"/api/events/{event}/rounds", {"start": "yes"}, status=400)
        assert bad["message"] == "start is true or false"


def tables_opened(client: TestClient, event: str) -> list[Any]:
    return [t["table"] for r in client.get(f"/api/events/{event}").json()["rounds"] for t in r["tables"]]


def iso(clock: Clock, seconds: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(clock.now + seconds, UTC).isoformat()


def test_item6_past_times_refused_and_entries_stop_at_the_scheduled_start(database: Path | str) -> None:
    """Issue 42 item 6: a start time or deadline in the past is refused; the server's clock is
    driven across round 1's start while entries arrive: before it an entry is taken and nothing
    starts, after it a player's entry is refused (registration closed at the start, decided in the
    write that locks the event), and the sweep pairs only the confirmed entries."""
    clock = Clock()
    with make_client(database, clock=clock, bot_delay=5.0, event_sweep_seconds=3600) as client:
        sweep = client.app.state.hub.tournaments.sweep.sweep
        organizer = Account(client, "organizer")
        ani, gohar, davit, tigran = (Account(client, n) for n in ("ani", "gohar", "davit", "tigran"))
        body = {"name": "Timed", "rounds": 2}
        past = organizer.post("/api/events", {**body, "schedule": [iso(clock, -60)]}, status=400)
        assert past["message"] == "schedule holds a start time that has passed: give times to come"
        late = organizer.post("/api/events", {**body, "deadline": iso(clock, -1)}, status=400)
        assert late["message"] == "that deadline has passed already: give a time to come"
        after = {**body, "schedule": [iso(clock, 60)], "deadline": iso(clock, 120)}
        refused = organizer.post("/api/events", after, status=400)
        assert refused["message"] == "the registration deadline cannot come after round 1's start"
        event = organizer.post("/api/events", {**body, "schedule": [iso(clock, 600), iso(clock, 7200)]})["id"]
        for _ in range(2):
            organizer.post(f"/api/events/{event}/entries", {"bot": "basic"})
        clock.move(300)
        ani.post(f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]})  # gohar never confirms
        client.portal.call(sweep)
        assert client.get(f"/api/events/{event}").json()["rounds"] == []
        clock.move(301)  # past the start; the sweep has not run yet
        refused = davit.post(f"/api/events/{event}/entries", {"usernames": ["davit", "tigran"]}, status=409)
        assert refused["message"] == "registration closed at the time set for round 1 to start"
        client.portal.call(sweep)
        data = client.get(f"/api/events/{event}").json()
        assert [r["status"] for r in data["rounds"]] == ["playing"]
        paired = seated(data["rounds"][0])
        assert paired == [e["id"] for e in data["entries"] if e["bot"]] and len(data["entries"]) == 3
        assert all(t["table"] for t in data["rounds"][0]["tables"])
        del gohar, tigran


def test_item1_an_organizer_edits_every_setting_until_play_locks_the_game(database: Path | str) -> None:
    """Issue 42 item 1: PATCH takes every field of the creation (ruleset, options, timer and
    forfeit time for the event and per round, rated, public, deadline, schedule); once a round is
    paired the game's own settings are refused, the name and time controls still change."""
    clock = Clock()
    with make_client(database, clock=clock, bot_delay=5.0) as client:
        organizer = Account(client, "organizer")
        other = Account(client, "other")
        event = event_with_bots(organizer, 4)
        patch = client.patch(f"/api/events/{event}", json={"name": "x"}, headers=other.headers)
        assert (patch.status_code, patch.json()["message"]) == (403, "only the event's organizers change it")
        edited = client.patch(
            f"/api/events/{event}",
            json={
                "name": "Spring Swiss",
                "public": False,
                "rounds": 4,
                "options": {"target": 51},
                "timer": 30,
                "forfeit_seconds": 120,
                "rounds_settings": {"2": {"timer": 60, "forfeit_seconds": 600}},
                "deadline": iso(clock, 3600),
            },
            headers=organizer.headers,
        ).json()
        assert edited["name"] == "Spring Swiss" and edited["public"] is False and edited["rounds_total"] == 4
        settings = edited["settings"]
        assert settings["options"]["target"] == 51 and (settings["timer"], settings["forfeit_seconds"]) == (
            30,
            120,
        )
        assert settings["rounds_settings"] == {"2": {"timer": 60, "forfeit_seconds": 600}}
        for body, status, message in [
            ({"deadline": iso(clock, -5)}, 400, "that deadline has passed already: give a time to come"),
            (
                {"rounds_settings": {"9": {"timer": 5}}},
                400,
                "rounds_settings gives rounds 1 to 4 their own timer and forfeit_seconds",
            ),
            ({"colour": "red"}, 400, "colour is no setting of an event"),
        ]:
            answer = client.patch(f"/api/events/{event}", json=body, headers=organizer.headers)
            assert (answer.status_code, answer.json()["message"]) == (status, message)
        organizer.post(f"/api/events/{event}/rounds", {"start": True})
        for body, status, message in [
            ({"ruleset": "classic"}, 409, "ruleset cannot change once a round has been paired"),
            ({"rated": True}, 409, "rated cannot change once a round has been paired"),
            ({"rounds": 0}, 409, "1 rounds have been paired: the event cannot have fewer"),
        ]:
            answer = client.patch(f"/api/events/{event}", json=body, headers=organizer.headers)
            assert (answer.status_code, answer.json()["message"]) == (status, message)
        later = client.patch(
            f"/api/events/{event}", json={"name": "Spring Swiss II", "timer": 45}, headers=organizer.headers
        ).json()
        assert later["name"] == "Spring Swiss II" and later["settings"]["timer"] == 45
        table = later["rounds"][0]["tables"][0]["table"]
        assert client.get(f"/api/tables/{table}").json()["settings"]["timer"] == 30  # round 1 as it began


def test_item2_forbidden_pairs_and_requested_byes_are_honoured_by_the_server(database: Path | str) -> None:
    """Issue 42 item 2: two entries forbidden to meet are paired apart; an entry that asked to
    sit round 1 out is ``absent`` (no pairing bye, no table); the request is its players' or an
    organizer's; a round robin refuses both (everybody meets everybody on a fixed schedule)."""
    with make_client(database, bot_delay=5.0) as client:
        organizer = Account(client, "organizer")
        other = Account(client, "other")
        plain = event_with_bots(organizer, 4)
        seeds = [e["id"] for e in client.get(f"/api/events/{plain}").json()["entries"]]
        unforbidden = organizer.post(f"/api/events/{plain}/rounds")["rounds"][0]
        assert (seeds[0], seeds[2]) in met(unforbidden)  # round 1 pairs by seed: 1st meets 3rd
        event = event_with_bots(organizer, 5)
        ids = [e["id"] for e in client.get(f"/api/events/{event}").json()["entries"]]
        a, b = ids[0], ids[2]
        data = organizer.post(f"/api/events/{event}/forbidden", {"entries": [a, b]})
        assert data["forbidden"] == [sorted([a, b])]
        assert client.get(f"/api/events/{event}").json()["forbidden"] is None  # the organizers' alone
        refused = other.post(f"/api/events/{event}/entries/{ids[4]}/byes", {"round": 1}, status=403)
        assert refused["message"] == "only the entry's players or an organizer ask for its bye"
        bad = organizer.post(f"/api/events/{event}/entries/{ids[4]}/byes", {"round": 9}, status=400)
        assert bad["message"] == "round is a round not paired yet, from 1 to 3"
        asked = organizer.post(f"/api/events/{event}/entries/{ids[4]}/byes", {"round": 1})
        assert next(e for e in asked["entries"] if e["id"] == ids[4])["byes_requested"] == [1]
        headers = organizer.headers
        client.delete(f"/api/events/{event}/entries/{ids[3]}/byes/2", headers=headers)  # none asked: no-op
        organizer.post(f"/api/events/{event}/entries/{ids[3]}/byes", {"round": 2})
        taken = client.delete(f"/api/events/{event}/entries/{ids[3]}/byes/2", headers=headers).json()
        assert next(e for e in taken["entries"] if e["id"] == ids[3])["byes_requested"] == []
        organizer.post(f"/api/events/{event}/forbidden", {"entries": [ids[1], ids[3]]})
        allowed = client.delete(f"/api/events/{event}/forbidden/{ids[3]}/{ids[1]}", headers=headers)
        assert allowed.json()["forbidden"] == [sorted([a, b])]
        again = client.delete(f"/api/events/{event}/forbidden/{ids[3]}/{ids[1]}", headers=headers)
        assert (again.status_code, again.json()["message"]) == (404, "these two entries are not kept apart")
        first = organizer.post(f"/api/events/{event}/rounds")["rounds"][0]
        assert first["absent"] == [ids[4]] and first["byes"] == [] and len(first["tables"]) == 2
        assert (min(a, b), max(a, b)) not in met(first)
        late = organizer.post(f"/api/events/{event}/entries/{ids[0]}/byes", {"round": 1}, status=400)
        assert late["message"] == "round is a round not paired yet, from 2 to 3"

        robin = event_with_bots(organizer, 4, format="round_robin")
        entry = client.get(f"/api/events/{robin}").json()["entries"][0]["id"]
        refused = organizer.post(
            f"/api/events/{robin}/forbidden", {"entries": [entry, entry + 1]}, status=409
        )
        assert (
            refused["message"] == "in a round robin every entry meets every other: no two can be kept apart"
        )
        refused = organizer.post(f"/api/events/{robin}/entries/{entry}/byes", {"round": 1}, status=409)
        assert refused["message"] == "a round robin's schedule is fixed: no bye can be asked for"


def test_item7_referees_named_per_table_davtar_links_no_empty_winner_no_withdrawal_after_the_end(
    database: Path | str,
) -> None:
    """Issue 42 items 1 and 7, over the board: the event's referees (``POST …/referees``) are
    given the round's tables as it is paired and named on each (``referee_name``); nobody who
    plays referees; every table gives the live read-only Davtar's link, which a player opens;
    a winner's announcement must name the pair; once the event is over nobody withdraws."""
    from .test_fair_bars import OverTheBoard

    with make_client(database) as client:
        day = OverTheBoard(client, 1, ["ani", "gohar", "davit", "tigran"])
        organizer, event = day.organizer, day.event
        refused = organizer.post(f"/api/events/{event}/referees", {"username": "ani"}, status=409)
        assert refused["message"] == "ani plays in this event and cannot referee it"
        data = organizer.post(f"/api/events/{event}/referees", {"username": "arbiter"})
        assert data["referees"] == [{"id": day.referee.id, "name": "arbiter"}]
        table = organizer.post(f"/api/events/{event}/rounds")["rounds"][0]["tables"][0]
        assert (table["referee"], table["referee_name"]) == (day.referee.id, "arbiter")
        assert table["davtar"] is None  # no Davtar before the start
        table = organizer.post(f"/api/events/{event}/rounds/1/start")["rounds"][0]["tables"][0]
        ani = day.accounts["ani"]
        seen = client.get(f"/api/events/{event}", headers=ani.headers).json()["rounds"][0]["tables"][0]
        assert seen["sheet"] == "shared" and seen["davtar"].startswith("/scoresheet/shared/")
        share = seen["davtar"].rsplit("/", 1)[1]
        sheet = client.get(f"/api/scoresheets/shared/{share}", headers=ani.headers).json()
        assert sheet["read_only"] is True and "id" not in sheet

        path = f"/api/events/{event}/tables/{table['id']}"
        empty = day.referee.post(f"{path}/notes", {"kind": "winner", "text": " "}, status=400)
        assert empty["message"] == "the winner's announcement names the winning pair"
        secret = client.get(f"{path}/console", headers=day.referee.headers).json()["sheet"]
        day.win(table, secret, table["entries"][0])
        day.referee.post(f"{path}/notes", {"kind": "winner", "text": "ani & gohar"})
        assert client.get(f"/api/events/{event}").json()["status"] == "finished"
        entry = table["entries"][1]
        over = organizer.client.delete(f"/api/events/{event}/entries/{entry}", headers=organizer.headers)
        assert (over.status_code, over.json()["message"]) == (
            409,
            "the event is over: its standings are final and nobody withdraws now",
        )


def test_item1_a_late_entry_starts_with_the_score_the_organizer_gives(database: Path | str) -> None:
    """Issue 42 item 1: after round 1 the organizer enters a late bot with ``late_score`` (half
    points, at most a plain win per round played); the standings start it there; nobody else
    gives one, and not before round 1."""
    with make_client(database, bot_delay=5.0) as client:
        organizer = Account(client, "organizer")
        event = event_with_bots(organizer, 4, rounds=4)
        early = organizer.post(f"/api/events/{event}/entries", {"bot": "basic", "late_score": 1}, status=409)
        assert (
            early["message"]
            == "only an organizer gives a starting score, and only to an entry made after round 1"
        )
        organizer.post(f"/api/events/{event}/rounds", {"start": True})
        bad = organizer.post(f"/api/events/{event}/entries", {"bot": "basic", "late_score": 0.3}, status=400)
        assert bad["message"] == "late_score is a number of points from 0 to 1, in halves"
        data = organizer.post(f"/api/events/{event}/entries", {"bot": "basic", "late_score": 0.5})
        late = data["entries"][-1]
        assert late["late"] is True and late["late_score"] == 0.5
        assert next(s for s in data["standings"] if s["entry"] == late["id"])["points"] == 0.5


def test_item7_the_standings_csv_has_head_to_head_only_as_a_column_some_standing_shows() -> None:
    """Issue 42 item 7: head to head is left out of a standing it decides nothing for; the CSV
    still has one column for it (in the order of the tie-breaks), empty where it is not shown."""
    from blot.server.tournaments.exports import csv_of

    standings = [
        {"rank": 1, "entry": 1, "name": "a", "points": 4, "games": 2, "withdrawn": False,
         "tiebreaks": {"sonneborn_berger": 4, "difference": 9}},
        {"rank": 2, "entry": 2, "name": "b", "points": 2, "games": 2, "withdrawn": False,
         "tiebreaks": {"sonneborn_berger": 1, "head_to_head": 1, "difference": 3}},
    ]  # fmt: skip
    rows = csv_of({"standings": standings}).splitlines()
    assert rows[0].split(",")[4:7] == ["sonneborn_berger", "head_to_head", "difference"]
    assert rows[1].split(",")[4:7] == ["4", "", "9"] and rows[2].split(",")[4:7] == ["1", "1", "3"]
