"""Join codes for a club night (issue 41 item 10; docs/players.md, *Club nights*): an event's
organizer or a table's host hands out a code; each use signs a person in without a password
until the code's time on the server's clock, at most N people, and a revoked code signs its
people out. SQLite and PostgreSQL (``database``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .conftest import Account, Clock, Player, make_client


def me(client: Any, token: str) -> Any:
    return client.get("/api/me", headers={"Authorization": f"Bearer {token}"})


def test_a_hosts_code_signs_people_in_until_its_time(database: Path | str) -> None:
    clock = Clock()
    with make_client(database, clock=clock) as client:
        host = Player(client, "Host")
        table = host.table("bazar-blot")
        made = host.post("/api/joincodes", {"table": table, "uses": 2, "hours": 3})
        assert made["left"] == 2 and made["goto"] == f"/table/{table}" and len(made["code"]) == 8
        typed = made["code"].lower()[:4] + "-" + made["code"].lower()[4:]  # as read off a board
        shown = client.get(f"/api/join/{typed}").json()
        assert shown["table"] == table and shown["left"] == 2
        ani = client.post(f"/api/join/{typed}", json={"name": "Ani"}).json()
        assert ani["name"] == "Ani" and ani["goto"] == f"/table/{table}"
        assert me(client, ani["token"]).json()["name"] == "Ani"
        boris = client.post(f"/api/join/{made['code']}", json={"name": "Boris"}).json()
        # N people: the third is refused and nothing is made
        third = client.post(f"/api/join/{made['code']}", json={"name": "Carl"})
        assert third.status_code == 403 and third.json()["reason"] == "join_code_used_up"
        listed = host.client.get("/api/joincodes", headers=host.headers).json()["codes"]
        assert [(c["code"], c["used"]) for c in listed] == [(made["code"], 2)]
        # the session ends at the code's time, on the server's clock
        clock.move(3 * 3600 - 60)
        assert me(client, boris["token"]).status_code == 200
        clock.move(61)
        assert me(client, boris["token"]).status_code == 403
        assert me(client, ani["token"]).status_code == 403
        again = client.post(f"/api/join/{made['code']}", json={"name": "Dana"})
        assert again.json()["reason"] == "join_code_expired"


def test_an_organizer_revokes_a_code_and_its_people_are_signed_out(database: Path | str) -> None:
    with make_client(database, clock=Clock()) as client:
        organizer = Account(client, "Organizer")
        event = organizer.post("/api/events", {"name": "Friday club", "rounds": 2})["id"]
        made = organizer.post("/api/joincodes", {"event": event, "name": "Table four"})
        # a code that gives the name: nobody types one
        ani = client.post(f"/api/join/{made['code']}", json={}).json()
        assert ani["name"] == "Table four" and ani["goto"] == f"/event/{event}"
        assert me(client, ani["token"]).status_code == 200
        # only its maker revokes it
        other = Account(client, "Other")
        refused = client.delete(f"/api/joincodes/{made['code']}", headers=other.headers)
        assert refused.status_code == 403 and refused.json()["reason"] == "join_code_not_maker"
        revoked = client.delete(f"/api/joincodes/{made['code']}", headers=organizer.headers).json()
        assert revoked["revoked"] is not None
        assert me(client, ani["token"]).status_code == 403
        after = client.post(f"/api/join/{made['code']}", json={})
        assert after.status_code == 403 and after.json()["reason"] == "join_code_revoked"


def test_only_an_organizer_or_the_host_hands_out_codes_and_bad_values_change_nothing(db: Path) -> None:
    with make_client(db, clock=Clock()) as client:
        host = Player(client, "Host")
        table = host.table("bazar-blot")
        stranger = Player(client, "Stranger")
        cases: list[tuple[Player, dict[str, Any], int, str]] = [
            (stranger, {"table": table}, 403, "join_code_not_yours"),
            (host, {}, 400, "join_code_target"),
            (host, {"table": table, "event": "x"}, 400, "join_code_target"),
            (host, {"table": "nosuch"}, 404, "no_such_table"),
            (host, {"event": "nosuch"}, 404, "no_such_event"),
            (host, {"table": table, "uses": 0}, 400, "join_code_uses"),
            (host, {"table": table, "uses": 201}, 400, "join_code_uses"),
            (host, {"table": table, "hours": 25}, 400, "join_code_hours"),
            (host, {"table": table, "hours": "6"}, 400, "join_code_hours"),
        ]
        for who, body, status, reason in cases:
            answer = client.post("/api/joincodes", json=body, headers=who.headers)
            assert (answer.status_code, answer.json()["reason"]) == (status, reason), body
        assert client.get("/api/joincodes", headers=host.headers).json() == {"codes": []}
        made = host.post("/api/joincodes", {"table": table})
        nameless = client.post(f"/api/join/{made['code']}", json={})
        assert nameless.status_code == 400
        # an account's name cannot be taken with a code
        Account(client, "Gohar")
        taken = client.post(f"/api/join/{made['code']}", json={"name": "gohar"})
        assert taken.status_code == 409
        codes = client.get("/api/joincodes", headers=host.headers).json()["codes"]
        assert codes[0]["used"] == 0


def test_guessing_codes_from_one_address_meets_the_ceiling(db: Path) -> None:
    with make_client(db, clock=Clock()) as client:
        host = Player(client, "Host")
        made = host.post("/api/joincodes", {"table": host.table("bazar-blot")})
        for n in range(60):
            wrong = client.post(
                f"/api/join/ABCD{n:04d}".replace("0", "A").replace("1", "B"), json={"name": "X"}
            )
            assert wrong.status_code == 404 and wrong.json()["reason"] == "join_code_unknown"
        limited = client.post(f"/api/join/{made['code']}", json={"name": "Ani"})
        assert limited.status_code == 429 and limited.json()["reason"] == "login_limit_address"
