"""What one seat may know (DESIGN.md): its own hand and everything public, nothing else.

Bots and clients only ever receive a :class:`BazarView`. Declarations are public at once only as
kind and top rank (B-43); the cards of the counting team's declarations are shown from the second
trick on. Belote is announced as its cards are played (B-42).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from blot.bazar.bidding import Contract
from blot.bazar.calls import Call
from blot.bazar.deal import Action, Deal, DealResult, Phase, Trick
from blot.bazar.declarations import Declaration
from blot.bazar.rules import Rules
from blot.bazar.tables import NT
from blot.cards import CARDS, Card, cards_of


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
class BazarView:
    seat: int
    rules: Rules
    dealer: int
    phase: Phase
    to_act: int | None
    hand: int
    calls: tuple[tuple[int, Call], ...]
    contract: Contract | None
    trump: int | None
    own_declarations: tuple[Declaration, ...] | None
    announced: tuple[Announcement, ...]
    shown: tuple[tuple[int, Declaration], ...]
    declarations_team: int | None
    trick_leader: int
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    card_points: tuple[int, int]
    belotes: tuple[tuple[int, Card], ...]
    legal: tuple[Action, ...]
    result: DealResult | None
    deal_number: int = 1
    totals: tuple[int, int] = (0, 0)
    history: tuple[DealResult, ...] = field(default=())

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

    def trick_seats(self) -> list[tuple[int, Card]]:
        """The trick in progress as (seat, card) pairs."""
        return [((self.trick_leader + i) % 4, c) for i, c in enumerate(self.trick)]


def view_of(deal: Deal, seat: int, **game: object) -> BazarView:
    """Build ``seat``'s view of ``deal``; ``game`` adds the game's context (totals, history)."""
    if seat not in range(4):
        raise ValueError(f"seat must be 0 to 3, not {seat}")
    announced: list[Announcement] = []
    if deal.phase is not Phase.BIDDING and deal.contract is not None:
        first = (deal.dealer + 1) % 4
        for i in range(4):
            s = (first + i) % 4
            ds = deal.declared[s]
            if ds:
                announced += [Announcement.of(s, d) for d in ds]
    tricks = deal.tricks
    shown = deal.outcome.counting if tricks else ()
    to_act = deal.to_act
    return BazarView(
        seat=seat,
        rules=deal.rules,
        dealer=deal.dealer,
        phase=deal.phase,
        to_act=to_act,
        hand=deal.hands[seat],
        calls=tuple(zip(deal.bidding.callers, deal.bidding.calls, strict=True)),
        contract=deal.contract,
        trump=deal.trump,
        own_declarations=deal.declared[seat],
        announced=tuple(announced),
        shown=shown,
        declarations_team=deal.outcome.team if tricks else None,
        trick_leader=deal.leader,
        trick=tuple(CARDS[i] for i in deal.trick),  # type: ignore[misc]
        tricks=tuple(tricks),
        tricks_won=tuple(deal.tricks_won),
        card_points=(deal.card_points[0], deal.card_points[1]),
        belotes=tuple(deal.belotes),
        legal=tuple(deal.legal_actions()) if to_act == seat else (),
        result=deal.result,
        **game,  # type: ignore[arg-type]
    )
