"""Issue 38 item 7 through the real server: the attacks that broke, replayed. A puzzle's solution
is shown only to an account, after its own attempt (an anonymous attempt had returned it, and the
same person's account then solved the puzzle rated); a puzzle's rating moves only by established
accounts (12 throwaway accounts failing a puzzle had moved it from −1.8 to 21.4); no number of
waiting tables from other addresses pushes a table with a signed-in person out of the lobby, an
IPv6 client's whole /64 counted as one address (six addresses × 20 waiting tables had); an
account creates a limited number of public events a day, administrators excepted (one had
created 60 in a row). Rule ids: the League's procedures L-1…L-10 (``docs/rules.md``) are about
honour; these are the server's own limits (``docs/players.md``, *Puzzles*; ``docs/operators.md``,
*Limits*)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from blot.store import puzzles as stored
from blot.store.schema import puzzle_ratings

from .conftest import Account, Clock, Player, make_client
from .test_learn import by_position, puzzle_row, with_puzzles

DAY = 24 * 3600.0


@contextmanager
def from_address(client: TestClient, host: str) -> Iterator[None]:
    """The requests and sockets opened meanwhile come from ``host`` (the address the server sees,
    as a reverse proxy's forwarded address would be)."""
    transport: Any = client._transport
    before = transport.client
    transport.client = (host, 50000)
    try:
        yield
    finally:
        transport.client = before


# --- puzzles -------------------------------------------------------------------------------------


def id_of(client: TestClient, puzzle: Any) -> int:
    """The id the server gave the mined ``puzzle`` (they are numbered from 1)."""
    for puzzle_id in range(1, 100):
        shown = client.get(f"/api/puzzles/{puzzle_id}").json()
        if (shown["deal"], shown["after"]) == (puzzle.deal, puzzle.after):
            return puzzle_id
    raise AssertionError("the puzzle was not kept")


def test_item7_an_attempt_without_an_account_learns_right_or_wrong_never_the_solution(client: Any) -> None:
    found = with_puzzles(client)
    shown = client.get("/api/puzzles/next").json()
    p = by_position(found, shown)
    wrong = next(c.text for c in p.values if c not in p.solution)
    right = p.solution[0].text
    hidden = {"solution", "values"}
    once = "without an account a puzzle is answered once: sign in to try it again and see its solution"
    # nobody at all: right or wrong, nothing of the answer; and one card per address, lest every
    # card be tried (an IPv6 client's other addresses in its /64 included)
    with from_address(client, "2001:db8:5:6::1"):
        answer = client.post(f"/api/puzzles/{shown['id']}/attempt", json={"card": wrong}).json()
    assert answer["solved"] is False and answer["card"] == wrong
    assert not hidden & set(answer), answer
    assert not any(c.text in str(answer) for c in p.values if c.text != wrong)  # no other card named
    for host in ("2001:db8:5:6::1", "2001:db8:5:6:ffff::2"):
        with from_address(client, host):
            again = client.post(f"/api/puzzles/{shown['id']}/attempt", json={"card": right})
        assert again.status_code == 409 and again.json()["message"] == once
        assert again.json()["reason"] == "puzzle_once"
    # another address is answered (the right card: solved, still without the solution)
    with from_address(client, "192.0.2.9"):
        answer = client.post(f"/api/puzzles/{shown['id']}/attempt", json={"card": right}).json()
    assert answer["solved"] is True and not hidden & set(answer)
    # a guest: the same, once
    guest = Player(client, "Gohar")
    answer = guest.post(f"/api/puzzles/{shown['id']}/attempt", {"card": wrong})
    assert not hidden & set(answer) and answer["rated"] is False and answer["solved"] is False
    assert guest.post(f"/api/puzzles/{shown['id']}/attempt", {"card": right}, status=409)["message"] == once
    # an account sees the solution and every card's value after its own attempt, not before
    ani = Account(client, "Ani")
    asked = client.get(f"/api/puzzles/{shown['id']}", headers=ani.headers).json()
    assert not hidden & set(asked)
    mine = ani.post(f"/api/puzzles/{shown['id']}/attempt", {"card": wrong})
    assert mine["rated"] is True and mine["solved"] is False
    assert mine["solution"] == [c.text for c in p.solution]
    assert mine["values"] == {c.text: v for c, v in p.values.items()}


def test_item7_throwaway_accounts_failing_a_puzzle_leave_its_rating_established_ones_move_it(
    database: Path | str,
) -> None:
    clock = Clock()
    with make_client(database, clock=clock) as client:
        found = with_puzzles(client)
        target = client.get("/api/puzzles/next").json()
        p = by_position(found, target)
        wrong = next(c.text for c in p.values if c not in p.solution)
        before = puzzle_row(client, target["id"])
        # 12 accounts made a minute ago fail it on purpose: only their own ratings move
        for i in range(12):
            throwaway = Account(client, f"throwaway{i}")
            answer = throwaway.post(f"/api/puzzles/{target['id']}/attempt", {"card": wrong})
            assert answer["puzzle_rating"]["after"] == answer["puzzle_rating"]["before"]
            assert answer["rating"]["after"] < answer["rating"]["before"]
            assert answer["rated"] is True and answer["established"] is False
        after = puzzle_row(client, target["id"])
        assert (after.mu, after.sigma) == (before.mu, before.sigma)
        assert (after.attempts, after.solved) == (12, 0)

        # an account with enough attempts behind it but a day old: still not established
        app: Any = client.app

        def attempts_behind(account: Account) -> None:
            """The puzzle attempts of the account's past (as many as the threshold asks)."""
            app.state.hub.store.write(
                lambda c: c.execute(
                    update(puzzle_ratings)
                    .where(puzzle_ratings.c.player_id == account.id)
                    .values(attempts=stored.ESTABLISHED_ATTEMPTS)
                )
            )

        warmup = next(q for q in found if (q.deal, q.after) != (p.deal, p.after))
        veteran, young = Account(client, "veteran"), Account(client, "young")
        for account in (veteran, young):
            answer = account.post(
                f"/api/puzzles/{id_of(client, warmup)}/attempt", {"card": warmup.solution[0].text}
            )
            assert answer["rated"] is True and answer["established"] is False
        attempts_behind(veteran)
        attempts_behind(young)
        clock.move(6 * DAY)
        young_try = young.post(f"/api/puzzles/{target['id']}/attempt", {"card": wrong})
        assert young_try["established"] is False
        assert puzzle_row(client, target["id"]).mu == before.mu
        # a week old with its attempts behind it: established, its failure makes the puzzle harder
        clock.move(1.5 * DAY)
        answer = veteran.post(f"/api/puzzles/{target['id']}/attempt", {"card": wrong})
        assert answer["established"] is True
        moved = puzzle_row(client, target["id"])
        assert moved.mu > before.mu and moved.sigma < before.sigma
        assert answer["puzzle_rating"]["after"] > answer["puzzle_rating"]["before"]


# --- the lobby ----------------------------------------------------------------------------------


def at_table(sockets: ExitStack, client: TestClient, table: str, token: str) -> None:
    """Open the table's page as ``token``'s player and keep it open (until ``sockets`` closes):
    the lobby lists only tables people are at."""
    ws = sockets.enter_context(client.websocket_connect(f"/ws/tables/{table}"))
    ws.send_text(json.dumps({"type": "hello", "token": token, "since": None}))
    while json.loads(ws.receive_text())["type"] != "chat_history":
        pass


@pytest.mark.parametrize("hosts", ["guests", "throwaway accounts"])
def test_item7_no_number_of_waiting_tables_from_other_addresses_pushes_a_signed_in_table_out(
    tmp_path: Path, hosts: str
) -> None:
    with make_client(tmp_path / "blot.sqlite3") as client, ExitStack() as sockets:
        with from_address(client, "198.51.100.7"):
            ani = Account(client, "Ani")
            mine = ani.table()
            at_table(sockets, client, mine, ani.token)
        # six addresses, 20 waiting tables each (the most one address may have), every one with
        # its host at it, all newer than Ani's
        made = []
        for a in range(6):
            with from_address(client, f"203.0.113.{a + 1}"):
                for g in range(2):
                    host = Player(client, f"g{a}x{g}") if hosts == "guests" else Account(client, f"t{a}x{g}")
                    for _ in range(10):
                        table = host.table()
                        made.append(table)
                        at_table(sockets, client, table, host.token)
        listed = [t["id"] for t in client.get("/api/tables").json()["tables"]]
        assert len(made) == 120 and mine in listed
        if hosts == "guests":  # a signed-in person's table first, then 100 of the guests'
            assert listed[0] == mine and len(listed) == 101 and set(listed[1:]) <= set(made)
        else:  # accounts' tables: 500 of them are listed
            assert set(listed) == {mine, *made}


def test_item7_an_ipv6_clients_whole_slash_64_is_one_address_for_waiting_tables(tmp_path: Path) -> None:
    with make_client(tmp_path / "blot.sqlite3", waiting_per_address=20) as client:
        made = 0
        for i in range(3):
            guest = Player(client, f"v6g{i}")
            for j in range(10):
                # every table from another address of one /64
                with from_address(client, f"2001:db8:7:42:{i:x}:{j:x}::1"):
                    response = client.post("/api/tables", json={"game": "3-5-8"}, headers=guest.headers)
                if made < 20:
                    assert response.status_code == 200, response.text
                    made += 1
                else:
                    assert response.status_code == 409
                    assert response.json()["message"] == (
                        "20 tables made from this address are waiting for players: start or leave one first, "
                        "or let a waiting one expire"
                    )
        # another /64 is another address
        with from_address(client, "2001:db8:7:43::1"):
            Player(client, "elsewhere").table()


# --- public events ------------------------------------------------------------------------------


def test_item7_an_account_creates_a_limited_number_of_public_events_a_day_admins_excepted(
    database: Path | str,
) -> None:
    clock = Clock()
    with make_client(database, clock=clock, public_events_per_day=10, admins=("Boss",)) as client:
        ani = Account(client, "ani")
        body = {"name": "Cup", "rounds": 1}
        for i in range(10):
            ani.post("/api/events", {**body, "name": f"Cup {i}"})
        listed = client.get("/api/events").json()
        refused = ani.post("/api/events", {**body, "name": "Cup 11"}, status=409)
        assert refused["message"] == (
            "an account creates at most 10 public events in 24 hours: make this one private, "
            "or create it later"
        )
        assert refused["reason"] == "event_daily_limit" and refused["params"] == {"n": "10"}
        assert client.get("/api/events").json() == listed  # nothing was made
        # a private one is still made; the next day, a public one again
        assert ani.post("/api/events", {**body, "name": "Ours", "public": False})["public"] is False
        clock.move(DAY + 1)
        ani.post("/api/events", {**body, "name": "Cup of the next day"})
        # an administrator (blot serve --admin) is not limited
        boss = Account(client, "Boss")
        for i in range(12):
            boss.post("/api/events", {**body, "name": f"League day {i}"})


def test_item7_a_window_of_many_live_keys_is_not_swept_at_every_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """A day of anonymous puzzle attempts keeps a key per address and puzzle: the memory window
    sweeps its quiet keys when it has doubled since the last sweep, not at every use past the
    threshold (which made each attempt walk every key)."""
    from blot.server import limits

    monkeypatch.setattr(limits, "SWEEP_AT", 100)
    window = limits.Limit(1, limits.PUZZLE_WINDOW, lambda: 0.0)
    looked = 0
    recent = window._recent

    def counted(key: str) -> Any:
        nonlocal looked
        looked += 1
        return recent(key)

    monkeypatch.setattr(window, "_recent", counted)
    for i in range(2000):
        window.hit(f"192.0.2.1:{i}")
    assert looked < 5000  # a sweep at every use past 100 keys looked ~2 million times


def test_item7_connections_from_one_ipv6_slash_64_count_together() -> None:
    """The connections per address (128) count an IPv6 client's whole /64 as one address: its
    other addresses are no way round the limit; another /64 is another address."""
    from blot.server.transport import _Addresses

    class Transport:
        def __init__(self, host: str) -> None:
            self.host = host
            self.closed = False

        def get_extra_info(self, name: str) -> Any:
            return (self.host, 40000, 0, 0) if name == "peername" else None

        def close(self) -> None:
            self.closed = True

    addresses = _Addresses(2)
    first = [Transport(f"2001:db8:9:9::{i}") for i in (1, 2)]
    assert all(addresses.admit(t) == "2001:db8:9:9::/64" for t in first)  # type: ignore[arg-type]
    third = Transport("2001:db8:9:9:abcd::3")
    assert addresses.admit(third) is None and third.closed  # type: ignore[arg-type]
    assert addresses.admit(Transport("2001:db8:9:a::1")) == "2001:db8:9:a::/64"  # type: ignore[arg-type]
