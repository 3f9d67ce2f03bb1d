"""The one game interface: every part of blot (server, arena, simulator, records, bots, CLI)
drives either game through it without knowing which game it is (after OpenSpiel's ``State``
and python-chess's ``Board``).

Both engines implement it: :class:`blot.bazar.Game` and :class:`blot.three_five_eight.Game`.
A game is generic over its action type (a small immutable value whose ``str`` is its record
notation) and its view type (what one seat may know). The flow is always the same::

    seat = game.to_act
    action = game.parse_action(text)        # NotationError when the text is no action
    reason = game.refusal(action)           # why the rules refuse it, without applying it
    game.apply(action)                      # IllegalAction and no change when refused

>>> from random import Random
>>> from blot.games import names, spec
>>> game = spec(names()[1]).new_game(dealer=2, rng=Random(1))  # 3-5-8
>>> game.to_act, game.refusal(game.parse_action("AS"))
(0, Reason('tfe_must_call', seat=0, action=Card('AS')))
>>> str(game.refusal(game.parse_action("AS")))
'seat 0 must name a trump or pass now, and AS is not a call'
>>> game.apply(game.parse_action("NT"))
>>> game.refusal(game.parse_action("pass")) is None
False

Which games exist, and everything about each (its name, seats, rulesets, records, bots, the
JSON of its views), is in the registry :mod:`blot.games`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from enum import Enum
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Generic, Protocol, Self, TypeVar, runtime_checkable

from blot.cards import Card
from blot.errors import BlotError
from blot.reasons import Reason

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


@runtime_checkable
class Action(Protocol):
    """A small immutable value whose ``str`` is exactly its record notation (``10H``, ``pass``)."""

    def __str__(self) -> str: ...


A_co = TypeVar("A_co", bound=Action, covariant=True)
V_co = TypeVar("V_co", covariant=True)
V_contra = TypeVar("V_contra", contravariant=True)
R = TypeVar("R")
P = TypeVar("P", bound=Enum)


def check_seat(seat: int, seats: int) -> int:
    """``seat`` when it is one of the ``seats`` of a game, else BlotError saying what a seat is.

    >>> check_seat(4, 4)
    Traceback (most recent call last):
    ...
    blot.errors.BlotError: a seat is a number from 0 to 3, not 4
    """
    if not isinstance(seat, int) or seat not in range(seats):
        raise BlotError("seat_number_not", last=seats - 1, seat=seat)
    return seat


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick in either game: who led, the cards in playing order (one per seat), who
    took it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def seat_of(self, position: int) -> int:
        """The seat that played ``cards[position]``."""
        return (self.leader + position) % len(self.cards)

    @property
    def plays(self) -> tuple[tuple[int, Card], ...]:
        """The trick as (seat, card) pairs in playing order, as the trick in progress is given."""
        return tuple((self.seat_of(i), c) for i, c in enumerate(self.cards))


def completed_tricks(
    first_leader: int, plays: Sequence[Card], winners: Sequence[int], seats: int
) -> tuple[Trick, ...]:
    """The completed tricks of a deal from every card played in order (the trick in progress
    last) and each completed trick's winner, who leads the next (B-30, T-30)."""
    out = []
    leader = first_leader
    for i, winner in enumerate(winners):
        out.append(Trick(leader, tuple(plays[seats * i : seats * i + seats]), winner))
        leader = winner
    return tuple(out)


@dataclass(frozen=True, slots=True)
class PublicViewHead(Generic[R, P]):
    """What every public view of a game starts with, in both games: the rules, where the game
    stands, who acts, who dealt, and how many deals have been dealt (the current one included)."""

    rules: R
    phase: P
    to_act: int | None
    dealer: int
    deal_number: int


V = TypeVar("V")

#: Each public view type's field names and a getter of their values (a seat's view is built at
#: every move of every bot: the fields are listed once per type, not at each view).
_PUBLIC_FIELDS: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}


def seat_view(view_type: Callable[..., V], public: DataclassInstance, **own: Any) -> V:
    """A seat's view of a deal in either game: every field of the deal's public view as it is,
    then the seat's own (its hand, its choices, and any field it sees more of, such as the cards of
    an exchange it took part in). Written once, so that a field added to a public view reaches
    every seat's view too, and nobody copies the public fields one by one."""
    known = _PUBLIC_FIELDS.get(type(public))
    if known is None:
        names = tuple(f.name for f in fields(public))
        known = _PUBLIC_FIELDS[type(public)] = (names, attrgetter(*names))
    shared = dict(zip(known[0], known[1](public), strict=True))
    shared.update(own)
    return view_type(**shared)


class Rules(Protocol):
    """A game's ruleset and options, as records and tables name them."""

    @property
    def ruleset(self) -> str: ...

    def options(self) -> dict[str, Any]: ...


class View(Protocol):
    """What one seat may know. ``legal`` is empty unless that seat is to act."""

    @property
    def seat(self) -> int: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def legal(self) -> Sequence[Action]: ...


class PublicView(Protocol):
    """What everybody at the table may know (a spectator's view): no hand and no card that the
    rules have not shown to all. Each engine builds it from the public state alone, so it holds
    nothing secret by construction (it is not a seat's view with fields removed)."""

    @property
    def rules(self) -> Rules: ...

    @property
    def to_act(self) -> int | None: ...


