"""Issue 38 items 5 and 6: bans follow the pair (L-3) and dishonours on the record (L-9, L-10).

Each test replays an attack that broke before: a tars kapoot at an unrated table or on a referee's
Davtar barred nobody; an unrated public table seated a barred pair as partners while a rated one
kept the two apart even as opponents; a pair barred during an event was silently left out and
could still win it; nothing recorded a dishonour, and the register had only an operator's text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from blot.cli.main import main

from .conftest import Account, make_client, play_out
from .test_ratings import kapoot_then_lowest, tars_deals  # noqa: F401  (tars_deals: a fixture)

#: Davtar deals (B-50 … B-55): team 0 makes 8 spades (130 : 32); team 1 does; team 0 bids kapoot
#: in spades and team 1 takes every trick (tars kapoot: the game is over, team 0 lost, B-55).
MADE = {"contract": {"team": 0, "level": 8, "strain": "S", "multiplier": 1}, "card_points": [130, 32]}
MADE_BY_1 = {"contract": {"team": 1, "level": 8, "strain": "S", "multiplier": 1}, "card_points": [32, 130]}


def tars_on(team: int) -> dict[str, Any]:
    """A deal the pair of ``team`` loses by tars kapoot: its kapoot bid, every trick taken by the other."""
    return {
        "contract": {"team": team, "level": 25, "strain": "S", "multiplier": 1},
        "card_points": None,
        "kapoot": 1 - team,
    }


def sit(who: Account, table: str, seat: int, status: int = 200) -> Any:
    return who.post(f"/api/tables/{table}/sit", {"seat": seat}, status=status)


def partners_sentence(a: str, b: str, day: str, until: str) -> str:
    return (
        f"{a} and {b} suffered tars kapoot on {day}: under the League's rules they may not play together "
        f"as partners at a public table or in an event until {until}"
    )


class OverTheBoard:
    """An over-the-board League event of pairs kept by a referee (its Davtars), Swiss."""

    def __init__(self, client: TestClient, rounds: int, names: list[str], format: str = "swiss") -> None:
        self.client = client
        self.organizer = Account(client, "organizer")
        self.referee = Account(client, "arbiter")
        self.accounts = {n: Account(client, n) for n in names}
        body = {"name": "League day", "online": False, "format": format, "options": {"target": 51}}
        if format == "swiss":
            body["rounds"] = rounds
        self.event = self.organizer.post("/api/events", body)["id"]
        self.entries: dict[str, int] = {}
        for i in range(0, len(names), 2):
            data = self.organizer.post(f"/api/events/{self.event}/entries", {"usernames": names[i : i + 2]})
            self.entries[names[i]] = data["entries"][-1]["id"]

    def data(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.client.get(f"/api/events/{self.event}").json()
        return answer

    def start(self) -> list[tuple[dict[str, Any], str]]:
        """Start the next round and give each table the referee: each table and its Davtar."""
        data = self.organizer.post(f"/api/events/{self.event}/rounds", {"start": True})
        tables = data["rounds"][-1]["tables"]
        paths = [f"/api/events/{self.event}/tables/{t['id']}" for t in tables]
        for path in paths:  # play starts once every table has its referee (L-6)
            self.organizer.post(f"{path}/referee", {"username": "arbiter"})
        return [
            (t, self.client.get(f"{path}/console", headers=self.referee.headers).json()["sheet"])
            for t, path in zip(tables, paths, strict=True)
        ]

    def deal(self, sheet: str, deal: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = self.referee.post(f"/api/scoresheets/{sheet}/deals", deal)
        return answer

    def win(self, table: dict[str, Any], sheet: str, entry: int) -> None:
        """Enter made contracts of ``entry``'s pair until it has won the game (B-70 at 51)."""
        deal = MADE if table["entries"][0] == entry else MADE_BY_1
        for _ in range(5):
            if self.deal(sheet, deal)["finished"]:
                return
        raise AssertionError("the sheet never finished")


