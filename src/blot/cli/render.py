"""Readable output of results for the terminal (rich tables)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from blot.records import Replay


def team_names(players: list[str] | None) -> tuple[str, str]:
    if not players:
        return ("team 0 (seats 0 & 2)", "team 1 (seats 1 & 3)")
    return (f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}")


def print_replay(result: Replay, console: Console | None = None) -> None:
    console = console or Console()
    data = result.to_json()
    if data["game"] == "bazar-blot":
        _print_bazar(data, getattr(result, "players", None), console)
    else:
        _print_358(data, getattr(result, "players", None), console)


def bazar_sheet(deals: list[dict[str, Any]], title: str | None = None) -> Table:
    """The score sheet of a Bazar Blot game: one row per deal; pairs read team 0 - team 1."""
    table = Table(title=title, caption="pairs: team 0 (seats 0, 2) - team 1 (seats 1, 3)")
    for column in ("#", "contract", "result", "card pts", "decl.", "belote", "points", "total"):
        table.add_column(column, justify="left" if column in ("contract", "result") else "right")
    totals = [0, 0]

    def pair(p: list[int]) -> str:
        return f"{p[0]}-{p[1]}"

    for number, d in enumerate(deals, 1):
        totals = [totals[0] + d["points"][0], totals[1] + d["points"][1]]
        if d["void"]:
            table.add_row(str(number), "void", "", "", "", "", "0-0", pair(totals))
            continue
        c = d["contract"]
        mult = {1: "", 2: "x", 4: "xx"}[c["multiplier"]]
        table.add_row(
            str(number),
            f"{c['level']}{c['strain']}{mult} s{c['seat']}",
            "made" if d["made"] else "failed",
            pair(d["card_points"]),
            pair(d["declaration_points"]),
            pair(d["belote"]),
            pair(d["points"]),
            pair(totals),
        )
    return table


def _print_bazar(data: dict[str, Any], players: list[str] | None, console: Console) -> None:
    console.print(bazar_sheet(data["deals"], title="Bazar Blot"))
    teams = team_names(players)
    totals = data["totals"]
    if data["finished"]:
        winner = data["winner"]
        how = " by tars kapoot (B-55)" if data["tars_kapoot"] else ""
        score = f"{totals[winner]} to {totals[1 - winner]}"
        console.print(f"Game over{how}: {teams[winner]} win {data['match_score']}, {score}.")
    else:
        console.print(f"Unfinished: {teams[0]} {totals[0]}, {teams[1]} {totals[1]}.")


def _print_358(data: dict[str, Any], players: list[str] | None, console: Console) -> None:
    names = players or ["seat 0", "seat 1", "seat 2"]
    table = Table(title="3-5-8")
    for column in ("deal", "dealer", "trump", "caller", "targets", "tricks", "scores"):
        table.add_column(column, justify="right")
    for name in names:
        table.add_column(f"total {name}", justify="right")
    totals = [0, 0, 0]
    for number, d in enumerate(data["deals"], 1):
        totals = [t + s for t, s in zip(totals, d["scores"], strict=True)]
        table.add_row(
            str(number),
            str(d["dealer"]),
            "void" if d["void"] else str(d["trump"]),
            "" if d["caller"] is None else str(d["caller"]),
            "/".join(map(str, d["targets"])),
            "/".join(map(str, d["tricks"])),
            " ".join(f"{s:+d}" for s in d["scores"]),
            *map(str, totals),
        )
    console.print(table)
    if data["finished"]:
        console.print(f"Game over: {names[data['winner']]} wins with {data['totals'][data['winner']]}.")
    else:
        console.print(
            "Unfinished: " + ", ".join(f"{n} {t}" for n, t in zip(names, data["totals"], strict=True)) + "."
        )
