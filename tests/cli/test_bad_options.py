"""Issue 39, item 6: every value of the command line that cannot be used exits 2 (README: Command
line, "a bad command line"), with one sentence that names the option as it was typed
(``--contract: …``), never a field of the record or of the score sheet behind it
(``contract.strain``, ``card_points``, ``options``), and nothing done: no output, no sheet, no
decision. Before, these exited 1 and ``score-deal`` named the model's fields. ``blot admin chat``
of a table that does not exist is refused (exit 1, as an unknown account is) where it printed
that nothing was said there and exited 0.

The commands run in this process (:func:`blot.cli.main.main`); the checks are table-driven, one
row per option that parses a value."""

from __future__ import annotations

from pathlib import Path

import pytest

from blot.cli.main import main

SCORE = ["score-deal", "--contract", "10H", "--team", "0"]

#: (arguments, the one line on standard error). Each exits 2.
BAD = [
    # blot score-deal: each flag, and the score sheet's refusals said of the flag behind them
    (
        ["score-deal", "--contract", "10H", "--team", "7", "--card-points", "98,"],
        "--team: the contracting team (or the team at fault) is team 0 or 1, not 7",
    ),
    (
        ["score-deal", "--contract", "10X", "--team", "0", "--card-points", "98,"],
        "--contract: '10X' is not a bid: write the level then the strain (S, H, D, C or NT), e.g. 10H",
    ),
    (
        ["score-deal", "--contract", "²H", "--team", "0", "--card-points", "98,"],
        "--contract: '²H' is not a bid: write the level then the strain (S, H, D, C or NT), e.g. 10H",
    ),
    (
        ["score-deal", "--contract", "7H", "--team", "0", "--card-points", "98,"],
        "--contract: 7 is not a level: levels are 8 to 25, or 30 with the kanach option",
    ),
    (
        [*SCORE, "--card-points", "98,", "--ruleset", "nosuch"],
        "--ruleset: unknown ruleset 'nosuch': use league or classic",
    ),
    (
        [*SCORE, "--card-points", "200,"],
        "--card-points: each team's card points are a whole number from 0 to 162",
    ),
    (
        [*SCORE, "--card-points", "100,100"],
        "--card-points: the two teams' card points must add up to 162, not 200",
    ),
    (
        [*SCORE, "--card-points", "lots"],
        "--card-points: two whole numbers are needed, team 0 then team 1, e.g. 98,64 (or 98, or ,64), "
        "not 'lots'",
    ),
    (SCORE, "--card-points: give the card points, e.g. --card-points 98, (or --kapoot with the team)"),
    (
        [*SCORE, "--card-points", "98,", "--kapoot", "3"],
        "--kapoot: the team that took every trick is team 0 or 1, not 3",
    ),
    (
        [*SCORE, "--card-points", "98,", "--belote", "5"],
        "--belote: the team holding belote-rebelote is team 0 or 1, not 5",
    ),
    (
        ["score-deal", "--contract", "10NT", "--team", "0", "--card-points", "98,", "--belote", "0"],
        "--belote: there is no belote-rebelote in a no-trump deal (B-42)",
    ),
    (
        [*SCORE, "--card-points", "90,", "--declarations", "3,2"],
        "--declarations: only one team's declarations count (B-44)",
    ),
    (
        [*SCORE, "--card-points", "90,", "--declarations", "3"],
        "--declarations: two whole numbers are needed, team 0 then team 1, e.g. 98,64, not '3'",
    ),
    (
        [*SCORE, "--card-points", "98,", "--alone"],
        "--alone: the declarer can take every trick only in his team's kapoot",
    ),
    (
        ["score-deal", "--penalty", "nosuch", "--team", "0"],
        "--penalty: a penalty is misdeal or misplay (B-72), not 'nosuch'",
    ),
    (
        ["score-deal", "--penalty", "misdeal"],
        "--team: give the team at fault with --penalty, e.g. --penalty misdeal --team 1",
    ),
    (
        ["score-deal", "--card-points", "98,64"],
        "--contract: give --contract (e.g. 10H) and --team, or --void, or --penalty",
    ),
    # blot scoresheet: a new sheet's options, checked before a database is opened
    (
        ["scoresheet", "--new", "--target", "-5"],
        "--target: a game's target is a whole number of points from 1 to 10000, not -5",
    ),
    (
        ["scoresheet", "--new", "--target", "0"],
        "--target: a game's target is a whole number of points from 1 to 10000, not 0",
    ),
    (
        ["scoresheet", "--new", "--ruleset", "nosuch"],
        "--ruleset: 'nosuch' is not a ruleset: use league or classic",
    ),
    (
        ["scoresheet", "--teams", "Ani"],
        "--teams: two names separated by a comma, e.g. --teams 'Ani & Gohar,Bagrat & Davit'",
    ),
    (["scoresheet", "--teams", "Ani,"], "--teams: a name is needed"),
    (["scoresheet", "--new", "--by", " "], "--by: a name is needed"),
    # blot serve: a bot program's option (it exited 1)
    (
        ["serve", "--bot", "nope"],
        "--bot 'nope': write NAME=COMMAND, e.g. --bot 'mybot=python3 my_bot.py'",
    ),
    (
        ["serve", "--bot", "basic=python3 x.py"],
        "--bot 'basic=python3 x.py': basic is the name of a built-in bot",
    ),
]


