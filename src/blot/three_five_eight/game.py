"""A game of 3-5-8: nine counted deals (T-50), the dealer's rotation (T-2, T-10), the pass that
each seat may use once in the whole game (T-10), the exchange after each counted deal (T-20)
and the winner with its tie-break (T-50).

With a ``random.Random`` the game shuffles and deals every deal itself; without one the caller
gives each deal's cards with :meth:`Game.start_deal`, which is how a record is replayed.

>>> from random import Random
>>> from blot.three_five_eight import Game
>>> game, rng = Game(dealer=0, rng=Random(5)), Random(6)
>>> while not game.is_over:
...     game.apply(rng.choice(game.legal_actions()))
>>> game.counted, sum(game.totals), game.winner in (0, 1, 2)
(9, 0, True)
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Final

from blot.errors import IllegalAction
from blot.protocol import Action as ProtocolAction
from blot.three_five_eight.deal import (
    NEXT,
    SEATS,
    Action,
    CardsLike,
    Deal,
    DealResult,
    DealView,
    Phase,
    exchange_plan,
    random_cards,
)

_OVER: Final = Phase.OVER

#: Counted deals in a game (T-50): each seat deals three times.
COUNTED_DEALS: Final = 9


def game_winner(results: Sequence[DealResult]) -> int:
    """The winner of a game of these deals (T-50): the highest total; among tied leaders, the one
    with more points in the last counted deal; still tied, the one who took the latest trick of
    that deal, looking back from trick 16.

    **Interpretation**: each step compares only the seats still tied after the step before.
    The chain always decides: two seats with equal last-deal scores have different targets, so
    not both took no trick.
    """
    counted = [r for r in results if not r.void]
    if not counted:
        raise IllegalAction("a game with no counted deal has no winner")
    totals = [sum(r.scores[s] for r in counted) for s in range(SEATS)]
    best = max(totals)
    tied = [s for s in range(SEATS) if totals[s] == best]
    last = counted[-1]
    if len(tied) > 1:
        top = max(last.scores[s] for s in tied)
        tied = [s for s in tied if last.scores[s] == top]
    if len(tied) > 1:
        for seat in reversed(last.trick_winners):
            if seat in tied:
                return seat
    return tied[0]


@dataclass(frozen=True, slots=True)
class GameResult:
    """A game so far, indexed by seat (docs/format.md): every deal (void ones too), the totals of the
    counted deals, and once nine are counted the winner."""

    deals: tuple[DealResult, ...]
    totals: tuple[int, int, int]
    finished: bool
    winner: int | None

    def to_json(self) -> dict[str, object]:
        """``blot replay --json`` for a 3-5-8 record (docs/format.md)."""
        return {
            "game": "3-5-8",
            "deals": [d.to_json() for d in self.deals],
            "totals": list(self.totals),
            "finished": self.finished,
            "winner": self.winner,
        }


@dataclass(frozen=True, slots=True)
class GameView:
    """What one seat may know of a game: the public results of the finished deals and its view
    of the current deal (``None`` while the game waits for the next deal's cards)."""

    seat: int
    phase: Phase
    to_act: int | None
    dealer: int
    counted: int
    totals: tuple[int, int, int]
    may_pass: tuple[bool, bool, bool]
    results: tuple[DealResult, ...]
    finished: bool
    winner: int | None
    deal: DealView | None
    legal: tuple[Action, ...]


class Game:
    """A whole game of 3-5-8: ``apply`` plays into the current deal and moves the game on when a
    deal ends; a refused action raises :class:`IllegalAction` and changes nothing."""

    __slots__ = (
        "_counted",
        "_deal",
        "_dealer",
        "_deals",
        "_may_pass",
        "_results",
        "_rng",
        "_totals",
    )

    _counted: int
    _dealer: int
    _deals: list[Deal]
    _deal: Deal | None
    _may_pass: tuple[bool, bool, bool]
    _results: list[DealResult]
    _rng: Random | None
    _totals: tuple[int, int, int]

    def __init__(self, dealer: int = 0, rng: Random | None = None) -> None:
        """A new game whose first deal is dealt by ``dealer`` (T-2). With ``rng`` the game deals
        every deal itself; without it, give each deal's cards to :meth:`start_deal`."""
        if not isinstance(dealer, int) or dealer not in range(SEATS):
            raise IllegalAction(f"the dealer must be a seat from 0 to 2, not {dealer}")
        self._counted = 0
        self._dealer = dealer
        self._rng = rng
        self._deals = []
        self._deal = None
        self._may_pass = (True, True, True)
        self._results = []
        self._totals = (0, 0, 0)
        if rng is not None:
            self._deal_random(rng)

    def copy(self) -> Game:
        """An independent copy: the current deal and the random generator are copied, finished
        deals (which never change) are shared."""
        o = object.__new__(Game)
        o._counted = self._counted
        o._dealer = self._dealer
        o._rng = None if self._rng is None else _copy.copy(self._rng)
        o._deals = self._deals.copy()
        o._deal = self._deal
        if self._deal is not None and not self._deal.is_over:
            o._deal = o._deals[-1] = self._deal.copy()
        o._may_pass = self._may_pass
        o._results = self._results.copy()
        o._totals = self._totals
        return o

    def __eq__(self, other: object) -> bool:
        """Equal when the deals so far and the game's own state are (the generator is not
        compared)."""
        if not isinstance(other, Game):
            return NotImplemented
        return (self._dealer, self._deals, self._may_pass, self._results, self._totals) == (
            other._dealer,
            other._deals,
            other._may_pass,
            other._results,
            other._totals,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<3-5-8 Game counted={self.counted} phase={self.phase.value} to_act={self.to_act}>"

    # --- deals --------------------------------------------------------------------------------

    def _previous(self) -> DealResult | None:
        for r in reversed(self._results):
            if not r.void:
                return r
        return None

    def _deal_random(self, rng: Random) -> None:
        hands, talon = random_cards(rng)
        plan = exchange_plan(self._previous())
        self._deal = Deal._trusted(hands, talon, self._dealer, self._may_pass, plan)
        self._deals.append(self._deal)

    def start_deal(self, hands: Sequence[CardsLike], talon: CardsLike) -> Deal:
        """Give the cards of the next deal (T-2), for a game without its own generator: three
        hands of 16 cards and a talon of 4, as card sets, notation strings or cards."""
        if self._rng is not None:
            raise IllegalAction("this game shuffles and deals its own cards")
        if self.is_over:
            raise IllegalAction("the game is over")
        if self._deal is not None:
            raise IllegalAction("the current deal is not over yet")
        deal = Deal(hands, talon, self._dealer, may_pass=self._may_pass, previous=self._previous())
        self._deal = deal
        self._deals.append(deal)
        return deal

    def _end_deal(self, deal: Deal) -> None:
        """Score a finished deal and move on: the next seat deals after a counted deal, the same
        one after a void deal (T-2, T-10); the game ends after nine counted deals (T-50)."""
        result = deal.result
        assert result is not None
        self._results.append(result)
        self._may_pass = deal.may_pass
        if not result.void:
            t, s = self._totals, result.scores
            self._totals = (t[0] + s[0], t[1] + s[1], t[2] + s[2])
            self._dealer = NEXT[self._dealer]
            self._counted += 1
        if self._counted >= COUNTED_DEALS:
            return
        self._deal = None
        if self._rng is not None:
            self._deal_random(self._rng)

    # --- state --------------------------------------------------------------------------------

    @property
    def dealer(self) -> int:
        """The dealer of the current deal (or of the next one while the game waits for cards)."""
        return self._deal.dealer if self._deal is not None else self._dealer

    @property
    def deal(self) -> Deal | None:
        """The current deal; the last one once the game is over; ``None`` while waiting for
        cards."""
        return self._deal

    @property
    def deals(self) -> tuple[Deal, ...]:
        """Every deal of the game so far, void ones included, the current one last."""
        return tuple(self._deals)

    @property
    def results(self) -> tuple[DealResult, ...]:
        """The finished deals, void ones included."""
        return tuple(self._results)

    @property
    def counted(self) -> int:
        """How many counted (not void) deals are finished."""
        return self._counted

    @property
    def totals(self) -> tuple[int, int, int]:
        return self._totals

    @property
    def may_pass(self) -> tuple[bool, bool, bool]:
        """Which seats may still pass in this game (T-10)."""
        return self._deal.may_pass if self._deal is not None else self._may_pass

    @property
    def phase(self) -> Phase:
        if self._deal is None:
            return Phase.DEAL
        if self._deal.is_over:
            return Phase.OVER
        return self._deal.phase

    @property
    def to_act(self) -> int | None:
        return None if self._deal is None else self._deal.to_act

    @property
    def is_over(self) -> bool:
        return self._counted >= COUNTED_DEALS

    @property
    def winner(self) -> int | None:
        """The winner after the tie-break (T-50), once the game is over."""
        return game_winner(self._results) if self.is_over else None

    @property
    def result(self) -> GameResult:
        over = self.is_over
        return GameResult(
            tuple(self._results), self._totals, over, game_winner(self._results) if over else None
        )

    # --- actions ------------------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        deal = self._deal
        return () if deal is None else deal.legal_actions()

    def apply(self, action: ProtocolAction) -> None:
        """Take ``action`` in the current deal, or raise :class:`IllegalAction` and change
        nothing."""
        deal = self._deal
        if deal is None:
            raise IllegalAction("no deal is in progress: the next deal's cards must be given first")
        try:
            deal.apply(action)
        except IllegalAction:
            if deal._phase is _OVER:
                raise IllegalAction("the game is over") from None
            raise
        if deal._phase is _OVER:
            self._end_deal(deal)

    def view(self, seat: int) -> GameView:
        """What ``seat`` may know of the game (see :meth:`Deal.view`)."""
        if not isinstance(seat, int) or seat not in range(SEATS):
            raise IllegalAction(f"a seat is 0, 1 or 2, not {seat}")
        deal = None if self._deal is None else self._deal.view(seat)
        over = self.is_over
        return GameView(
            seat=seat,
            phase=self.phase,
            to_act=self.to_act,
            dealer=self.dealer,
            counted=self.counted,
            totals=self._totals,
            may_pass=self.may_pass,
            results=tuple(self._results),
            finished=over,
            winner=game_winner(self._results) if over else None,
            deal=deal,
            legal=() if deal is None else deal.legal,
        )
