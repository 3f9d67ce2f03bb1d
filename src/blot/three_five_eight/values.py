"""The small values a 3-5-8 deal, its views and the game share: the game's name, the seats,
where a deal stands, the actions, the cards as dealt, an exchange step and a deal's result."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from random import Random
from typing import Any, Final, TypeAlias

from blot.cards import DECK52, Card, cards_of, format_cards, parse_cards
from blot.errors import BlotError, SetupError
from blot.three_five_eight.calls import Call

#: The game's name in records, the registry and the server.
GAME_NAME: Final = "3-5-8"
SEATS: Final = 3
HAND_SIZE: Final = 16
TALON_SIZE: Final = 4
TRICKS: Final = 16
#: The seat after each seat, and the one before it (T-1).
NEXT: Final = (1, 2, 0)
PREV: Final = (2, 0, 1)

#: Anything ``apply`` takes: a trump call, or a card (a gift, a discard or a play; the phase
#: says which).
Action: TypeAlias = Call | Card
#: Cards as the constructors accept them: a card set, a notation string or cards.
CardsLike: TypeAlias = int | str | Iterable[Card]


class Phase(Enum):
    """Where a deal (or a game) stands. ``DEAL`` is only a game's: it waits for the cards of the
    next deal (a game replayed from a record is given each deal's cards)."""

    DEAL = "deal"
    CALL = "call"
    EXCHANGE = "exchange"
    DISCARD = "discard"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Exchange:
    """One step of the exchange (T-20, T-21): ``giver`` gave ``gift`` to ``receiver``, who gave
    back ``returned`` (the gift itself when he held nothing stronger in its suit). In a seat's
    view both cards are ``None`` unless that seat is the giver or the receiver."""

    giver: int
    receiver: int
    gift: Card | None
    returned: Card | None


@dataclass(frozen=True, slots=True)
class DealResult:
    """A finished deal, indexed by seat (docs/format.md). A void deal (three passes, T-10) has no
    trump or caller and zero tricks and scores."""

    dealer: int
    void: bool
    #: The strain named (a suit call or ``NT``); ``None`` for a void deal.
    trump: Call | None
    caller: int | None
    targets: tuple[int, int, int]
    tricks: tuple[int, int, int]
    #: Tricks minus target (T-40); they add up to 0.
    scores: tuple[int, int, int]
    #: The seat that took each trick, first to last (T-50's tie-break looks back along it).
    trick_winners: tuple[int, ...] = ()
    #: How many cards were given in the exchange (T-20); 0 on the first counted deal, after NT.
    exchanged: int = 0

    @property
    def seat_points(self) -> tuple[int, ...]:
        """What the deal gave each seat: its score (T-40)."""
        return self.scores

    def to_json(self) -> dict[str, object]:
        """The object of one deal in ``blot replay --json`` (docs/format.md)."""
        return {
            "dealer": self.dealer,
            "void": self.void,
            "trump": None if self.trump is None else self.trump.text,
            "caller": self.caller,
            "targets": list(self.targets),
            "tricks": list(self.tricks),
            "scores": list(self.scores),
        }


@dataclass(frozen=True, slots=True)
class DealtCards:
    """The cards of one deal as dealt (T-2): three hands of 16 and the talon of 4, as card sets."""

    hands: tuple[int, ...]
    talon: int

    def to_json(self) -> dict[str, Any]:
        """As a table's log stores them: ``{"hands": [...], "talon": "..."}``."""
        return {"hands": [format_cards(h) for h in self.hands], "talon": format_cards(self.talon)}

    @classmethod
    def from_json(cls, payload: Mapping[str, Any]) -> DealtCards:
        """Read :meth:`to_json`'s form back, checked; :class:`SetupError` naming the field."""
        hands, talon = payload.get("hands"), payload.get("talon")
        if not isinstance(hands, list) or not all(isinstance(h, str) for h in hands):
            raise SetupError("hands must be a list of 3 strings of cards", "hands")
        if not isinstance(talon, str):
            raise SetupError("the talon must be a string of 4 cards", "talon")
        return check_cards(hands, talon)


def _card_set(cards: CardsLike, what: str, field: str) -> int:
    try:
        if isinstance(cards, int):
            if cards & ~DECK52:
                raise SetupError(f"{what} holds bits that are not cards of the 52-card deck", field)
            return cards
        if isinstance(cards, str):
            return parse_cards(cards)
        mask = 0
        for c in cards:
            if not isinstance(c, Card):
                raise SetupError(f"{what} holds {c!r}, which is not a card", field)
            if mask & c.bit:
                raise SetupError(f"{c} appears twice in {what}", field)
            mask |= c.bit
        return mask
    except SetupError:
        raise
    except BlotError as e:
        raise SetupError(e.as_reason() or e.message, field) from None


def check_cards(hands: Sequence[CardsLike], talon: CardsLike) -> DealtCards:
    """Three hands of 16 cards and a talon of 4 that together are the 52-card deck (T-2), or a
    :class:`~blot.errors.SetupError` saying what is wrong and naming ``hands`` or ``talon``."""
    if isinstance(hands, str | int) or len(hands) != SEATS:
        raise SetupError(f"a 3-5-8 deal needs {SEATS} hands", "hands")
    sets = [_card_set(h, f"the hand of seat {s}", "hands") for s, h in enumerate(hands)]
    sets.append(_card_set(talon, "the talon", "talon"))
    seen = 0
    for i, cards in enumerate(sets):
        who = f"seat {i} holds" if i < SEATS else "the talon holds"
        size = HAND_SIZE if i < SEATS else TALON_SIZE
        field = "hands" if i < SEATS else "talon"
        if cards.bit_count() != size:
            raise SetupError(f"{who} {cards.bit_count()} cards, not {size}", field)
        if cards & seen:
            raise SetupError(f"{format_cards(cards & seen)} dealt twice", field)
        seen |= cards
    return DealtCards((sets[0], sets[1], sets[2]), sets[3])


_BITS52: Final = tuple(c.bit for c in cards_of(DECK52))
_RADICES: Final = tuple(range(52, 1, -1))
#: Random bits for one shuffle: 52! possible orders plus 64 bits so that the bias is below 2**-64.
_SHUFFLE_BITS: Final = math.factorial(52).bit_length() + 64


def random_deal(rng: Random) -> DealtCards:
    """Shuffle the 52 cards with ``rng`` and deal 16 to each seat and 4 to the talon (T-2).

    A Fisher-Yates shuffle driven by one ``getrandbits`` call read in mixed radix (52, 51, …):
    uniform to within 2**-64 and faster than ``rng.shuffle`` (every random deal pays for it).
    """
    x = rng.getrandbits(_SHUFFLE_BITS)
    bits = list(_BITS52)
    for n in _RADICES:
        x, j = divmod(x, n)
        bits[n - 1], bits[j] = bits[j], bits[n - 1]
    return DealtCards((sum(bits[0:16]), sum(bits[16:32]), sum(bits[32:48])), sum(bits[48:52]))
