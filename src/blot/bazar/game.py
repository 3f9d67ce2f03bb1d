"""A game of Bazar Blot: deals until a team wins (B-3, B-70, B-71, B-55).

>>> from random import Random
>>> from blot.bazar import Game
>>> game = Game(rng=Random(7))
>>> moves = Random(8)
>>> while not game.is_over:
...     game.apply(moves.choice(game.legal_actions()))
>>> game.winner in (0, 1), max(game.totals) >= 301 or game.tars_kapoot
(True, True)
>>> game.result.ranking() in ((0, 1, 0, 1), (1, 0, 1, 0))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Any

from blot.bazar.deal import DEFAULT_RULES, Deal
from blot.bazar.rules import Rules
from blot.bazar.scoring import game_winner, match_score
from blot.bazar.values import GAME_NAME, SEATS, Action, DealResult, DealtCards, Phase, random_deal
from blot.bazar.view import GameView, PublicGameView
from blot.engine import DealSequence, automatic
from blot.errors import BlotError, SetupError
from blot.game import GameResultHead


@dataclass(frozen=True, slots=True)
class GameResult(GameResultHead[DealResult, tuple[int, int]]):
    """A game so far (docs/format.md): after the head both games share, once a team has won the
    match score (B-71) and whether tars kapoot ended it (B-55)."""

    match_score: str | None
    tars_kapoot: bool

    def ranking(self) -> tuple[int, ...]:
        """Each seat's place (B-70): 0 for the winning team's two seats, 1 for the others."""
        if self.winner is None:
            raise BlotError("the game is not finished: it has no ranking yet")
        return tuple(0 if seat % 2 == self.winner else 1 for seat in range(SEATS))

    @property
    def bars_losers(self) -> bool:
        """Tars kapoot ended the game: the losing pair is barred (B-55, League §7)."""
        return self.tars_kapoot

    def to_json(self) -> dict[str, Any]:
        """``blot replay --json`` for a Bazar Blot record (docs/format.md)."""
        return self._json_head(GAME_NAME) | {"match_score": self.match_score, "tars_kapoot": self.tars_kapoot}


class Game(DealSequence[Deal, Action, Phase, Rules, GameView, PublicGameView]):
    """Deals in turn, each dealt by the next seat (B-3). With ``rng`` the game deals the cards
    itself; without one the caller gives each deal's cards to :meth:`start_deal` (replays, the
    server's tables). The state is read through read-only properties."""

    __slots__ = (
        "_deals",
        "_first_dealer",
        "_results",
        "_rng",
        "_rules",
        "_tars_kapoot",
        "_totals",
        "_winner",
    )

    seats = SEATS

    def __init__(self, rules: Rules = DEFAULT_RULES, dealer: int = 0, rng: Random | None = None) -> None:
        if not isinstance(dealer, int) or dealer not in range(SEATS):
            raise SetupError(f"dealer must be a seat from 0 to 3, not {dealer}", "dealer")
        self._rules = rules
        self._first_dealer = dealer
        self._rng = rng
        self._deals: list[Deal] = []
        self._results: tuple[DealResult, ...] = ()  # of the finished deals (every view shows them)
        self._totals = (0, 0)
        self._winner: int | None = None
        self._tars_kapoot = False
        if rng is not None:
            self.start_deal()

    # --- state -------------------------------------------------------------------------------

    @property
    def dealer(self) -> int:
        """The dealer of the current deal (the first dealer before the first deal)."""
        return self._deals[-1].dealer if self._deals else self._first_dealer

    @property
    def next_dealer(self) -> int:
        return (self._deals[-1].dealer + 1) % SEATS if self._deals else self._first_dealer

    @property
    def totals(self) -> tuple[int, int]:
        return self._totals

    @property
    def winner(self) -> int | None:
        """The winning team, once the game is over (B-70)."""
        return self._winner

    @property
    def tars_kapoot(self) -> bool:
        return self._tars_kapoot

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    @property
    def match_score(self) -> str | None:
        return None if self._winner is None else match_score(self._totals, self._winner)

    @property
    def results(self) -> tuple[DealResult, ...]:
        """The finished deals, void ones included."""
        return self._results

    @property
    def result(self) -> GameResult:
        return GameResult(
            self.results, self._totals, self.is_over, self._winner, self.match_score, self._tars_kapoot
        )

    def start_deal(self, cards: DealtCards | None = None) -> Deal:
        """Deal the next deal: ``cards`` as given, or shuffled with the game's own rng."""
        cards = self._next_cards(cards, random_deal)
        deal = Deal(cards.hands, self.next_dealer, self._rules)
        self._deals.append(deal)
        return deal

    def _end_deal(self, deal: Deal) -> None:
        """Count a finished deal (B-70) and, with the game's own rng, deal the next one."""
        result = deal.result
        if result is not None:
            self._results = (*self._results, result)
        self._tally(deal)
        if self._rng is not None and not self.is_over:
            self.start_deal()

    def _tally(self, deal: Deal) -> None:
        score, summary = deal.score, deal.summary
        if score is None or summary is None:
            return  # void deals do not count (B-70)
        p = score.points
        self._totals = (self._totals[0] + p[0], self._totals[1] + p[1])
        self._winner = game_winner(self._totals, summary, score, self._rules.target)
        self._tars_kapoot = score.tars_kapoot

    def auto_action(self) -> Action:
        """The automatic move (docs/protocol.md): the best declarations when the seat must say
        what it declares, else pass when legal, else the lowest legal card."""
        deal = self.deal
        seat = self.to_act
        assert deal is not None and seat is not None, "nobody is to act"
        if deal.must_declare:
            return deal.best_declare(seat)
        return automatic(deal.legal_actions())

    # --- views ---------------------------------------------------------------------------------

    def _game_fields(
        self,
    ) -> tuple[tuple[int, int], tuple[DealResult, ...], bool, int | None, str | None, bool]:
        """totals, results, finished, winner, match_score, tars_kapoot (:class:`GameView`)."""
        return self._totals, self.results, self.is_over, self._winner, self.match_score, self._tars_kapoot

    def copy(self) -> Game:
        """An independent copy; its random source continues where this one's is."""
        other = object.__new__(Game)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        other._deals = self._deals[:-1] + [d.copy() for d in self._deals[-1:]]
        if self._rng is not None:
            other._rng = Random()
            other._rng.setstate(self._rng.getstate())
        return other
