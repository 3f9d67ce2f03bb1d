"""``blot simulate``: bots play full games; speed and statistics, with a progress bar."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from blot.cli.progress import progress_bar
from blot.errors import BlotError
from blot.games import spec
from blot.simulate import Simulation, games_played


def run(game: str, games: int, seed: int, specs: list[str], records: Path | None, as_json: bool) -> None:
    sim = Simulation(game, specs)
    out = None
    if records is not None:
        try:
            out = records.open("w", encoding="utf-8")
        except OSError as e:
            raise BlotError(f"cannot write {records}: {e.strerror}") from None
    game_spec = spec(game)
    progress = progress_bar()
    try:
        with progress:
            task = progress.add_task(f"{game} games", total=games)
            for state in games_played(game, games, seed, specs, sim):
                if out is not None:
                    out.write(json.dumps(game_spec.record_of(state)) + "\n")
                progress.advance(task)
    finally:
        if out is not None:
            out.close()
    summary = sim.to_json()
    if as_json:
        print(json.dumps(summary))
        return
    table = Table(title=f"blot simulate: {game}, bots {','.join(specs)}, seed {seed}", show_header=False)
    table.add_column(justify="left")
    table.add_column(justify="right")
    for key, value in summary.items():
        if key in ("game", "bots"):
            continue
        table.add_row(key.replace("_", " "), str(value))
    Console().print(table)
