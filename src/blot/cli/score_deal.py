"""``blot score-deal``: score one real-table deal from flags, with the engine's own scoring."""

from __future__ import annotations

import json
from typing import Any

from blot.bazar.rules import Rules
from blot.bazar.scoring import PENALTY_KINDS
from blot.cli.common import BadOption
from blot.errors import BlotError
from blot.numbers import whole_number
from blot.scoresheet import ScoreSheet
from blot.scoresheet.model import SheetError


def team_numbers(text: str, what: str | None, *, one_may_be_empty: bool = False) -> list[int | None]:
    """``"98,64"`` -> [98, 64], team 0's number then team 1's; where one may be left out,
    ``"98,"`` -> [98, None] and ``",64"`` -> [None, 64]. ``what`` names the numbers in the
    sentence of a refusal (None: an option's, which names them itself)."""
    parts = [p.strip() for p in text.split(",")]
    numbers = [whole_number(p, 6) for p in parts]
    blank = [p == "" for p in parts]
    readable = all(n is not None or (b and one_may_be_empty) for n, b in zip(numbers, blank, strict=True))
    if len(parts) == 2 and not all(blank) and readable:
        return numbers
    example = "e.g. 98,64 (or 98, or ,64)" if one_may_be_empty else "e.g. 98,64"
    head = "two whole numbers are needed" if what is None else f"{what} must be two whole numbers"
    raise BlotError(f"{head}, team 0 then team 1, {example}, not {text!r}")


def _pair(text: str | None, option: str, *, one_may_be_empty: bool = False) -> list[int | None] | None:
    if text is None:
        return None
    try:
        return team_numbers(text, None, one_may_be_empty=one_may_be_empty)
    except BlotError as e:
        raise BadOption(option, str(e)) from None


def _team(value: int | None, option: str, what: str) -> None:
    """A team number option: 0 or 1 (exit 2 otherwise)."""
    if value is not None and value not in (0, 1):
        raise BadOption(option, f"{what} is team 0 or 1, not {value}")


def rules_from_flags(ruleset: str | None, kanach: bool) -> Rules:
    """The rules of ``--ruleset`` and ``--kanach``; an unknown ruleset names its option."""
    try:
        return Rules.from_record(ruleset, {"kanach": kanach})
    except BlotError as e:
        raise BadOption("--ruleset", str(e)) from None


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
    """The score sheet's JSON entry for the flags of ``blot score-deal``; a flag that cannot be
    used is refused by its name (:class:`BadOption`, exit 2)."""
    _team(team, "--team", "the contracting team (or the team at fault)")
    _team(kapoot, "--kapoot", "the team that took every trick")
    _team(belote, "--belote", "the team holding belote-rebelote")
    if void:
        return {"void": True}
    if penalty is not None:
        if penalty not in PENALTY_KINDS:
            raise BadOption("--penalty", f"a penalty is misdeal or misplay (B-72), not {penalty!r}")
        if team is None:
            raise BadOption(
                "--team", "give the team at fault with --penalty, e.g. --penalty misdeal --team 1"
            )
        points = _pair(declarations, "--declarations") or [0, 0]
        return {"penalty": {"kind": penalty, "team": team, "declaration_points": sum(p or 0 for p in points)}}
    if contract is None or team is None:
        raise BadOption(
            "--contract" if contract is None else "--team",
            "give --contract (e.g. 10H) and --team, or --void, or --penalty",
        )
    level, strain = _bid(contract)
    if card_points is None and kapoot is None:
        raise BadOption(
            "--card-points", "give the card points, e.g. --card-points 98, (or --kapoot with the team)"
        )
    return {
        "contract": {"team": team, "level": level, "strain": strain, "multiplier": multiplier},
        "card_points": _pair(card_points, "--card-points", one_may_be_empty=True),
        "kapoot": kapoot,
        "declarer_alone": alone,
        "declaration_points": _pair(declarations, "--declarations") or [0, 0],
        "belote": [0, 0] if belote is None else ([2, 0] if belote == 0 else [0, 2]),
    }


def _bid(contract: str) -> tuple[int, str]:
    """``--contract 10H`` -> (10, "H"); ``12nt`` -> (12, "NT")."""
    text = contract.strip().upper()
    strain = "NT" if text.endswith("NT") else text[-1:]
    level = whole_number(text[: -len(strain)] if strain else text, 3)
    if level is None or strain not in ("S", "H", "D", "C", "NT"):
        raise BadOption(
            "--contract",
            f"{contract!r} is not a bid: write the level then the strain (S, H, D, C or NT), e.g. 10H",
        )
    return level, strain


#: The option of ``blot score-deal`` behind each field of the score sheet's entry, so that a
#: refusal of the model names what was typed.
OPTION_OF = {
    "contract.team": "--team",
    "contract.level": "--contract",
    "contract.strain": "--contract",
    "contract.multiplier": "--contra",
    "kapoot": "--kapoot",
    "card_points": "--card-points",
    "declaration_points": "--declarations",
    "belote": "--belote",
    "declarer_alone": "--alone",
    "penalty.kind": "--penalty",
    "penalty.team": "--team",
    "penalty.declaration_points": "--declarations",
}


def as_option(e: SheetError, options: dict[str, str]) -> BlotError:
    """The model's refusal of a field, said of the option it came from (``card_points: …`` ->
    ``--card-points: …``); a field no option gives stays as it is."""
    option = options.get(e.field)
    if option is None:
        return e
    return BadOption(option, str(e).removeprefix(f"{e.field}: "))


def run(entry: dict[str, Any], rules: Rules, as_json: bool) -> None:
    """Score the entry and print the deal's points (one JSON object with ``--json``)."""
    try:
        line = ScoreSheet(rules).add(entry)
    except SheetError as e:
        raise as_option(e, OPTION_OF) from None
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
