"""The bidding (bazar, «բազար»; B-20 … B-26) as a small state machine.

Calls go round in playing order from the seat after the dealer. After a contra the turn skips
the defenders and only the contractors speak, each once at most (the redouble window of B-24).
"""

from __future__ import annotations

from enum import Enum
from typing import Final, NamedTuple

from blot.bazar.calls import BIDS, CONTRA, KANACH, LEVELS, PASS, REDOUBLE, SEVENS, Call
from blot.bazar.rules import Rules
from blot.cards import rank_mask
from blot.errors import IllegalAction
from blot.reasons import Reason

FOUR_SEVENS: Final = rank_mask(7)
#: ``_FIRST_ABOVE[level]``: index in BIDS of the first bid above ``level``.
_FIRST_ABOVE: Final = {level: 5 * (i + 1) for i, level in enumerate(LEVELS)} | {0: 0}
_KANACH_START: Final = 5 * LEVELS.index(KANACH)


_AFTER_CONTRA: Final = (PASS, REDOUBLE)
#: Legal calls by (first bid index, end bid index, contra allowed, sevens allowed, excluded strain).
_LEGAL: dict[tuple[int, int, bool, bool, str], tuple[Call, ...]] = {}


class Stage(Enum):
    OPEN = "open"  # bids, passes and contra
    CONTRA = "contra"  # only the contractors speak: redouble or pass
    DONE = "done"  # a contract stands
    VOID = "void"  # all passed, or four sevens (B-23, B-25)


class Contract(NamedTuple):
    """The last bid once the bidding is over, with its declarer and multiplier (1, 2 or 4)."""

    declarer: int
    level: int
    strain: str
    multiplier: int

    @property
    def team(self) -> int:
        return self.declarer % 2

    def to_json(self) -> dict[str, object]:
        """The ``contract`` object of docs/format.md's replay output (the server's views use it too)."""
        return {
            "seat": self.declarer,
            "team": self.team,
            "level": self.level,
            "strain": self.strain,
            "multiplier": self.multiplier,
        }

    def __str__(self) -> str:
        extra = {1: "", 2: " contra", 4: " redoubled"}[self.multiplier]
        return f"{self.level}{self.strain}{extra} by seat {self.declarer}"


_CONTRA_STAGE: Final = Stage.CONTRA  # a module constant: cheaper than an enum lookup per call


