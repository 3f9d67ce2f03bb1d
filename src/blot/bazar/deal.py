"""One deal of Bazar Blot: bidding, declarations in the first trick, eight tricks, scoring.

>>> from random import Random
>>> from blot.bazar import Deal, random_deal
>>> deal = Deal(random_deal(Random(1)).hands, dealer=3)
>>> deal.to_act, deal.phase.value
(0, 'bidding')
>>> deal.parse_action("8H"), str(deal.refusal(deal.parse_action("contra")))
(Call('8H'), 'there is no bid to contra')
>>> rng = Random(2)
>>> while not deal.is_over:
...     deal.apply(rng.choice(deal.legal_actions()))
>>> sum(deal.card_points)
162
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from blot.bazar.bidding import Bidding, Contract, Stage
from blot.bazar.calls import Call, parse_call
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
from blot.bazar.play import legal_mask
from blot.bazar.refusals import Refusals
from blot.bazar.rules import Rules
from blot.bazar.scoring import DealScore, DealSummary, score_deal
from blot.bazar.tables import KEY, LAST_TRICK, NT, POINTS, STRAIN_INDEX
from blot.bazar.values import Action, DealResult, Phase, check_hands, void_result
from blot.bazar.view import Announcement, DealView, PublicDealView
from blot.cards import CARDS, KING, QUEEN, Card, cards_of, cards_tuple, parse_card, parse_cards, parse_either
from blot.engine import TrickDeal
from blot.errors import BlotError, IllegalAction, NotationError, SetupError
from blot.game import Trick, check_seat, completed_tricks, seat_view

DEFAULT_RULES: Final = Rules()

_PLAY: Final = Phase.PLAY  # hot paths compare with module constants, cheaper than enum lookups
_BIDDING: Final = Phase.BIDDING
#: B-42: the king and queen of each trump suit.
BELOTE: Final = tuple((1 << (16 * s + KING)) | (1 << (16 * s + QUEEN)) for s in range(4))

#: The cards of ranks 7 … A of one suit by their 8 bits (``legal_actions`` reads these).
_SPADES, _HEARTS, _DIAMONDS, _CLUBS = (
    tuple(cards_tuple(pattern << (16 * suit + 7)) for pattern in range(256)) for suit in range(4)
)


class Deal(Refusals, TrickDeal[Phase, tuple[int, ...]]):
    """The whole state of one deal. ``apply`` checks every action against the rules first and
    raises :class:`IllegalAction` without changing anything when it is refused; ``refusal``
    gives the same reason without applying. The state is read through read-only properties."""

    __slots__ = (
        "_belote_pair",
        "_belote_seat",
        "_belotes",
        "_bidding",
        "_card_points",
        "_contract",
        "_dealer",
        "_dealt",
        "_declared",
        "_hands",
        "_is_over",
        "_keys",
        "_leader",
        "_legal",
        "_options",
        "_outcome",
        "_phase",
        "_plays",
        "_public",
        "_rules",
        "_score",
        "_summary",
        "_taken",
        "_tix",
        "_trick",
        "_undeclared",
        "_win_pos",
        "_winners",
    )

    #: Slots that only remember an answer (the state is the same without them).
    CACHES = ("_public",)

    def __init__(self, hands: Sequence[int], dealer: int = 0, rules: Rules = DEFAULT_RULES) -> None:
        if not isinstance(dealer, int) or dealer not in range(4):
            raise SetupError(f"dealer must be a seat from 0 to 3, not {dealer}", "dealer")
        self._rules = rules
        self._dealer = dealer
        self._dealt = check_hands(list(hands))
        self._hands = list(self._dealt)
        self._bidding = Bidding(rules, dealer, self._dealt)
        self._phase = Phase.BIDDING
        self._is_over = False
        self._contract: Contract | None = None
        self._tix = NT
        self._leader = (dealer + 1) % 4  # B-30
        self._trick: list[int] = []  # card indices of the trick in progress
        self._win_pos = 0
        self._winners: list[int] = []  # the winner of each completed trick
        self._taken = [0, 0, 0, 0]
        self._card_points = [0, 0]
        self._plays: list[Card] = []
        self._options: list[tuple[Declare, ...]] = [(), (), (), ()]
        self._declared: list[tuple[Declaration, ...] | None] = [(), (), (), ()]
        self._outcome: Outcome = NO_DECLARATIONS
        self._belote_seat: int | None = None
        self._belotes: list[tuple[int, Card]] = []
        self._summary: DealSummary | None = None
        self._score: DealScore | None = None
        self._legal = 0  # in play: the cards the seat to act may play (0 while it must declare)
        self._keys = KEY[NT]  # in play: KEY[tix], the strength of each card (B-34)
        self._belote_pair = 0  # in play: trump K and Q when one seat holds both (B-42)
        self._undeclared = 0  # seats still to say what they declare in the first trick
        self._public: tuple[tuple[object, ...], PublicDealView] | None = None  # see public_view

    # --- state -------------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def hands(self) -> tuple[int, ...]:
        """The cards each seat holds now, as card sets."""
        return tuple(self._hands)

    @property
    def is_over(self) -> bool:
        return self._is_over

    @property
    def is_void(self) -> bool:
        """Everybody passed, or four sevens were shown (B-23, B-25): the deal does not count."""
        return self._bidding.stage is Stage.VOID

    @property
    def to_act(self) -> int | None:
        if self._phase is _PLAY:
            return (self._leader + len(self._trick)) % 4
        if self._phase is _BIDDING:
            return self._bidding.to_act
        return None

    @property
    def bidding(self) -> Bidding:
        return self._bidding

    @property
    def calls(self) -> tuple[Call, ...]:
        return tuple(self._bidding.calls)

    @property
    def contract(self) -> Contract | None:
        return self._contract

    @property
    def tix(self) -> int:
        """The strain's index into the engine's tables: the trump suit, or NT (also before the
        contract)."""
        return self._tix

    @property
    def trump(self) -> int | None:
        """The trump suit index, None in a no-trump deal or before the contract."""
        return None if self._tix == NT else self._tix

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the trick in progress."""
        return self._leader

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The trick in progress as (seat, card) pairs in playing order."""
        leader = self._leader
        return tuple(((leader + i) % 4, CARDS[c]) for i, c in enumerate(self._trick))  # type: ignore[misc]

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        return completed_tricks((self._dealer + 1) % 4, self._plays, self._winners, 4)

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Tricks taken so far, by seat."""
        return tuple(self._taken)

    @property
    def team_tricks(self) -> tuple[int, int]:
        won = self._taken
        return (won[0] + won[2], won[1] + won[3])

    @property
    def card_points(self) -> tuple[int, int]:
        """Card points won so far by each team, the last trick's 10 included (B-12)."""
        return (self._card_points[0], self._card_points[1])

    @property
    def declared(self) -> tuple[tuple[Declaration, ...] | None, ...]:
        """What each seat declared in the first trick (``None``: not yet said)."""
        return tuple(self._declared)

    def declare_options(self, seat: int) -> tuple[Declare, ...]:
        """The sets of declarations ``seat`` may choose from in the first trick (B-43); empty
        when it has nothing to declare."""
        return self._options[seat]

    @property
    def outcome(self) -> Outcome:
        """Which team's declarations count, once the first trick is over (B-44)."""
        return self._outcome

    @property
    def belote_seat(self) -> int | None:
        return self._belote_seat

    @property
    def belotes(self) -> tuple[tuple[int, Card], ...]:
        """The belote cards played so far, with their seats (B-42)."""
        return tuple(self._belotes)

    @property
    def summary(self) -> DealSummary | None:
        return self._summary

    @property
    def score(self) -> DealScore | None:
        return self._score

    @property
    def must_declare(self) -> bool:
        """The seat to act is in the first trick and has not yet said what it declares."""
        return (
            self._phase is Phase.PLAY
            and not self._winners
            and self._declared[(self._leader + len(self._trick)) % 4] is None
        )

    def copy(self) -> Deal:
        """An independent copy, cheap enough for search."""
        other = object.__new__(Deal)
        for name in Deal.__slots__:
            setattr(other, name, getattr(self, name))
        other._hands = self._hands.copy()
        other._bidding = self._bidding if self._bidding.is_over else self._bidding.copy()
        other._trick = self._trick.copy()
        other._winners = self._winners.copy()
        other._taken = self._taken.copy()
        other._card_points = self._card_points.copy()
        other._plays = self._plays.copy()
        other._declared = self._declared.copy()
        other._belotes = self._belotes.copy()
        return other

    # --- actions -----------------------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        """The actions the seat to act may take now (empty when the deal is over)."""
        if self._phase is _PLAY:
            m = self._legal
            if not m:
                return self._options[(self._leader + len(self._trick)) % 4]
            s = _SPADES[(m >> 7) & 255]
            h = _HEARTS[(m >> 23) & 255]
            d = _DIAMONDS[(m >> 39) & 255]
            c = _CLUBS[m >> 55]
            if not (h or d or c):
                return s
            return s + h + d + c
        if self._phase is _BIDDING:
            return self._bidding.legal_calls()
        return ()

    def parse_action(self, text: str) -> Action:
        """Read ``text`` as the phase means it: a call during the bidding (``8H`` is a bid), else
        a card (``8H`` is the eight of hearts); while the seat to act must declare, ``best``,
        ``none`` or its declarations as cards (``KS QS JS, 7H 7D 7C 7S``). A card in the bidding
        or a call in the play is read too, so that :meth:`refusal` can say why it is refused."""
        if not isinstance(text, str):
            raise NotationError("not_text", text=repr(text))
        if self._phase is _PLAY and self.must_declare:
            declare = self._parse_declare(text)
            if declare is not None:
                return declare
        if self._phase is _PLAY:
            return parse_either(text, parse_card, parse_call, "neither_call_nor_card")
        return parse_either(text, parse_call, parse_card, "neither_call_nor_card")

    def _parse_declare(self, text: str) -> Declare | None:
        """``best``, ``none`` or a set of declarations written as cards, for the seat to act."""
        seat = (self._leader + len(self._trick)) % 4
        word = text.strip().lower()
        if word == "best":
            return self.best_declare(seat)
        if word == "none":
            return DECLARE_NONE
        if "," not in text and len(text.split()) < 3:
            return None  # a single card
        try:
            masks = sorted(parse_cards(part) for part in text.split(",") if part.strip())
        except BlotError:
            return None
        for option in self._options[seat]:
            if sorted(d.mask for d in option.declarations) == masks:
                return option
        raise IllegalAction("declare_not_held", seat=seat, declaration=text.strip())

    def apply(self, action: object) -> None:
        """Take ``action`` (a Call, Declare or Card) for the seat to act. Anything else, and any
        action the rules do not allow now, raises :class:`IllegalAction` and changes nothing."""
        # ``_legal`` is empty outside the play, so one test tells a legal card.
        if type(action) is not Card or not action.bit & self._legal:
            self._apply_other(action)
            return
        # A legal card: the hot path of every search, written out in full.
        trick = self._trick
        n = len(trick)
        seat = (self._leader + n) & 3
        hands = self._hands
        hands[seat] ^= action.bit
        self._plays.append(action)
        index = action.index
        if n:
            keys = self._keys
            if keys[index] > keys[trick[self._win_pos]] and (
                index >> 4 == trick[0] >> 4 or keys[index] >= 100
            ):
                self._win_pos = n
        else:
            self._win_pos = 0
        trick.append(index)
        if action.bit & self._belote_pair:
            self._belotes.append((seat, action))
        if n == 3:
            self._end_trick()
            return
        seat = (seat + 1) & 3
        if self._undeclared and self._declared[seat] is None:
            self._legal = 0
        else:
            self._legal = legal_mask(hands[seat], trick, self._win_pos, self._tix)

    def _set_legal(self, seat: int) -> None:
        """B-31 … B-33 for the seat to act; nothing while it must first declare (B-43)."""
        if self._undeclared and self._declared[seat] is None:
            self._legal = 0
        else:
            self._legal = legal_mask(self._hands[seat], self._trick, self._win_pos, self._tix)

    def _apply_other(self, action: object) -> None:
        if self._phase is _BIDDING and type(action) is Call:
            self._bidding.apply(action)  # checks the call itself (B-20 … B-26)
            if self._bidding.is_over:
                self._end_bidding()
            return
        reason = self.refusal(action)
        if reason is not None:
            raise IllegalAction(reason)
        assert type(action) is Declare
        seat = (self._leader + len(self._trick)) % 4
        self._declared[seat] = action.declarations
        self._undeclared -= 1
        self._set_legal(seat)

    def _end_bidding(self) -> None:
        self._contract = self._bidding.contract
        if self._contract is None:
            self._phase = Phase.OVER
            self._is_over = True
            return
        self._tix = STRAIN_INDEX[self._contract.strain]
        self._keys = KEY[self._tix]
        self._phase = Phase.PLAY
        self._options = [(), (), (), ()]  # a new list: copies made during the bidding share the old one
        for seat, hand in enumerate(self._dealt):
            if may_hold_declaration(hand):  # false for most hands, and cheap
                options = choices(hand)
                if len(options) > 1:
                    self._options[seat] = options
                    self._declared[seat] = None
                    self._undeclared += 1
        if self._tix != NT:
            pair = BELOTE[self._tix]
            for seat, hand in enumerate(self._dealt):
                if hand & pair == pair:
                    self._belote_seat = seat
                    self._belote_pair = pair
        self._set_legal(self._leader)

    def _end_trick(self) -> None:
        trick = self._trick
        winner = (self._leader + self._win_pos) % 4
        points = POINTS[self._tix]
        gained = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
        winners = self._winners
        winners.append(winner)
        self._taken[winner] += 1
        done = len(winners)
        if done == 8:
            gained += LAST_TRICK
        self._card_points[winner % 2] += gained
        self._leader = winner
        self._trick = []
        self._legal = self._hands[winner]  # B-30: the winner leads, any card
        if done == 1:
            if any(self._declared):
                self._outcome = resolve([d or () for d in self._declared], self._rules, self._tix, winner)
        elif done == 8:
            self._legal = 0
            self._score_deal()

    def _score_deal(self) -> None:
        contract = self._contract
        assert contract is not None
        team = contract.team
        won = self._taken
        kapoot = 0 if won[0] + won[2] == 8 else 1 if won[1] + won[3] == 8 else None
        belote = (0, 0) if self._belote_seat is None else ((2, 0) if self._belote_seat % 2 == 0 else (0, 2))
        self._summary = DealSummary(
            team=team,
            level=contract.level,
            multiplier=contract.multiplier,
            card_points=(self._card_points[0], self._card_points[1]),
            kapoot=kapoot,
            declarer_alone=won[contract.declarer] == 8,
            declaration_points=self._outcome.points,
            belote=belote,
        )
        self._score = score_deal(self._summary)
        self._phase = Phase.OVER
        self._is_over = True

    # --- views and results -----------------------------------------------------------------------

    def public_view(self) -> PublicDealView:
        """What everybody may know of this deal (spectators): no hand, the declarations as
        announced (kind and top rank) and the counting team's from the second trick on (B-43).
        Kept until the next action (a server builds it for every seat and spectator of an event):
        the calls, the cards played and the seats still to declare tell the states of one deal
        apart."""
        key = (len(self._plays), len(self._bidding.callers), self._undeclared, self._phase)
        if self._public is not None and self._public[0] == key:
            return self._public[1]
        announced: list[Announcement] = []
        if self._phase is not Phase.BIDDING and self._contract is not None:
            first = (self._dealer + 1) % 4
            for i in range(4):
                s = (first + i) % 4
                ds = self._declared[s]
                if ds:
                    announced += [Announcement.of(s, d) for d in ds]
        tricks = self.tricks
        view = PublicDealView(
            rules=self._rules,
            dealer=self._dealer,
            phase=self._phase,
            to_act=self.to_act,
            calls=tuple(zip(self._bidding.callers, self._bidding.calls, strict=True)),
            contract=self._contract,
            trump=self.trump,
            announced=tuple(announced),
            shown=self._outcome.counting if tricks else (),
            declarations_team=self._outcome.team if tricks else None,
            trick=self.trick,
            tricks=tricks,
            tricks_taken=tuple(self._taken),
            card_points=self.card_points,
            belotes=tuple(self._belotes),
            result=self.result,
        )
        self._public = (key, view)
        return view

    def view(self, seat: int) -> DealView:
        """What ``seat`` may know of this deal: the public view, its own hand and declarations,
        and its choices when it is to act."""
        check_seat(seat, 4)
        p = self.public_view()
        mine = p.to_act == seat
        return seat_view(
            DealView,
            p,
            seat=seat,
            hand=self._hands[seat],
            own_declarations=self._declared[seat],
            legal=tuple(self.legal_actions()) if mine else (),
            best_declare=self.best_declare(seat) if mine and self.must_declare else None,
        )

    def best_declare(self, seat: int) -> Declare:
        """The seat's best set of declarations (docs/format.md), for records without
        ``declarations``."""
        options = self._options[seat]
        return best_choice(options, self._rules, self._tix) if options else DECLARE_NONE

    def hand_cards(self, seat: int) -> list[Card]:
        return cards_of(self._hands[seat])

    @property
    def points(self) -> tuple[int, int]:
        """Game points per team for this deal (0, 0 until scored and for a void deal)."""
        return self._score.points if self._score else (0, 0)

    @property
    def result(self) -> DealResult | None:
        """The scored outcome, once the deal is over."""
        if self._phase is not Phase.OVER:
            return None
        if self._score is None or self._summary is None:
            return void_result(self._dealer)
        s = self._summary
        return DealResult(
            dealer=self._dealer,
            void=False,
            contract=self._contract,
            tricks=self.team_tricks,
            card_points=s.card_points,
            declaration_points=s.declaration_points,
            belote=s.belote,
            made=self._score.made,
            points=self._score.points,
            tars_kapoot=self._score.tars_kapoot,
            kapoot=s.kapoot,
        )
