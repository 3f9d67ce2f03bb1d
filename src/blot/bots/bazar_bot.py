"""What every Bazar Blot bot does the same way: it reads its seat's deal view, declares its best
set in the first trick (B-43, as a record without declarations does), and leaves the calls and
the cards to each bot."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import ClassVar

from blot.bazar.calls import Call
from blot.bazar.declarations import Declare, best_choice
from blot.bazar.values import Action, Phase
from blot.bazar.view import DealView
from blot.bots import deal_of
from blot.bots.settings import Setting
from blot.cards import Card
from blot.game import View


def deal_view(view: View) -> DealView:
    """The Bazar Blot deal part of a bot's view."""
    return deal_of(view, DealView)


def last_bid(view: DealView) -> tuple[Call | None, int | None]:
    """The highest bid so far and the seat that made it (``None, None`` before any bid)."""
    for seat, call in reversed(view.calls):
        if call.is_bid:
            return call, seat
    return None, None


class BazarBot:
    """A Bazar Blot bot: :meth:`call` in the bidding, :meth:`card` in the play.
    ``boldness`` adds to the hand values the bidding compares with the bids."""

    name = ""
    SETTINGS: ClassVar[dict[str, Setting]] = {
        "boldness": Setting(float, -10, 10, "game points added to the hand's estimate when bidding")
    }

    def __init__(self, rng: Random | None = None, boldness: float = 0.0) -> None:
        self.rng = rng or Random()
        self.boldness = boldness

    def choose(self, view: View) -> Action:
        v = deal_view(view)
        legal = v.legal
        if v.phase is Phase.BIDDING:
            return self.call(v, legal)
        if type(legal[0]) is Declare:
            return best_choice([a for a in legal if type(a) is Declare], v.rules, v.tix)
        return self.card(v, [a for a in legal if type(a) is Card])

    def call(self, view: DealView, legal: Sequence[Action]) -> Call:
        raise NotImplementedError

    def card(self, view: DealView, legal: list[Card]) -> Card:
        raise NotImplementedError
