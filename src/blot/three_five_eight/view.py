"""What one seat may know (DESIGN.md): its own hand and everything public, nothing else; and
what everybody may know (spectators): everything public, nothing else.

Bots and clients only ever receive a :class:`GameView` (which wraps the seat's
:class:`DealView`); spectators receive a :class:`PublicGameView` (which wraps the
:class:`PublicDealView`: no hand, no exchanged card, no discard). The deal and the game build
them (:meth:`blot.three_five_eight.Deal.view`, :meth:`blot.three_five_eight.Deal.public_view` and
the same on :class:`blot.three_five_eight.Game`); a seat's view is the public view plus the
seat's own hand, the exchange cards it gave or got (T-20, T-21), its discard (T-22) and its
choices.
"""

from __future__ import annotations

from dataclasses import dataclass

from blot.cards import Card, cards_of
from blot.game import PublicViewHead, Trick
from blot.three_five_eight.calls import Call
from blot.three_five_eight.rules import Rules
from blot.three_five_eight.values import Action, DealResult, Exchange, Phase


@dataclass(frozen=True, slots=True)
class PublicDealView:
    """What everybody may know of a deal: the calls, the exchange's steps without their cards
    (given face down, T-20), the talon once shown (``None`` before, T-22), every card played,
    the result. No hand, no discard."""

    phase: Phase
    to_act: int | None
    dealer: int
    targets: tuple[int, int, int]
    hand_sizes: tuple[int, int, int]
    may_pass: tuple[bool, bool, bool]
    calls: tuple[Call, ...]
    trump: Call | None
    caller: int | None
    plan: tuple[tuple[int, int], ...]
    exchanges: tuple[Exchange, ...]
    talon: int | None
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    tricks_taken: tuple[int, ...]
    scores: tuple[int, int, int] | None
    result: DealResult | None


@dataclass(frozen=True, slots=True)
class DealView(PublicDealView):
    """What one seat may know of a deal, and nothing more: the public view's fields (with the
    cards of the exchange steps it took part in) and the seat's own after them.

    Card sets are ints (``blot.cards``). ``talon`` is ``None`` until it is shown (T-22),
    ``discard`` is ``None`` except for the first seat once he discards, and an exchange step's
    cards are ``None`` except for its giver and receiver. ``legal`` is empty unless ``seat`` is
    to act.
    """

    seat: int
    hand: int
    discard: int | None
    legal: tuple[Action, ...]

    @property
    def hand_cards(self) -> list[Card]:
        return cards_of(self.hand)


@dataclass(frozen=True, slots=True)
class PublicGameView(PublicViewHead[Rules, Phase]):
    """What everybody may know of a game (spectators): the public results of the finished deals
    and the public view of the current deal (``None`` before the first deal)."""

    counted: int
    totals: tuple[int, int, int]
    may_pass: tuple[bool, bool, bool]
    #: Every finished deal, void ones and the current one (once over) included.
    results: tuple[DealResult, ...]
    finished: bool
    winner: int | None
    deal: PublicDealView | None


@dataclass(frozen=True, slots=True)
class GameView(PublicGameView):
    """What one seat may know of a game: the public view's fields, with the seat's view of the current
    deal (``None`` before the first deal), and the seat's own after them."""

    deal: DealView | None
    seat: int
    legal: tuple[Action, ...]
