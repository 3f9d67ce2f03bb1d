"""``blot solve``: the double-dummy value of every legal card at one point of a recorded deal."""

from __future__ import annotations

import json
from pathlib import Path

from blot.bazar import Deal
from blot.bazar.declarations import Declare
from blot.errors import BlotError
from blot.records.common import RecordError, naming_record, numbered_records
from blot.solver import Solution, solve


def position(record: object, number: int, after: int) -> Deal:
    """Deal ``number`` (from 1) of a Bazar Blot record, replayed through the rules, after the
    first ``after`` cards of its play."""
    from blot.bazar import Game
    from blot.games import spec
    from blot.records import game_of

    game_spec = spec(game_of(record))
    assert isinstance(record, dict)
    deals = record.get("deals")
    if not isinstance(deals, list) or not deals:
        raise RecordError("the record has no deals")
    if not 1 <= number <= len(deals):
        raise BlotError(f"--deal must be from 1 to {len(deals)}, the deals of the record")
    game = game_spec.replay({**record, "deals": deals[:number]}).game
    if not isinstance(game, Game):
        raise BlotError("blot solve reads Bazar Blot records only")
    played = game.deals[number - 1]
    if played.contract is None:
        raise BlotError(f"deal {number} is void: nobody plays it")
    plays = played.plays
    if not 0 <= after < len(plays):
        raise BlotError(f"--after must be from 0 to {len(plays) - 1}: deal {number} has {len(plays)} cards")
    deal = Deal(played.dealt, played.dealer, played.rules)
    for call in played.calls:
        deal.apply(call)
    for card in plays[:after]:
        while deal.must_declare:
            seat = deal.to_act
            assert seat is not None
            deal.apply(Declare(played.declared[seat] or ()))
        deal.apply(card)
    return deal


def run(file: str | Path, number: int, after: int, as_json: bool, record: int | None = None) -> None:
    """Solve deal ``number`` after ``after`` cards; in a file of several records, of record
    ``record``, which must then be named."""
    from blot.solver import bazar_kernel
    from blot.solver._jit import warn_if_cold

    chosen, count = numbered_records(file, record)
    if len(chosen) > 1:
        raise RecordError(f"the file holds {count} records: say which with --record N")
    ((at, data),) = chosen
    with naming_record(at, count > 1):
        deal = position(data, number, after)
    warn_if_cold(bazar_kernel)
    solution: Solution = solve(deal)
    if as_json:
        print(json.dumps(solution.to_json()))
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(
        f"Deal {number} after {after} cards, contract {deal.contract}: seat {solution.to_act} "
        f"(team {solution.team}) to act. Each card's value is the card points its team takes from "
        "here on under perfect play (* the best).",
        highlight=False,
    )
    table = Table()
    table.add_column("card")
    table.add_column("value", justify="right")
    best = max(solution.values.values())
    for card, value in sorted(solution.values.items(), key=lambda cv: -cv[1]):
        table.add_row(str(card), f"{value}" + (" *" if value == best else ""))
    console.print(table)
