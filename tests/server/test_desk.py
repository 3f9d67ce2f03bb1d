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
        (min(a, b), max(a, b))
        for t in round_["tables"]
        for a, b in itertools.combinations(t["entries"], 2)
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
            (organizer, {"turn": 1}, 400, "a change of a round is swap (two entries), bye (an entry) or repair (true)"),
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