@pytest.mark.usefixtures("tars_deals")
def test_l3_a_tars_kapoot_at_an_unrated_table_bars_the_pair_as_partners_not_as_opponents(db: Path) -> None:
    """L-3 (B-55): a tars kapoot at an unrated online table bars the pair; the bar keeps the two
    from sitting as partners at a public table, rated or not, and nowhere else: they may sit as
    opponents (rated too) and together at a private unrated table."""
    with make_client(db, league=True) as client:
        ani, gohar, boris = Account(client, "Ani"), Account(client, "Gohar"), Account(client, "Boris")
        table = ani.table("bazar-blot")  # unrated, public
        sit(gohar, table, 2)
        ani.post(f"/api/tables/{table}/fill-bots", {"level": "basic"})
        ani.post(f"/api/tables/{table}/start")
        over = play_out(client, table, {0: ani, 2: gohar}, kapoot_then_lowest)["game_over"]
        assert over["tars_kapoot"] and over["winner"] == 1
        bars = client.get("/api/me", headers=gohar.headers).json()["bars"]
        assert len(bars) == 1 and bars[0]["players"] == ["Ani", "Gohar"]
        message = bars[0]["message"]
        assert "may not play together as partners at a public table or in an event" in message
        assert [b["players"] for b in client.get("/api/register").json()["bans"]] == [["Ani", "Gohar"]]

        unrated = ani.table("bazar-blot")
        refused = sit(gohar, unrated, 2, status=403)  # partners: seat 0 and seat 2 (B-1)
        assert refused["message"] == message
        assert [s["name"] for s in client.get(f"/api/tables/{unrated}").json()["seats"]][2] is None
        sit(gohar, unrated, 1)  # opponents
        sit(boris, unrated, 2)
        rated = ani.table("bazar-blot", rated=True)
        sit(gohar, rated, 3)  # opponents at a rated table too
        assert sit(gohar, rated, 2, status=403)["message"] == message  # moving to be her partner
        private = ani.table("bazar-blot", public=False)
        sit(gohar, private, 2)  # a private unrated table among friends
        ani.post(f"/api/tables/{private}/fill-bots", {"level": "basic"})
        ani.post(f"/api/tables/{private}/start")


def test_l3_a_tars_kapoot_on_a_referees_davtar_bars_the_pair_and_withdraws_it_from_the_event(
    tmp_path: Path,
) -> None:
    """L-3 (B-55), L-6: a tars kapoot the referee enters on an event's Davtar bars the pair as an
    online one does; the pair is withdrawn from the event at once with the note "barred by tars
    kapoot in round 1", is not paired again, its standing says so and ranks below every other."""
    with make_client(tmp_path / "db.sqlite3", league=True) as client:
        names = ["ani", "gohar", "davit", "emma", "aram", "lilit", "narek", "sona"]
        event = OverTheBoard(client, 2, names)
        barred = event.entries["ani"]
        for table, sheet in event.start():
            if barred in table["entries"]:
                result = event.deal(sheet, tars_on(table["entries"].index(barred)))
                assert result["finished"] and result["tars_kapoot"]
            else:
                event.win(table, sheet, table["entries"][0])
        gohar = event.accounts["gohar"]
        bars = client.get("/api/me", headers=gohar.headers).json()["bars"]
        assert [b["players"] for b in bars] == [["ani", "gohar"]]
        assert client.get("/api/players/gohar").json()["tars_kapoot"][0]["partner"] == "ani"
        data = event.data()
        entry = next(e for e in data["entries"] if e["id"] == barred)
        assert entry["withdrawn"] and entry["barred_note"] == "barred by tars kapoot in round 1"
        standing = next(s for s in data["standings"] if s["entry"] == barred)
        assert standing["barred"] == "barred by tars kapoot in round 1"
        assert data["standings"][-1]["entry"] == barred
        # the next round: the barred pair is not paired, and the bye the others' odd number makes
        # is a forfeit win (1 point, FORFEIT_WIN)
        event.start()
        second = event.data()["rounds"][1]
        assert barred not in [e for t in second["tables"] for e in t["entries"]] + second["byes"]
        assert len(second["byes"]) == 1
        # and the ban follows the pair to a public table
        public = event.accounts["ani"].table("bazar-blot")
        assert "as partners" in sit(gohar, public, 2, status=403)["message"]


def test_l3_a_davtar_tars_kapoot_taken_back_takes_its_ban_back(tmp_path: Path) -> None:
    """A referee's mistake corrected (the deal taken back) is no tars kapoot: the record goes."""
    with make_client(tmp_path / "db.sqlite3", league=True) as client:
        event = OverTheBoard(client, 1, ["ani", "gohar", "davit", "emma"])
        ((table, sheet),) = event.start()
        event.deal(sheet, tars_on(0))
        assert len(client.get("/api/register").json()["bans"]) == 1
        event.referee.client.delete(f"/api/scoresheets/{sheet}/deals/1", headers=event.referee.headers)
        assert client.get("/api/register").json()["bans"] == []
        assert table["entries"]


