"""Toy Duel: a third game that lives only in the tests (issue 39 item 4), to prove that a game is
its own modules and one spec. Two seats, six cards (A K Q of spades and hearts), three to each;
the seat after the dealer leads, the other follows suit if it can, the higher card of the suit
led wins the trick and leads the next. A deal gives a point per trick; a game is three deals.

It provides only the required layers (this module, :mod:`toygame.records`, :mod:`toygame.wire`)
and a page presenter (``toy.js``, served from here); it is registered with
:func:`blot.games.register` by the tests that use it (:func:`registered`), nothing else."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from random import Random
from types import MappingProxyType
from typing import Any, Final

from blot.cards import Card, cards_of, format_cards, parse_card, parse_cards
from blot.engine import automatic
from blot.errors import IllegalAction, NotationError, SetupError
from blot.game import Trick, check_seat
from blot.games import GameSpec, register, unregister
from blot.layers import Engine, Records, Wire

GAME_NAME: Final = "toy-duel"
SEATS: Final = 2
DEALS: Final = 3
DECK: Final = cards_of(parse_cards("AS KS QS AH KH QH"))
#: The trick order within a suit, high to low.
ORDER: Final = ("A", "K", "Q")


class Phase(Enum):
    DEAL = "deal"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Preset:
    """A ruleset of the toy: only its name by language."""

    labels: Mapping[str, str]


PRESETS: Final[dict[str, Preset]] = {
    "plain": Preset(MappingProxyType({"hy": "Պարզ", "ru": "Простые", "bg": "Прости", "en": "Plain"}))
}


@dataclass(frozen=True, slots=True)
class Rules:
    ruleset: str = "plain"

    def __post_init__(self) -> None:
        if self.ruleset not in PRESETS:
            raise SetupError(f"unknown ruleset {self.ruleset!r}: use {' or '.join(PRESETS)}", "ruleset")

    def options(self) -> dict[str, Any]:
        return {}

    @staticmethod
    def option_fields() -> list[dict[str, Any]]:
        return []

    @classmethod
    def from_record(cls, ruleset: object = None, options: object = None) -> Rules:
        if options not in (None, {}):
            raise SetupError("Toy Duel has no options", "options")
        if ruleset is None:
            ruleset = next(iter(PRESETS))
        if not isinstance(ruleset, str):
            raise SetupError(f"ruleset must be {' or '.join(PRESETS)}", "ruleset")
        return cls(ruleset)


@dataclass(frozen=True, slots=True)
class DealtCards:
    hands: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"hands": [format_cards(h) for h in self.hands]}

    @classmethod
    def from_json(cls, payload: Mapping[str, Any]) -> DealtCards:
        hands = tuple(parse_cards(text) for text in payload["hands"])
        if len(hands) != SEATS or sum(bin(h).count("1") for h in hands) != len(DECK):
            raise SetupError("a Toy Duel deal is three cards to each of two seats", "hands")
        return cls(hands)


def random_deal(rng: Random) -> DealtCards:
    cards = list(DECK)
    rng.shuffle(cards)
    return DealtCards((sum(c.bit for c in cards[:3]), sum(c.bit for c in cards[3:])))


def _beats(card: Card, best: Card) -> bool:
    return card.suit == best.suit and ORDER.index(card.text[:-1]) < ORDER.index(best.text[:-1])


@dataclass
class Deal:
    dealer: int
    dealt: tuple[int, ...]
    held: list[int]
    played: list[Card] = field(default_factory=list)
    done: list[Trick] = field(default_factory=list)
    leader: int = 0

    @property
    def hands(self) -> tuple[int, ...]:
        return tuple(self.held)

    @property
    def plays(self) -> tuple[Card, ...]:
        return tuple(self.played)

    @property
    def is_void(self) -> bool:
        return False

    @property
    def phase(self) -> Phase:
        return Phase.OVER if self.is_over else Phase.PLAY

    @property
    def is_over(self) -> bool:
        return len(self.done) == len(DECK) // SEATS

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        current = self.played[len(self.done) * SEATS :]
        return tuple(((self.leader + i) % SEATS, c) for i, c in enumerate(current))

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self.done)

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        return tuple(sum(t.winner == s for t in self.done) for s in range(SEATS))

    @property
    def to_act(self) -> int | None:
        if self.is_over:
            return None
        return (self.leader + len(self.trick)) % SEATS

    def legal_actions(self) -> Sequence[Card]:
        seat = self.to_act
        if seat is None:
            return ()
        hand = cards_of(self.held[seat])
        trick = self.trick
        if trick:
            same = [c for c in hand if c.suit == trick[0][1].suit]
            if same:
                return same
        return hand

    def parse_action(self, text: str) -> Card:
        return parse_card(text)

    def refusal(self, action: object) -> str | None:
        if self.is_over:
            return "the deal is over"
        if not isinstance(action, Card):
            return f"{action!r} is not a card"
        if action not in self.legal_actions():
            seat = self.to_act
            if not self.held[seat or 0] & action.bit:
                return f"seat {seat} does not hold {action}"
            return f"seat {seat} must follow suit and may not play {action}"
        return None

    def apply(self, action: object) -> None:
        reason = self.refusal(action)
        if reason is not None:
            raise IllegalAction(reason)
        assert isinstance(action, Card)
        seat = self.to_act
        assert seat is not None
        self.held[seat] &= ~action.bit
        self.played.append(action)
        trick = self.trick
        if len(trick) == SEATS:
            winner, best = trick[0]
            for s, c in trick[1:]:
                if _beats(c, best):
                    winner, best = s, c
            self.done.append(Trick(leader=trick[0][0], cards=tuple(c for _, c in trick), winner=winner))
            self.leader = winner

    def copy(self) -> Deal:
        return Deal(self.dealer, self.dealt, list(self.held), list(self.played), list(self.done), self.leader)


@dataclass(frozen=True, slots=True)
class DealResult:
    seat_points: tuple[int, ...]
    void: bool = False

    def to_json(self) -> dict[str, object]:
        return {"points": list(self.seat_points)}


@dataclass(frozen=True, slots=True)
class GameResult:
    deals: tuple[DealResult, ...]
    totals: tuple[int, ...]
    finished: bool
    winner: int | None
    bars_losers = False

    def ranking(self) -> tuple[int, ...]:
        return tuple(0 if seat == self.winner else 1 for seat in range(SEATS))

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME_NAME,
            "deals": [d.to_json() for d in self.deals],
            "totals": list(self.totals),
            "finished": self.finished,
            "winner": self.winner,
        }


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everybody sees: the trick, the tricks taken, the totals (no hand, no choices)."""

    rules: Rules
    phase: Phase
    to_act: int | None
    dealer: int
    deal_number: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    tricks_taken: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    #: The deal's result once it is over (before the next is dealt), else None.
    result: DealResult | None
    totals: tuple[int, ...]
    #: The winner once the game is over, else None.
    winner: int | None
    finished: bool


