"""The small values a Bazar Blot deal, its views and the game share: the game's name, where a
deal stands, the actions, the cards as dealt and the results of a deal and of a game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from random import Random
from typing import Any, Final, TypeAlias

from blot.bazar.bidding import Contract
from blot.bazar.calls import Call
from blot.bazar.declarations import Declare
from blot.cards import DECK32, Card, format_cards, parse_cards, shuffled_bits
from blot.errors import BlotError, SetupError

#: The game's name in records, the registry and the server.
GAME_NAME: Final = "bazar-blot"
SEATS: Final = 4

#: Anything ``apply`` takes: a call in the bidding, a set of declarations or a card in the play.
Action: TypeAlias = Call | Card | Declare


class Phase(Enum):
    """Where a deal (or a game) stands. ``DEAL`` is only a game's: it waits for the next deal's
    cards."""

    DEAL = "deal"
    BIDDING = "bidding"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class DealtCards:
    """The cards of one deal as dealt (B-2): four hands of 8 as card sets."""

    hands: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", tuple(self.hands))

    def to_json(self) -> dict[str, Any]:
        """As a table's log stores them: ``{"hands": ["7S 8S …", …]}``."""
        return {"hands": [format_cards(h) for h in self.hands]}

    @classmethod
    def from_json(cls, payload: Mapping[str, Any]) -> DealtCards:
        """Read :meth:`to_json`'s form back, checked; :class:`SetupError` naming ``hands``."""
        hands = payload.get("hands")
        if not isinstance(hands, list) or not all(isinstance(h, str) for h in hands):
            raise SetupError("hands must be a list of 4 strings of cards", "hands")
        try:
            return cls(check_hands([parse_cards(h) for h in hands]))
        except BlotError as e:
            raise SetupError(e.as_reason() or e.message, "hands") from None


def random_deal(rng: Random) -> DealtCards:
    """Shuffle the 32 cards with ``rng`` and deal 8 to each seat (B-2)."""
    bits = shuffled_bits(DECK32, rng)
    return DealtCards((sum(bits[0:8]), sum(bits[8:16]), sum(bits[16:24]), sum(bits[24:32])))


def check_hands(hands: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Four hands of 8 distinct cards that together are the 32-card deck, or a
    :class:`SetupError` naming ``hands``."""
    if (
        len(hands) == 4
        and hands[0] | hands[1] | hands[2] | hands[3] == DECK32
        and hands[0].bit_count() == hands[1].bit_count() == hands[2].bit_count() == 8
    ):
        return tuple(hands)
    if len(hands) != 4:
        raise SetupError(f"a deal needs 4 hands, not {len(hands)}", "hands")
    seen = 0
    for seat, hand in enumerate(hands):
        if hand & ~DECK32:
            raise SetupError(
                f"seat {seat} holds {format_cards(hand & ~DECK32)}, not in the 32-card deck", "hands"
            )
        if hand.bit_count() != 8:
            raise SetupError(f"seat {seat} holds {hand.bit_count()} cards, not 8", "hands")
        if hand & seen:
            raise SetupError(f"{format_cards(hand & seen)} dealt twice", "hands")
        seen |= hand
    return tuple(hands)


@dataclass(frozen=True, slots=True)
class DealResult:
    """A finished deal as docs/format.md reports it; pairs are indexed by team."""

    dealer: int
    void: bool
    contract: Contract | None
    tricks: tuple[int, int]
    card_points: tuple[int, int]
    declaration_points: tuple[int, int]
    belote: tuple[int, int]
    made: bool | None
    points: tuple[int, int]
    tars_kapoot: bool
    kapoot: int | None

    @property
    def seat_points(self) -> tuple[int, ...]:
        """What the deal gave each seat: its team's game points."""
        p = self.points
        return (p[0], p[1], p[0], p[1])

    def to_json(self) -> dict[str, object]:
        """The object of one deal in ``blot replay --json`` (docs/format.md)."""
        c = self.contract
        return {
            "dealer": self.dealer,
            "void": self.void,
            "contract": None if c is None else c.to_json(),
            "tricks": list(self.tricks),
            "card_points": list(self.card_points),
            "declaration_points": list(self.declaration_points),
            "belote": list(self.belote),
            "made": self.made,
            "points": list(self.points),
        }


def void_result(dealer: int) -> DealResult:
    """A void deal (B-23, B-25): no contract, nothing scored."""
    return DealResult(dealer, True, None, (0, 0), (0, 0), (0, 0), (0, 0), None, (0, 0), False, None)
