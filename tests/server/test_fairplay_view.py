"""Issue 43 item 4 on the server (L-9): the Court of Conduct's fair-play view. A member of the
Court of Conduct and an administrator get the figures of ``blot fairplay`` for an account or a
pair over its finished stored games (the same as :func:`blot.fairplay.report` gives), with the
weighty deals' replay links, and open a case from them; anybody else — a guest, a player, the
accounts looked at — gets the answer of a path that does not exist, word for word, and nothing
reaches the looked-at players' sockets or the log."""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from functools import cache
from pathlib import Path
from random import Random
from typing import Any

import pytest
from sqlalchemy import insert

from blot.bots import make_bot
from blot.fairplay import Settings, report
from blot.games import spec
from blot.play import deal_over, play, reset
from blot.server.analysis_worker import document
from blot.store import analyses as stored_analyses
from blot.store import now
from blot.store.courts import add_court_member
from blot.store.schema import results, tables

from .conftest import Account, Player, Socket, make_client

BAZAR = "bazar-blot"
FAIRPLAY = "/api/conduct/fairplay"


@cache
def played(game: str, seed: int, deals: int) -> Any:
    """A game of ``deals`` deals played by heuristic bots, dealt from ``seed``."""
    game_spec = spec(game)
    state = game_spec.new_game()
    bots = [
        make_bot(game_spec, "heuristic", Random(seed * 10 + s), testing=True) for s in range(game_spec.seats)
    ]
    reset(bots)
    rng = Random(seed)
    for _ in range(deals):
        state.start_deal(game_spec.random_deal(rng))
        play(state, bots, until=deal_over)
    return state


def seed_game(
    client: Any, game: str, seated: dict[int, Any], seed: int, deals: int = 2, analysed: bool = False
) -> str:
    """A finished table of ``game`` stored as the server stores one, ``seated`` in their seats
    (bots elsewhere), with its results and, with ``analysed``, its analysis."""
    from blot.analysis import analyse

    game_spec = spec(game)
    state = played(game, seed, deals)
    names = [seated[s].username if s in seated else f"bot {s}" for s in range(game_spec.seats)]
    record = game_spec.record_of(state, names)
    table_id = f"fp{seed:08d}"
    at = now() - timedelta(hours=100 - seed)
    seats = [
        {"seat": s, "player": seated[s].id if s in seated else None, "name": names[s]}
        for s in range(game_spec.seats)
    ]

    def write(c: Any) -> None:
        c.execute(
            insert(tables).values(
                id=table_id,
                game=game,
                settings={},
                public=True,
                status="finished",
                host=None,
                seats=seats,
                last_seq=0,
                summary={},
                record=record,
                created_at=at,
                updated_at=at,
                finished_at=at,
            )
        )
        for s, who in seated.items():
            c.execute(
                insert(results).values(
                    table_id=table_id,
                    seat=s,
                    player_id=who.id,
                    game=game,
                    team=s % 2 if game == BAZAR else s,
                    place=None,
                    ending="played",
                    rated=False,
                    finished_at=at,
                )
            )
        if analysed:
            stored_analyses.save(c, table_id, 2, document(analyse(state)), 1.0, at)

    client.app.state.hub.store.write(write)
    return table_id


def member(client: Any, name: str) -> Account:
    sage = Account(client, name)
    client.app.state.hub.store.write(lambda c: add_court_member(c, sage.id, "conduct"))  # blot admin court
    return sage


def unknown(client: Any, who: Player | None, method: str = "POST") -> tuple[int, bytes, dict[str, str]]:
    """The answer of a path that does not exist, for ``who``: status, body and headers."""
    headers = who.headers if who is not None else {}
    response = client.request(
        method, "/api/conduct/nothing-here", json={"accounts": ["Ani"]}, headers=headers
    )
    return response.status_code, response.content, dict(response.headers)


def ask(client: Any, who: Player | None, body: Any, path: str = FAIRPLAY, method: str = "POST") -> Any:
    headers = who.headers if who is not None else {}
    return client.request(method, path, json=body, headers=headers)


@pytest.fixture
def court(db: Path) -> Any:
    with make_client(db, admins=("Boss",)) as client:
        yield client


