"""Why the rules of 3-5-8 refuse an action (T-10 … T-33): each refusal a key of ``reasons.json``
beside this module, with its parts (:mod:`blot.reasons`). Read by
:meth:`blot.three_five_eight.Deal.refusal`, and so by :meth:`~blot.three_five_eight.Deal.apply`
before it changes anything."""

from __future__ import annotations

from blot.cards import Card
from blot.reasons import Reason
from blot.three_five_eight.calls import PASS, Call
from blot.three_five_eight.play import refusal as play_refusal
from blot.three_five_eight.values import Exchange, Phase


def _wrong_kind(task: Reason, action: object) -> Reason:
    """Why an object that is not the kind of action the phase wants is refused (``task``, keyed
    by what the phase wants). Text is quoted so that the string ``'9S'`` is not mistaken for the
    card 9S."""
    if isinstance(action, str):
        return Reason("not_parsed", text=repr(action))
    return Reason(task.reason, **task.params, action=action)


class Refusals:
    """The refusals of :class:`blot.three_five_eight.Deal`, which it inherits: they read its state."""

    __slots__ = ()
    _phase: Phase
    _to_act: int | None
    _may_pass: list[bool]
    _plan: tuple[tuple[int, int], ...]
    _exchanges: list[Exchange]
    _hands: list[int]
    _legal: int
    _lead: int
    _trick: int
    _trump_mask: int

    def refusal(self, action: object) -> Reason | None:
        """Why the rules refuse ``action`` for the seat to act now, or ``None`` when it is legal.
        Nothing is changed."""
        phase = self._phase
        seat = self._to_act
        if phase is Phase.OVER or seat is None:
            return Reason("deal_over")
        if phase is Phase.CALL:
            if type(action) is not Call:
                return _wrong_kind(Reason("tfe_must_call", seat=seat), action)
            if action is PASS and not self._may_pass[seat]:
                return Reason("tfe_passed", seat=seat)
            return None
        if type(action) is not Card:
            if phase is Phase.EXCHANGE:
                task = Reason("tfe_must_give", seat=seat, to=self._plan[len(self._exchanges)][1])
            else:
                task = Reason("tfe_must_discard" if phase is Phase.DISCARD else "tfe_must_play", seat=seat)
            return _wrong_kind(task, action)
        if not self._hands[seat] & action.bit:
            return Reason("does_not_hold", seat=seat, card=action)
        if phase is Phase.PLAY and not action.bit & self._legal:
            return play_refusal(seat, action, self._hands[seat], self._lead, self._trick, self._trump_mask)
        return None
