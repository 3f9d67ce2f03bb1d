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

from blot.engine import DealSequence, automatic
from blot.errors import BlotError, IllegalAction, SetupError
from blot.game import GameResultHead
from blot.three_five_eight.deal import Deal
from blot.three_five_eight.exchange import exchange_plan
from blot.three_five_eight.rules import DEFAULT_RULES, Rules
from blot.three_five_eight.values import (
    GAME_NAME,
    NEXT,
    SEATS,
    Action,
    DealResult,
    DealtCards,
    Phase,
    random_deal,
)
from blot.three_five_eight.view import GameView, PublicGameView

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
    return _best(results, range(SEATS))


def _best(results: Sequence[DealResult], seats: Sequence[int]) -> int:
    """The best of ``seats`` by T-50's chain (total, last counted deal, latest trick)."""
    counted = [r for r in results if not r.void]
    if not counted:
        raise IllegalAction("a game with no counted deal has no winner")
    totals = {s: sum(r.scores[s] for r in counted) for s in seats}
    best = max(totals.values())
    tied = [s for s in seats if totals[s] == best]
    last = counted[-1]
    if len(tied) > 1:
        top = max(last.scores[s] for s in tied)
        tied = [s for s in tied if last.scores[s] == top]
    if len(tied) > 1:
        for seat in reversed(last.trick_winners):
            if seat in tied:
                return seat
    return tied[0]


def ranking(results: Sequence[DealResult]) -> tuple[int, int, int]:
    """Each seat's place at the end of a game (0 first, 2 last): the winner of T-50, then the
    better of the other two by the same chain.

    **Interpretation**: T-50 names only the winner; second and third place are decided by the
    same steps between the two other seats (needed for ratings).
    """
    first = _best(results, range(SEATS))
    rest = [s for s in range(SEATS) if s != first]
    second = _best(results, rest)
    places = [2, 2, 2]
    places[first], places[second] = 0, 1
    return (places[0], places[1], places[2])


@dataclass(frozen=True, slots=True)
class GameResult(GameResultHead[DealResult, tuple[int, int, int]]):
    """A game so far, indexed by seat (docs/format.md): the head both games share, where the
    totals are those of the counted deals and the winner is known once nine are counted."""

    def ranking(self) -> tuple[int, ...]:
        """Each seat's place (:func:`ranking`), once the game is finished."""
        if not self.finished:
            raise BlotError("the game is not finished: it has no ranking yet")
        return ranking(self.deals)

    @property
    def bars_losers(self) -> bool:
        """Nothing in 3-5-8 bars anybody."""
        return False

    def to_json(self) -> dict[str, object]:
        """``blot replay --json`` for a 3-5-8 record (docs/format.md)."""
        return self._json_head(GAME_NAME)


class Game(DealSequence[Deal, Action, Phase, Rules, GameView, PublicGameView]):
    """A whole game of 3-5-8: ``apply`` plays into the current deal and moves the game on when a
    deal ends; a refused action raises :class:`IllegalAction` and changes nothing.

    With a ``random.Random`` the game shuffles and deals every deal itself; without one the
    caller gives each deal's cards with :meth:`start_deal` (a record's replay, the server)."""

    __slots__ = (
        "_counted",
        "_dealer",
        "_deals",
        "_may_pass",
        "_results",
        "_rng",
        "_rules",
        "_totals",
    )

    seats = SEATS

    _counted: int
    _dealer: int
    _deals: list[Deal]
    _may_pass: tuple[bool, bool, bool]
    _results: list[DealResult]
    _rng: Random | None
    _rules: Rules
    _totals: tuple[int, int, int]

    def __init__(self, dealer: int = 0, rng: Random | None = None, rules: Rules = DEFAULT_RULES) -> None:
        """A new game whose first deal is dealt by ``dealer`` (T-2). With ``rng`` the game deals
        every deal itself; without it, give each deal's cards to :meth:`start_deal`."""
        if not isinstance(dealer, int) or dealer not in range(SEATS):
            raise SetupError(f"the dealer must be a seat from 0 to 2, not {dealer}", "dealer")
        self._rules = rules
        self._counted = 0
        self._dealer = dealer
        self._rng = rng
        self._deals = []
        self._may_pass = (True, True, True)
        self._results = []
        self._totals = (0, 0, 0)
        if rng is not None:
            self._deal_random(rng)

    def auto_action(self) -> Action:
        """The automatic move (docs/protocol.md): pass while it may, else the lowest legal card (a
        gift, a discard or a play), else the first strain."""
        return automatic(self.legal_actions())

    def copy(self) -> Game:
        """An independent copy: the current deal and the random generator are copied, finished
        deals (which never change) are shared."""
        o = object.__new__(Game)
        o._rules = self._rules
        o._counted = self._counted
        o._dealer = self._dealer
        o._rng = None if self._rng is None else _copy.copy(self._rng)
        o._deals = self._deals.copy()
        if self._deals and not self._deals[-1].is_over:
            o._deals[-1] = self._deals[-1].copy()
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
        plan = exchange_plan(self._previous())
        self._deals.append(Deal._trusted(random_deal(rng), self._dealer, self._may_pass, plan))

    def start_deal(self, cards: DealtCards | None = None) -> Deal:
        """Deal the next deal (T-2): ``cards`` as given, or shuffled by the game's own random
        source when ``None``."""
        cards = self._next_cards(cards, random_deal)
        deal = Deal(
            cards.hands, cards.talon, self._dealer, may_pass=self._may_pass, previous=self._previous()
        )
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
        if self._counted < COUNTED_DEALS and self._rng is not None:
            self._deal_random(self._rng)

    # --- state --------------------------------------------------------------------------------

    @property
    def dealer(self) -> int:
        """The dealer of the current deal (or of the next one while the game waits for cards)."""
        deal = self.deal
        return deal.dealer if deal is not None and (not deal.is_over or self.is_over) else self._dealer

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
        deal = self.deal
        return deal.may_pass if deal is not None and (not deal.is_over or self.is_over) else self._may_pass

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

    def _game_fields(
        self,
    ) -> tuple[int, tuple[int, int, int], tuple[bool, bool, bool], tuple[DealResult, ...], bool, int | None]:
        """counted, totals, may_pass, results, finished, winner (:class:`GameView`)."""
        over = self.is_over
        winner = game_winner(self._results) if over else None
        return self._counted, self._totals, self.may_pass, tuple(self._results), over, winner