def local(client: Any, ids: list[str]) -> list[tuple[Any, list[str] | None]]:
    """The games of these tables replayed from their stored records, as ``blot fairplay`` reads records."""
    out: list[tuple[Any, list[str] | None]] = []
    for table_id in ids:
        row = client.app.state.hub.store.table(table_id)
        replay = spec(row["game"]).replay(row["record"])
        out.append((replay.game, replay.players))
    return out


def test_issue43_a_member_and_an_admin_get_a_pairs_figures_equal_to_blot_fairplays(
    database: Path | str,
) -> None:
    with make_client(database, admins=("Boss",)) as court:
        pair_figures(court)


def pair_figures(court: Any) -> None:
    ani, gohar, vera = Account(court, "Ani"), Account(court, "Gohar"), Account(court, "Vera")
    sage, boss = member(court, "Sage"), Account(court, "Boss")
    first = seed_game(court, BAZAR, {0: ani, 2: gohar, 1: vera}, 1, analysed=True)
    second = seed_game(court, BAZAR, {1: ani, 3: gohar}, 2)
    seed_game(court, BAZAR, {0: ani, 1: gohar}, 3)  # opponents, not partners: not read
    body = {"accounts": ["Ani", "gohar"], "last": 4}
    found = ask(court, sage, body)
    assert found.status_code == 200, found.text
    data = found.json()
    assert data["games"] == [first, second] and data["deals"] == 4 and data["analysed"] == 1
    expected = report(local(court, [first, second]), Settings(), ("Ani", "Gohar")).to_json()
    for row in (*data["accounts"], *data["pairs"]):
        for deal in row.pop("weighty_deals"):
            table = [first, second][deal["game"] - 1]
            assert (
                deal["table"] == table and deal["replay"] == f"/replay/{table}?deal={deal['deal']}&analysis=1"
            )
    for row in (*expected["accounts"], *expected["pairs"]):
        row.pop("weighty_deals")
    assert data["accounts"] == expected["accounts"] and data["pairs"] == expected["pairs"]
    pair = data["pairs"][0]
    assert pair["name"] == "Ani & Gohar" and pair["deals"] == 4 and "p_value" in pair["test"]
    assert ask(court, boss, body).json()["pairs"] == found.json()["pairs"]  # an administrator too
    for who, sees in ((sage, True), (boss, True), (ani, False)):  # the courts page shows the view to them
        assert court.get("/api/courts", headers=who.headers).json()["fairplay"] is sees


def test_issue43_one_account_over_games_named_by_id_equals_blot_fairplay(court: Any) -> None:
    ani, sage = Account(court, "Ani"), member(court, "Sage")
    table = seed_game(court, "3-5-8", {2: ani}, 4)
    data = ask(court, sage, {"accounts": ["ani"], "game": "3-5-8", "tables": [table]}).json()
    expected = report(local(court, [table]), Settings()).accounts["Ani"].to_json()
    row = data["accounts"][0]
    assert row["test"] == expected["test"] and row["accuracy"] == expected["accuracy"]
    assert row["deals"] == 2 and data["pairs"] == []


def test_issue43_an_events_games_are_read_and_no_others(court: Any) -> None:
    from blot.store.schema import event_tables, events

    ani, gohar, sage = Account(court, "Ani"), Account(court, "Gohar"), member(court, "Sage")
    seed_game(court, BAZAR, {0: ani, 2: gohar}, 7)
    played_there = seed_game(court, BAZAR, {1: ani}, 8)
    at = now()

    def write(c: Any) -> None:
        c.execute(
            insert(events).values(
                id="night",
                name="Club night",
                game=BAZAR,
                format="swiss",
                settings={},
                public=True,
                status="finished",
                created_by=sage.id,
                created_at=at,
                updated_at=at,
            )
        )
        c.execute(
            insert(event_tables).values(
                event_id="night", round=1, number=1, entries=[], table_id=played_there
            )
        )

    court.app.state.hub.store.write(write)
    data = ask(court, sage, {"accounts": ["Ani"], "event": "night"}).json()
    assert data["games"] == [played_there] and data["accounts"][0]["deals"] == 2


