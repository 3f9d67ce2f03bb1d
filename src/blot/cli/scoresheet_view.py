"""``blot scoresheet``'s sheet as the terminal shows it: the table of deals, the result, one line
per entry."""

from __future__ import annotations

from typing import Any

from rich.console import JustifyMethod
from rich.table import Table

from blot.cards import SUIT_SYMBOLS
from blot.printable import markup
from blot.scoresheet.sheets import StoredSheet

STRAIN_TEXT = {
    "S": SUIT_SYMBOLS[0],
    "H": SUIT_SYMBOLS[1],
    "D": SUIT_SYMBOLS[2],
    "C": SUIT_SYMBOLS[3],
    "NT": "NT",
}


def bid_text(entry: dict[str, Any]) -> str:
    if entry.get("void"):
        return "void"
    if entry.get("penalty"):
        return str(entry["penalty"]["kind"])
    c = entry["contract"]
    mult = {1: "", 2: " x2", 4: " x4"}[c["multiplier"]]
    return f"{c['level']}{STRAIN_TEXT[c['strain']]}{mult}"


def pair_text(pair: list[int]) -> str:
    return "-" if not any(pair) else f"{pair[0]}-{pair[1]}"


def sheet_table(stored: StoredSheet) -> Table:
    data = stored.to_json()
    teams = [markup(t) for t in data["teams"]]
    table = Table(title=f"Davtar: {teams[0]} - {teams[1]}", title_justify="left")
    columns: list[tuple[str, JustifyMethod]] = [
        ("#", "right"),
        ("Bid", "left"),
        ("By", "left"),
        ("Cards", "right"),
        ("Decl.", "right"),
        ("Belote", "right"),
        (teams[0], "right"),
        (teams[1], "right"),
    ]
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for deal in data["deals"]:
        e = deal["entry"]
        played = "contract" in e
        mark = "" if deal["made"] is None else (" made" if deal["made"] else " failed")
        who = ""
        if played:
            who = teams[e["contract"]["team"]]
        elif e.get("penalty"):
            who = teams[e["penalty"]["team"]]
        cards = "-"
        if played:
            cards = f"kapoot {teams[e['kapoot']]}" if e["kapoot"] is not None else pair_text(e["card_points"])
        decl = pair_text(e["declaration_points"]) if played else "-"
        if e.get("penalty") and e["penalty"]["declaration_points"]:
            decl = f"+{e['penalty']['declaration_points']}"
        table.add_row(
            str(deal["number"]),
            bid_text(e) + mark + (" (tars kapoot)" if deal["tars_kapoot"] else ""),
            who,
            cards,
            decl,
            pair_text(e["belote"]) if played else "-",
            f"{deal['points'][0]} [dim]({deal['totals'][0]})[/]",
            f"{deal['points'][1]} [dim]({deal['totals'][1]})[/]",
        )
    table.add_section()
    table.add_row(
        "", "[bold]Total[/]", "", "", "", "", f"[bold]{data['totals'][0]}[/]", f"[bold]{data['totals'][1]}[/]"
    )
    return table


def result_line(stored: StoredSheet) -> str | None:
    data = stored.to_json()
    if not data["finished"]:
        return None
    winner = data["winner"]
    teams, totals = data["teams"], data["totals"]
    how = " by tars kapoot" if data["tars_kapoot"] else ""
    score = f"{totals[winner]} to {totals[1 - winner]}"
    return f"Game over: {teams[winner]} win{how}, {data['match_score']} ({score})."


def describe(entry: dict[str, Any], teams: tuple[str, str]) -> str:
    """One line for an entry, in the one-line form's spirit."""
    if entry.get("void"):
        return "void"
    if entry.get("penalty"):
        p = entry["penalty"]
        extra = f" with {p['declaration_points']} declared" if p["declaration_points"] else ""
        return f"{p['kind']} by {teams[p['team']]}{extra}"
    c = entry["contract"]
    parts = [f"{bid_text(entry)} by {teams[c['team']]}"]
    if entry["kapoot"] is not None:
        parts.append(f"kapoot by {teams[entry['kapoot']]}")
    else:
        parts.append(f"cards {entry['card_points'][0]}-{entry['card_points'][1]}")
    if any(entry["declaration_points"]):
        parts.append(f"declarations {pair_text(entry['declaration_points'])}")
    if any(entry["belote"]):
        parts.append(f"belote {teams[0 if entry['belote'][0] else 1]}")
    if entry.get("declarer_alone"):
        parts.append("alone")
    return ", ".join(parts)
