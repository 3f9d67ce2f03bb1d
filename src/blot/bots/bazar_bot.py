"""What every Bazar Blot bot does the same way: it reads its seat's deal view, declares its best
set in the first trick (B-43, as a record without declarations does), and leaves the calls and
the cards to each bot."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from blot.bazar.calls import Call
from blot.bazar.declarations import Declare, best_choice, choices
from blot.bazar.rules import Rules
from blot.bazar.tables import NT
from blot.bazar.values import Action, Phase
from blot.bazar.view import DealView
from blot.bots import deal_of
from blot.bots.settings import Configured, Setting
from blot.cards import KING, QUEEN, SUIT_MASKS, Card, cards_of
from blot.game import View


def deal_view(view: View) -> DealView:
    """The Bazar Blot deal part of a bot's view."""
    return deal_of(view, DealView)


def last_bid(view: DealView) -> tuple[Call | None, int | None]:
    """The highest bid so far and the seat that made it (``None, None`` before any bid)."""
    return last_bid_of(view.calls)


def last_bid_of(calls: Sequence[tuple[int, Call]]) -> tuple[Call | None, int | None]:
    """The last bid of ``calls`` (seat, call) and the seat that made it (``None, None``: none)."""
    for seat, call in reversed(calls):
        if call.is_bid:
            return call, seat
    return None, None


def holdings(hand: int) -> Iterator[tuple[int, list[Card], set[int]]]:
    """Each suit of a hand, for the bidding's hand estimates: ``(suit, cards, ranks)``."""
    for suit in range(4):
        cards = cards_of(hand & SUIT_MASKS[suit])
        yield suit, cards, {c.rank for c in cards}


def declaration_bonus(hand: int, rules: Rules, strain: int) -> int:
    """Game points a hand's best declarations (B-41..B-45) and its belote (B-46) add in
    ``strain`` (a strain index) if its side names it."""
    declared = best_choice(choices(hand), rules, strain).declarations
    bonus = sum(d.points(rules, strain) for d in declared)
    if strain != NT and hand & (1 << (16 * strain + KING)) and hand & (1 << (16 * strain + QUEEN)):
        bonus += 2
    return bonus


class BazarBot(Configured):
    """A Bazar Blot bot: :meth:`call` in the bidding, :meth:`card` in the play.
    ``boldness`` adds to the hand values the bidding compares with the bids."""

    name = ""
    SETTINGS: ClassVar[dict[str, Setting]] = {
        "boldness": Setting(
            float, -10, 10, "game points added to the hand's estimate when bidding", default=0.0
        )
    }
    #: Zero for the bots whose ``SETTINGS`` leave it out (they bid by search).
    boldness: float = 0.0

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
