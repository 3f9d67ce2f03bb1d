"""What the referee types at ``blot scoresheet``'s prompts, read into the score sheet's entries
(the model checks them against the rules: :func:`blot.scoresheet.sheets.entry_of`)."""

from __future__ import annotations

import re
from typing import Any

from blot.cli.score_deal import team_numbers
from blot.errors import BlotError
from blot.numbers import whole_number

BID = re.compile(r"^(\d+)(S|H|D|C|NT)(X{0,2})$", re.IGNORECASE)


def parse_bid(text: str) -> tuple[int, str, int]:
    """``10H`` -> (10, "H", 1); ``12NTx`` -> (12, "NT", 2); ``25Cxx`` -> (25, "C", 4)."""
    m = BID.match(text.strip())
    if not m:
        raise BlotError(f"{text!r} is not a bid: write the level, the trump and x or xx, e.g. 10H, 12NTx")
    return int(m.group(1)), m.group(2).upper(), (1, 2, 4)[len(m.group(3))]


def parse_team(text: str, what: str = "team") -> int:
    if text.strip() not in ("0", "1"):
        raise BlotError(f"the {what} is 0 or 1, not {text.strip()!r}")
    return int(text)


def parse_cards(text: str) -> list[int | None]:
    """``98,64``, ``98,`` or ``,64`` -> team 0's and team 1's card points (one may be missing)."""
    return team_numbers(text, "card points", one_may_be_empty=True)


def parse_decl(text: str) -> list[int]:
    """``0=20`` or ``1=5`` (a team and its points), or ``20,0``; empty: none."""
    text = text.strip()
    if not text:
        return [0, 0]
    m = re.match(r"^([01])\s*=\s*(\d+)$", text)
    if m:
        out = [0, 0]
        out[int(m.group(1))] = int(m.group(2))
        return out
    m = re.match(r"^(\d+)\s*,\s*(\d+)$", text)
    if m:
        return [int(m.group(1)), int(m.group(2))]
    raise BlotError(f"{text!r}: declarations are a team and its points, e.g. 0=20, or 'team 0,team 1'")


def belote_pair(team: int | None) -> list[int]:
    return [0, 0] if team is None else ([2, 0] if team == 0 else [0, 2])


def one_line(text: str) -> dict[str, Any]:
    """The entry of a one-line deal such as ``10Hx 0 98, d0=2 b1`` or ``25C 1 k1``."""
    tokens = text.split()
    level, strain, mult = parse_bid(tokens[0])
    team: int | None = None
    cards: list[int | None] | None = None
    kapoot: int | None = None
    decl = [0, 0]
    belote: int | None = None
    alone = False
    for token in tokens[1:]:
        low = token.lower()
        if low in ("0", "1"):
            team = int(low)
        elif low in ("x", "contra"):
            mult = 2
        elif low in ("xx", "redouble"):
            mult = 4
        elif re.fullmatch(r"k[01]", low):
            kapoot = int(low[1])
        elif re.fullmatch(r"b[01]", low):
            belote = int(low[1])
        elif m := re.fullmatch(r"d([01])=(\d+)", low):
            side = int(m.group(1))
            if decl[side]:
                raise BlotError(f"d{side} is given twice: write d{side}=N once, with all its points")
            decl[side] = int(m.group(2))  # both teams' points: the model refuses them (B-44)
        elif low == "alone":
            alone = True
        elif "," in low:
            cards = parse_cards(low)
        else:
            raise BlotError(f"{token!r} is not part of a deal: type 'help' for the one-line form")
    if team is None:
        raise BlotError("say which team took the contract: 0 or 1 after the bid, e.g. 10H 0 98,")
    return {
        "void": False,
        "contract": {"team": team, "level": level, "strain": strain, "multiplier": mult},
        "card_points": cards,
        "kapoot": kapoot,
        "declarer_alone": alone,
        "declaration_points": decl,
        "belote": belote_pair(belote),
    }


def penalty_entry(words: list[str]) -> dict[str, Any] | None:
    """``misdeal 1``, ``misplay 0 5``; None when the team is missing (it is then asked)."""
    kind = words[0].lower()
    if len(words) == 1:
        return None
    team = parse_team(words[1], "team at fault")
    points = 0
    if len(words) > 2:
        given = whole_number(words[2], 6)
        if kind != "misplay" or given is None or len(words) > 3:
            raise BlotError("write misdeal T, or misplay T N with N the points of the deal's declarations")
        points = given
    return {"penalty": {"kind": kind, "team": team, "declaration_points": points}}


def multiplier(text: str) -> int:
    value = {"x": 2, "contra": 2, "xx": 4, "redouble": 4, "no": 1, "n": 1}.get(text.strip().lower())
    if value is None:
        raise BlotError("answer x (contra), xx (redouble) or press enter for none")
    return value


def yes_no(text: str) -> bool:
    low = text.strip().lower()
    if low in ("y", "yes"):
        return True
    if low in ("n", "no"):
        return False
    raise BlotError("answer y or n")


def parse_points(text: str) -> int:
    points = whole_number(text, 6)
    if points is None:
        raise BlotError(f"{text!r} is not a whole number of points")
    return points
