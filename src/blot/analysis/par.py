"""The par contract of a Bazar Blot deal and the review of its bidding (issue 28).

Once a deal is over every hand is public, and its *dd table* (:func:`blot.analysis.bazar.dd_table`)
says what each team would take in each strain under perfect play. That fixes what every contract
would score: a contract is worth its deal points (B-50 … B-54, :func:`blot.bazar.scoring.score_deal`)
with the strain's double-dummy card points, the declarations and belote counted there, and all
eight tricks to a team that takes all 162 card points.

**The par contract** is where the bidding ends when all four players see all four hands and
each team bids for the largest margin of the deal (its points minus the other team's), in the
bidding's own order (B-20 … B-24): from the seat after the dealer, each call is a pass, a bid
above the last one, contra (an opponent of the bid, once) or redouble (after a contra, by the
bidding team); three passes after a bid end the bidding (B-23), four passes at the start void
the deal (0 : 0), and nothing is bid above 25 (kapoot). So par is the bid neither team can
improve on: the opponents of a contract that fails call contra, nobody doubles a contract that
makes (that only gives the contractors more), and a team outbids only where its own contract,
made or failed and doubled, leaves it a better margin than letting the other's stand.
**Interpretations**: kanach (30) and the four sevens are left out (the dd table does not value
kanach; four sevens is a seat's choice, not a contract); with ``three_passes_end_bidding`` off
the bidder who goes on after three passes may choose any strain.

**The review** values every call of the actual bidding the same way: a call's value is the
margin its team ends the deal with when everybody bids perfectly from that call on (and plays
perfectly after); the best call now keeps the most, and a call *loses* the difference, in game
points of margin. A call that loses nothing agrees with par play from where the bidding stood.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, NamedTuple

from blot.bazar.bidding import Bidding, Stage
from blot.bazar.calls import CONTRA, KAPOOT, PASS, REDOUBLE, STRAINS, Call, bid
from blot.bazar.rules import Rules
from blot.bazar.scoring import DealSummary, score_deal
from blot.bazar.tables import TOTAL_CARD_POINTS

#: The levels par bids at (kanach left out).
LEVELS: Final = tuple(range(8, KAPOOT + 1))
#: The value of a position nobody may reach (no bid above 25).
NONE: Final = -(10**6)


class State(NamedTuple):
    """Where the bidding stands: the bid (``level`` 0: none yet) and its team, the team to call,
    passes in a row since the bid (or the start), and after a contra how many contractors may
    still redouble (0: no contra)."""

    level: int
    strain: str
    holder: int
    mover: int
    passes: int
    contra: int = 0


@dataclass(frozen=True)
class Option:
    """One call at a state and its value to the team that makes it."""

    call: Call
    value: int


class Par:
    """The perfect-information bidding of one deal, from its dd table (the strains' entries of
    :func:`blot.analysis.bazar.dd_table`: ``card_points``, ``declarations``, ``belote``)."""

    def __init__(self, dd: Mapping[str, Mapping[str, Any]], rules: Rules) -> None:
        self.dd = dd
        self.three = rules.three_passes_end_bidding
        #: ``after[(level, strain, team)]``: the team's value once it has bid that (the others to call).
        self.after: dict[tuple[int, str, int], int] = {}
        #: ``above[(level, team)]``: the value of the team's best bids above ``level``, the lowest
        #: of them and the highest (ties between strains go to the first, S H D C NT).
        self.above: dict[tuple[int, int], tuple[int, Call | None, Call | None]] = {}
        self.value = cache(self._value)
        for team in (0, 1):
            self.above[(KAPOOT, team)] = (NONE, None, None)
        for level in reversed(LEVELS):
            for strain in STRAINS:
                for team in (0, 1):
                    self.after[(level, strain, team)] = -self.value(State(level, strain, team, 1 - team, 0))
            for team in (0, 1):
                here = max(STRAINS, key=lambda strain: self.after[(level, strain, team)])
                value = self.after[(level, here, team)]
                best, lowest, highest = self.above[(level, team)]
                if value > best:
                    best, highest = value, bid(level, here)
                if value >= best:
                    lowest = bid(level, here)
                self.above[(level - 1, team)] = (best, lowest, highest)

    def final(self, level: int, strain: str, team: int, multiplier: int) -> int:
        """The margin to ``team`` of its contract ``level strain`` (x ``multiplier``) played
        double-dummy."""
        points = self.points(level, strain, team, multiplier)[1]
        return points[team] - points[1 - team]

    def points(self, level: int, strain: str, team: int, multiplier: int) -> tuple[bool, list[int]]:
        """Made or not, and each team's points, of that contract played double-dummy."""
        entry = self.dd[strain]
        cp = (int(entry["card_points"][0]), int(entry["card_points"][1]))
        declared = (int(entry["declarations"][0]), int(entry["declarations"][1]))
        belote = (int(entry["belote"][0]), int(entry["belote"][1]))
        kapoot = next((t for t in (0, 1) if cp[t] == TOTAL_CARD_POINTS), None)
        score = score_deal(DealSummary(team, level, multiplier, cp, kapoot, False, declared, belote))
        return score.made, list(score.points)

    def options(self, s: State) -> list[Option]:
        """Every call at ``s`` that par considers, with its value to the team calling, in the
        order par prefers among equal ones; bids are represented by the team's best bid above
        the current one: the highest of the best for a team that holds the bid or opens the
        bidding (it bids its contract at once), the lowest for the opponents of a bid, who
        prefer to pass, then to double."""
        if s.contra:  # only the contractors speak: redouble, or pass (the other may still redouble)
            doubled = self.final(s.level, s.strain, s.holder, 2)
            later = doubled if s.contra == 1 else self.value(s._replace(contra=s.contra - 1))
            return [Option(PASS, later), Option(REDOUBLE, self.final(s.level, s.strain, s.holder, 4))]
        other = 1 - s.mover
        passes = s.passes + 1
        eager = s.level == 0 or s.holder == s.mover
        value, lowest, highest = self.above[(s.level if s.level else 7, s.mover)]
        call = highest if eager else lowest
        out = [Option(call, value)] if eager and call is not None else []
        if s.level == 0:
            out.append(Option(PASS, 0 if passes == 4 else -self.value(State(0, "", -1, other, passes))))
        else:
            ends = passes == 4 or (passes == 3 and (self.three or s.level >= KAPOOT))
            if ends:
                kept = self.final(s.level, s.strain, s.holder, 1)
                out.append(Option(PASS, kept if s.holder == s.mover else -kept))
            else:
                out.append(Option(PASS, -self.value(s._replace(mover=other, passes=passes))))
            if s.holder != s.mover:
                out.append(Option(CONTRA, -self.value(s._replace(mover=s.holder, contra=2))))
        if not eager and call is not None:
            out.append(Option(call, value))
        return out

    def _value(self, s: State) -> int:
        """The value to ``s.mover`` of the state ``s`` (its best call's)."""
        return max(o.value for o in self.options(s))

    def best(self, s: State) -> Option:
        """The first best call at ``s`` in par's order (:meth:`options`)."""
        options = self.options(s)
        top = max(o.value for o in options)
        return next(o for o in options if o.value == top)

    def call_value(self, s: State, call: Call) -> int | None:
        """The value to the caller of ``call`` at ``s``; None for a call par leaves out."""
        if call.is_bid:
            if call.level > KAPOOT:
                return None
            return self.after[(call.level, call.strain, s.mover)]
        for o in self.options(s):
            if o.call is call:
                return o.value
        return None