#: A dishonour as a member of the Court of Conduct records it (L-9: hints and signals).
BODY = {
    "kind": "signals",
    "usernames": ["ani"],
    "penance": "bar",
    "until": "2099-01-01",
    "explanation": "Signals to the partner by the way the cards were held.",
    "concerns": "Spring cup, round 2",
}


def record(member: Account, status: int = 200, **body: Any) -> Any:
    return member.post("/api/conduct/decisions", {**BODY, **body}, status=status)


def add_member(client: TestClient, player: int, court: str = "conduct") -> None:
    from blot.store.courts import add_court_member

    client.app.state.hub.store.write(lambda c: add_court_member(c, player, court))  # type: ignore[attr-defined]


def test_l9_l10_a_court_member_records_a_dishonour_its_bar_holds_until_forgiven(database: str | Path) -> None:
    """L-9, L-10 (SQLite and PostgreSQL): only a member of the Court of Conduct records a
    dishonour; the register publishes it (kind, penance, names); its bar keeps the account from
    every public table (as anyone's partner or opponent) and from events, not from a private
    table; forgiven, it is marked so and the bar is lifted."""
    with make_client(database) as client:
        ani, gohar, judge, organizer = (Account(client, n) for n in ("ani", "gohar", "judge", "organizer"))
        refused = record(judge, status=403)
        assert refused["message"] == "only a member of the Court of Conduct records or forgives a dishonour"
        add_member(client, judge.id, "sages")
        assert record(judge, status=403)["message"] == refused["message"]  # the other court
        assert client.get("/api/register").json()["decisions"] == []
        add_member(client, judge.id)
        for bad, message in (
            ({"kind": "rudeness"}, "kind is signals, stakes, cheating, barred_pair or arranged_loss"),
            ({"penance": "fine"}, "penance is warning, bar (until a date) or life"),
            (
                {"until": "2001-01-01"},
                "a bar for a period needs until: a day after today, such as 2027-05-01",
            ),
            ({"usernames": ["nobody"]}, "there is no account nobody"),
            ({"explanation": " "}, "the explanation to publish has 1 to 4000 characters"),
            ({"case": 99}, "the Court of Conduct has no such case"),
        ):
            answer = judge.client.post("/api/conduct/decisions", json={**BODY, **bad}, headers=judge.headers)
            assert answer.status_code in (400, 404) and answer.json()["message"] == message, bad
        assert client.get("/api/register").json()["decisions"] == []  # nothing written
        made = record(judge)
        (decision,) = made["decisions"]
        assert decision["id"] == made["id"] and decision["kind"] == "signals"
        assert decision["penance"] == "bar" and decision["until"] == "2099-01-01"
        assert decision["names"] == ["ani"] and decision["forgiven"] is None and decision["in_force"]
        assert decision["concerns"] == "Spring cup, round 2"
        assert client.get("/api/register").json()["decisions"] == made["decisions"]
        message = (
            f"ani is barred by the Court of Conduct (decision {made['id']}) until 2099-01-01: "
            "no public table and no event until then"
        )
        assert [b["message"] for b in client.get("/api/me", headers=ani.headers).json()["bars"]] == [message]
        table = gohar.table("bazar-blot")
        assert sit(ani, table, 1, status=403)["message"] == message  # not even as an opponent
        assert sit(ani, table, 2, status=403)["message"] == message
        answer = ani.client.post("/api/tables", json={"game": "3-5-8"}, headers=ani.headers)
        assert answer.status_code == 403 and answer.json()["message"] == message
        private = gohar.table("bazar-blot", public=False)
        sit(ani, private, 2)  # among friends
        event = organizer.post("/api/events", {"name": "Cup"})["id"]
        entered = ani.post(f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]}, status=403)
        assert entered["message"] == message + "; this online event (unrated) takes no entry of theirs"
        assert client.get(f"/api/events/{event}").json()["entries"] == []
        # a warning names, bars nobody
        record(judge, usernames=["gohar"], penance="warning", until=None, kind="stakes")
        assert client.get("/api/me", headers=gohar.headers).json()["bars"] == []
        # forgiven (L-10): marked in the register, the bar lifted
        assert (
            ani.post(f"/api/conduct/decisions/{made['id']}/forgive", status=403)["message"]
            == refused["message"]
        )
        forgiven = judge.post(f"/api/conduct/decisions/{made['id']}/forgive")
        mine = next(d for d in forgiven["decisions"] if d["id"] == made["id"])
        assert mine["forgiven"] is not None and not mine["in_force"]
        again = judge.post(f"/api/conduct/decisions/{made['id']}/forgive", status=409)
        assert again["message"] == "that dishonour is forgiven already"
        assert client.get("/api/me", headers=ani.headers).json()["bars"] == []
        sit(ani, table, 2)