@dataclass(frozen=True, slots=True)
class View(PublicView):
    """A seat's view: the public one, its hand and, when it is to act, its choices."""

    seat: int
    hand: int
    legal: tuple[Card, ...]


class Game:
    seats = SEATS

    def __init__(self, rules: Rules | None = None, dealer: int = 1, rng: Random | None = None) -> None:
        self._rules = rules or Rules()
        self._first_dealer = dealer
        self._rng = rng
        self._deals: list[Deal] = []
        if rng is not None:  # it deals its own cards
            self.start_deal()

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def deals(self) -> tuple[Deal, ...]:
        return tuple(self._deals)

    @property
    def deal(self) -> Deal | None:
        return self._deals[-1] if self._deals else None

    @property
    def dealer(self) -> int:
        return (self._first_dealer + max(len(self._deals) - 1, 0)) % SEATS

    @property
    def is_over(self) -> bool:
        return len(self._deals) == DEALS and self._deals[-1].is_over

    @property
    def needs_cards(self) -> bool:
        return not self.is_over and (not self._deals or self._deals[-1].is_over)

    @property
    def phase(self) -> Phase:
        if self.is_over:
            return Phase.OVER
        return Phase.DEAL if self.needs_cards else Phase.PLAY

    @property
    def to_act(self) -> int | None:
        return None if self.needs_cards or self.is_over else self._deals[-1].to_act

    def start_deal(self, cards: DealtCards | None = None) -> Deal:
        if self.is_over:
            raise IllegalAction("the game is over")
        if not self.needs_cards:
            raise IllegalAction("the current deal is not over yet")
        if cards is None:
            if self._rng is None:
                raise SetupError("this game has no random source: give the cards of the deal", "hands")
            cards = random_deal(self._rng)
        dealer = (self._first_dealer + len(self._deals)) % SEATS
        deal = Deal(dealer, tuple(cards.hands), list(cards.hands), leader=(dealer + 1) % SEATS)
        self._deals.append(deal)
        return deal

    def legal_actions(self) -> Sequence[Card]:
        return () if self.needs_cards or self.is_over else self._deals[-1].legal_actions()

    def parse_action(self, text: str) -> Card:
        if self.needs_cards or self.is_over:
            raise IllegalAction("no deal is in progress: the next deal must be dealt first")
        return parse_card(text)

    def refusal(self, action: object) -> str | None:
        if self.is_over:
            return "the game is over"
        if self.needs_cards:
            return "no deal is in progress: the next deal must be dealt first"
        return self._deals[-1].refusal(action)

    def auto_action(self) -> Card:
        return automatic(self.legal_actions())

    def apply(self, action: object) -> None:
        reason = self.refusal(action)
        if reason is not None:
            raise IllegalAction(reason)
        self._deals[-1].apply(action)
        if self._rng is not None and self.needs_cards:
            self.start_deal()

    @property
    def result(self) -> GameResult:
        deals = tuple(DealResult(d.tricks_taken) for d in self._deals if d.is_over)
        totals = tuple(sum(d.seat_points[s] for d in deals) for s in range(SEATS))
        winner = max(range(SEATS), key=lambda s: totals[s]) if self.is_over else None
        return GameResult(deals, totals, self.is_over, winner)

    def public_view(self) -> PublicView:
        deal = self.deal
        result = self.result
        return PublicView(
            rules=self._rules,
            phase=self.phase,
            to_act=self.to_act,
            dealer=self.dealer,
            deal_number=len(self._deals),
            trick=deal.trick if deal else (),
            tricks=deal.tricks if deal else (),
            tricks_taken=deal.tricks_taken if deal else (0, 0),
            hand_sizes=tuple(h.bit_count() for h in deal.hands) if deal else (0, 0),
            result=DealResult(deal.tricks_taken) if deal and deal.is_over else None,
            totals=result.totals,
            winner=result.winner,
            finished=result.finished,
        )

    def view(self, seat: int) -> View:
        seat = check_seat(seat, SEATS)
        deal = self.deal
        public = self.public_view()
        legal = tuple(self.legal_actions()) if seat == self.to_act else ()
        fields = {name: getattr(public, name) for name in PublicView.__dataclass_fields__}
        return View(**fields, seat=seat, hand=deal.hands[seat] if deal else 0, legal=legal)

    def copy(self) -> Game:
        twin = Game(self._rules, self._first_dealer, None)
        twin._rng = None if self._rng is None else Random()
        if self._rng is not None:
            assert twin._rng is not None
            twin._rng.setstate(self._rng.getstate())
        twin._deals = [d.copy() for d in self._deals]
        return twin


HERE = Path(__file__).resolve().parent
SPEC: Final = GameSpec(
    name=GAME_NAME,
    title="Toy Duel",
    seats=SEATS,
    teams=((0,), (1,)),
    package="toy_duel",
    bots={"random": "blot.bots.random_bot:RandomBot"},
    modules={Engine: "toygame", Records: "toygame.records", Wire: "toygame.wire"},
    web_presenter=str(HERE / "toy.js"),
)


@contextmanager
def registered() -> Iterator[GameSpec]:
    """The toy game in the registry for a while (a test's fixture)."""
    register(SPEC)
    try:
        yield SPEC
    finally:
        unregister(SPEC.name)


__all__ = ["PRESETS", "SPEC", "DealtCards", "Game", "NotationError", "Rules", "random_deal", "registered"]
