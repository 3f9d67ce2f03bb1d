"""One deal of Bazar Blot: bidding, declarations in the first trick, eight tricks, scoring.

>>> from random import Random
>>> from blot.bazar import Deal, random_hands
>>> deal = Deal(random_hands(Random(1)), dealer=3)
>>> deal.to_act, deal.phase.value
(0, 'bidding')
>>> rng = Random(2)
>>> while not deal.is_over:
...     deal.apply(rng.choice(deal.legal_actions()))
>>> sum(deal.card_points)
162
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from random import Random
from typing import TYPE_CHECKING, Final, NamedTuple

from blot.bazar.bidding import Bidding, Contract, Stage
from blot.bazar.calls import Call
from blot.bazar.declarations import (
    DECLARE_NONE,
    NO_DECLARATIONS,
    Declaration,
    Declare,
    Outcome,
    best_choice,
    choices,
    may_hold_declaration,
    resolve,
)
from blot.bazar.play import legal_mask, refusal_reason
from blot.bazar.rules import Rules
from blot.bazar.scoring import DealScore, DealSummary, score_deal
from blot.bazar.tables import KEY, LAST_TRICK, NT, POINTS, STRAIN_INDEX
from blot.cards import (
    DECK32,
    KING,
    QUEEN,
    Card,
    cards_of,
    cards_tuple,
    format_cards,
    shuffled_bits,
)
from blot.errors import BlotError, IllegalAction
from blot.protocol import Action as ProtocolAction

if TYPE_CHECKING:
    from blot.bazar.view import BazarView

DEFAULT_RULES: Final = Rules()


class Phase(Enum):
    BIDDING = "bidding"
    PLAY = "play"
    OVER = "over"


_PLAY: Final = Phase.PLAY  # hot paths compare with module constants, cheaper than enum lookups
_BIDDING: Final = Phase.BIDDING
#: B-42: the king and queen of each trump suit.
BELOTE: Final = tuple((1 << (16 * s + KING)) | (1 << (16 * s + QUEEN)) for s in range(4))


Action = Call | Card | Declare


class Trick(NamedTuple):
    """A completed trick: who led, the cards in playing order, who won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def seat_of(self, position: int) -> int:
        return (self.leader + position) % 4


#: The cards of ranks 7 … A of one suit by their 8 bits (``legal_actions`` reads these).
_SPADES, _HEARTS, _DIAMONDS, _CLUBS = (
    tuple(cards_tuple(pattern << (16 * suit + 7)) for pattern in range(256)) for suit in range(4)
)


def random_hands(rng: Random) -> list[int]:
    """Shuffle the 32 cards and deal 8 to each seat (B-2)."""
    bits = shuffled_bits(DECK32, rng)
    return [sum(bits[0:8]), sum(bits[8:16]), sum(bits[16:24]), sum(bits[24:32])]


def check_hands(hands: Sequence[int]) -> tuple[int, ...]:
    """Four hands of 8 distinct cards that together are the 32-card deck, or a BlotError."""
    if (
        len(hands) == 4
        and hands[0] | hands[1] | hands[2] | hands[3] == DECK32
        and hands[0].bit_count() == hands[1].bit_count() == hands[2].bit_count() == 8
    ):
        return tuple(hands)
    if len(hands) != 4:
        raise BlotError(f"a deal needs 4 hands, not {len(hands)}")
    seen = 0
    for seat, hand in enumerate(hands):
        if hand & ~DECK32:
            raise BlotError(f"seat {seat} holds {format_cards(hand & ~DECK32)}, not in the 32-card deck")
        if hand.bit_count() != 8:
            raise BlotError(f"seat {seat} holds {hand.bit_count()} cards, not 8")
        if hand & seen:
            raise BlotError(f"{format_cards(hand & seen)} dealt twice")
        seen |= hand
    return tuple(hands)