class DealState(Protocol):
    """One deal, in the words both games share."""

    @property
    def dealer(self) -> int: ...

    @property
    def phase(self) -> Enum:
        """Where the deal stands (each game's own ``Phase``)."""
        ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def is_void(self) -> bool: ...

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]: ...

    @property
    def tricks(self) -> tuple[Trick, ...]: ...

    @property
    def tricks_taken(self) -> tuple[int, ...]: ...

    @property
    def plays(self) -> tuple[Card, ...]: ...

    @property
    def hands(self) -> tuple[int, ...]:
        """Each seat's cards still in its hand (a card set)."""
        ...


class DealtCards(Protocol):
    """The cards of one deal as dealt; ``to_json`` is the form a table's log stores."""

    @property
    def hands(self) -> tuple[int, ...]: ...

    def to_json(self) -> dict[str, Any]: ...


class DealResult(Protocol):
    """A finished deal: ``to_json`` is its object in ``blot replay --json``."""

    @property
    def void(self) -> bool: ...

    @property
    def seat_points(self) -> tuple[int, ...]:
        """What the deal gave each seat (Bazar Blot: its team's game points; 3-5-8: its score)."""
        ...

    def to_json(self) -> dict[str, object]: ...


DR = TypeVar("DR", bound=DealResult)
T = TypeVar("T", bound=tuple[int, ...])


@dataclass(frozen=True, slots=True)
class GameResultHead(Generic[DR, T]):
    """What both games' results start with (docs/format.md): every deal (void ones too), the
    totals, whether the game is finished, and the winner (a team in Bazar Blot, a seat in 3-5-8)."""

    deals: tuple[DR, ...]
    totals: T
    finished: bool
    winner: int | None

    def _json_head(self, game: str) -> dict[str, Any]:
        """The first keys of the game's ``blot replay --json`` object."""
        return {
            "game": game,
            "deals": [d.to_json() for d in self.deals],
            "totals": list(self.totals),
            "finished": self.finished,
            "winner": self.winner,
        }


class GameResult(Protocol):
    """A game so far: ``to_json`` is the ``blot replay --json`` object of docs/format.md."""

    @property
    def deals(self) -> Sequence[DealResult]:
        """Every finished deal, void ones included."""
        ...

    @property
    def finished(self) -> bool: ...

    def ranking(self) -> tuple[int, ...]:
        """Each seat's place once the game is finished: 0 for the winners, 1 for the next …"""
        ...

    @property
    def bars_losers(self) -> bool:
        """The game ended in a way that bars its losers from playing together for a time (Bazar
        Blot's tars kapoot, B-55, under the League's rules)."""
        ...

    def to_json(self) -> dict[str, Any]: ...


class GameState(Protocol[A_co, V_co]):
    """A whole game of either kind, generic over its action type and its view type."""

    @property
    def seats(self) -> int: ...

    @property
    def to_act(self) -> int | None:
        """The seat to act, ``None`` while nobody may act (between deals, at the end)."""
        ...

    @property
    def phase(self) -> Enum:
        """Where the game stands (each game's own ``Phase``; ``DEAL`` while it waits for cards)."""
        ...

    @property
    def is_over(self) -> bool: ...

    @property
    def result(self) -> GameResult: ...

    @property
    def deal(self) -> DealState | None:
        """The deal in progress, or the last one until the next is dealt (``None`` before the
        first)."""
        ...

    @property
    def deals(self) -> Sequence[DealState]: ...

    @property
    def needs_cards(self) -> bool:
        """The game waits for :meth:`start_deal` (a game without its own random source)."""
        ...

    def start_deal(self, cards: Any = None) -> DealState:
        """Deal the next deal: ``cards`` as given (the game's ``DealtCards``), or shuffled by the
        game's own random source when ``None``."""
        ...

    def legal_actions(self) -> Sequence[A_co]: ...

    def parse_action(self, text: str) -> A_co:
        """Read an action in record notation as the current phase means it (a Bazar Blot ``8H``
        is a bid in the bidding and a card after it); ``NotationError`` when it is none."""
        ...

    def refusal(self, action: object) -> Reason | None:
        """The reason the rules would refuse ``action`` now (its key and parts; ``str()`` is its
        English sentence), or ``None`` when it is legal; the game is not changed."""
        ...

    def auto_action(self) -> A_co:
        """The documented automatic move of the seat to act (docs/protocol.md): what a turn timer
        that runs out, or a bot that fails, plays."""
        ...

    def apply(self, action: object) -> None:
        """Play ``action`` for the seat to act; anything that is not an action of the game, or
        that the rules refuse now, raises ``IllegalAction`` and changes nothing."""
        ...

    def view(self, seat: int) -> V_co:
        """What ``seat`` may know: its own cards and everything public."""
        ...

    def public_view(self) -> PublicView:
        """What everybody may know (spectators): built from the public state only."""
        ...

    def copy(self) -> Self: ...


class Bot(Protocol[V_contra, A_co]):
    """A computer player: it sees only its seat's view. It may also have ``reset()``, called
    before each new game or duplicate deal."""

    def choose(self, view: V_contra) -> A_co: ...


#: A game of either kind, as code that does not know which holds it.
AnyGame = GameState[Action, View]


@dataclass
class Replay:
    """A record replayed through the engine: the game as the record's last deal leaves it, and
    the record's player names. Here, below the registry and the layers, which both name it
    (``blot.records`` hands it on)."""

    game: AnyGame
    players: list[str] | None

    @property
    def name(self) -> str:
        """The game's name (``bazar-blot``, ``3-5-8``)."""
        return str(self.to_json()["game"])

    def to_json(self) -> dict[str, Any]:
        """The ``blot replay --json`` object of docs/format.md."""
        return self.game.result.to_json()