def test_issue43_nobody_else_learns_the_view_exists_nor_that_it_was_looked_at(
    court: Any, caplog: pytest.LogCaptureFixture
) -> None:
    ani, gohar = Account(court, "Ani"), Account(court, "Gohar")
    referee, guest = Account(court, "Referee"), Player(court, "Guest")
    sage = member(court, "Sage")
    court.app.state.hub.store.write(lambda c: add_court_member(c, referee.id, "sages"))  # another court
    seed_game(court, BAZAR, {0: ani, 2: gohar}, 5)
    waiting = ani.table()
    body = {"accounts": ["Ani", "Gohar"]}
    with court.websocket_connect(f"/ws/tables/{waiting}") as ws, caplog.at_level(logging.DEBUG):
        sock = Socket(ws, ani.token)
        sock.joined()
        for who in (None, guest, ani, gohar, referee):
            for path in (FAIRPLAY, FAIRPLAY + "/cases"):
                for method in ("POST", "GET", "HEAD", "OPTIONS", "DELETE"):
                    response = ask(court, who, body, path, method)
                    got = (response.status_code, response.content, dict(response.headers))
                    assert got == unknown(court, who, method), (who, path, method)
        caplog.clear()
        assert ask(court, sage, body).status_code == 200  # the member looks
        said = " ".join(r.getMessage() for r in caplog.records if not r.name.startswith("httpx"))
        ani.post(f"/api/tables/{waiting}/fill-bots", {"level": "random"})  # something Ani's socket shows
        after = sock.receive()
        assert after["type"] == "event" and "fair" not in str(after).lower(), after
    assert "Ani" not in said and "Gohar" not in said and "fair" not in said  # the server's log: nothing
    assert (
        court.get("/api/courts/conduct/cases", headers=sage.headers).json()["cases"] == []
    )  # nothing written


def test_issue43_bad_input_is_one_keyed_refusal_for_members_only(court: Any) -> None:
    ani, gohar, vera, sage = (
        Account(court, "Ani"),
        Account(court, "Gohar"),
        Account(court, "Vera"),
        member(court, "Sage"),
    )
    seed_game(court, BAZAR, {0: ani, 1: gohar}, 6)
    cases = [
        ({"accounts": ["Nobody"]}, 404, "no_such_account"),
        ({"accounts": []}, 400, "fairplay_accounts"),
        ({"accounts": ["Ani", "ani"]}, 400, "fairplay_accounts"),
        ({"accounts": ["Ani", "Gohar"]}, 404, "fairplay_no_games"),  # never partners
        ({"accounts": ["Ani", "Vera"]}, 404, "fairplay_no_games"),  # never together
        ({"accounts": ["Ani"], "last": 0}, 400, "fairplay_last"),
        ({"accounts": ["Ani"], "last": "ten"}, 400, "fairplay_last"),
        ({"accounts": ["Ani"], "last": 501}, 400, "fairplay_last"),
        ({"accounts": ["Ani"], "last": 5, "event": "x"}, 400, "fairplay_choice"),
        ({"accounts": ["Ani"], "event": "nothing"}, 404, "no_such_event"),
        ({"accounts": ["Ani"], "tables": []}, 400, "fairplay_tables"),
        ({"accounts": ["Ani"], "game": "chess"}, 400, "fairplay_game"),
    ]
    for body, status, reason in cases:
        response = ask(court, sage, body)
        assert (response.status_code, response.json().get("reason")) == (status, reason), body
        assert ask(court, vera, body).content == unknown(court, vera)[1]  # a non-member: no such path
    assert court.get("/api/courts/conduct/cases", headers=sage.headers).json()["cases"] == []


def test_issue43_a_member_opens_a_case_from_the_view_naming_the_pair(database: Path | str) -> None:
    with make_client(database) as court:
        open_case(court)


def open_case(court: Any) -> None:
    Account(court, "Ani"), Account(court, "Gohar")
    sage = member(court, "Sage")
    question = "Ani & Gohar: score +3.10, p 0.001 over 300 deals; look at the weighty deals"
    case = ask(court, sage, {"accounts": ["Ani", "Gohar"], "question": question}, FAIRPLAY + "/cases").json()
    assert case["court"] == "conduct" and "Ani & Gohar" in case["question"] and "+3.10" in case["question"]
    listed = court.get("/api/courts/conduct/cases", headers=sage.headers).json()["cases"]
    assert [c["id"] for c in listed] == [case["id"]]
    refused = ask(court, sage, {"accounts": ["Ani"], "question": " "}, FAIRPLAY + "/cases")
    assert refused.status_code == 400 and refused.json()["reason"] == "field_needed"
    # the Court records its dishonour on that case (L-9), as on a referee's
    body = {
        "kind": "signals",
        "usernames": ["Ani", "Gohar"],
        "penance": "warning",
        "explanation": "They signalled.",
        "concerns": "online games",
        "case": case["id"],
    }
    done = sage.post("/api/conduct/decisions", body)
    assert done["decisions"][0]["names"] == ["Ani", "Gohar"]