class Deal:
    """The whole state of one deal. ``apply`` checks every action against the rules first and
    raises :class:`IllegalAction` without changing anything when it is refused."""

    __slots__ = (
        "_belote_pair",
        "_keys",
        "_legal",
        "_undeclared",
        "belote_seat",
        "belotes",
        "bidding",
        "card_points",
        "contract",
        "dealer",
        "dealt",
        "declared",
        "hands",
        "is_over",
        "leader",
        "options",
        "outcome",
        "phase",
        "play",
        "rules",
        "score",
        "summary",
        "tix",
        "trick",
        "tricks_won",
        "win_pos",
        "winners",
    )

    def __init__(self, hands: Sequence[int], dealer: int = 0, rules: Rules = DEFAULT_RULES) -> None:
        if dealer not in range(4):
            raise BlotError(f"dealer must be a seat from 0 to 3, not {dealer}")
        self.rules = rules
        self.dealer = dealer
        self.dealt = check_hands(hands)
        self.hands = list(self.dealt)
        self.bidding = Bidding(rules, dealer, self.dealt)
        self.phase = Phase.BIDDING
        self.is_over = False
        self.contract: Contract | None = None
        self.tix = NT
        self.leader = (dealer + 1) % 4  # B-30
        self.trick: list[int] = []
        self.win_pos = 0
        self.winners: list[int] = []  # the winner of each completed trick
        self.tricks_won = [0, 0, 0, 0]
        self.card_points = [0, 0]
        self.play: list[Card] = []
        self.options: list[tuple[Declare, ...]] = [(), (), (), ()]
        self.declared: list[tuple[Declaration, ...] | None] = [(), (), (), ()]
        self.outcome: Outcome = NO_DECLARATIONS
        self.belote_seat: int | None = None
        self.belotes: list[tuple[int, Card]] = []
        self.summary: DealSummary | None = None
        self.score: DealScore | None = None
        self._legal = 0  # in play: the cards the seat to act may play (0 while it must declare)
        self._keys = KEY[NT]  # in play: KEY[tix], the strength of each card (B-34)
        self._belote_pair = 0  # in play: trump K and Q when one seat holds both (B-42)
        self._undeclared = 0  # seats still to say what they declare in the first trick

    # --- state -------------------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        if self.phase is Phase.PLAY:
            return (self.leader + len(self.trick)) % 4
        if self.phase is Phase.BIDDING:
            return self.bidding.to_act
        return None

    @property
    def void(self) -> bool:
        return self.bidding.stage is Stage.VOID

    @property
    def calls(self) -> list[Call]:
        return self.bidding.calls

    @property
    def tricks(self) -> list[Trick]:
        """The completed tricks, in order."""
        out = []
        leader = (self.dealer + 1) % 4
        for i, winner in enumerate(self.winners):
            out.append(Trick(leader, tuple(self.play[4 * i : 4 * i + 4]), winner))
            leader = winner
        return out

    @property
    def trump(self) -> int | None:
        """The trump suit index, None in a no-trump deal or before the contract."""
        return None if self.tix == NT else self.tix

    @property
    def must_declare(self) -> bool:
        """The seat to act is in the first trick and has not yet said what it declares."""
        return (
            self.phase is Phase.PLAY
            and not self.winners
            and self.declared[(self.leader + len(self.trick)) % 4] is None
        )

    def copy(self) -> Deal:
        """An independent copy, cheap enough for search."""
        other = object.__new__(Deal)
        for name in Deal.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands.copy()
        other.bidding = self.bidding if self.bidding.is_over else self.bidding.copy()
        other.trick = self.trick.copy()
        other.winners = self.winners.copy()
        other.tricks_won = self.tricks_won.copy()
        other.card_points = self.card_points.copy()
        other.play = self.play.copy()
        other.declared = self.declared.copy()
        other.belotes = self.belotes.copy()
        return other

    # --- actions -----------------------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        """The actions the seat to act may take now (empty when the deal is over)."""
        if self.phase is _PLAY:
            m = self._legal
            if not m:
                return self.options[(self.leader + len(self.trick)) % 4]
            s = _SPADES[(m >> 7) & 255]
            h = _HEARTS[(m >> 23) & 255]
            d = _DIAMONDS[(m >> 39) & 255]
            c = _CLUBS[m >> 55]
            if not (h or d or c):
                return s
            return s + h + d + c
        if self.phase is _BIDDING:
            return self.bidding.legal_calls()
        return ()

    def apply(self, action: ProtocolAction) -> None:
        """Take ``action`` (a Call, Declare or Card) for the seat to act. Any object is taken,
        so that a deal is a :class:`blot.protocol.State`; what is not an action now is refused."""
        # ``_legal`` is empty outside the play, so one test tells a legal card.
        if type(action) is not Card or not action.bit & self._legal:
            self._apply_other(action)
            return
        # A legal card: the hot path of every search, written out in full.
        trick = self.trick
        n = len(trick)
        seat = (self.leader + n) & 3
        hands = self.hands
        hands[seat] ^= action.bit
        self.play.append(action)
        index = action.index
        if n:
            keys = self._keys
            if keys[index] > keys[trick[self.win_pos]] and (
                index >> 4 == trick[0] >> 4 or keys[index] >= 100
            ):
                self.win_pos = n
        else:
            self.win_pos = 0
        trick.append(index)
        if action.bit & self._belote_pair:
            self.belotes.append((seat, action))
        if n == 3:
            self._end_trick()
            return
        seat = (seat + 1) & 3
        if self._undeclared and self.declared[seat] is None:
            self._legal = 0
        else:
            self._legal = legal_mask(hands[seat], trick, self.win_pos, self.tix)

    def _set_legal(self, seat: int) -> None:
        """B-31 … B-33 for the seat to act; nothing while it must first declare (B-43)."""
        if self._undeclared and self.declared[seat] is None:
            self._legal = 0
        else:
            self._legal = legal_mask(self.hands[seat], self.trick, self.win_pos, self.tix)

    def _apply_other(self, action: ProtocolAction) -> None:
        if isinstance(action, str):
            raise IllegalAction(
                f"the text {action!r} is not an action: read it with parse_call or parse_card first"
            )
        if self.phase is _PLAY:
            if type(action) is Card:
                raise IllegalAction(self._card_refusal(action))
            if type(action) is not Declare:
                raise IllegalAction(f"{action} is not a card: the bidding is over")
            self._declare(action)
        elif self.phase is _BIDDING:
            if type(action) is not Call:
                raise IllegalAction(f"{action} is not a call: the bidding is not over")
            self.bidding.apply(action)
            if self.bidding.is_over:
                self._end_bidding()
        else:
            raise IllegalAction("the deal is over")

    def _end_bidding(self) -> None:
        self.contract = self.bidding.contract
        if self.contract is None:
            self.phase = Phase.OVER
            self.is_over = True
            return
        self.tix = STRAIN_INDEX[self.contract.strain]
        self._keys = KEY[self.tix]
        self.phase = Phase.PLAY
        self.options = [(), (), (), ()]  # a new list: copies made during the bidding share the old one
        for seat, hand in enumerate(self.dealt):
            if may_hold_declaration(hand):  # false for most hands, and cheap
                options = choices(hand)
                if len(options) > 1:
                    self.options[seat] = options
                    self.declared[seat] = None
                    self._undeclared += 1
        if self.tix != NT:
            pair = BELOTE[self.tix]
            for seat, hand in enumerate(self.dealt):
                if hand & pair == pair:
                    self.belote_seat = seat
                    self._belote_pair = pair
        self._set_legal(self.leader)

    def _declare(self, action: Declare) -> None:
        seat = (self.leader + len(self.trick)) % 4
        if self.winners:
            raise IllegalAction(f"seat {seat} may declare only in the first trick, before its card")
        if not self.options[seat]:
            raise IllegalAction(f"seat {seat} has nothing to declare")
        if self.declared[seat] is not None:
            raise IllegalAction(f"seat {seat} has already said what it declares")
        if action not in self.options[seat]:
            raise IllegalAction(f"seat {seat} cannot declare {action}: {self._why_not(seat, action)}")
        self.declared[seat] = action.declarations
        self._undeclared -= 1
        self._set_legal(seat)

    def _why_not(self, seat: int, action: Declare) -> str:
        used = 0
        for d in action.declarations:
            if d.mask & ~self.dealt[seat]:
                return f"it does not hold {format_cards(d.mask & ~self.dealt[seat])}"
            if d.mask & used:
                return "a card may serve in only one declaration (B-43)"
            used |= d.mask
        return "that is not a set of declarations it holds"

    def _card_refusal(self, card: Card) -> str:
        seat = (self.leader + len(self.trick)) % 4
        hand = self.hands[seat]
        if not hand & card.bit:
            return f"seat {seat} does not hold {card}"
        if not self.winners and self.declared[seat] is None:
            return f"seat {seat} must say what it declares before playing its first card"
        return refusal_reason(seat, hand, self.trick, self.win_pos, self.tix, card.index)

    def _end_trick(self) -> None:
        trick = self.trick
        winner = (self.leader + self.win_pos) % 4
        points = POINTS[self.tix]
        gained = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
        winners = self.winners
        winners.append(winner)
        self.tricks_won[winner] += 1
        done = len(winners)
        if done == 8:
            gained += LAST_TRICK
        self.card_points[winner % 2] += gained
        self.leader = winner
        self.trick = []
        self._legal = self.hands[winner]  # B-30: the winner leads, any card
        if done == 1:
            if any(self.declared):
                self.outcome = resolve([d or () for d in self.declared], self.rules, self.tix, winner)
        elif done == 8:
            self._legal = 0
            self._score()

    def _score(self) -> None:
        contract = self.contract
        assert contract is not None
        team = contract.team
        won = self.tricks_won
        kapoot = 0 if won[0] + won[2] == 8 else 1 if won[1] + won[3] == 8 else None
        belote = (0, 0) if self.belote_seat is None else ((2, 0) if self.belote_seat % 2 == 0 else (0, 2))
        self.summary = DealSummary(
            team=team,
            level=contract.level,
            multiplier=contract.multiplier,
            card_points=(self.card_points[0], self.card_points[1]),
            kapoot=kapoot,
            declarer_alone=won[contract.declarer] == 8,
            declaration_points=self.outcome.points,
            belote=belote,
        )
        self.score = score_deal(self.summary)
        self.phase = Phase.OVER
        self.is_over = True

    # --- conveniences --------------------------------------------------------------------------

    def view(self, seat: int) -> BazarView:
        """What ``seat`` may know of this deal."""
        from blot.bazar.view import view_of

        return view_of(self, seat)

    def best_declare(self, seat: int) -> Declare:
        """The seat's best set of declarations (docs/format.md), for records without ``declarations``."""
        options = self.options[seat]
        return best_choice(options, self.rules, self.tix) if options else DECLARE_NONE

    def hand_cards(self, seat: int) -> list[Card]:
        return cards_of(self.hands[seat])

    @property
    def points(self) -> tuple[int, int]:
        """Game points per team for this deal (0, 0 until scored and for a void deal)."""
        return self.score.points if self.score else (0, 0)

    @property
    def team_tricks(self) -> tuple[int, int]:
        won = self.tricks_won
        return (won[0] + won[2], won[1] + won[3])

    @property
    def result(self) -> DealResult | None:
        """The scored outcome, once the deal is over."""
        if self.phase is not Phase.OVER:
            return None
        if self.score is None or self.summary is None:
            return DealResult(
                self.dealer, True, None, (0, 0), (0, 0), (0, 0), (0, 0), None, (0, 0), False, None
            )
        s = self.summary
        return DealResult(
            dealer=self.dealer,
            void=False,
            contract=self.contract,
            tricks=self.team_tricks,
            card_points=s.card_points,
            declaration_points=s.declaration_points,
            belote=s.belote,
            made=self.score.made,
            points=self.score.points,
            tars_kapoot=self.score.tars_kapoot,
            kapoot=s.kapoot,
        )


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
