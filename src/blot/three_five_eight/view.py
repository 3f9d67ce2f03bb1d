"""What one seat may know (DESIGN.md): its own hand and everything public, nothing else.

Bots and clients only ever receive a :class:`GameView` (which wraps the seat's
:class:`DealView`); the deal and the game build them (:meth:`blot.three_five_eight.Deal.view`,
:meth:`blot.three_five_eight.Game.view`).
"""

from __future__ import annotations

from dataclasses import dataclass

from blot.cards import Card, cards_of
from blot.game import GameViewHead, Trick
from blot.three_five_eight.calls import Call
from blot.three_five_eight.rules import Rules
from blot.three_five_eight.values import Action, DealResult, Exchange, Phase


@dataclass(frozen=True, slots=True)
class DealView:
    """What one seat may know of a deal, and nothing more.

    Card sets are ints (``blot.cards``). ``talon`` is ``None`` until it is shown (T-22),
    ``discard`` is ``None`` except for the first seat once he discards, and an exchange step's
    cards are ``None`` except for its giver and receiver. ``legal`` is empty unless ``seat`` is
    to act.
    """

    seat: int
    phase: Phase
    to_act: int | None
    dealer: int
    targets: tuple[int, int, int]
    hand: int
    hand_sizes: tuple[int, int, int]
    may_pass: tuple[bool, bool, bool]
    calls: tuple[Call, ...]
    trump: Call | None
    caller: int | None
    plan: tuple[tuple[int, int], ...]
    exchanges: tuple[Exchange, ...]
    talon: int | None
    discard: int | None
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    tricks_taken: tuple[int, ...]
    scores: tuple[int, int, int] | None
    legal: tuple[Action, ...]
    result: DealResult | None

    @property
    def hand_cards(self) -> list[Card]:
        return cards_of(self.hand)


@dataclass(frozen=True, slots=True)
class GameView(GameViewHead[Rules, Phase]):
    """What one seat may know of a game: after the head both games share, the public results of
    the finished deals and its view of the current deal (``None`` before the first deal)."""

    counted: int
    totals: tuple[int, int, int]
    may_pass: tuple[bool, bool, bool]
    #: Every finished deal, void ones and the current one (once over) included.
    results: tuple[DealResult, ...]
    finished: bool
    winner: int | None
    deal: DealView | None
    legal: tuple[Action, ...]
