"""``blot score-deal``: score one real-table deal from flags, with the engine's own scoring."""

from __future__ import annotations

import json
from typing import Any

from blot.bazar.rules import Rules
from blot.errors import BlotError
from blot.numbers import whole_number
from blot.scoresheet import ScoreSheet


def team_numbers(text: str, what: str, *, one_may_be_empty: bool = False) -> list[int | None]:
    """``"98,64"`` -> [98, 64], team 0's number then team 1's; where one may be left out,
    ``"98,"`` -> [98, None] and ``",64"`` -> [None, 64]."""
    parts = [p.strip() for p in text.split(",")]
    numbers = [whole_number(p, 6) for p in parts]
    blank = [p == "" for p in parts]
    readable = all(n is not None or (b and one_may_be_empty) for n, b in zip(numbers, blank, strict=True))
    if len(parts) == 2 and not all(blank) and readable:
        return numbers
    example = "e.g. 98,64 (or 98, or ,64)" if one_may_be_empty else "e.g. 98,64"
    raise BlotError(f"{what} must be two whole numbers, team 0 then team 1, {example}, not {text!r}")


def _pair(text: str | None, name: str, *, one_may_be_empty: bool = False) -> list[int | None] | None:
    return None if text is None else team_numbers(text, name, one_may_be_empty=one_may_be_empty)


def entry_from_flags(
    *,
    void: bool,
    penalty: str | None,
    contract: str | None,
    team: int | None,
    multiplier: int,
    card_points: str | None,
    kapoot: int | None,
    alone: bool,
    declarations: str | None,
    belote: int | None,
) -> dict[str, Any]:
    """The score sheet's JSON entry for the flags of ``blot score-deal``."""
    if void:
        return {"void": True}
    if penalty is not None:
        points = _pair(declarations, "--declarations") or [0, 0]
        return {"penalty": {"kind": penalty, "team": team, "declaration_points": sum(p or 0 for p in points)}}
    if contract is None or team is None:
        raise BlotError("give --contract (e.g. 10H) and --team, or --void, or --penalty")
    text = contract.strip().upper()
    strain = "NT" if text.endswith("NT") else text[-1:]
    level_text = text[: -len(strain)] if strain else text
    level = whole_number(level_text, 3)
    if level is None:
        raise BlotError(
            f"--contract {contract!r} is not a bid: write the level then the strain, e.g. 10H or 12NT"
        )
    entry: dict[str, Any] = {
        "contract": {"team": team, "level": level, "strain": strain, "multiplier": multiplier},
        "card_points": _pair(card_points, "--card-points", one_may_be_empty=True),
        "kapoot": kapoot,
        "declarer_alone": alone,
        "declaration_points": _pair(declarations, "--declarations") or [0, 0],
        "belote": [0, 0] if belote is None else ([2, 0] if belote == 0 else [0, 2]),
    }
    if belote not in (None, 0, 1):
        raise BlotError("--belote is the team holding it: 0 or 1")
    return entry


def run(entry: dict[str, Any], rules: Rules, as_json: bool) -> None:
    line = ScoreSheet(rules).add(entry)
    if as_json:
        print(json.dumps({"made": line.made, "points": list(line.points), "tars_kapoot": line.tars_kapoot}))
        return
    if entry.get("void"):
        print("void deal: 0-0")
        return
    verdict = "" if line.made is None else ("made, " if line.made else "failed, ")
    print(f"{verdict}points: team 0 {line.points[0]}, team 1 {line.points[1]}")
    if line.tars_kapoot:
        print("tars kapoot: the defenders win the game (B-55)")