def test_l9_a_dishonour_withheld_names_and_one_on_a_case(tmp_path: Path) -> None:
    """L-5, L-10: a dishonour on a case of the Court of Conduct names the case's event (never its
    table); the Court may publish it without the names; a case of the Court of Sages is refused."""
    with make_client(tmp_path / "db.sqlite3") as client:
        event = OverTheBoard(client, 1, ["ani", "gohar", "davit", "emma"])
        ((table, _),) = event.start()
        path = f"/api/events/{event.event}/tables/{table['id']}"
        question = "Did a player signal to his partner? The opponents say so."
        case = event.referee.post(f"{path}/cases", {"court": "conduct", "question": question})["cases"][0]
        sages = event.referee.post(f"{path}/cases", {"court": "sages", "question": "Is a misdeal B-72?"})
        sages_case = next(c for c in sages["cases"] if c["court"] == "sages")
        judge = Account(client, "judge")
        add_member(client, judge.id)
        wrong = record(judge, status=404, case=sages_case["id"], concerns="")
        assert wrong["message"] == "the Court of Conduct has no such case"
        made = record(judge, case=case["id"], concerns="", publish_names=False, penance="life", until=None)
        (decision,) = made["decisions"]
        assert decision["concerns"] == "League day" and decision["case"] is True
        assert decision["names"] == [] and decision["penance"] == "life" and decision["in_force"]
        bars = client.get("/api/me", headers=event.accounts["ani"].headers).json()["bars"]
        assert bars[0]["until"] is None and "for life" in bars[0]["message"]


def test_l10_a_pair_barred_by_a_dishonour_during_an_event_is_withdrawn_and_does_not_win(
    tmp_path: Path,
) -> None:
    """L-3, L-10: an account barred during an event withdraws its pair at once ("barred by the
    Court of Conduct in round 1"); its later games are forfeits; with as many points as the
    leaders it is still ranked below every pair not barred: it does not win the event."""
    with make_client(tmp_path / "db.sqlite3") as client:
        names = ["ani", "gohar", "davit", "emma", "aram", "lilit", "narek", "sona"]
        event = OverTheBoard(client, 2, names)
        barred = event.entries["ani"]
        first = event.start()
        for table, sheet in first:  # the barred pair wins its game; the other table's team 0 wins
            event.win(table, sheet, barred if barred in table["entries"] else table["entries"][0])
        judge = Account(client, "judge")
        add_member(client, judge.id)
        record(judge, usernames=["gohar"], concerns="League day, after round 1")
        data = event.data()
        entry = next(e for e in data["entries"] if e["id"] == barred)
        assert entry["withdrawn"] and entry["barred_note"] == "barred by the Court of Conduct in round 1"
        winners = {t["entries"][0] for t, _ in first} | {barred}
        for table, sheet in event.start():  # each round-1 winner loses now
            loser = next(e for e in table["entries"] if e in winners)
            event.win(table, sheet, next(e for e in table["entries"] if e != loser))
        data = event.data()
        assert data["status"] == "finished"
        assert barred not in [e for t in data["rounds"][1]["tables"] for e in t["entries"]]
        points = {s["entry"]: s["points"] for s in data["standings"]}
        assert points[barred] == max(points.values()) == 2
        assert data["standings"][-1]["entry"] == barred and data["standings"][0]["entry"] != barred
        assert data["standings"][-1]["barred"] == "barred by the Court of Conduct in round 1"


