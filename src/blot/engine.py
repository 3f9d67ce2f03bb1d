"""What both rules engines do the same way at the level of a game: keep the deals, tell when the
game waits for the next deal's cards, refuse a deal out of turn, pass actions to the deal in
progress, and check the seat and fill the head of a view (a seat's or the public one).

Each game (:class:`blot.bazar.Game`, :class:`blot.three_five_eight.Game`) adds what its rules
decide: how a finished deal counts, when the game is over, who deals next, and the views.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from random import Random
from typing import Any, ClassVar, Generic, Protocol, TypeVar, get_args, get_origin

from blot.cards import Card
from blot.errors import IllegalAction, SetupError
from blot.game import DealState, check_seat
from blot.reasons import Reason

A = TypeVar("A")


def automatic(legal: Sequence[A]) -> A:
    """The automatic move (docs/protocol.md): pass when it is legal, else the lowest legal card
    by natural rank, then by suit S H D C, else the first legal action."""
    for action in legal:
        if str(action) == "pass":
            return action
    cards = [a for a in legal if isinstance(a, Card)]
    return min(cards, key=lambda c: (c.rank, int(c.suit))) if cards else legal[0]


A_co = TypeVar("A_co", covariant=True)
P_co = TypeVar("P_co", bound=Enum, covariant=True)
P = TypeVar("P", bound=Enum)
R = TypeVar("R")
C = TypeVar("C")


class PlayableDeal(DealState, Protocol[A_co, P_co]):
    """A deal the game passes actions to."""

    @property
    def phase(self) -> P_co: ...

    def legal_actions(self) -> Sequence[A_co]: ...

    def parse_action(self, text: str) -> A_co: ...

    def refusal(self, action: object) -> Reason | None: ...

    def apply(self, action: object) -> None: ...

    def view(self, seat: int) -> Any: ...

    def public_view(self) -> Any: ...


D = TypeVar("D", bound="PlayableDeal[Any, Any]")
GV = TypeVar("GV")
PV = TypeVar("PV")


H = TypeVar("H", bound=tuple[int, ...])


class TrickDeal(Generic[P, H]):
    """What a deal of either game keeps and reads the same way: its dealer and phase, the hands
    as dealt (``H``) and now, every card played and who took each trick. Each game's ``Deal``
    holds these in its own slots and adds everything its rules decide."""

    __slots__ = ()

    _dealer: int
    _phase: P
    _dealt: H
    _hands: list[int]
    _plays: list[Card]
    _winners: list[int]

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def phase(self) -> P:
        return self._phase

    @property
    def dealt(self) -> H:
        """The hands as dealt, as card sets."""
        return self._dealt

    def hand(self, seat: int) -> int:
        return self._hands[seat]

    @property
    def plays(self) -> tuple[Card, ...]:
        """Every card played to a trick, in order: the record's ``play`` list."""
        return tuple(self._plays)

    @property
    def trick_winners(self) -> tuple[int, ...]:
        """The seat that took each completed trick, first to last."""
        return tuple(self._winners)


