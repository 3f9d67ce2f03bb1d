"""Why the rules of Bazar Blot refuse an action (B-20 … B-43): each refusal a key of
``reasons.json`` beside this module, with its parts (:mod:`blot.reasons`). Read by
:meth:`blot.bazar.Deal.refusal`, and so by :meth:`~blot.bazar.Deal.apply` before it changes
anything."""

from __future__ import annotations

from blot.bazar.bidding import Bidding
from blot.bazar.calls import Call
from blot.bazar.declarations import Declaration, Declare
from blot.bazar.play import refusal_reason
from blot.bazar.values import Phase
from blot.cards import Card, format_cards
from blot.reasons import Reason


class Refusals:
    """The refusals of :class:`blot.bazar.Deal`, which it inherits: they read its state."""

    __slots__ = ()
    _legal: int
    _phase: Phase
    _bidding: Bidding
    _leader: int
    _trick: list[int]
    _win_pos: int
    _tix: int
    _winners: list[int]
    _dealt: tuple[int, ...]
    _hands: list[int]
    _options: list[tuple[Declare, ...]]
    _declared: list[tuple[Declaration, ...] | None]

    def refusal(self, action: object) -> Reason | None:
        """Why the rules refuse ``action`` for the seat to act now, or ``None`` when it is legal.
        Nothing is changed."""
        if type(action) is Card and action.bit & self._legal:
            return None
        if isinstance(action, str):
            return Reason("not_parsed", text=repr(action))
        if self._phase is Phase.PLAY:
            if type(action) is Card:
                return self._card_refusal(action)
            if type(action) is Declare:
                return self._declare_refusal(action)
            return Reason("card_after_bidding", card=action)
        if self._phase is Phase.BIDDING:
            if type(action) is not Call:
                return Reason("call_during_bidding", call=action)
            return self._bidding.refusal(action)
        return Reason("deal_over")

    def _declare_refusal(self, action: Declare) -> Reason | None:
        """B-43: declarations are said once, in the first trick, before one's card, and only as a set
        the hand holds."""
        seat = (self._leader + len(self._trick)) % 4
        if self._winners:
            return Reason("declare_first_trick", seat=seat)
        if not self._options[seat]:
            return Reason("declare_nothing", seat=seat)
        if self._declared[seat] is not None:
            return Reason("declare_said", seat=seat)
        if action not in self._options[seat]:
            return Reason("declare_refused", seat=seat, declaration=action, why=self._why_not(seat, action))
        return None

    def _why_not(self, seat: int, action: Declare) -> Reason:
        """The part of ``declare_refused`` that says what is wrong with the set (a nested reason)."""
        used = 0
        for d in action.declarations:
            if d.mask & ~self._dealt[seat]:
                return Reason("hand_lacks", cards=format_cards(d.mask & ~self._dealt[seat]))
            if d.mask & used:
                return Reason("card_in_one_declaration")
            used |= d.mask
        return Reason("not_held_set")

    def _card_refusal(self, card: Card) -> Reason:
        """A card not held, played before declaring (B-43), or against B-31 … B-33."""
        seat = (self._leader + len(self._trick)) % 4
        hand = self._hands[seat]
        if not hand & card.bit:
            return Reason("does_not_hold", seat=seat, card=card)
        if not self._winners and self._declared[seat] is None:
            return Reason("declare_before_card", seat=seat)
        return refusal_reason(seat, hand, self._trick, self._win_pos, self._tix, card.index)
