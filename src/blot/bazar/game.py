"""A game of Bazar Blot: deals until a team wins (B-3, B-70, B-71, B-55).

>>> from random import Random
>>> from blot.bazar import Game
>>> game = Game(rng=Random(7))
>>> moves = Random(8)
>>> while not game.is_over:
...     game.apply(moves.choice(game.legal_actions()))
>>> game.winner in (0, 1), max(game.totals) >= 301 or game.tars_kapoot
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from blot.bazar.deal import DEFAULT_RULES, Action, Deal, DealResult, random_hands
from blot.bazar.rules import Rules
from blot.bazar.scoring import game_winner, match_score
from blot.bazar.view import BazarView, view_of
from blot.errors import BlotError, IllegalAction
from blot.protocol import Action as ProtocolAction


class Game:
    """Deals in turn, each dealt by the next seat (B-3). With ``rng`` the game deals the cards
    itself; without one the caller gives each deal's hands to :meth:`start_deal` (replays)."""

    def __init__(self, rules: Rules = DEFAULT_RULES, dealer: int = 0, rng: Random | None = None) -> None:
        if dealer not in range(4):
            raise BlotError(f"dealer must be a seat from 0 to 3, not {dealer}")
        self.rules = rules
        self.first_dealer = dealer
        self.rng = rng
        self.deals: list[Deal] = []
        self.totals = (0, 0)
        self.winner: int | None = None
        self.tars_kapoot = False
        if rng is not None:
            self.start_deal()

    @property
    def deal(self) -> Deal | None:
        """The deal in progress or the last one."""
        return self.deals[-1] if self.deals else None

    @property
    def next_dealer(self) -> int:
        return (self.deals[-1].dealer + 1) % 4 if self.deals else self.first_dealer

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def match_score(self) -> str | None:
        return None if self.winner is None else match_score(self.totals, self.winner)

    @property
    def results(self) -> list[DealResult]:
        return [r for d in self.deals if (r := d.result) is not None]

    def start_deal(self, hands: Sequence[int] | None = None) -> Deal:
        """Deal the next deal: ``hands`` as given, or shuffled with the game's rng."""
        if self.is_over:
            raise BlotError("the game is over")
        if self.deals and not self.deals[-1].is_over:
            raise BlotError("the current deal is not over")
        if hands is None:
            if self.rng is None:
                raise BlotError("this game has no random source: give the hands")
            hands = random_hands(self.rng)
        deal = Deal(hands, self.next_dealer, self.rules)
        self.deals.append(deal)
        return deal

    @property
    def to_act(self) -> int | None:
        deal = self.deal
        return None if deal is None or self.is_over else deal.to_act

    def legal_actions(self) -> Sequence[Action]:
        deal = self.deal
        return () if deal is None or self.is_over else deal.legal_actions()

    def apply(self, action: ProtocolAction) -> None:
        deal = self.deal
        if self.is_over:
            raise IllegalAction("the game is over")
        if deal is None or deal.is_over:
            raise IllegalAction("no deal is in progress: the next deal must be dealt first")
        deal.apply(action)
        if deal.is_over:
            self._tally(deal)
            if self.rng is not None and not self.is_over:
                self.start_deal()

    def _tally(self, deal: Deal) -> None:
        if deal.score is None or deal.summary is None:
            return  # void deals do not count (B-70)
        p = deal.score.points
        self.totals = (self.totals[0] + p[0], self.totals[1] + p[1])
        self.winner = game_winner(self.totals, deal.summary, deal.score, self.rules.target)
        self.tars_kapoot = deal.score.tars_kapoot

    def view(self, seat: int) -> BazarView:
        deal = self.deal
        if deal is None:
            raise BlotError("no deal has been dealt yet")
        history = tuple(r for d in self.deals[:-1] if (r := d.result) is not None)
        return view_of(deal, seat, deal_number=len(self.deals), totals=self.totals, history=history)

    def copy(self) -> Game:
        """An independent copy; its random source continues where this one's is."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.deals = self.deals[:-1] + [d.copy() for d in self.deals[-1:]]
        if self.rng is not None:
            other.rng = Random()
            other.rng.setstate(self.rng.getstate())
        return other
