"""Issue 38 item 1: a duplicate round's deal is secret until every table has played it. Through
the real server: a duplicate event of two tables, one of bots (it plays its deals at once) and one
of two persons who take their time; the persons, anybody, and the organizer who plays at no
table try every way to the fast table's cards (its socket, record, replay, analysis, the lobby
and the list of finished games) before, between and after the persons' deals.
"""

from __future__ import annotations

import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from blot.server.secrecy import SECRET

from .conftest import Account, Player, Socket, make_client, simple_choice


class Round:
    """A duplicate event's first round: the bots' table (``fast``) and the persons' (``slow``);
    with ``two_pairs``, two tables of persons (``slow``: Ani and Gohar's, ``other``: Davit and
    Emma's, each against bots) and no table of bots alone."""

    def __init__(self, client: TestClient, deals: int = 2, two_pairs: bool = False) -> None:
        self.client = client
        self.organizer = Account(client, "organizer")
        self.ani, self.gohar = Account(client, "ani"), Account(client, "gohar")
        body = {"name": "Duplicate night", "format": "duplicate", "rounds": 1, "deals": deals}
        self.event = self.organizer.post("/api/events", body)["id"]
        pairs = [(self.ani, self.gohar)]
        if two_pairs:
            pairs.append((Account(client, "davit"), Account(client, "emma")))
        for a, b in pairs:
            self.organizer.post(f"/api/events/{self.event}/entries", {"usernames": [a.username, b.username]})
        for _ in range(4 - len(pairs)):
            self.organizer.post(f"/api/events/{self.event}/entries", {"bot": "basic"})
        data = self.organizer.post(f"/api/events/{self.event}/rounds", {"start": True})
        tables = data["rounds"][0]["tables"]
        places: list[tuple[str, dict[int, Player]]] = []
        for pair in pairs:
            entry = next(
                e["id"]
                for e in data["entries"]
                if {m["player"] for m in e["members"]} == {p.id for p in pair}
            )
            table = next(t["table"] for t in tables if entry in t["entries"])
            seats = client.get(f"/api/tables/{table}").json()["seats"]
            places.append((table, {s["seat"]: p for p in pair for s in seats if s.get("player") == p.id}))
        (self.slow, self.seats), *rest = places
        assert len({t for t, _ in places}) == len(places), "the pairs meet: no table of theirs is alone"
        if two_pairs:
            self.other, self.other_seats = rest[0]
        else:
            self.fast = next(t["table"] for t in tables if t["table"] != self.slow)
            self.wait_finished(self.fast)

    def wait_finished(self, table: str) -> None:
        deadline = time.monotonic() + 60
        while self.client.get(f"/api/tables/{table}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the table's game did not end"
            time.sleep(0.05)

    def get(self, who: Player | None, path: str) -> Any:
        return self.client.get(path, headers=None if who is None else who.headers)

    def post(self, who: Player | None, path: str) -> Any:
        return self.client.post(path, json={}, headers=None if who is None else who.headers)

    def watch(self, who: Player | None, table: str) -> dict[str, Any]:
        """The first message a socket of ``table`` gets with ``who``'s token (and how it closed)."""
        with self.client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_json({"type": "hello", "token": None if who is None else who.token, "recent": 200})
            first: dict[str, Any] = ws.receive_json()
            if first["type"] == "error":
                closed = ws.receive()
                first["closed"] = closed.get("code")
            return first

    def play(
        self, deals: int | None = None, table: str | None = None, seats: dict[int, Player] | None = None
    ) -> None:
        """The persons play their table's game (as :func:`play_out` does) to its end, or with
        ``deals`` until that many deals are over (the next one is dealt). A duplicate round's game
        ends with its deals, not with a ``game_over``: the table's status says it (``table`` and
        ``seats``: another table of persons than the slow one)."""
        table, seats = table or self.slow, seats or self.seats
        with ExitStack() as stack:
            socks = {
                seat: Socket(
                    stack.enter_context(self.client.websocket_connect(f"/ws/tables/{table}")), p.token
                )
                for seat, p in seats.items()
            }
            ref = next(iter(socks.values()))
            need = 0

            def done() -> bool:
                v = ref.view
                status = next((f["table"]["status"] for f in reversed(ref.frames) if f.get("table")), None)
                if status == "finished" or (v is not None and v["game_over"] is not None):
                    return True
                return v is not None and deals is not None and v["deal_number"] > deals

            def ready() -> bool:
                v = ref.view
                return done() or (ref.n >= need and v is not None and v["to_act"] in socks)

            while True:
                if not ready():
                    ref.until(lambda m: ready())
                if done():
                    return
                assert ref.view is not None
                seat = ref.view["to_act"]
                sock = socks[seat]
                if sock.n < ref.n:
                    sock.until(lambda m, sock=sock: bool(sock.n >= ref.n))  # type: ignore[misc]
                view = sock.view
                assert view is not None
                if not (view["game_over"] is None and view["to_act"] == seat and view["legal"] is not None):
                    need = max(sock.n, ref.n + 1)
                    continue
                reply = sock.play(seat, simple_choice(view))
                assert reply["type"] == "event", reply
                need = reply["n"]


def refused(answer: Any) -> None:
    assert answer.status_code == 403, answer.text
    assert answer.json()["message"] == SECRET


def test_l1_a_player_of_a_slower_table_cannot_watch_the_faster_one_until_the_round_is_over(
    database: str | Path,
) -> None:
    """The attack of issue 38: a player of the slow table opens the fast table's socket with
    their own token: refused in one sentence, not one card sent; anybody else too; the organizer,
    who plays at no table, watches; once the persons' table has played every deal, all open."""
    with make_client(database) as client:
        r = Round(client)
        r.organizer.post(f"/api/events/{r.event}/organizers", {"username": "ani"})  # she plays: no right
        for who in (r.ani, r.gohar, None):
            first = r.watch(who, r.fast)
            assert first["type"] == "error" and first["message"] == SECRET, first
            assert first["reason"] == "deals_secret" and first["closed"] == 4403
        snapshot = r.watch(r.organizer, r.fast)
        assert snapshot["type"] == "snapshot" and snapshot["events"]
        assert r.watch(r.ani, r.slow)["type"] == "snapshot"  # her own table, her own seat
        r.play()
        r.wait_finished(r.slow)
        for who in (r.ani, None):
            snapshot = r.watch(who, r.fast)
            assert snapshot["type"] == "snapshot" and snapshot["events"]


def test_l1_the_record_replay_and_analysis_of_a_table_ahead_open_when_every_table_played_the_deals(
    database: str | Path,
) -> None:
    with make_client(database) as client:
        r = Round(client)
        fast = f"/api/tables/{r.fast}"
        for who in (r.ani, r.gohar, None):
            refused(r.get(who, f"{fast}/record"))
            refused(r.get(who, f"{fast}/replay"))
            refused(r.get(who, f"{fast}/analysis"))
            refused(r.post(who, f"{fast}/analysis"))
        # the organizer, at no table, reads everything; no analysis (nor puzzles, nor accuracies
        # from it) is made before the round is over, for anybody
        assert len(r.get(r.organizer, f"{fast}/record").json()["deals"]) == 2
        assert len(r.get(r.organizer, f"{fast}/replay").json()["deals"]) == 2
        assert r.get(r.organizer, f"{fast}/analysis").json() == {"status": "none"}
        refused(r.post(r.organizer, f"{fast}/analysis"))
        # the finished games' list leaves the table out until then
        listed = [g["id"] for g in r.get(None, "/api/replays").json()["games"]]
        assert r.fast not in listed
        assert r.fast in [g["id"] for g in r.get(r.organizer, "/api/replays").json()["games"]]
        r.play()
        r.wait_finished(r.slow)
        for who in (r.ani, None):
            assert len(r.get(who, f"{fast}/record").json()["deals"]) == 2
            replay = r.get(who, f"{fast}/replay").json()
            assert len(replay["deals"]) == 2 and replay["summary"] is not None and "secret" not in replay
        assert r.post(None, f"{fast}/analysis").json()["status"] in ("queued", "running", "done")
        assert r.fast in [g["id"] for g in r.get(None, "/api/replays").json()["games"]]


def test_l1_a_replay_opens_deal_by_deal_as_every_table_finishes_it(tmp_path: Path) -> None:
    """The persons finished the first deal and sit at the second: the fast table's replay shows
    its first deal to anybody, not the second, nor the totals that would tell it."""
    with make_client(tmp_path / "blot.sqlite3") as client:
        r = Round(client)
        r.play(deals=1)
        replay = r.get(None, f"/api/tables/{r.fast}/replay").json()
        assert [d["number"] for d in replay["deals"]] == [1]
        assert replay["summary"] is None and replay["secret"] == 1
        refused(r.get(None, f"/api/tables/{r.fast}/record"))
        assert len(r.get(r.organizer, f"/api/tables/{r.fast}/replay").json()["deals"]) == 2


def test_l1_the_lobby_offers_no_watch_of_a_duplicate_rounds_table(tmp_path: Path) -> None:
    """The persons' table is in play with them at it: the lobby lists it to nobody but its own
    players and the organizer (every other Watch would be refused)."""
    with make_client(tmp_path / "blot.sqlite3") as client:
        r = Round(client)
        stranger = Account(client, "davit")
        with client.websocket_connect(f"/ws/tables/{r.slow}") as ws:
            Socket(ws, r.ani.token).joined()  # she is at her table: it is "present"
            lobby = {who: r.get(who, "/api/tables").json()["tables"] for who in (None, stranger, r.organizer)}
            assert [t["id"] for t in lobby[None]] == [] and [t["id"] for t in lobby[stranger]] == []
            assert [t["id"] for t in lobby[r.organizer]] == [r.slow]
            first = r.watch(stranger, r.slow)
            assert first["type"] == "error" and first["message"] == SECRET


def test_l1_the_event_page_offers_no_watch_nor_deal_points_of_a_table_ahead(tmp_path: Path) -> None:
    """The event's answer marks the fast table ``secret`` to the persons and to anybody (the page
    offers no Watch or replay) and gives no result, points per deal or totals, nor do its bots'
    profiles; the organizer and a referee at no table of the round see them, and watch; after
    the round, everybody."""
    with make_client(tmp_path / "blot.sqlite3") as client:
        r = Round(client)
        arbiter = Account(client, "arbiter")

        def fast(who: Player | None) -> dict[str, Any]:
            data = r.get(who, f"/api/events/{r.event}").json()
            return next(t for t in data["rounds"][0]["tables"] if t["table"] == r.fast)

        row = fast(None)["id"]
        r.organizer.post(f"/api/events/{r.event}/tables/{row}/referee", {"username": "arbiter"})
        for who in (r.ani, r.gohar, None):
            table = fast(who)
            assert table["secret"] and table["boards"] == [] and table["score"] is None, table
            assert table["result"] is None
            # the standings and the cross table count no game of the round yet
            data = r.get(who, f"/api/events/{r.event}").json()
            assert [s["games"] for s in data["standings"]] == [0, 0, 0, 0]
            met = [g for row in data["cross_table"].values() for games in row.values() for g in games]
            assert met and all(g["points"] is None for g in met)
            standings = r.get(who, f"/api/events/{r.event}/standings").json()["standings"]
            assert [s["games"] for s in standings] == [0, 0, 0, 0]
            csv = r.get(who, f"/api/events/{r.event}/standings?format=csv").text.splitlines()
            assert [line.split(",")[-2] for line in csv[1:]] == ["0"] * 4  # the games column
        for who in (r.organizer, arbiter):
            table = fast(who)
            assert not table["secret"] and len(table["boards"]) == 2 and table["score"] is not None
            assert sorted(s["games"] for s in r.get(who, f"/api/events/{r.event}").json()["standings"]) == [
                0,
                0,
                1,
                1,
            ]
        assert r.watch(arbiter, r.fast)["type"] == "snapshot"
        with client.websocket_connect(f"/ws/tables/{r.fast}") as ws:  # the referee watches ...
            sock = Socket(ws, arbiter.token)
            sock.joined()
            r.organizer.post(f"/api/events/{r.event}/tables/{row}/referee", {"username": None})
            # ... and is no referee any more: told so, and closed (looked at again every 2 s)
            assert sock.until(lambda m: m["type"] == "error")["message"] == SECRET
        r.organizer.post(f"/api/events/{r.event}/tables/{row}/referee", {"username": "arbiter"})

        def in_profile(who: Player | None) -> list[dict[str, Any]]:
            """The fast table's game in the profile of its bots (each seat of it)."""
            recent = r.get(who, "/api/players/bot:basic").json()["recent"]
            return [g for g in recent if g["table"] == r.fast]

        assert in_profile(None) and all(g["place"] is None and g["totals"] is None for g in in_profile(None))
        assert all(g["place"] is not None and g["totals"] for g in in_profile(r.organizer))
        r.play()
        r.wait_finished(r.slow)
        table = fast(None)
        assert not table["secret"] and len(table["boards"]) == 2
        assert all(g["place"] is not None and g["totals"] for g in in_profile(None))


def test_l1_no_analysis_nor_puzzle_comes_from_a_round_before_every_table_played_it(tmp_path: Path) -> None:
    """Two tables of persons, each against bots, with ``learn`` on: the first to finish is not
    analysed (puzzles mined from it, or its accuracies, would come from deals the other table
    still plays); once the second finishes, both are."""
    from blot.store import puzzles

    with make_client(tmp_path / "blot.sqlite3", learn=True) as client:
        r = Round(client, deals=1, two_pairs=True)
        store: Any = client.app.state.hub.store  # type: ignore[attr-defined]
        r.play()
        r.wait_finished(r.slow)
        time.sleep(1.0)  # an analysis would have started by now
        assert r.get(r.organizer, f"/api/tables/{r.slow}/analysis").json() == {"status": "none"}
        assert store.read(puzzles.count) == 0
        r.play(table=r.other, seats=r.other_seats)
        r.wait_finished(r.other)
        deadline = time.monotonic() + 240
        for table in (r.slow, r.other):
            while r.get(None, f"/api/tables/{table}/analysis").json()["status"] != "done":
                assert time.monotonic() < deadline, "the round's games were not analysed"
                time.sleep(0.1)