def test_l10_blot_admin_decision_writes_the_same_record_and_its_bar_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """L-10: the operator's command writes a dishonour as a member of the Court does (kind,
    accounts, penance), the register shows it and its bar holds; ``blot admin forgive`` lifts it."""
    db = tmp_path / "db.sqlite3"
    url = f"sqlite:///{db}"
    with make_client(db) as client:
        ani, gohar = Account(client, "ani"), Account(client, "gohar")
        args = ["admin", "decision", "2026-04-02", "Spring cup", "Stakes on the games."]
        main(
            [
                *args,
                "--kind",
                "stakes",
                "--account",
                "ani",
                "--penance",
                "bar",
                "--until",
                "2099-04-02",
                "--db",
                url,
            ]
        )
        assert capsys.readouterr().out.strip() == "decision 1 of 2026-04-02 is published in the register"
        (decision,) = client.get("/api/register").json()["decisions"]
        assert decision == {
            "id": 1,
            "date": "2026-04-02",
            "decision": "Stakes on the games.",
            "concerns": "Spring cup",
            "kind": "stakes",
            "penance": "bar",
            "until": "2099-04-02",
            "names": ["ani"],
            "case": False,
            "forgiven": None,
            "in_force": True,
        }
        table = gohar.table("bazar-blot")
        assert "barred by the Court of Conduct (decision 1)" in sit(ani, table, 2, status=403)["message"]
        with pytest.raises(SystemExit):
            main([*args, "--kind", "gossip", "--account", "ani", "--penance", "life", "--db", url])
        assert "kind is signals, stakes, cheating, barred_pair or arranged_loss" in capsys.readouterr().err
        main(["admin", "forgive", "1", "2026-05-01", "--db", url])
        assert capsys.readouterr().out.strip() == "dishonour 1 is forgiven as of 2026-05-01"
        assert client.get("/api/register").json()["decisions"][0]["forgiven"] == "2026-05-01"
        sit(ani, table, 2)


def test_l9_every_kind_and_penance_is_said_in_four_languages() -> None:
    """The register page names each kind of L-9 and each penance of L-10 in hy, bg, ru and en."""
    import re

    from blot.league import KINDS, PENANCES

    words = Path(__file__).resolve().parents[2] / "src" / "blot" / "web" / "i18n"
    for lang in ("en", "hy", "bg", "ru"):
        text = (words / f"{lang}.js").read_text(encoding="utf-8")
        keys = set(re.findall(r"^\s+([\w-]+):", text, re.M))
        wanted = {f"kind_{k}" for k in KINDS} | {f"penance_{p}" for p in PENANCES}
        assert wanted <= keys, (lang, sorted(wanted - keys))


def test_l3_a_pair_barred_after_entering_is_withdrawn_before_the_first_round(tmp_path: Path) -> None:
    """L-3: a pair that enters, then suffers tars kapoot elsewhere before the event starts, is
    withdrawn ("barred by tars kapoot before round 1") and is not paired."""
    from datetime import UTC, datetime

    from blot.store.ratings import insert_tars_kapoot

    with make_client(tmp_path / "db.sqlite3", league=True) as client:
        organizer = Account(client, "organizer")
        people = {n: Account(client, n) for n in ("ani", "gohar", "davit", "emma", "aram", "lilit")}
        event = organizer.post("/api/events", {"name": "Cup", "rounds": 1, "online": False})["id"]
        for a, b in (("ani", "gohar"), ("davit", "emma"), ("aram", "lilit")):
            organizer.post(f"/api/events/{event}/entries", {"usernames": [a, b]})
        table = organizer.table()
        at = datetime.now(UTC)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        hub.store.write(lambda c: insert_tars_kapoot(c, people["ani"].id, people["gohar"].id, table, at))
        data = client.get(f"/api/events/{event}").json()
        (barred,) = [e for e in data["entries"] if e["barred"]]
        assert (
            barred["name"] == "ani & gohar"
            and barred["barred_note"] == "barred by tars kapoot before round 1"
        )
        data = organizer.post(f"/api/events/{event}/rounds", {"start": True})
        paired = [e for t in data["rounds"][0]["tables"] for e in t["entries"]] + data["rounds"][0]["byes"]
        assert barred["id"] not in paired and len(paired) == 2


