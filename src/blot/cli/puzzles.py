"""``blot puzzles``: mine puzzles from game records into ``blot serve``'s database, and export
every puzzle as JSON lines (:mod:`blot.puzzles`, :mod:`blot.store.puzzles`). The server mines the
games played at its public tables itself as they end."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from datetime import datetime
from typing import Any, TextIO, cast

from sqlalchemy.engine import Connection

from blot.puzzles import Puzzle
from blot.records import replay_record
from blot.records.common import load_records, naming_record
from blot.store import Store, now
from blot.store import puzzles as store


def mine(files: Sequence[str], url: str, out: TextIO | None = None) -> None:
    """Analyse every finished game of ``files`` (records, or JSON lines of records) and keep its
    puzzles; a game that is not over gives none. Prints what each file gave."""
    from blot.analysis import analyse
    from blot.cli.progress import progress_bar
    from blot.games import spec
    from blot.puzzles import mine as mine_game
    from blot.solver._jit import warn_if_cold

    out = out or sys.stdout
    loaded = [(name, load_records(name)) for name in files]  # every file is read before any work
    db = Store.open(url)
    try:
        for name, records in loaded:
            games = unfinished = found = new = 0
            replays = []
            for position, data in enumerate(records, 1):
                with naming_record(position, len(records) > 1):
                    replays.append((data, replay_record(data)))
            over = [(data, r) for data, r in replays if r.game.is_over]
            unfinished = len(replays) - len(over)
            for _, r in over:
                warn_if_cold(spec(r.name).analysis_module().kernel)
            with progress_bar() as progress:
                task = progress.add_task("games analysed", total=len(over))
                for data, r in over:
                    puzzles = mine_game(r.game, analyse(r.game))
                    at = now()

                    def keep(
                        c: Connection, data: object = data, puzzles: list[Puzzle] = puzzles, at: datetime = at
                    ) -> int:
                        return store.add(c, cast(dict[str, Any], data), puzzles, at)

                    new += db.write(keep)
                    found += len(puzzles)
                    games += 1
                    progress.advance(task)
            skipped = f"; {unfinished} not over, not mined" if unfinished else ""
            print(f"{name}: {games} finished games, {found} puzzles ({new} new){skipped}", file=out)
    finally:
        db.close()


def export(url: str, game: str | None = None, out: TextIO | None = None) -> None:
    """Every puzzle as one JSON object per line, by id."""
    out = out or sys.stdout
    db = Store.open(url)
    try:
        for puzzle in db.read(lambda c: list(store.exported(c, game))):
            out.write(json.dumps(puzzle, separators=(",", ":")) + "\n")
    finally:
        db.close()
