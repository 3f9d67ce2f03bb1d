"""One deal of 3-5-8 (Blato): trump call, exchange, talon and discard, 16 tricks, scoring.

A :class:`Deal` is the whole state of one deal and checks every action against docs/rules.md
T-1 … T-40. It knows about the rest of the game only what it is given: which seats may still
pass (T-10) and the previous counted deal's result, which decides the exchange (T-20).

>>> from random import Random
>>> from blot.three_five_eight import Deal, Phase, parse_action
>>> deal = Deal.random(Random(7), dealer=2)
>>> deal.phase is Phase.CALL, deal.to_act, deal.targets
(True, 0, (8, 5, 3))
>>> deal.apply(parse_action("H"))
>>> deal.phase is Phase.DISCARD, len(deal.legal_actions())
(True, 20)
>>> rng = Random(1)
>>> while not deal.is_over:
...     deal.apply(rng.choice(deal.legal_actions()))
>>> sum(deal.tricks_taken), sum(deal.scores)
(16, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Final

from blot.cards import CARD_OF_BIT, Card
from blot.engine import TrickDeal
from blot.errors import IllegalAction, SetupError
from blot.game import Trick, check_seat, completed_tricks, seat_view
from blot.three_five_eight.calls import NO_TRUMP, PASS, STRAINS, Call, parse_action
from blot.three_five_eight.exchange import TARGETS, exchange_plan
from blot.three_five_eight.play import SUIT_MASK_OF_INDEX, card_tuple, highest
from blot.three_five_eight.refusals import Refusals
from blot.three_five_eight.values import (
    NEXT,
    PREV,
    SEATS,
    TALON_SIZE,
    TRICKS,
    Action,
    CardsLike,
    DealResult,
    DealtCards,
    Exchange,
    Phase,
    check_cards,
    random_deal,
)
from blot.three_five_eight.view import DealView, PublicDealView

_CALL: Final = Phase.CALL
_EXCHANGE: Final = Phase.EXCHANGE
_DISCARD: Final = Phase.DISCARD
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER
_CALLS_WITH_PASS: Final = (*STRAINS, PASS)


class Deal(Refusals, TrickDeal[Phase, tuple[int, int, int]]):
    """The whole state of one deal of 3-5-8.

    ``apply`` checks an action against the rules before it changes anything: a refused action
    raises :class:`~blot.errors.IllegalAction` with one sentence and leaves the deal exactly as
    it was. The exchange's returns (T-21) are forced, so the deal makes them itself; the seats
    only choose calls, gifts, discards and plays.
    """

    __slots__ = (
        "_caller",
        "_calls",
        "_dealer",
        "_dealt",
        "_discard",
        "_exchanges",
        "_hands",
        "_lead",
        "_legal",
        "_may_pass",
        "_phase",
        "_plan",
        "_plays",
        "_result",
        "_taken",
        "_talon",
        "_to_act",
        "_trick",
        "_trump",
        "_trump_mask",
        "_winners",
    )

    _calls: list[Call]
    _caller: int | None
    _dealer: int
    _dealt: tuple[int, int, int]
    _discard: list[Card]
    _exchanges: list[Exchange]
    _hands: list[int]
    _lead: int
    _legal: int
    _may_pass: list[bool]
    _phase: Phase
    _plan: tuple[tuple[int, int], ...]
    _plays: list[Card]
    _result: DealResult | None
    _taken: list[int]
    _talon: int
    _to_act: int | None
    _trick: int
    _trump: Call | None
    _trump_mask: int
    _winners: list[int]

    def __init__(
        self,
        hands: Sequence[CardsLike],
        talon: CardsLike,
        dealer: int = 0,
        *,
        may_pass: Sequence[bool] = (True, True, True),
        previous: DealResult | None = None,
    ) -> None:
        """Start a deal with these cards (checked, T-2). ``may_pass[s]`` is false for a seat that
        has already passed in this game (T-10); ``previous`` is the last counted deal of the game,
        ``None`` for the first (T-20)."""
        if not isinstance(dealer, int) or dealer not in range(SEATS):
            raise SetupError(f"the dealer must be a seat from 0 to 2, not {dealer}", "dealer")
        if len(may_pass) != SEATS:
            raise SetupError("may_pass needs one flag per seat", "may_pass")
        cards = check_cards(hands, talon)
        self._setup(cards.hands, cards.talon, dealer, may_pass, exchange_plan(previous))

    @classmethod
    def random(
        cls,
        rng: Random,
        dealer: int = 0,
        *,
        may_pass: Sequence[bool] = (True, True, True),
        previous: DealResult | None = None,
    ) -> Deal:
        """A deal of freshly shuffled cards (T-2)."""
        cards = random_deal(rng)
        return cls(cards.hands, cards.talon, dealer, may_pass=may_pass, previous=previous)

    @classmethod
    def _trusted(
        cls,
        cards: DealtCards,
        dealer: int,
        may_pass: Sequence[bool],
        plan: tuple[tuple[int, int], ...],
    ) -> Deal:
        """A deal of cards already known to be right (the game's own shuffles): no checks."""
        deal = object.__new__(cls)
        deal._setup(cards.hands, cards.talon, dealer, may_pass, plan)
        return deal

    def _setup(
        self,
        hands: tuple[int, ...],
        talon: int,
        dealer: int,
        may_pass: Sequence[bool],
        plan: tuple[tuple[int, int], ...],
    ) -> None:
        self._dealer = dealer
        self._dealt = (hands[0], hands[1], hands[2])
        self._talon = talon
        self._hands = list(hands)
        self._may_pass = [bool(p) for p in may_pass]
        self._plan = plan
        self._phase = _CALL
        self._to_act = NEXT[dealer]  # T-10: the first seat calls first
        self._calls = []
        self._trump = None
        self._caller = None
        self._trump_mask = 0
        self._exchanges = []
        self._discard = []
        self._plays = []
        self._winners = []
        self._taken = [0, 0, 0]
        self._lead = 0
        self._trick = 0
        self._legal = 0
        self._result = None

    def copy(self) -> Deal:
        """An independent copy, cheap enough for search (lists are copied, the rest shared)."""
        o = object.__new__(Deal)
        o._dealer = self._dealer
        o._dealt = self._dealt
        o._talon = self._talon
        o._hands = self._hands.copy()
        o._may_pass = self._may_pass.copy()
        o._plan = self._plan
        o._phase = self._phase
        o._to_act = self._to_act
        o._calls = self._calls.copy()
        o._trump = self._trump
        o._caller = self._caller
        o._trump_mask = self._trump_mask
        o._exchanges = self._exchanges.copy()
        o._discard = self._discard.copy()
        o._plays = self._plays.copy()
        o._winners = self._winners.copy()
        o._taken = self._taken.copy()
        o._lead = self._lead
        o._trick = self._trick
        o._legal = self._legal
        o._result = self._result
        return o

    def _state(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in Deal.__slots__)

    def __eq__(self, other: object) -> bool:
        """Two deals are equal when every part of their state is."""
        if not isinstance(other, Deal):
            return NotImplemented
        return self._state() == other._state()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<3-5-8 Deal dealer={self._dealer} phase={self._phase.value} to_act={self._to_act}>"

    # --- state --------------------------------------------------------------------------------

    @property
    def first(self) -> int:
        """The seat after the dealer: target 8, takes the talon, leads the first trick."""
        return NEXT[self._dealer]

    @property
    def targets(self) -> tuple[int, int, int]:
        return TARGETS[self._dealer]

    @property
    def to_act(self) -> int | None:
        return self._to_act

    @property
    def is_over(self) -> bool:
        return self._phase is _OVER

    @property
    def is_void(self) -> bool:
        """All three passed (T-10): the deal is not counted and the same dealer deals again."""
        return self._phase is _OVER and self._trump is None

    @property
    def hands(self) -> tuple[int, int, int]:
        """The cards each seat holds now, as card sets."""
        h = self._hands
        return (h[0], h[1], h[2])

    @property
    def talon(self) -> int:
        return self._talon

    @property
    def may_pass(self) -> tuple[bool, bool, bool]:
        """Which seats may still pass in this game (T-10), after this deal's calls so far."""
        p = self._may_pass
        return (p[0], p[1], p[2])

    @property
    def calls(self) -> tuple[Call, ...]:
        return tuple(self._calls)

    @property
    def trump(self) -> Call | None:
        """The strain named (``NT`` included); ``None`` before the call and in a void deal."""
        return self._trump

    @property
    def caller(self) -> int | None:
        return self._caller

    @property
    def plan(self) -> tuple[tuple[int, int], ...]:
        """(giver, receiver) for each card of the exchange, in order (T-20); emptied when NT is
        named."""
        return self._plan

    @property
    def exchanges(self) -> tuple[Exchange, ...]:
        """The exchange steps made so far, in order."""
        return tuple(self._exchanges)

    @property
    def gifts(self) -> tuple[Card, ...]:
        """The cards given so far: the record's ``exchange`` list."""
        return tuple(e.gift for e in self._exchanges if e.gift is not None)

    @property
    def discard(self) -> tuple[Card, ...]:
        """The cards the first seat has put back so far (T-22), in order."""
        return tuple(self._discard)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks."""
        return completed_tricks(NEXT[self._dealer], self._plays, self._winners, SEATS)

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The trick in progress as (seat, card) pairs in playing order."""
        plays = self._plays
        n = len(plays) % 3
        if not n:
            return ()
        leader = self.leader
        return tuple(((leader + i) % SEATS, plays[len(plays) - n + i]) for i in range(n))

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the trick in progress."""
        return self._winners[-1] if self._winners else NEXT[self._dealer]

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Tricks taken so far, by seat."""
        t = self._taken
        return (t[0], t[1], t[2])

    @property
    def scores(self) -> tuple[int, int, int]:
        """Tricks taken minus target (T-40) once the deal is over; zeros before and when void."""
        result = self._result
        return (0, 0, 0) if result is None else result.scores

    @property
    def result(self) -> DealResult | None:
        """The finished deal, ``None`` while it is being played."""
        return self._result

    # --- actions ------------------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the seat to act may take now; empty once the deal is over."""
        if self._phase is _CALL:
            return _CALLS_WITH_PASS if self._may_pass[self._to_act or 0] else STRAINS
        return card_tuple(self._legal)

    def parse_action(self, text: str) -> Action:
        """Read an action in record notation (:func:`parse_action`)."""
        return parse_action(text)

    def apply(self, action: object) -> None:
        """Take ``action`` (a :class:`Call` or a :class:`~blot.cards.Card`) for the seat to act.
        Anything else, and any action the rules do not allow now, raises :class:`IllegalAction`
        and changes nothing."""
        if type(action) is Card and self._phase is _PLAY:
            bit = action.bit
            if bit & self._legal:  # the hot path: a legal card to a trick (T-30 … T-34)
                seat: int = self._to_act  # type: ignore[assignment]
                hands = self._hands
                hands[seat] ^= bit
                plays = self._plays
                plays.append(action)
                trick = self._trick | bit
                tmask = self._trump_mask
                if len(plays) % 3:
                    if trick == bit:
                        lead = self._lead = SUIT_MASK_OF_INDEX[action.index]
                    else:
                        lead = self._lead
                    self._trick = trick
                    seat = self._to_act = NEXT[seat]
                    # play.legal_mask, inlined: T-31 … T-33
                    hand = hands[seat]
                    follow = hand & lead
                    if follow:
                        if lead & tmask:
                            self._legal = (follow & -(1 << (trick & tmask).bit_length())) or follow
                        else:
                            self._legal = follow
                    else:
                        trumps = hand & tmask
                        if not trumps:
                            self._legal = hand
                        elif trick & tmask:
                            higher = trumps & -(1 << (trick & tmask).bit_length())
                            self._legal = higher or hand
                        else:
                            self._legal = trumps
                    return
                # T-34: the highest trump, else the highest card of the suit led
                top = 1 << ((trick & tmask or trick & self._lead).bit_length() - 1)
                if bit == top:
                    winner = seat
                elif plays[-2].bit == top:
                    winner = PREV[seat]
                else:
                    winner = NEXT[seat]
                self._winners.append(winner)
                self._taken[winner] += 1
                self._trick = self._lead = 0
                if len(plays) == 3 * TRICKS:
                    self._finish()
                else:
                    self._to_act = winner  # T-30: the winner leads
                    self._legal = hands[winner]
                return
        self._apply_other(action)

    def _apply_other(self, action: object) -> None:
        reason = self.refusal(action)
        if reason is not None:
            raise IllegalAction(reason)
        seat: int = self._to_act  # type: ignore[assignment]
        if type(action) is Call:
            self._call(seat, action)
        elif self._phase is _EXCHANGE:
            self._give(seat, action)  # type: ignore[arg-type]
        else:
            self._put_back(seat, action)  # type: ignore[arg-type]

    def _call(self, seat: int, call: Call) -> None:
        """T-10: the first strain named is trump; three passes void the deal."""
        if call is PASS:
            self._may_pass[seat] = False
            self._calls.append(call)
            if len(self._calls) == SEATS:
                self._finish()
            else:
                self._to_act = NEXT[seat]
            return
        self._calls.append(call)
        self._trump = call
        self._caller = seat
        self._trump_mask = call.trump_mask
        if call is NO_TRUMP:
            self._plan = ()  # T-20: never after an NT call
        if self._plan:
            self._phase = _EXCHANGE
            giver = self._to_act = self._plan[0][0]
            self._legal = self._hands[giver]
        else:
            self._show_talon()

    def _give(self, giver: int, gift: Card) -> None:
        """T-20/T-21: ``gift`` goes to the receiver, who must give back his strongest card of its
        suit when it is stronger than the gift, and otherwise the gift itself."""
        step = len(self._exchanges)
        receiver = self._plan[step][1]
        hands = self._hands
        gbit = gift.bit
        same = hands[receiver] & SUIT_MASK_OF_INDEX[gift.index]
        back = highest(same) if same else 0
        if back < gbit:
            back = gbit
        moved = gbit ^ back
        hands[giver] ^= moved
        hands[receiver] ^= moved
        self._exchanges.append(Exchange(giver, receiver, gift, CARD_OF_BIT[back]))
        if step + 1 == len(self._plan):
            self._show_talon()
        else:
            nxt = self._to_act = self._plan[step + 1][0]
            self._legal = hands[nxt]

    def _show_talon(self) -> None:
        """T-22: the talon is shown and the first seat takes it, then puts back four cards."""
        first = NEXT[self._dealer]
        self._phase = _DISCARD
        self._to_act = first
        self._hands[first] |= self._talon
        self._legal = self._hands[first]

    def _put_back(self, seat: int, card: Card) -> None:
        self._hands[seat] ^= card.bit
        self._discard.append(card)
        if len(self._discard) == TALON_SIZE:
            self._phase = _PLAY  # T-30: the first seat leads
        self._legal = self._hands[seat]

    def _finish(self) -> None:
        """T-40: each seat scores tricks taken minus target; a void deal scores nothing."""
        self._phase = _OVER
        self._to_act = None
        self._legal = 0
        targets = TARGETS[self._dealer]
        if self._trump is None:
            self._result = DealResult(self._dealer, True, None, None, targets, (0, 0, 0), (0, 0, 0))
            return
        t = self._taken
        self._result = DealResult(
            self._dealer,
            False,
            self._trump,
            self._caller,
            targets,
            (t[0], t[1], t[2]),
            (t[0] - targets[0], t[1] - targets[1], t[2] - targets[2]),
            tuple(self._winners),
            len(self._exchanges),
        )

    # --- views --------------------------------------------------------------------------------

    def public_view(self) -> PublicDealView:
        """What everybody may know now (spectators): the exchange's steps without their cards
        (T-20), the talon once shown (T-22), every card played; no hand, no discard."""
        phase = self._phase
        shown = phase is _DISCARD or phase is _PLAY or (phase is _OVER and self._trump is not None)
        h = self._hands
        return PublicDealView(
            phase=phase,
            to_act=self._to_act,
            dealer=self._dealer,
            targets=TARGETS[self._dealer],
            hand_sizes=(h[0].bit_count(), h[1].bit_count(), h[2].bit_count()),
            may_pass=self.may_pass,
            calls=tuple(self._calls),
            trump=self._trump,
            caller=self._caller,
            plan=self._plan,
            exchanges=tuple(Exchange(e.giver, e.receiver, None, None) for e in self._exchanges),
            talon=self._talon if shown else None,
            trick=self.trick,
            tricks=self.tricks,
            tricks_taken=self.tricks_taken,
            scores=None if self._result is None else self._result.scores,
            result=self._result,
        )

    def view(self, seat: int) -> DealView:
        """What ``seat`` may know now: the public view, its own hand, the exchange cards it gave
        or got (T-20, T-21), its discard when it is the first seat (T-22), and its choices."""
        check_seat(seat, SEATS)
        p = self.public_view()
        discard: int | None = None
        if seat == NEXT[self._dealer] and p.talon is not None:
            discard = 0
            for c in self._discard:
                discard |= c.bit
        exchanges = tuple(
            e if seat in (e.giver, e.receiver) else hidden
            for e, hidden in zip(self._exchanges, p.exchanges, strict=True)
        )
        return seat_view(
            DealView,
            p,
            seat=seat,
            hand=self._hands[seat],
            exchanges=exchanges,
            discard=discard,
            legal=self.legal_actions() if seat == self._to_act else (),
        )
