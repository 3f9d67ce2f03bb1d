"""Issue 42 items 4 and 5 through the real server: an event's TRF (FIDE's tournament report) read
by an independent reader from PyPI (``trf``) and read back by ``blot event standings`` into the
same standings, a round's pairings and results as CSV, and a duplicate round's boards (hand
records and travellers) kept secret as :mod:`blot.server.secrecy` says (L-1, issue 38 item 1)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
import trf as independent
from fastapi.testclient import TestClient

from blot.cli.main import main
from blot.games import spec

from .conftest import Account, make_client
from .test_events import wait_round
from .test_fair_duplicate import Round


def run_event(client: TestClient, organizer: Account, body: dict[str, Any], bots: int) -> dict[str, Any]:
    """A bot event played to its end, each round paired and started at once."""
    event = organizer.post("/api/events", body)["id"]
    for _ in range(bots):
        organizer.post(f"/api/events/{event}/entries", {"bot": "basic"})
    data: dict[str, Any] = client.get(f"/api/events/{event}").json()
    while data["status"] != "finished":
        organizer.post(f"/api/events/{event}/rounds", {"start": True})
        data = wait_round(organizer, event, len(data["rounds"]) + 1)
    return data


def check_trf(text: str, data: dict[str, Any]) -> None:
    """The TRF as an independent reader reads it: one player per entry (its ID blot's entry id,
    its name the pair's), blot's points and rank, and each round's opponent, colour and result."""
    report = independent.loads(text)
    assert report.name == data["name"]
    by_id = {p.id: p for p in report.players}
    assert set(by_id) == {e["id"] for e in data["entries"]}
    start = {p.id: p.startrank for p in report.players}
    for s in data["standings"]:
        player = by_id[s["entry"]]
        assert player.name == s["name"][:33] and player.points == s["points"] and player.rank == s["rank"]
    for r in data["rounds"]:
        for t in r["tables"]:
            a, b = t["entries"]
            for me, other, colour, mine, theirs in ((a, b, "w", 0, 1), (b, a, "b", 1, 0)):
                game = by_id[me].games[r["number"] - 1]
                assert (game.startrank, game.color) == (start[other], colour)
                assert game.result == ("1" if t["result"][mine] > t["result"][theirs] else "0")
        for e in r["byes"]:
            game = by_id[e].games[r["number"] - 1]
            assert (game.startrank, game.color, game.result) == (0, "-", "U")


@pytest.mark.parametrize("fmt", ["swiss", "round_robin"])
def test_issue42_trf_of_a_bot_event_reads_in_an_independent_reader_and_back_into_the_same_standings(
    database: Path | str, tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    with make_client(database) as client:
        organizer = Account(client, "organizer")
        # games of one deal (a target of 1 point): a Rubicon win (2-0) or a plain one (1-0)
        body = {"name": "Autumn Swiss", "format": fmt, "rounds": 2, "online": True, "options": {"target": 1}}
        data = run_event(client, organizer, body, 5 if fmt == "swiss" else 3)  # odd: a bye every round
        assert any(r["byes"] for r in data["rounds"])
        answer = client.get(f"/api/events/{data['id']}/trf")
        assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
        check_trf(answer.text, data)
        assert ("092 Round robin" in answer.text) == (fmt == "round_robin")
        # read back: blot event standings FILE.trf ranks as the server does
        path = tmp_path / "event.trf"
        path.write_text(answer.text, encoding="utf-8")
        main(["event", "standings", str(path), "--json"])
        assert json.loads(capsys.readouterr().out) == data["standings"]
        main(["event", "standings", str(path)])
        assert "Autumn Swiss" in capsys.readouterr().out
        # a round's pairings and results as CSV: a row per table and per bye
        rows = list(csv.DictReader(io.StringIO(client.get(f"/api/events/{data['id']}/rounds/1/csv").text)))
        first = data["rounds"][0]
        assert [(int(x["entry_a"]), int(x["entry_b"])) for x in rows if x["table"] != "bye"] == [
            tuple(t["entries"]) for t in first["tables"]
        ]
        assert [x["result"] for x in rows if x["table"] != "bye"] == [
            "-".join(map(str, t["result"])) for t in first["tables"]
        ]
        assert [int(x["entry_a"]) for x in rows if x["table"] == "bye"] == first["byes"]
        for path_, key in ((f"/api/events/{data['id']}/rounds/9/csv", "no_such_event_round"),):
            refused = client.get(path_)
            assert refused.status_code == 404 and refused.json()["reason"] == key


def test_issue42_trf_refuses_a_duplicate_or_358_event_and_blot_event_trf_fetches_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with make_client(tmp_path / "blot.sqlite3") as client:
        organizer = Account(client, "organizer")
        for body in (
            {"name": "Dup", "format": "duplicate", "rounds": 1},
            {"name": "Blato", "game": "3-5-8", "format": "swiss", "rounds": 1},
        ):
            event = organizer.post("/api/events", body)["id"]
            answer = client.get(f"/api/events/{event}/trf")
            assert answer.status_code == 400 and answer.json()["reason"] == "trf_formats", answer.text
        bad = tmp_path / "bad.trf"
        bad.write_text("012 nothing here\n")
        with pytest.raises(SystemExit):
            main(["event", "standings", str(bad)])
        assert 'no "001" player line' in capsys.readouterr().err
        with pytest.raises(SystemExit):
            main(["event", "trf", "nope", "--server", "http://127.0.0.1:9"])
        assert "cannot be reached" in capsys.readouterr().err


def test_issue42_duplicate_boards_give_travellers_and_hand_records_only_once_the_viewer_may_see_them(
    database: Path | str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """L-1: while the persons' table has not played the boards, neither they nor anybody sees a
    board (its traveller holds the faster table's result); the organizer at no table sees every
    board at once; after the round, everybody sees each board's hand record and both tables'
    lines, with matchpoints that add up to the standings' percentages. A duplicate table's result
    is each pair's score on the boards (issue 42 item 5), and the CLI says "percent"."""
    with make_client(database) as client:
        r = Round(client)
        path = f"/api/events/{r.event}/rounds/1/boards"
        for who in (r.ani, None):
            answer = r.get(who, path).json()
            assert answer["shown"] == 0 and len(answer["boards"]) == 2
            assert all(
                b["secret"] and b["traveller"] == [] and b["hand_record"] is None for b in answer["boards"]
            )
        seen = r.get(r.organizer, path).json()
        record = client.get(f"/api/tables/{r.fast}/record", headers=r.organizer.headers).json()
        assert seen["shown"] == 2
        for board, deal in zip(seen["boards"], record["deals"], strict=True):
            assert board["hand_record"] == {"dealer": deal["dealer"], "hands": deal["hands"]}
            assert len(board["traveller"]) == 1  # the slow table's line comes with its game's end
        r.play()
        r.wait_finished(r.slow)
        data = client.get(f"/api/events/{r.event}").json()
        answer = r.get(None, path).json()
        assert answer["shown"] == 2 and not any(b["secret"] for b in answer["boards"])
        tables = {t["number"]: t for t in data["rounds"][0]["tables"]}
        earned: dict[int, int] = {}
        for board in answer["boards"]:
            assert len(board["traveller"]) == 2
            for line in board["traveller"]:
                t = tables[line["table"]]
                assert line["points"] == t["boards"][board["board"] - 1]
                assert line["result"] in ("made", "down", None)
                assert (line["declarer"] is None) == (line["contract"] is None)
                for e, mp in zip(t["entries"], line["matchpoints"], strict=True):
                    earned[e] = earned.get(e, 0) + mp
        percent = {s["entry"]: s["points"] for s in data["standings"]}
        assert {e: 100 * mp / (2 * 2) for e, mp in earned.items()} == pytest.approx(percent)
        for t in tables.values():
            rec = client.get(f"/api/tables/{t['table']}/record").json()
            totals = spec("bazar-blot").replay(rec).to_json()["totals"]
            assert t["result"] == totals == t["score"]  # the score on the boards, not match points
        export = tmp_path / "dup.json"
        export.write_text(json.dumps(data))
        main(["event", "standings", str(export)])
        out = capsys.readouterr().out
        assert "percent" in out and "points" not in out
        for bad, key in ((f"/api/events/{r.event}/rounds/2/boards", "no_such_event_round"),):
            assert client.get(bad).json()["reason"] == key
