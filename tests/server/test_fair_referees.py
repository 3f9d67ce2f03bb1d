"""Courts without names and no one ruling on his own game (issue 38 items 3 and 4; L-5, L-6,
L-8), through the real server: each attack that broke replayed. A referee's question that names
anyone of the event in any spelling is refused and kept nowhere; the event page shows a court's
question beside no table; a player keeps no Davtar of his own game, organizer or administrator
as he may be; a referee steps down and is never assigned to that table again; a required
referee holds the round; an online table's referee pauses it and sees no hidden card."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from .conftest import Account, Socket, make_client, simple_choice
from .test_events import MADE, add_court_member, finish_sheet


def _url(db: str | Path) -> str:
    return db if isinstance(db, str) else f"sqlite:///{db}"


class Day:
    """An over-the-board League day: ``pairs`` pairs of accounts (p10 & p09, gohar & davit, …),
    its organizer, a referee (``arbiter``) and a Court of Conduct member (``sage``)."""

    NAMES: ClassVar[list[str]] = ["p10", "p09", "gohar", "davit", "aram", "lilit", "narek", "sona"]

    def __init__(self, client: TestClient, pairs: int = 2, **settings: Any) -> None:
        self.client = client
        self.organizer = Account(client, "organizer")
        self.referee = Account(client, "arbiter")
        self.sage = Account(client, "sage")
        self.players = {n: Account(client, n) for n in self.NAMES[: 2 * pairs]}
        body = {"name": "League day", "online": False, "rounds": 1, "options": {"target": 51}, **settings}
        self.event = self.organizer.post("/api/events", body)["id"]
        for i in range(0, 2 * pairs, 2):
            self.organizer.post(f"/api/events/{self.event}/entries", {"usernames": self.NAMES[i : i + 2]})

    def start(self) -> dict[str, Any]:
        return dict(self.organizer.post(f"/api/events/{self.event}/rounds", {"start": True}))

    def path(self, data: dict[str, Any], number: int = 1) -> str:
        table = data["rounds"][0]["tables"][number - 1]["id"]
        return f"/api/events/{self.event}/tables/{table}"

    def first(self, data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The path and the table of the first pair (p10 & p09)."""
        table = next(t for t in data["rounds"][0]["tables"] if 1 in t["entries"])
        return f"/api/events/{self.event}/tables/{table['id']}", table

    def at(self, table: dict[str, Any]) -> list[Account]:
        """The accounts playing at a table (entry n is pair n of :data:`NAMES`)."""
        return [self.players[self.NAMES[2 * (e - 1) + i]] for e in table["entries"] for i in (0, 1)]

    def seen_by(self, who: Account | None) -> dict[str, Any]:
        headers = who.headers if who is not None else {}
        return dict(self.client.get(f"/api/events/{self.event}", headers=headers).json())

    def console(self, path: str) -> dict[str, Any]:
        return dict(self.client.get(f"{path}/console", headers=self.referee.headers).json())


#: Questions that name someone of the event, and the kind of name each is refused for (L-5): the
#: spellings that got past the old redaction, and real names.
NAMED = [
    ("Did p10s partner signal?", "username"),
    ("Did p 09 signal to the partner?", "username"),
    ("Did p-10 signal?", "username"),
    ("P.1.0 coughed twice", "username"),
    ("p|0 coughed twice", "username"),
    ("\uff50\uff11\uff10 coughed twice", "username"),  # fullwidth letters
    ("p\u200b10 tapped the table", "username"),  # a zero-width space
    ("\u0440\u0031\u0030 tapped the table", "username"),  # a Cyrillic р, then 10
    ("GoHaR looked at the partner's cards", "username"),
    ("g o h a r said nothing", "username"),
    ("\u0533\u0578\u0570\u0561\u0580 said nothing", "username"),  # Գոհար: Armenian, by its sound
    ("\u0413\u043e\u0445\u0430\u0440 said nothing", "username"),  # Гохар: Cyrillic, by its sound
    ("Did D\u0430vit (Cyrillic a) bet on it?", "username"),
    ("Did Mister Pink say a card?", "display_name"),
    ("Did MISTER.PINK say a card?", "display_name"),
    ("Did Team Sunrise arrange the loss?", "pair_name"),
    ("Did t.e.a.m s.u.n.r.i.s.e arrange the loss?", "pair_name"),
]
SENTENCE = {
    "username": "the question holds a player's username in some spelling: a court's case names nobody",
    "display_name": "the question holds a display name in some spelling: a court's case names nobody",
    "pair_name": "the question holds a pair's name in some spelling: a court's case names nobody",
}


