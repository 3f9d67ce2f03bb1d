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
    names = list(players) if players else ["seat 0", "seat 1", "seat 2"]
    console.print(tfe_sheet(data["deals"], names, title="3-5-8"))
    if data["finished"]:
        console.print(f"Game over: {tfe_winner_text(data, names)}.")
    else:
        console.print(
            "Unfinished: " + ", ".join(f"{n} {t}" for n, t in zip(names, data["totals"], strict=True)) + "."
        )


def tfe_sheet(deals: list[dict[str, Any]], names: list[str], title: str | None = None) -> Table:
    """The score table of a 3-5-8 game (docs/format.md deal objects): one row per deal, void deals
    included but not numbered among the nine counted ones; per seat its tricks against its
    target, its score in the deal and its running total."""
    table = Table(title=title, caption="tricks/target  score (total) · score = tricks - target (T-40)")
    table.add_column("deal", justify="right")
    table.add_column("dealer")
    table.add_column("trump (by)")
    for name in names:
        table.add_column(name, justify="right")
    totals = [0, 0, 0]
    counted = 0
    for d in deals:
        totals = [t + s for t, s in zip(totals, d["scores"], strict=True)]
        if d["void"]:
            table.add_row("-", names[d["dealer"]], "void: all passed", "", "", "")
            continue
        counted += 1
        table.add_row(
            str(counted),
            names[d["dealer"]],
            f"{d['trump']} ({names[d['caller']]})",
            *(f"{d['tricks'][s]}/{d['targets'][s]}  {d['scores'][s]:+d} ({totals[s]})" for s in range(3)),
        )
    return table


def tfe_winner_text(data: dict[str, Any], names: list[str]) -> str:
    """Who won a finished 3-5-8 game, and how the tie-break decided when the totals tied (T-50)."""
    winner: int = data["winner"]
    totals: list[int] = data["totals"]
    text = f"{names[winner]} wins with {totals[winner]}"
    tied = [s for s in range(3) if totals[s] == totals[winner] and s != winner]
    if not tied:
        return text
    last = next(d for d in reversed(data["deals"]) if not d["void"])
    others = " and ".join(names[s] for s in tied)
    if all(last["scores"][s] < last["scores"][winner] for s in tied):
        how = "more points in the last deal"
    else:
        how = "took the latest trick of the last deal"
    return f"{text} (tied with {others}; tie-break T-50: {how})"
