"""``blot fairplay``: the fair-play figures of recorded games (issue 43 item 4, L-9), for the
Court of Conduct: each account's and each pair's accuracies, bidding against par and the test of
information, with the number of deals, the score and its p-value (:mod:`blot.fairplay`;
docs/fairplay.md says what they do and do not prove)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from blot.errors import BlotError
from blot.game import AnyGame
from blot.printable import markup
from blot.records import replay_record
from blot.records.common import load_records, naming_record


def read_games(files: list[str]) -> list[tuple[AnyGame, list[str] | None]]:
    """Every record of ``files`` replayed (RecordError naming the file and record on a broken one)."""
    games: list[tuple[AnyGame, list[str] | None]] = []
    for file in files:
        records = load_records(Path(file) if file != "-" else file)
        for position, data in enumerate(records, 1):
            with naming_record(position, len(records) > 1):
                replay = replay_record(data)
            games.append((replay.game, replay.players))
    return games


def parse_pair(text: str | None) -> tuple[str, str] | None:
    """``--pair A,B`` as two account names (BlotError unless it names two different accounts)."""
    if text is None:
        return None
    names = [n.strip() for n in text.split(",")]
    if len(names) != 2 or not all(names) or names[0] == names[1]:
        raise BlotError(f"two different accounts, A,B: not {text!r}")
    return names[0], names[1]


def run(
    files: list[str], pair: str | None, as_json: bool, samples: int, seed: int, bidding: bool = True
) -> None:
    """Print the figures of the games in ``files`` (only ``pair``'s, when given; the bidding
    against par unless ``bidding`` is false, which halves the cost)."""
    from blot.fairplay import Settings, report

    chosen = parse_pair(pair)
    if samples < 2:
        raise BlotError("--samples is at least 2")
    found = report(read_games(files), Settings(samples=samples, seed=seed, bidding=bidding), chosen)
    if as_json:
        print(json.dumps(found.to_json()))
        return
    console = Console(highlight=False)
    for title, figures in (("Accounts", found.accounts), ("Pairs", found.pairs)):
        if figures:
            console.print(_table(title, [f.to_json() for f in figures.values()]))
    console.print(
        "The test's p-value: how likely so many best cards are from the player's own information "
        "alone. A small one is a reason to look at the deals, not a proof (docs/fairplay.md)."
    )


#: The table's columns: accuracy over every card, on opening leads, as declarer side and in
#: defence; the bidding's loss per call against par; the test's decisions, score and p-value.
COLUMNS = ("name", "deals", "acc", "lead", "decl", "def", "par", "tested", "z", "p")


def _number(value: Any) -> str:
    return "-" if value is None else str(value)


def _table(title: str, rows: list[dict[str, Any]]) -> Table:
    table = Table(title=title)
    for column in COLUMNS:
        table.add_column(column, justify="left" if column == "name" else "right")
    for row in rows:
        test = row["test"]
        table.add_row(
            markup(row["name"]),
            str(row["deals"]),
            _number(row["accuracy"]),
            _number(row["opening_lead_accuracy"]),
            _number(row.get("declarer_accuracy")),
            _number(row.get("defence_accuracy")),
            _number(row.get("bidding_loss_per_call")),
            str(test["decisions"]),
            f"{test['score']:+.2f}",
            f"{test['p_value']:.4f}",
        )
    return table