def state_of(bidding: Bidding) -> State:
    """The par state of a real bidding in progress."""
    mover = (bidding.to_act or 0) % 2
    current = bidding.bid
    if current is None:
        return State(0, "", -1, mover, bidding.passes)
    contra = len(bidding.waiting) if bidding.stage is Stage.CONTRA else 0
    return State(current.level, current.strain, bidding.bidder % 2, mover, bidding.passes, contra)


def review(
    dd: Mapping[str, Mapping[str, Any]], rules: Rules, dealer: int, hands: tuple[int, ...], calls: list[Call]
) -> dict[str, Any]:
    """The par contract of the deal and every call of its bidding valued against par play:
    ``{"par", "contract", "calls"}`` (docs/format.md, ``blot analyse --json``)."""
    par = Par(dd, rules)
    bidding = Bidding(rules, dealer, hands)
    reviewed = []
    for call in calls:
        s = state_of(bidding)
        seat = bidding.to_act
        assert seat is not None
        best = par.best(s)
        value = par.call_value(s, call)
        entry: dict[str, Any] = {
            "seat": seat,
            "call": call.text,
            "best": best.call.text,
            "loss": None if value is None else best.value - value,
        }
        if call.is_bid and call.level <= KAPOOT:
            entry["makes"] = par.points(call.level, call.strain, seat % 2, 1)[0]
        reviewed.append(entry)
        bidding.apply(call)
    contract = bidding.contract
    actual = None
    if contract is not None and contract.level <= KAPOOT:
        made, points = par.points(contract.level, contract.strain, contract.team, contract.multiplier)
        actual = {"made": made, "points": points}
    return {"par": par_contract(par, dealer), "contract": actual, "calls": reviewed}


def par_contract(par: Par, dealer: int) -> dict[str, Any]:
    """Where perfect bidding from the seat after the dealer ends: ``{"contract": "10H" | None,
    "team", "multiplier", "made", "points", "calls"}`` (``contract`` None: four passes, 0 : 0;
    ``calls``: that bidding, call by call)."""
    s = State(0, "", -1, (dealer + 1) % 2, 0)
    calls: list[str] = []
    while True:
        call = par.best(s).call
        calls.append(call.text)
        if call.is_bid:
            s = State(call.level, call.strain, s.mover, 1 - s.mover, 0)
        elif call is CONTRA:
            s = s._replace(mover=s.holder, contra=2)
        elif call is REDOUBLE or (s.contra == 1 and call is PASS):
            return _contract(par, s, 4 if call is REDOUBLE else 2, calls)
        elif s.contra:
            s = s._replace(contra=s.contra - 1)
        else:
            passes = s.passes + 1
            if s.level == 0:
                if passes == 4:
                    return {
                        "contract": None,
                        "team": None,
                        "multiplier": 1,
                        "made": None,
                        "points": [0, 0],
                        "calls": calls,
                    }
                s = State(0, "", -1, 1 - s.mover, passes)
            elif passes == 4 or (passes == 3 and (par.three or s.level >= KAPOOT)):
                return _contract(par, s, 1, calls)
            else:
                s = s._replace(mover=1 - s.mover, passes=passes)


def _contract(par: Par, s: State, multiplier: int, calls: list[str]) -> dict[str, Any]:
    made, points = par.points(s.level, s.strain, s.holder, multiplier)
    return {
        "contract": f"{s.level}{s.strain}",
        "team": s.holder,
        "multiplier": multiplier,
        "made": made,
        "points": points,
        "calls": calls,
    }