class DealSequence(Generic[D, A, P, R, GV, PV]):
    """The deals of a game under rules ``R``, the current one last; subclasses keep ``_deals`` up
    to date and say when the game is over, who deals, and what a finished deal does
    (:meth:`_end_deal`)."""

    __slots__ = ()

    seats: ClassVar[int]
    _deals: list[D]
    _rules: R
    #: The game's own random source (None: the caller gives each deal's cards).
    _rng: Random | None
    #: The game's ``Phase.DEAL`` and ``Phase.OVER``.
    _waiting: P
    _finished: P
    #: The game's ``GameView`` and ``PublicGameView``.
    _seat_view_type: Callable[..., GV]
    _public_view_type: Callable[..., PV]

    def __init_subclass__(cls, **kw: Any) -> None:
        """A game names its types once, as its parameters (``DealSequence[Deal, Action, Phase,
        Rules, GameView, PublicGameView]``), and they say the rest: the game waits for a deal's
        cards in ``Phase.DEAL``, is over in ``Phase.OVER``, and shows a seat its ``GameView`` and
        everybody the ``PublicGameView``."""
        super().__init_subclass__(**kw)
        for base in cls.__dict__.get("__orig_bases__", ()):
            if get_origin(base) is DealSequence:
                _, _, phase, _, seat_view, public_view = get_args(base)
                cls._waiting = phase.DEAL
                cls._finished = phase.OVER
                cls._seat_view_type = seat_view
                cls._public_view_type = public_view

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    def _end_deal(self, deal: D) -> None:
        """Count a deal that has just finished."""
        raise NotImplementedError

    @property
    def rules(self) -> R:
        return self._rules

    @property
    def dealer(self) -> int:
        """The dealer of the current deal (each game says who deals next)."""
        raise NotImplementedError

    @property
    def deals(self) -> tuple[D, ...]:
        """Every deal of the game so far, void ones included, the current one last."""
        return tuple(self._deals)

    @property
    def deal(self) -> D | None:
        """The deal in progress, or the last one until the next is dealt (``None`` before the
        first)."""
        return self._deals[-1] if self._deals else None

    @property
    def needs_cards(self) -> bool:
        """The game waits for the next deal's cards (a game without its own random source)."""
        deal = self.deal
        return not self.is_over and (deal is None or deal.is_over)

    @property
    def phase(self) -> P:
        """``DEAL`` while the game waits for the next deal's cards, ``OVER`` at its end, else
        the phase of the deal in progress."""
        if self.is_over:
            return self._finished
        deal = self.deal
        if deal is None or deal.is_over:
            return self._waiting
        phase: P = deal.phase
        return phase

    @property
    def to_act(self) -> int | None:
        deal = self.deal
        return None if deal is None or self.is_over else deal.to_act

    def _next_cards(self, cards: C | None, shuffle: Callable[[Random], C]) -> C:
        """The cards of the next deal: ``cards``, or ``shuffle`` of the game's own random source
        when none are given. IllegalAction while the game is over or a deal is in progress;
        SetupError for a game without a random source that is given no cards."""
        if self.is_over:
            raise IllegalAction("game_over")
        if self._deals and not self._deals[-1].is_over:
            raise IllegalAction("the current deal is not over yet")
        if cards is not None:
            return cards
        if self._rng is None:
            raise SetupError("this game has no random source: give the cards of the deal", "hands")
        return shuffle(self._rng)

    def _public_head(self) -> tuple[R, P, int | None, int, int]:
        """What every public view of the game starts with (:class:`blot.game.PublicViewHead`),
        in order."""
        return self._rules, self.phase, self.to_act, self.dealer, len(self._deals)

    def _game_fields(self) -> tuple[Any, ...]:
        """The game's own fields, which a seat's view and the public view show alike right after
        their head, in order (each game says which)."""
        raise NotImplementedError

    def view(self, seat: int) -> GV:
        """What ``seat`` may know of the game: the head, the game's own fields, the seat's view
        of the deal (see its ``Deal.view``) and what the seat may do."""
        seat = check_seat(seat, self.seats)
        deal = self.deal
        dv = None if deal is None else deal.view(seat)
        return self._seat_view_type(
            *self._public_head(),
            *self._game_fields(),
            deal=dv,
            seat=seat,
            legal=() if dv is None else dv.legal,
        )

    def public_view(self) -> PV:
        """What everybody may know of the game (spectators): the public head, the game's own
        fields and the public view of the deal (see its ``Deal.public_view``)."""
        deal = self.deal
        public = None if deal is None else deal.public_view()
        return self._public_view_type(*self._public_head(), *self._game_fields(), deal=public)

    def legal_actions(self) -> Sequence[A]:
        deals = self._deals  # the hot path of every simulation: no property on the way
        return deals[-1].legal_actions() if deals else ()

    def parse_action(self, text: str) -> A:
        """Read ``text`` as the phase of the deal in progress means it."""
        deal = self.deal
        if deal is None:
            raise IllegalAction(_NO_DEAL)
        action: A = deal.parse_action(text)
        return action

    def refusal(self, action: object) -> Reason | None:
        """Why the rules refuse ``action`` now, or ``None`` when it is legal; nothing changes."""
        deal = self.deal
        if self.is_over:
            return Reason("game_over")
        if deal is None or deal.is_over:
            return _NO_DEAL
        return deal.refusal(action)

    def apply(self, action: object) -> None:
        """Take ``action`` in the deal in progress, or raise :class:`IllegalAction` and change
        nothing."""
        deals = self._deals
        if not deals:
            raise IllegalAction(_NO_DEAL)
        deal = deals[-1]
        try:
            deal.apply(action)
        except IllegalAction:
            if deal.is_over:  # the deal was over before: say so at the game's level
                raise IllegalAction(self.refusal(action) or _NO_DEAL) from None
            raise
        if deal.is_over:
            self._end_deal(deal)


#: The refusal of an action between two deals.
_NO_DEAL = Reason("no_deal_now")
