"""``blot scoresheet``: a sheet kept in the terminal from a scripted referee (one-line deals,
question-by-question deals, refused input explained and asked again, edits, undo, the end of the
game), stored in the server's database; opening sheets; quitting on quit, end of input and Ctrl-C."""

from __future__ import annotations

import subprocess
import sys
import warnings
from collections.abc import Iterable
from pathlib import Path

import pytest
from rich.console import Console

from blot.cli.scoresheet import (
    one_line,
    parse_bid,
    parse_cards,
    parse_decl,
    parse_points,
    penalty_entry,
    scoresheet,
)
from blot.errors import BlotError
from blot.scoresheet import sheets as service
from blot.store import Store


class Script:
    """The referee's answers in turn; the end of input after the last one."""

    def __init__(self, answers: Iterable[str]) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


def keep(db: Path, answers: Iterable[str], **options: object) -> tuple[str, Script]:
    script = Script(answers)
    console = Console(record=True, width=140, color_system=None)
    settings: dict[str, object] = {
        "sheet_id": None,
        "new": False,
        "teams": None,
        "ruleset": "league",
        "kanach": False,
        "target": 301,
        "by": None,
        **options,
    }
    scoresheet(f"sqlite:///{db}", ask=script, console=console, **settings)  # type: ignore[arg-type]
    return console.export_text(), script


def only_sheet(db: Path) -> service.StoredSheet:
    store = Store.open(f"sqlite:///{db}")
    try:
        with store.engine.connect() as c:
            rows = service.listing(c)
            assert len(rows) == 1
            return service.load(c, rows[0]["id"])
    finally:
        store.close()


def test_a_whole_game_kept_in_the_terminal(tmp_path: Path) -> None:
    db = tmp_path / "blot.sqlite3"
    text, script = keep(
        db,
        [
            "Ani",  # the first team's name
            "Bagrat",
            "help",
            "30H",  # refused at once: no kanach on this sheet
            "10Hx 0 98, d0=2 b1",  # contra made: 38 - 2
            "12S",  # the rest asked question by question
            "2",  # refused: a team is 0 or 1, asked again
            "1",
            "",  # no contra
            "",  # no kapoot
            "100,100",  # refused by the sheet: asked again
            ",110",
            "1=5",
            "",  # no belote: made, 5 - 28
            "void",
            "misdeal",
            "1",  # team 1 at fault: 5 for team 0
            "10NT 0 98, b1",  # refused: no belote without trumps
            "edit 2",
            "12S 1 52, d1=2",  # now 5 - 25
            "undo",  # the misdeal taken back
            "20Dxx 0 130, d0=10",  # 106: 149 - 27 ends the game at 100
            "void",  # refused: the game is over
            "history",
            "show",
            "quit",
        ],
        target=100,
    )
    assert "one line: the bid" in text  # help
    assert "refused: bid: 30 is not a level" in text  # what was typed, not contract.level (issue 39)
    assert "deal 1: 10♥ x2: made, Ani 38, Bagrat 2 - totals 38 to 2" in text
    assert "refused: the team is 0 or 1, not '2'" in text
    assert "refused: card points: the two teams' card points must add up to 162, not 200" in text
    assert script.prompts.count("Card points, team 0,team 1 (one is enough: 98, or ,64): ") == 2
    assert "deal 2: 12♠: made, Ani 5, Bagrat 28 - totals 43 to 30" in text
    assert "deal 4: misdeal: Ani 5, Bagrat 0 - totals 48 to 30" in text
    assert "refused: belote: there is no belote-rebelote in a no-trump deal (B-42)" in text
    assert "deal 2 is now: 12♠ by Bagrat, cards 52-110, declarations 0-5" in text
    assert "deal 2: 12♠: made, Ani 5, Bagrat 25 - totals 48 to 27" in text
    assert "deal 4 taken back - totals 43 to 27" in text
    assert "Game over: Ani win, 2-0 (149 to 27)." in text
    assert "refused: the game is over" in text
    assert "deal 2 changed by terminal: 12♠ by Bagrat, cards 52-110, declarations 0-5 -> " in text
    assert "Score sheet kept. Goodbye." in text

    stored = only_sheet(db)
    data = stored.to_json()
    assert data["teams"] == ["Ani", "Bagrat"] and data["options"]["target"] == 100
    assert [d["totals"] for d in data["deals"]] == [[38, 2], [43, 27], [43, 27], [149, 27]]
    assert data["finished"] and data["winner"] == 0 and data["match_score"] == "2-0"
    actions = [(h["deal"], h["action"]) for h in data["history"]]
    assert actions == [
        (1, "add"),
        (2, "add"),
        (3, "add"),
        (4, "add"),
        (2, "replace"),
        (4, "delete"),
        (4, "add"),
    ]
    assert {h["who"] for h in data["history"]} == {"terminal"}


