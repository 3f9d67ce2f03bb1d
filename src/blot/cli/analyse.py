"""``blot analyse``: every card of a recorded game valued by double-dummy (:mod:`blot.analysis`),
with the deal's double-dummy table and its bidding against par (Bazar Blot), the biggest
mistakes, and each player's accuracy in a finished game. A file of one record
per line (``blot simulate --records``) is analysed record by record, with a progress bar over
its deals on a terminal."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from blot.analysis import DealAnalysis, GameAnalysis, analyse
from blot.cards import SUIT_SYMBOLS, Card
from blot.cli.progress import progress_bar
from blot.printable import markup
from blot.records import Replay, replay_record
from blot.records.common import naming_record, numbered_records

#: Mistakes shown per deal in the readable output.
MISTAKES = 3


def run(file: str | Path, deal: int | None, as_json: bool, record: int | None = None) -> None:
    """Analyse every record of ``file`` (only record ``record``, only deal ``deal`` of each, when
    given); with ``as_json`` one object per record, one per line."""
    from blot.games import spec
    from blot.solver._jit import warn_if_cold

    chosen, count = numbered_records(file, record)
    replays: list[tuple[int, Replay]] = []
    for position, data in chosen:
        with naming_record(position, count > 1):
            replays.append((position, replay_record(data)))
    for _, replay in replays:
        warn_if_cold(spec(replay.name).analysis_module().kernel)
    console = Console(highlight=False)
    with progress_bar() as progress:  # what is printed meanwhile goes above the bar
        task = progress.add_task("deals analysed", total=sum(_to_analyse(r, deal) for _, r in replays))
        for position, replay in replays:
            with naming_record(position, count > 1):
                analysis = analyse(replay.game, deal, lambda _done, _of: progress.advance(task))
            if as_json:
                print(json.dumps(analysis.to_json()))
                continue
            if count > 1:
                console.print(f"Record {position} of {count}")
            names = [markup(p) for p in replay.players or [f"seat {s}" for s in range(analysis.seats)]]
            print_analysis(analysis, names, console)


def _to_analyse(replay: Replay, deal: int | None) -> int:
    """How many deals of ``replay`` :func:`analyse` values: the finished ones, or deal ``deal``."""
    finished = sum(d.is_over for d in replay.game.deals)
    return finished if deal is None else min(finished, 1)


def card_text(card: Card) -> str:
    return card.text[:-1] + SUIT_SYMBOLS[card.suit]


def mistakes(deal: DealAnalysis, names: list[str], most: int = MISTAKES) -> list[str]:
    """The deal's costliest cards, worst first: ``deal 4, trick 3: Gohar played 10♠ — lost 21;
    A♠ kept 84``."""
    costly = sorted((c for c in deal.cards if c.loss > 0), key=lambda c: -c.loss)[:most]
    lines = []
    for c in costly:
        best = ", ".join(card_text(b) for b in c.best_cards)
        estimate = "" if c.exact else " (estimated)"
        lines.append(
            f"deal {deal.number}, trick {c.trick}: {names[c.seat]} played {card_text(c.card)} — "
            f"lost {c.loss}; {best} kept {c.best}{estimate}"
        )
    return lines


def dd_table(deal: DealAnalysis) -> Table | None:
    if deal.dd_table is None:
        return None
    table = Table(title=f"Deal {deal.number}: double-dummy card points and the highest level made")
    table.add_column("")
    for strain in deal.dd_table:
        table.add_column("NT" if strain == "NT" else SUIT_SYMBOLS["SHDC".index(strain)], justify="right")
    for team in (0, 1):
        cells = []
        for entry in deal.dd_table.values():
            made = entry["makes"][team]
            cells.append(f"{entry['card_points'][team]} ({'-' if made is None else made})")
        table.add_row(f"team {team} (seats {team} & {team + 2})", *cells)
    return table


def contract_text(text: str) -> str:
    """``10H`` as ``10♥`` (``NT`` stays)."""
    return text if text.endswith("NT") else text[:-1] + SUIT_SYMBOLS["SHDC".index(text[-1])]


def call_text(text: str) -> str:
    return contract_text(text) if text[0].isdigit() else text


def bidding_lines(deal: DealAnalysis, names: list[str]) -> list[str]:
    """The par contract, what the contract played would have scored double-dummy, and each call
    that lost points against par bidding (:mod:`blot.analysis.par`)."""
    review = deal.bidding
    if review is None:
        return []
    par = review["par"]
    if par["contract"] is None:
        said = "par: everybody passes (0 : 0)"
    else:
        doubled = {1: "", 2: " contra", 4: " redoubled"}[par["multiplier"]]
        outcome = "made" if par["made"] else "failed"
        said = (
            f"par: {contract_text(par['contract'])}{doubled} by team {par['team']}, {outcome}, "
            f"{par['points'][0]} : {par['points'][1]}"
        )
    contract = review["contract"]
    if contract is not None:
        said += f"; the contract bid, played double-dummy: {contract['points'][0]} : {contract['points'][1]}"
    lines = [f"deal {deal.number}, {said}"]
    for call in review["calls"]:
        if call["loss"]:
            lines.append(
                f"  {names[call['seat']]} called {call_text(call['call'])} — lost {call['loss']} "
                f"points against par; best {call_text(call['best'])}"
            )
    return lines


def accuracy_line(analysis: GameAnalysis, names: list[str]) -> str | None:
    """Each player's accuracy (:func:`blot.analysis.accuracy`), or None before the game is over."""
    found = analysis.accuracy
    if found is None:
        return None
    unit = "card points" if analysis.seats == 4 else "tricks"
    each = ", ".join(
        f"{names[a.seat]} {a.accuracy:.1f} ({a.mean_loss:.2f} {unit} lost a card, {a.cards} cards)"
        for a in found
    )
    return f"[bold]Accuracy[/] (100: no card lost anything): {each}"


def print_analysis(analysis: GameAnalysis, names: list[str], console: Console) -> None:
    unit = "card points" if analysis.seats == 4 else "tricks"
    for deal in analysis.deals:
        if deal.dd_table is not None:
            table = dd_table(deal)
            console.print(table)
        for line in bidding_lines(deal, names):
            console.print(line)
        if deal.void:
            console.print(f"Deal {deal.number}: void, no card played.")
            continue
        lines = mistakes(deal, names) or [f"deal {deal.number}: every card was a best card"]
        for line in lines:
            console.print(line)
        lost = ", ".join(f"{names[s]} {deal.loss_by_seat[s]}" for s in range(analysis.seats))
        console.print(f"  {unit} lost to double-dummy play: {lost}")
    total = ", ".join(f"{names[s]} {analysis.loss_by_seat[s]}" for s in range(analysis.seats))
    console.print(f"[bold]Whole game[/], {unit} lost to double-dummy play: {total}")
    accurate = accuracy_line(analysis, names)
    if accurate is not None:
        console.print(accurate)