def test_l3_in_a_round_robin_a_barred_pairs_later_games_are_forfeits(tmp_path: Path) -> None:
    """L-3 (issue 38 item 5): a round robin's schedule is fixed; after the barred pair's withdrawal
    each of its later opponents scores its game as a forfeit win (1 point, as a bye), the barred
    pair nothing, and the barred pair is ranked last."""
    with make_client(tmp_path / "db.sqlite3", league=True) as client:
        names = ["ani", "gohar", "davit", "emma", "aram", "lilit", "narek", "sona"]
        event = OverTheBoard(client, 1, names, format="round_robin")
        barred = event.entries["ani"]
        for table, sheet in event.start():
            if barred in table["entries"]:
                event.deal(sheet, tars_on(table["entries"].index(barred)))
            else:
                event.win(table, sheet, table["entries"][0])
        for number in (2, 3):
            tables = event.start()
            data = event.data()
            (byes,) = [r["byes"] for r in data["rounds"] if r["number"] == number]
            assert len(byes) == 1 and barred not in byes  # the opponent the schedule gave it
            assert all(barred not in t["entries"] for t, _ in tables)
            for table, sheet in tables:
                event.win(table, sheet, table["entries"][0])
        data = event.data()
        assert data["status"] == "finished"
        points = {s["entry"]: s["points"] for s in data["standings"]}
        assert points[barred] == 0 and data["standings"][-1]["entry"] == barred
        assert sum(points.values()) == 2 * 2 + 2 * (
            2 + 1
        )  # round 1's two games, then a game and a forfeit a round


def test_l3_an_unfinished_game_of_a_pair_barred_since_is_not_continued_in_public(tmp_path: Path) -> None:
    """L-2, L-3: a game ended by agreement may be continued by the same pairs; not when the pair
    has been barred by a tars kapoot since: the continuation is refused with the reason."""
    from datetime import UTC, datetime

    from blot.store.ratings import insert_tars_kapoot

    with make_client(tmp_path / "db.sqlite3", league=True, grace=0.05, bot_delay=0.0) as client:
        organizer, ani, gohar = Account(client, "organizer"), Account(client, "ani"), Account(client, "gohar")
        event = organizer.post("/api/events", {"name": "Cup", "rounds": 1, "options": {"target": 51}})["id"]
        organizer.post(f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]})
        organizer.post(f"/api/events/{event}/entries", {"bot": "basic"})
        old = organizer.post(f"/api/events/{event}/rounds", {"start": True})["rounds"][0]["tables"][0][
            "table"
        ]
        ani.post(f"/api/tables/{old}/end", {"agree": True})
        assert gohar.post(f"/api/tables/{old}/end", {"agree": True})["ended"] == "agreement"
        elsewhere = organizer.table()
        at = datetime.now(UTC)
        client.app.state.hub.store.write(  # type: ignore[attr-defined]
            lambda c: insert_tars_kapoot(c, ani.id, gohar.id, elsewhere, at)
        )
        ani.post(f"/api/tables/{old}/resume")
        refused = gohar.post(f"/api/tables/{old}/resume", status=403)
        assert "may not play together as partners" in refused["message"]


def test_a_bars_refusal_is_its_own_sentence_and_the_page_can_say_it() -> None:
    """The refusal a bar gives (a seat, an entry) is the bar's own sentence, word for word, and is
    keyed with its parts where it is written (blot.reasons, issue 39 item 1) so that the page
    says it in four languages."""
    from datetime import UTC, datetime

    from blot.league import Bar, DishonourBar
    from blot.server.conduct import bar_refusal

    first = datetime(2026, 3, 1, tzinfo=UTC)
    cases: list[tuple[Bar | DishonourBar, str]] = [
        (Bar((1, 2), ("ani", "gohar"), first, datetime(2027, 3, 1, tzinfo=UTC)), "tars_bar_until"),
        (Bar((1, 2), ("ani", "gohar"), first, None), "tars_bar_never"),
        (DishonourBar(1, "ani", 7, "2027-05-01"), "dishonour_bar_until"),
        (DishonourBar(1, "ani", 7, None), "dishonour_bar_life"),
    ]
    for bar, key in cases:
        refusal = bar_refusal(bar)
        assert str(refusal) == bar.sentence()
        assert refusal.reason == key, (refusal, key)
    assert bar_refusal(cases[0][0]).to_json()["params"] == {
        "a": "ani",
        "b": "gohar",
        "since": "2026-03-01",
        "until": "2027-03-01",
    }