class Bidding:
    """Who calls next, which calls are legal, and the contract when it is over."""

    __slots__ = (
        "_end",
        "_sevens",
        "bid",
        "bidder",
        "callers",
        "calls",
        "hands",
        "is_over",
        "multiplier",
        "passes",
        "rules",
        "stage",
        "to_act",
        "waiting",
    )

    def __init__(self, rules: Rules, dealer: int, hands: tuple[int, ...]) -> None:
        self.rules = rules
        self.hands = hands
        self.to_act = (dealer + 1) % 4
        self.calls: list[Call] = []
        self.callers: list[int] = []
        self.bid: Call | None = None
        self.bidder = -1
        self.passes = 0  # passes in a row, since the last bid or the start
        self.multiplier = 1
        self.waiting: list[int] = []  # contractors still to speak after a contra
        self.stage = Stage.OPEN
        self.is_over = False
        self._end = len(BIDS) if rules.kanach else _KANACH_START
        self._sevens = -1  # B-25: the seat dealt all four 7s, where the ruleset lets them void
        if rules.preset.four_sevens_void:
            for seat, hand in enumerate(hands):
                if hand & FOUR_SEVENS == FOUR_SEVENS:
                    self._sevens = seat

    def copy(self) -> Bidding:
        other = object.__new__(Bidding)
        for name in Bidding.__slots__:
            setattr(other, name, getattr(self, name))
        other.calls = self.calls.copy()
        other.callers = self.callers.copy()
        other.waiting = self.waiting.copy()
        return other

    @property
    def contract(self) -> Contract | None:
        if self.stage is not Stage.DONE or self.bid is None:
            return None
        return Contract(self.bidder, self.bid.level, self.bid.strain, self.multiplier)

    def _going_on(self) -> bool:
        """B-26 off: the bidder's own turn after three passes."""
        return self.passes == 3

    def legal_calls(self) -> tuple[Call, ...]:
        if self.stage is _CONTRA_STAGE:
            return _AFTER_CONTRA
        if self.is_over:
            return ()
        seat = self.to_act
        bid = self.bid
        key = (
            0 if bid is None else _FIRST_ABOVE[bid.level],
            self._end,
            bid is not None and (seat - self.bidder) % 2 == 1,
            self._may_show_sevens(seat),
            bid.strain if bid is not None and self._going_on() else "",
        )
        found = _LEGAL.get(key)
        if found is None:
            start, end, contra, sevens, excluded = key
            found = _LEGAL[key] = (
                PASS,
                *((SEVENS,) if sevens else ()),
                *(b for b in BIDS[start:end] if b.strain != excluded),
                *((CONTRA,) if contra else ()),
            )
        return found

    def _may_show_sevens(self, seat: int) -> bool:
        return seat == self._sevens and len(self.calls) < 4

    def refusal(self, call: Call) -> Reason | None:
        """Why ``call`` is illegal now, or None when it is legal."""
        seat = self.to_act
        if self.is_over:
            return Reason("bidding_over")
        if self.stage is _CONTRA_STAGE:
            if call is PASS or call is REDOUBLE:
                return None
            return Reason("contra_then_redouble", seat=seat)
        if call is PASS:
            return None
        if call is REDOUBLE:
            return Reason("no_contra_to_redouble")
        if call is SEVENS:
            if not self.rules.preset.four_sevens_void:
                return Reason("sevens_ruleset", ruleset=self.rules.ruleset)
            if self.hands[seat] & FOUR_SEVENS != FOUR_SEVENS:
                return Reason("sevens_not_dealt", seat=seat)
            if len(self.calls) >= 4:
                return Reason("sevens_first_call")
            return None
        bid = self.bid
        if call is CONTRA:
            if bid is None:
                return Reason("no_bid_to_contra")
            if (seat - self.bidder) % 2 == 0:
                return Reason("contra_own_team", seat=seat)
            return None
        if call.level == KANACH and not self.rules.kanach:
            return Reason("kanach_off")
        if bid is not None:
            if bid.level >= self.rules.top_level:
                return Reason("bid_after_top", bid=bid)
            if call.level <= bid.level:
                return Reason("bid_too_low", call=call, bid=bid)
            if self._going_on() and call.strain == bid.strain:
                return Reason("bid_other_strain", seat=seat, strain=bid.strain)
        return None

    def apply(self, call: Call) -> None:
        """Make the call for the seat to act, or raise IllegalAction and change nothing."""
        reason = self.refusal(call)
        if reason is not None:
            raise IllegalAction(reason)
        seat = self.to_act
        self.calls.append(call)
        self.callers.append(seat)
        if self.stage is _CONTRA_STAGE:
            self._after_contra(call)
            return
        if call is PASS:
            self.passes += 1
            if self.bid is None:
                if self.passes == 4:
                    self._finish(Stage.VOID)
            elif self.passes == 4 or (
                self.passes == 3
                and (self.rules.three_passes_end_bidding or self.bid.level >= self.rules.top_level)
            ):
                self._finish(Stage.DONE)
        elif call is SEVENS:
            self._finish(Stage.VOID)
        elif call is CONTRA:
            self.multiplier = 2
            self.stage = Stage.CONTRA
            self.waiting = [(seat + 1) % 4, (seat + 3) % 4]
            self.to_act = self.waiting[0]
            return
        else:
            self.bid = call
            self.bidder = seat
            self.passes = 0
        if not self.is_over:
            self.to_act = (seat + 1) % 4

    def _after_contra(self, call: Call) -> None:
        if call is REDOUBLE:
            self.multiplier = 4
            self._finish(Stage.DONE)
            return
        self.waiting.pop(0)
        if self.waiting:
            self.to_act = self.waiting[0]
        else:
            self._finish(Stage.DONE)

    def _finish(self, stage: Stage) -> None:
        self.stage = stage
        self.is_over = True
