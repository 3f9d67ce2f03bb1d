"""What one seat may know (DESIGN.md): its own hand and everything public, nothing else; and
what everybody may know (spectators): everything public, nothing else.

Bots and clients only ever receive a :class:`GameView` (which wraps the seat's
:class:`DealView`); spectators receive a :class:`PublicGameView` (which wraps the
:class:`PublicDealView`, with no hand and no private choice). The deal and the game build them
(:meth:`blot.bazar.Deal.view`, :meth:`blot.bazar.Deal.public_view` and the same on
:class:`blot.bazar.Game`); a seat's view is the public view plus the seat's own hand,
declarations and choices. Declarations are public at once only as kind and top rank (B-43); the
cards of the counting team's declarations are shown from the second trick on. Belote is announced
as its cards are played (B-42).
"""

from __future__ import annotations

from dataclasses import dataclass

from blot.bazar.bidding import Contract
from blot.bazar.calls import Call
from blot.bazar.declarations import Declaration, Declare
from blot.bazar.rules import Rules
from blot.bazar.tables import NT
from blot.bazar.values import Action, DealResult, Phase
from blot.cards import Card, cards_of
from blot.game import PublicViewHead, Trick


@dataclass(frozen=True, slots=True)
class Announcement:
    """A declaration as the table hears it in the first trick: who, what kind, to which rank."""

    seat: int
    kind: str
    rank: int

    @classmethod
    def of(cls, seat: int, d: Declaration) -> Announcement:
        return cls(seat, d.kind, d.rank)


@dataclass(frozen=True, slots=True)
class PublicDealView:
    """What everybody may know of a deal: the bidding, the contract, the declarations as
    announced (kind and top rank) and, from the second trick, the counting team's shown (B-43),
    every card played, the belote as its cards are played (B-42), the result. No hand, no
    declaration's cards before they are shown."""

    rules: Rules
    dealer: int
    phase: Phase
    to_act: int | None
    calls: tuple[tuple[int, Call], ...]
    contract: Contract | None
    trump: int | None
    announced: tuple[Announcement, ...]
    shown: tuple[tuple[int, Declaration], ...]
    declarations_team: int | None
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    tricks_taken: tuple[int, ...]
    card_points: tuple[int, int]
    belotes: tuple[tuple[int, Card], ...]
    result: DealResult | None


@dataclass(frozen=True, slots=True)
class DealView(PublicDealView):
    """One seat's view of a deal: the public view's fields and the seat's own after them.
    ``legal`` is empty unless ``seat`` is to act; ``best_declare`` is the seat's best set of
    declarations while it must say what it declares (B-43)."""

    seat: int
    hand: int
    own_declarations: tuple[Declaration, ...] | None
    legal: tuple[Action, ...]
    best_declare: Declare | None

    @property
    def team(self) -> int:
        return self.seat % 2

    @property
    def tix(self) -> int:
        """The strain's index into the engine's tables: the trump suit, or NT (also before the
        contract)."""
        return NT if self.trump is None else self.trump

    @property
    def hand_cards(self) -> list[Card]:
        return cards_of(self.hand)

    @property
    def must_declare(self) -> bool:
        return (
            self.phase is Phase.PLAY
            and not self.tricks
            and self.own_declarations is None
            and self.to_act == self.seat
        )


@dataclass(frozen=True, slots=True)
class PublicGameView(PublicViewHead[Rules, Phase]):
    """What everybody may know of a game (spectators): the public results so far and the public
    view of the current deal (``None`` before the first deal)."""

    totals: tuple[int, int]
    #: Every finished deal, void ones and the current one (once over) included.
    results: tuple[DealResult, ...]
    finished: bool
    winner: int | None
    match_score: str | None
    tars_kapoot: bool
    deal: PublicDealView | None


@dataclass(frozen=True, slots=True)
class GameView(PublicGameView):
    """One seat's view of a game: the public view's fields, with the seat's view of the current
    deal (``None`` before the first deal), and the seat's own after them."""

    deal: DealView | None
    seat: int
    legal: tuple[Action, ...]
