"""Issue 41 item 3: a quick game. People who wait for the same game, ruleset and ratedness are
seated together as they come (``POST /api/quick``), two from one browser never; the wait is
counted on the server's clock, bots fill the empty seats only when asked, and a wait ends when
cancelled or when its page stops asking. SQLite and PostgreSQL (the queue lives in the
database, so that every process of a cluster matches from it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from blot.server.quick import BOTS_AFTER, DROP_SECONDS

from .conftest import Account, Clock, Player, make_client


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def server(database: Path | str, clock: Clock) -> Iterator[TestClient]:
    with make_client(database, clock=clock) as client:
        yield client


def ask(p: Player, device: str | None = None, status: int = 200, **body: Any) -> dict[str, Any]:
    """``POST /api/quick`` from ``p`` (from the browser ``device``: its cookie)."""
    headers = dict(p.headers)
    if device is not None:
        headers["Cookie"] = f"blot_device={device}"
    response = p.client.post("/api/quick", json={"game": "bazar-blot", **body}, headers=headers)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def poll(p: Player) -> dict[str, Any]:
    response = p.client.get("/api/quick", headers=p.headers)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def table_of(client: TestClient, table: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/tables/{table}").json()
    return found


def test_two_then_four_people_for_bazar_blot_are_seated_together_as_they_come(server: TestClient) -> None:
    """Two waiting see each other counted; the fourth seats all four at one started table, each
    of them told their own seat when they next ask."""
    people = [Player(server, name) for name in ("Ani", "Boris", "Gor", "Lilit")]
    first = ask(people[0])
    assert first["status"] == "waiting" and first["people"] == 1 and first["seats"] == 4
    assert ask(people[1])["people"] == 2 and poll(people[0])["people"] == 2
    assert ask(people[2])["people"] == 3
    seated = ask(people[3])
    assert seated["status"] == "seated" and seated["seat"] == 0
    table = table_of(server, seated["table"])
    assert table["status"] == "playing" and table["settings"]["quick"] is True
    assert not table["settings"]["rated"] and table["host"] == people[3].id  # whose ask opened it
    assert sorted(s["player"] for s in table["seats"]) == sorted(p.id for p in people)
    for p in people:
        mine = poll(p)
        assert mine["status"] == "seated" and mine["table"] == seated["table"]
        assert table["seats"][mine["seat"]]["player"] == p.id


def test_three_people_for_3_5_8_are_seated_together(server: TestClient) -> None:
    people = [Player(server, name) for name in ("Ani", "Boris", "Gor")]
    assert ask(people[0], game="3-5-8")["seats"] == 3
    assert ask(people[1], game="3-5-8")["status"] == "waiting"
    seated = ask(people[2], game="3-5-8")
    assert seated["status"] == "seated"
    table = table_of(server, seated["table"])
    assert table["game"] == "3-5-8" and {s["player"] for s in table["seats"]} == {p.id for p in people}


def test_other_rulesets_and_rated_waits_are_not_matched(server: TestClient) -> None:
    """Four people, each waiting for something else (a ruleset, rated), stay apart."""
    guests = [Player(server, name) for name in ("Ani", "Boris")]
    accounts = [Account(server, name) for name in ("gor", "lilit")]
    assert ask(guests[0], ruleset="league")["people"] == 1
    assert ask(guests[1], ruleset="classic")["people"] == 1
    assert ask(accounts[0], ruleset="league", rated=True)["people"] == 1
    assert ask(accounts[1], ruleset="classic", rated=True)["people"] == 1
    assert ask(Player(server, "Davit"), ruleset="classic")["people"] == 2  # with Boris only


def test_a_rated_quick_game_is_for_accounts_and_rated_bot_levels(server: TestClient, clock: Clock) -> None:
    guest = Player(server, "Ani")
    refused = ask(guest, rated=True, status=403)
    assert refused["reason"] == "rated_accounts_only"
    assert poll(guest)["status"] == "none"
    account = Account(server, "boris")
    assert ask(account, rated=True)["status"] == "waiting"
    clock.move(BOTS_AFTER)
    weak = account.post("/api/quick/bots", {"level": "random"}, status=403)
    assert weak["reason"] == "rated_bots_only"
    seated = account.post("/api/quick/bots", {"level": "heuristic"})
    table = table_of(server, seated["table"])
    assert table["settings"]["rated"] is True and table["settings"]["timer"] == 60
    assert [s["bot"] for s in table["seats"]][1:] == ["heuristic"] * 3


def test_one_browser_is_never_seated_twice_at_one_table(server: TestClient) -> None:
    """Asking twice is one wait; two people of one browser are never in one group: the fourth
    from other browsers seats the first three of them without the second of that browser."""
    ani, boris, gor, lilit, davit = (Player(server, n) for n in ("Ani", "Boris", "Gor", "Lilit", "Davit"))
    assert ask(ani, "kitchen")["people"] == 1
    assert ask(ani, "kitchen")["people"] == 1  # the same person again: still one wait
    assert ask(boris, "kitchen")["people"] == 1  # Ani's browser: not with her
    assert ask(gor, "phone")["people"] == 2  # Gor and Ani, not Boris
    assert ask(lilit, "laptop")["status"] == "waiting"  # Lilit, Ani, Gor: three
    seated = ask(davit, "tablet")
    assert seated["status"] == "seated"
    players = {s["player"] for s in table_of(server, seated["table"])["seats"]}
    assert players == {ani.id, gor.id, lilit.id, davit.id}
    assert poll(boris)["status"] == "waiting"


def test_bots_fill_the_empty_seats_only_when_asked(server: TestClient, clock: Clock) -> None:
    """However long a person waits, nobody seats bots for them; after the wait the page counts
    (on the server's clock), bots of the level asked for take the seats the people left."""
    ani, boris = Player(server, "Ani"), Player(server, "Boris")
    assert ask(ani)["waited"] == 0
    clock.move(BOTS_AFTER + 2)
    assert ask(boris)["people"] == 2
    waiting = poll(ani)
    assert waiting["status"] == "waiting" and waiting["waited"] == BOTS_AFTER + 2
    assert waiting["bots_after"] == BOTS_AFTER
    seated = ani.post("/api/quick/bots", {"level": "random"})
    table = table_of(server, seated["table"])
    assert [s["player"] for s in table["seats"][:2]] == [ani.id, boris.id]
    assert [s["bot"] for s in table["seats"][2:]] == ["random", "random"]
    assert table["status"] == "playing"
    assert poll(boris)["table"] == seated["table"]
    again = ani.post("/api/quick/bots", {"level": "random"}, status=409)
    assert again["reason"] == "quick_not_waiting"


def test_a_wait_ends_when_cancelled_or_when_its_page_stops_asking(server: TestClient, clock: Clock) -> None:
    ani, boris, gor = Player(server, "Ani"), Player(server, "Boris"), Player(server, "Gor")
    ask(ani)
    response = server.delete("/api/quick", headers=ani.headers)
    assert response.status_code == 200 and response.json()["status"] == "none"
    assert ask(boris)["people"] == 1  # Ani is no longer counted
    clock.move(DROP_SECONDS - 1)
    assert ask(gor)["people"] == 2  # Boris, heard of 14 s ago, still waits
    clock.move(2)
    poll(gor)
    assert poll(gor)["people"] == 1  # Boris's page stopped asking: dropped
    assert poll(boris)["status"] == "none"  # a page that asks again after that starts anew
    refused = boris.post("/api/quick", {"game": "bazar-blot", "options": {"target": 51}}, status=400)
    assert refused["reason"] == "quick_no_options"


def test_a_quick_table_counts_among_its_askers_hosted_tables(database: Path | str, clock: Clock) -> None:
    """Bots on request open a table for one person: it counts against ``--host-limit`` as a
    table they made would, so nobody opens tables of bots without end."""
    with make_client(database, clock=clock, host_limit=1) as client:
        ani = Player(client, "Ani")
        ask(ani)
        ani.post("/api/quick/bots", {"level": "random"})
        ask(ani)
        refused = ani.post("/api/quick/bots", {"level": "random"}, status=409)
        assert refused["reason"] == "host_limit"
        assert poll(ani)["status"] == "waiting"