def test_the_sheet_is_the_one_the_server_shows(tmp_path: Path) -> None:
    db = tmp_path / "blot.sqlite3"
    keep(db, ["8H 0 98,"], new=True, teams="Ani,Bagrat", by="Referee")
    sheet = only_sheet(db)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from blot.server.app import create_app
    from blot.server.config import ServerConfig

    with TestClient(create_app(ServerConfig(db_url=f"sqlite:///{db}", hosts=("testserver",)))) as client:
        shown = client.get(f"/api/scoresheets/shared/{sheet.share_id}").json()
    assert shown["teams"] == ["Ani", "Bagrat"] and shown["totals"] == [18, 6]
    assert shown["history"][0]["who"] == "Referee"


def test_opening_a_sheet_from_the_list_or_by_its_id(tmp_path: Path) -> None:
    db = tmp_path / "blot.sqlite3"
    keep(db, ["8H 0 98,"], new=True, teams="Ani,Bagrat")
    text, _ = keep(db, ["7", "1", "void", "quit"])  # a number that is not offered, then the sheet
    assert "1. Ani - Bagrat: 1 deals, 18 to 6, playing" in text
    assert "refused: answer a number from 1 to 1" in text
    assert "deal 2: void" in text
    sheet = only_sheet(db)
    text, _ = keep(db, ["show"], sheet_id=sheet.id)
    assert "Davtar: Ani - Bagrat" in text and "8♥" in text
    with pytest.raises(BlotError, match="there is no such score sheet"):
        keep(db, [], sheet_id="nosuchsheet")
    with pytest.raises(BlotError, match="--teams: two names separated by a comma"):
        keep(db, [], teams="Ani")
    with pytest.raises(BlotError, match="--target: a game's target is a whole number of points from 1 to"):
        keep(db, [], new=True, target=0)


def test_ctrl_c_leaves_cleanly(tmp_path: Path) -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    console = Console(record=True, width=100, color_system=None)
    with pytest.raises(SystemExit) as e:
        scoresheet(
            f"sqlite:///{tmp_path / 'x.sqlite3'}",
            sheet_id=None,
            new=True,
            teams="A,B",
            ruleset="league",
            kanach=False,
            target=301,
            by=None,
            ask=interrupt,
            console=console,
        )
    assert e.value.code == 130 and "Goodbye" in console.export_text()


