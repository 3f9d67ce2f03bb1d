"""``blot arena``: two bots on duplicate deals (or full games), with a progress bar and a
confidence interval."""

from __future__ import annotations

import json

from rich.console import Console
from rich.progress import TextColumn
from rich.table import Table

from blot.arena import ArenaResult, run
from blot.cli.progress import progress_bar
from blot.games import spec


def arena(
    game: str, a: str, b: str, deals: int, seed: int, games: int, jobs: int, as_json: bool, dd: bool = False
) -> None:
    progress = progress_bar(TextColumn("{task.fields[status]}"))
    result: ArenaResult | None = None
    count = games or deals
    with progress:
        task = progress.add_task(f"{a} vs {b}", total=count, status="")
        for result in run(game, a, b, deals, seed, games, jobs, dd):
            if games:
                lo, hi = result.win_ci95
                status = f"win rate {result.win_rate:.3f} [{lo:.3f}, {hi:.3f}]"
            else:
                lo, hi = result.ci95
                status = f"margin {result.mean_margin:+.2f} [{lo:+.2f}, {hi:+.2f}]"
            progress.update(task, advance=1, status=status)
    assert result is not None
    out = result.to_json()
    if as_json:
        print(json.dumps(out))
        return
    unit = ("game" if games else "duplicate deal") + ("" if count == 1 else "s")
    table = Table(
        title=f"blot arena: {game}, A = {a}, B = {b}, {count} {unit}, seed {seed}", show_header=False
    )
    table.add_column(justify="left")
    table.add_column(justify="right")
    if games:
        lo, hi = result.win_ci95
        table.add_row("A's win rate", f"{result.win_rate:.3f}")
        table.add_row("95% interval", f"[{lo:.3f}, {hi:.3f}]")
    else:
        lo, hi = result.ci95
        what = "game points of A minus B" if len(spec(game).teams) == 2 else "A's score minus B's mean"
        table.add_row(f"mean margin per deal ({what})", f"{result.mean_margin:+.3f}")
        table.add_row("95% interval", f"[{lo:+.3f}, {hi:+.3f}]")
        table.add_row("tables played", str(result.tables))
        table.add_row("void deals (tables)", str(result.void))
        if spec(game).contracts:
            for side, name in (("a", a), ("b", b)):
                counts = result.contracts[side]
                played, made = counts["all"]
                table.add_row(f"contracts of {side.upper()} ({name}): made / played", f"{made} / {played}")
                extra = ", ".join(
                    f"{k} {counts[k][1]} / {counts[k][0]}" for k in ("contra", "redouble", "kapoot")
                )
                table.add_row(f"  of which made / played: {extra}", "")
    table.add_row("seconds", f"{result.seconds:.1f}")
    lost = result.mean_dd_loss
    if lost is not None:
        unit = "card points" if len(spec(game).teams) == 2 else "tricks"
        label = f"double-dummy loss per deal and seat, A / B ({unit})"
        table.add_row(label, f"{lost['a']:.2f} / {lost['b']:.2f}")
    table.add_row("thinking seconds A / B", f"{result.bot_seconds['a']:.1f} / {result.bot_seconds['b']:.1f}")
    faults = result.faults
    if any(faults[side][1] for side in faults):
        table.add_row("bot programs stopped A / B", f"{faults['a'][0]} / {faults['b'][0]}")
        table.add_row("automatic moves in their place A / B", f"{faults['a'][1]} / {faults['b'][1]}")
    Console().print(table)