def test_l5_a_question_naming_anyone_in_any_spelling_is_refused_and_kept_nowhere(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """L-5: every spelling of a username, a display name or a pair's name is refused with a
    sentence that says which kind of name and does not echo the text; nothing of it is stored
    or logged; a question without names goes to the court."""
    db = tmp_path / "blot.sqlite3"
    with make_client(db) as client:
        day = Day(client, pairs=2)

        def rename(c: Any) -> None:
            """A display name other than the username (an account signs up under its username
            today; older rows or a later feature may differ), and a pair's name as an organizer
            may have typed it."""
            c.execute(text("UPDATE players SET name = 'Mister Pink' WHERE username = 'davit'"))
            c.execute(text("UPDATE event_entries SET name = 'Team Sunrise' WHERE id = 2"))

        client.app.state.hub.store.write(rename)
        path = day.path(day.start())
        day.organizer.post(f"{path}/referee", {"username": "arbiter"})
        caplog.set_level(logging.DEBUG)
        for question, kind in NAMED:
            answer = day.referee.post(f"{path}/cases", {"court": "conduct", "question": question}, status=400)
            assert answer["message"] == SENTENCE[kind], question
            assert question not in json.dumps(answer)
        clean = "Did a player signal to his partner by coughing? The opponents say so."
        day.referee.post(f"{path}/cases", {"court": "conduct", "question": clean})
        short = "A stop10 card was led by the mechanical shuffler."  # no name from a word's start
        day.referee.post(f"{path}/cases", {"court": "sages", "question": short})
    stored = create_engine(_url(db))
    with stored.connect() as c:
        rows = [str(r[0]) for r in c.execute(text("SELECT question FROM court_cases"))]
        bodies = [str(r[0]) for r in c.execute(text("SELECT body FROM event_notes"))]
    stored.dispose()
    assert rows == [clean, short]
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for question, _ in NAMED:
        assert not any(question in b for b in bodies) and question not in logged


def test_l5_the_event_page_shows_a_court_question_beside_no_table(tmp_path: Path) -> None:
    """The attack: "Round 1, Table 1 · To the court: <question>" beside that table's pairs on
    the public page, and the dispute notes with names public. Now anybody (a court member too)
    sees only that a question went to a court and, once applied, its answer; the disputes are
    the table's referee's, players' and organizers' only."""
    with make_client(tmp_path / "db.sqlite3") as client:
        day = Day(client, pairs=4)
        data = day.start()
        path, table = day.first(data)
        playing = day.at(table)
        others = [p for p in day.players.values() if p not in playing]
        for number in (1, 2):
            day.organizer.post(f"{day.path(data, number)}/referee", {"username": "arbiter"})
        dispute = {"claim": "gohar says p10 signalled", "ruling": "sent to the Court of Conduct"}
        day.referee.post(f"{path}/disputes", dispute)
        question = "Did a player signal to his partner by coughing twice?"
        case = day.referee.post(f"{path}/cases", {"court": "conduct", "question": question})["cases"][0]
        client.app.state.hub.store.write(lambda c: add_court_member(c, day.sage.id, "conduct"))
        day.sage.post(f"/api/cases/{case['id']}/answer", {"answer": "No dishonour proven."})
        day.referee.post(f"{path}/cases/{case['id']}/apply", {"applied": "told the table"})
        for who in (None, day.sage, *others):  # nobody of that table
            seen = day.seen_by(who)
            said = json.dumps(seen)
            assert question not in said and "signalled" not in said
            assert not any(n["kind"] in ("escalation", "court_answer", "dispute") for n in seen["notes"])
            assert seen["court_questions"] == [{"court": "conduct", "answer": "No dishonour proven."}]
        for who in (day.organizer, *playing):
            seen = day.seen_by(who)
            assert [n["claim"] for n in seen["notes"] if n["kind"] == "dispute"] == [dispute["claim"]]
            assert question not in json.dumps(seen)  # the case's text: the referee's console only
        assert day.console(path)["cases"][0]["question"] == question
        court = day.sage.client.get("/api/courts/conduct/cases", headers=day.sage.headers).json()
        asked = court["cases"][0]["asked_at"]
        assert len(asked) == 10 and court["cases"][0]["applied"] is True  # a day; not the words
        assert set(court["cases"][0]) == {
            "id", "court", "question", "asked_at", "answer", "answered_at", "applied", "applied_at",
        }  # fmt: skip
        courts = day.sage.client.get("/api/courts", headers=day.sage.headers).json()
        assert courts == {"courts": ["conduct"], "fairplay": True}


def test_l6_l8_nobody_keeps_the_davtar_of_his_own_game(tmp_path: Path) -> None:
    """The attack: a player made organizer of the event added a deal to his own game's Davtar
    (+32 to his team). An organizer (an administrator too) who plays at a table gets no edit id
    and every edit of its sheet is refused; the other table's sheet he still keeps."""
    with make_client(tmp_path / "db.sqlite3", admins=("p10",)) as client:
        day = Day(client, pairs=4, referees=False)
        p10 = day.players["p10"]
        day.organizer.post(f"/api/events/{day.event}/organizers", {"username": "p10"})
        data = day.start()
        mine = next(t for t in data["rounds"][0]["tables"] if 1 in t["entries"])
        other = next(t for t in data["rounds"][0]["tables"] if 1 not in t["entries"])
        seen = day.seen_by(p10)
        by_id = {t["id"]: t for t in seen["rounds"][0]["tables"]}
        assert by_id[mine["id"]]["sheet"] == "shared" and by_id[other["id"]]["sheet"] == other["sheet"]
        sheet = mine["sheet"]  # the edit id, as the other organizer sees it (a leak would give it)
        before = client.get(f"/api/scoresheets/{sheet}").json()
        own = "you play in this game: nobody keeps or edits the Davtar of his own game (L-6, L-8)"
        assert p10.post(f"/api/scoresheets/{sheet}/deals", MADE, status=403)["message"] == own
        day.organizer.post(f"/api/scoresheets/{sheet}/deals", MADE)
        replaced = p10.client.put(f"/api/scoresheets/{sheet}/deals/1", json=MADE, headers=p10.headers)
        assert replaced.status_code == 403 and replaced.json()["message"] == own
        taken = p10.client.delete(f"/api/scoresheets/{sheet}/deals/1", headers=p10.headers)
        assert taken.status_code == 403 and taken.json()["message"] == own
        assert len(client.get(f"/api/scoresheets/{sheet}").json()["deals"]) == len(before["deals"]) + 1
        p10.post(f"/api/scoresheets/{other['sheet']}/deals", MADE)  # a game he does not play
        path = f"/api/events/{day.event}/tables/{mine['id']}"  # nor does he pick his own referee
        assert p10.post(f"{path}/referee", {"username": "arbiter"}, status=403)["message"] == (
            "you play at this table: another organizer assigns its referee"
        )
        p10.post(f"/api/events/{day.event}/tables/{other['id']}/referee", {"username": "arbiter"})


def test_l8_a_referee_steps_down_and_is_never_assigned_to_that_table_again(tmp_path: Path) -> None:
    """A referee steps down on his own; a player's conflict removes another; neither is assigned
    to that table again (the organizer may not put him back at once); the sheet stays."""
    with make_client(tmp_path / "db.sqlite3") as client:
        day = Day(client, pairs=4)
        data = day.start()
        path, table = day.first(data)
        other = next(day.path(data, n) for n in (1, 2) if day.path(data, n) != path)
        Account(client, "second")
        day.organizer.post(f"{path}/referee", {"username": "arbiter"})
        assert day.players["p10"].post(f"{path}/step_down", {}, status=403)["message"] == (
            "only this table's referee does that"
        )
        day.referee.post(f"{path}/step_down", {"reason": "I know the pair"})
        again = day.organizer.post(f"{path}/referee", {"username": "arbiter"}, status=409)
        assert again["message"] == "arbiter stepped down from this table and cannot referee it again"
        day.organizer.post(f"{other}/referee", {"username": "arbiter"})  # another table: yes
        day.organizer.post(f"{path}/referee", {"username": "second"})
        day.players["p09"].post(f"{path}/conflict", {"reason": "the referee is my opponent's cousin"})
        again = day.organizer.post(f"{path}/referee", {"username": "second"}, status=409)
        assert again["message"] == "second stepped down from this table and cannot referee it again"
        seen = day.seen_by(day.players["p10"])
        kinds = [n["kind"] for n in seen["notes"] if n["table"] == table["id"]]
        assert kinds == ["stepped_down", "conflict"]
        assert next(t for t in seen["rounds"][0]["tables"] if t["id"] == table["id"])["referee"] is None
        assert day.seen_by(None)["notes"] == []  # their reasons may name people


def test_l8_a_conflict_raised_after_the_end_is_recorded_and_changes_nothing(tmp_path: Path) -> None:
    with make_client(tmp_path / "db.sqlite3") as client:
        day = Day(client, pairs=2)
        path = day.path(day.start())
        day.organizer.post(f"{path}/referee", {"username": "arbiter"})
        sheet = day.console(path)["sheet"]
        finish_sheet(day.referee, sheet)
        before, event = client.get(f"/api/scoresheets/{sheet}").json(), day.seen_by(None)
        data = day.players["gohar"].post(f"{path}/conflict", {"reason": "I learnt he is their coach"})
        assert client.get(f"/api/scoresheets/{sheet}").json() == before
        table = data["rounds"][0]["tables"][0]
        assert table["result"] == event["rounds"][0]["tables"][0]["result"] == [2, 0]
        assert table["referee"] == day.referee.id and data["standings"] == event["standings"]
        note = next(n for n in data["notes"] if n["kind"] == "conflict")
        assert note["after_the_end"] is True and note["referee"] == day.referee.id


def test_l6_a_required_referee_holds_the_round_until_every_table_has_one(database: str | Path) -> None:
    """L-6 under the League's rules (the default over the board): the round is paired, but no
    table opens until every table has a referee; the API names the tables without one, and the
    next round is refused meanwhile. On SQLite and on PostgreSQL."""
    with make_client(database) as client:
        day = Day(client, pairs=4)
        assert day.seen_by(None)["settings"]["referees"] is True
        data = day.start()
        first = data["rounds"][0]
        assert first["status"] == "awaiting_referees" and first["without_referee"] == [1, 2]
        assert all(t["sheet"] is None and t["status"] == "awaiting_referee" for t in first["tables"])
        refused = day.organizer.post(f"/api/events/{day.event}/rounds", {"start": True}, status=409)
        assert refused["message"] == "round 1 waits for a referee at tables 1, 2"
        data = day.organizer.post(f"{day.path(data, 2)}/referee", {"username": "arbiter"})
        assert data["rounds"][0]["without_referee"] == [1] and data["rounds"][0]["tables"][1]["sheet"] is None
        Account(client, "second")
        data = day.organizer.post(f"{day.path(data, 1)}/referee", {"username": "second"})
        assert data["rounds"][0]["status"] == "playing" and data["rounds"][0]["without_referee"] == []
        assert all(t["sheet"] not in (None, "shared") for t in data["rounds"][0]["tables"])
        # an online event may ask for it too: its bots' table does not open (nothing is dealt)
        online = day.organizer.post("/api/events", {"name": "Online day", "rounds": 1, "referees": True})
        for _ in range(2):
            day.organizer.post(f"/api/events/{online['id']}/entries", {"bot": "basic"})
        started = day.organizer.post(f"/api/events/{online['id']}/rounds", {"start": True})
        assert started["rounds"][0]["tables"][0]["table"] is None
        hub, portal = client.app.state.hub, client.portal  # type: ignore[attr-defined]
        assert portal is not None
        assert portal.call(hub.tournaments.rounds.open_tables, None) == 0  # the sweep's part
        assert client.get(f"/api/events/{online['id']}").json()["rounds"][0]["without_referee"] == [1]


def test_l7_an_online_referee_pauses_the_table_and_sees_no_hidden_card(tmp_path: Path) -> None:
    """An online event table's referee watches as a spectator (never a hand), and pauses the
    table: a play is refused with one sentence and nothing moves until he resumes it."""
    with make_client(tmp_path / "db.sqlite3") as client:
        organizer, referee = Account(client, "organizer"), Account(client, "arbiter")
        ani, gohar = Account(client, "ani"), Account(client, "gohar")
        event = organizer.post("/api/events", {"name": "Online day", "rounds": 1, "referees": True})["id"]
        organizer.post(f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]})
        organizer.post(f"/api/events/{event}/entries", {"bot": "basic"})
        data = organizer.post(f"/api/events/{event}/rounds", {"start": True})
        path = f"/api/events/{event}/tables/{data['rounds'][0]['tables'][0]['id']}"
        data = organizer.post(f"{path}/referee", {"username": "arbiter"})
        table = data["rounds"][0]["tables"][0]["table"]
        assert table is not None
        seats = client.get(f"/api/tables/{table}").json()["seats"]
        seat = next(s["seat"] for s in seats if s.get("player") == ani.id)
        assert ani.post(f"{path}/pause", {"paused": True}, status=403)["message"] == (
            "only this table's referee does that"
        )
        with (
            client.websocket_connect(f"/ws/tables/{table}") as ws,
            client.websocket_connect(f"/ws/tables/{table}") as wr,
        ):
            mine, watching = Socket(ws, ani.token), Socket(wr, referee.token)
            view = mine.my_turn(seat)
            assert referee.post(f"{path}/pause", {"paused": True}) == {"table": table, "paused": True}
            answer = mine.play(seat, simple_choice(view))
            assert answer["type"] == "error"
            assert answer["message"] == "the referee has paused this table: wait until it is resumed"
            summary = client.get(f"/api/tables/{table}").json()
            assert summary["paused"] is True and summary["deadline"] is None
            time.sleep(0.3)
            assert client.get(f"/api/tables/{table}").json()["paused"] is True
            referee.post(f"{path}/pause", {"paused": False})
            assert mine.play(seat, simple_choice(view))["type"] == "event"
            watching.until(lambda m: m["type"] == "event" and m["event"]["kind"] == "pause")
            hands = [m["view"].get("hand") for m in watching.frames if m.get("view")]
            assert hands and not any(hands)  # the spectator's view: no hand, ever
        gohar.post(f"{path}/conflict", {"reason": "he coached the bot's author"})
        assert organizer.post(f"{path}/referee", {"username": "arbiter"}, status=409)