def test_issue43_the_figures_block_no_other_request_and_a_crowd_waits_its_turn(
    court: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The figures are computed in the worker thread: while one is, the server answers others;
    beyond the queries that may wait, one more is refused (429, ``fairplay_busy``)."""
    import threading

    from blot.server import fairplay

    ani, sage = Account(court, "Ani"), member(court, "Sage")
    seed_game(court, BAZAR, {0: ani}, 9)
    release, started = threading.Event(), threading.Event()
    computed = fairplay.figures

    def slow(*args: Any) -> Any:
        started.set()
        assert release.wait(30)
        return computed(*args)

    monkeypatch.setattr(fairplay, "figures", slow)
    answers: list[int] = []
    crowd = [
        threading.Thread(target=lambda: answers.append(ask(court, sage, {"accounts": ["Ani"]}).status_code))
        for _ in range(fairplay.WAITING_LIMIT)
    ]
    for t in crowd:
        t.start()
    assert started.wait(30)
    assert court.get("/api/games").status_code == 200  # the server answers meanwhile
    service = court.app.state.fairplay
    for _ in range(3000):  # the others of the crowd reach the server and wait
        if service._waiting == fairplay.WAITING_LIMIT:
            break
        threading.Event().wait(0.01)
    busy = ask(court, sage, {"accounts": ["Ani"]})
    assert busy.status_code == 429 and busy.json()["reason"] == "fairplay_busy"
    release.set()
    for t in crowd:
        t.join(60)
    assert answers == [200] * fairplay.WAITING_LIMIT


@pytest.mark.parametrize("learn", [True, False])
def test_issue43_item5_the_missing_analyses_are_queued_when_the_server_learns(db: Path, learn: bool) -> None:
    """A query over games without a stored analysis queues, behind what people asked for, those
    that learning analyses anyway (played out, a person seated), and only when the server
    learns; once stored, the same query reads them instead of solving them again."""
    with make_client(db, learn=learn) as court:
        ani, gohar, sage = Account(court, "Ani"), Account(court, "Gohar"), member(court, "Sage")
        stored = seed_game(court, BAZAR, {0: ani, 2: gohar}, 1, analysed=True)
        missing = seed_game(court, BAZAR, {0: ani, 2: gohar}, 2)
        body = {"accounts": ["Ani", "Gohar"], "tables": [stored, missing]}
        first = ask(court, sage, body).json()
        assert first["analysed"] == 1 and first["queued"] == (1 if learn else 0)
        analyses = court.app.state.hub.analyses
        assert (missing in analyses.jobs) is learn and stored not in analyses.jobs
        if not learn:
            return
        deadline = time.monotonic() + 120
        while court.app.state.hub.store.read(lambda c: stored_analyses.stored(c, missing, 2)) is None:
            assert time.monotonic() < deadline, "the queued analysis was never stored"
            time.sleep(0.2)
        again = ask(court, sage, body).json()
        assert again["analysed"] == 2 and again["queued"] == 0
        assert again["pairs"] == first["pairs"]  # the stored card losses are the ones solved before


def test_issue43_item5_two_queries_at_once_queue_a_games_analysis_once(db: Path) -> None:
    """Two members asking at the same moment: the game's analysis is queued once (the backlog
    is the event loop's own; across processes the analyses' claims keep it to one)."""
    import asyncio

    with make_client(db, learn=True) as court:
        ani, gohar = Account(court, "Ani"), Account(court, "Gohar")
        missing = seed_game(court, BAZAR, {0: ani, 2: gohar}, 2)
        analyses = court.app.state.hub.analyses

        async def both() -> list[int]:
            return list(await asyncio.gather(analyses.backfill([missing]), analyses.backfill([missing])))

        assert court.portal.call(both) == [1, 1]  # each says the game is being analysed
        assert list(analyses.jobs) == [missing] and list(analyses._backlog) == []