@pytest.mark.parametrize(("args", "line"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_a_bad_option_value_exits_2_naming_the_option(
    args: list[str],
    line: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BLOT_DATA_DIR", str(tmp_path / "data"))
    with pytest.raises(SystemExit) as exit_:
        main(args)
    out, err = capsys.readouterr()
    assert (exit_.value.code, err.splitlines(), out) == (2, [f"error: {line}"], "")
    assert not (tmp_path / "data").exists()  # nothing was opened, let alone created


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A database with the account ``Ani`` and no table."""
    from datetime import UTC, datetime

    from blot.accounts import username_key
    from blot.store import Store
    from blot.store import accounts as store

    url = f"sqlite:///{tmp_path / 'blot.sqlite3'}"
    opened = Store.open(url)
    opened.write(lambda c: store.create(c, "Ani", username_key("Ani"), "not a hash", datetime.now(UTC)))
    opened.close()
    return url


ADMIN_BAD = [
    (["court", "Ani", "supreme"], "no court 'supreme': use sages or conduct"),
    (
        ["decision", "2026-13-01", "Cup", "A warning."],
        "the date '2026-13-01' is not a date such as 2026-05-01",
    ),
    (["decision", "2026-05-01", " ", "A warning."], "what it concerns is needed"),
    (
        [
            "decision",
            "2026-05-01",
            "Cup",
            "Stakes.",
            "--kind",
            "bribes",
            "--account",
            "Ani",
            "--penance",
            "life",
        ],
        "--kind: kind is signals, stakes, cheating, barred_pair or arranged_loss",
    ),
    (
        [
            "decision",
            "2026-05-01",
            "Cup",
            "Stakes.",
            "--kind",
            "stakes",
            "--account",
            "Ani",
            "--penance",
            "exile",
        ],
        "--penance: penance is warning, bar (until a date) or life",
    ),
    (["forgive", "1", "yesterday"], "the date 'yesterday' is not a date such as 2026-05-01"),
]


@pytest.mark.parametrize(("args", "line"), ADMIN_BAD, ids=[" ".join(a) for a, _ in ADMIN_BAD])
def test_a_bad_admin_argument_exits_2_and_changes_nothing(
    db: str, args: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["admin", *args, "--db", db])
    out, err = capsys.readouterr()
    assert (exit_.value.code, err.splitlines(), out) == (2, [f"error: {line}"], "")
    from blot.store import Store

    opened = Store.open(db)
    try:
        register = opened.read(lambda c: c.exec_driver_sql("SELECT count(*) FROM court_decisions").scalar())
    finally:
        opened.close()
    assert register == 0


def test_admin_chat_of_a_table_that_does_not_exist_is_refused(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mistyped table id said "nothing was said at table …" and exited 0, as if the table were
    silent; it is an id the database does not have (exit 1, as an unknown account)."""
    with pytest.raises(SystemExit) as exit_:
        main(["admin", "chat", "nosuchtable", "--db", db])
    out, err = capsys.readouterr()
    assert (exit_.value.code, err.strip(), out) == (
        1,
        "error: there is no table 'nosuchtable' in this database",
        "",
    )