def blot(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "blot", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_the_command_ends_cleanly_on_end_of_input_and_refuses_bad_options(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'blot.sqlite3'}"
    proc = blot("scoresheet", "--db", url, "--new", "--teams", "Ani,Bagrat", stdin="8H 0 98,\nfoo\n")
    assert proc.returncode == 0, proc.stderr
    assert "deal 1: 8♥: made" in proc.stdout and "refused: 'foo' is not a bid" in proc.stdout
    assert "Goodbye" in proc.stdout and "Traceback" not in proc.stderr
    for args, words, code in (  # a bad option is a bad command line (2), a sheet not there bad input (1)
        (["--target", "0"], "--target: a game's target is a whole number", 2),
        (["--ruleset", "street"], "--ruleset: 'street' is not a ruleset", 2),
        (["--sheet", "nosuch"], "there is no such score sheet", 1),
    ):
        proc = blot("scoresheet", "--db", url, *args)
        assert proc.returncode == code and "Traceback" not in proc.stderr
        assert (
            proc.stderr.startswith("error: ") and words in proc.stderr and len(proc.stderr.splitlines()) == 1
        )


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        (
            "10Hx 0 98, d0=2 b1",
            {"team": 0, "level": 10, "strain": "H", "multiplier": 2, "cards": [98, None], "decl": [2, 0]},
        ),
        (
            "25Cxx 1 k1",
            {"team": 1, "level": 25, "strain": "C", "multiplier": 4, "cards": None, "decl": [0, 0]},
        ),
        ("12nt 1 ,64 d1=20", {"team": 1, "level": 12, "strain": "NT", "multiplier": 1, "cards": [None, 64]}),
    ],
)
def test_the_one_line_form(text: str, entry: dict[str, object]) -> None:
    made = one_line(text)
    c = made["contract"]
    assert (c["team"], c["level"], c["strain"], c["multiplier"]) == (
        entry["team"],
        entry["level"],
        entry["strain"],
        entry["multiplier"],
    )
    assert made["card_points"] == entry["cards"]
    if "decl" in entry:
        assert made["declaration_points"] == entry["decl"]


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: parse_bid("7"), "is not a bid"),
        (lambda: parse_cards("98"), "card points must be two whole numbers, team 0 then team 1"),
        (lambda: parse_cards(","), "card points must be two whole numbers"),
        (lambda: parse_cards("98,6x"), r"e.g. 98,64 \(or 98, or ,64\), not '98,6x'"),
        (lambda: parse_cards("²,64"), "card points must be two whole numbers"),
        (lambda: parse_cards("9" * 5000 + ",64"), "card points must be two whole numbers"),
        (lambda: parse_points("²"), "'²' is not a whole number of points"),
        (lambda: penalty_entry(["misplay", "0", "²"]), "write misdeal T, or misplay T N"),
        (lambda: parse_decl("20"), "declarations are"),
        (lambda: one_line("10H 98,"), "which team took the contract"),
        (lambda: one_line("10H 0 98, zz"), "'zz' is not part of a deal"),
    ],
)
def test_what_the_terminal_cannot_read_is_explained(call: object, words: str) -> None:
    with pytest.raises(BlotError, match=words):
        call()  # type: ignore[operator]


def test_item13_declarations_for_both_teams_are_refused_b44(tmp_path: Path) -> None:
    """Issue 11, item 13: ``d0=3 d1=2`` used to keep only the last declaration and record the deal
    as failed 0-28; both teams' declarations are refused (B-44), as ``blot score-deal`` does, and
    nothing is recorded until a valid line comes."""
    assert one_line("10H 0 90, d0=3 d1=2")["declaration_points"] == [3, 2]  # read as written
    with pytest.raises(BlotError, match="d0 is given twice"):
        one_line("10H 0 90, d0=3 d0=2")
    db = tmp_path / "blot.sqlite3"
    text, _ = keep(db, ["10H 0 90, d0=3 d1=2", "10H 0 90, d0=3"], new=True, teams="A,B")
    assert "refused: declarations: only one team's declarations count (B-44)" in text
    deals = only_sheet(db).sheet.entries
    assert len(deals) == 1 and deals[0].to_json()["declaration_points"] == [3, 0]
    score_deal = blot(
        "score-deal", "--contract", "10H", "--team", "0", "--card-points", "90,", "--declarations", "3,2"
    )
    assert score_deal.stderr.strip() == "error: --declarations: only one team's declarations count (B-44)"
