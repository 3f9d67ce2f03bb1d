"""Hands that take every trick whatever the others hold (issue 44 item 5): the one kapoot (25) and
kanach (30, B-21) a bidder can be sure of, with no deal to imagine.

A seat takes all eight tricks itself, whoever holds the other cards, when every card it plays is
the strongest still out at that moment and nobody can trump it:

- it holds all eight trumps (each trick gets one of them);
- or it leads the first trick (B-30), every suit it holds runs down from the top without a gap
  (a trump suit from the jack, a plain suit from the ace), and in a trump deal it holds at least
  four trumps, so that leading them from the top draws every trump the others hold (no other
  seat holds more than it) before its plain masters are led;
- or, in no trumps, it holds every suit so (whatever is led, its ace takes the first trick).
"""

from __future__ import annotations

from collections.abc import Sequence

from blot.bazar.calls import KAPOOT, REDOUBLE, Call
from blot.bazar.tables import NT, PLAIN_ORDER, STRAIN_INDEX, TRUMP_ORDER
from blot.bazar.values import Action
from blot.bazar.view import DealView
from blot.bots.bazar_bot import last_bid


def runs_from_the_top(ranks: int, trump: bool) -> bool:
    """Whether the ranks held in one suit (bits 7 … 14) are its strongest ones, without a gap."""
    order = TRUMP_ORDER if trump else PLAIN_ORDER  # weakest first
    held = ranks.bit_count()
    return all(ranks >> rank & 1 for rank in order[8 - held :])


def takes_every_trick(hand: int, tix: int, on_lead: bool) -> bool:
    """Whether the seat holding ``hand`` takes all eight tricks itself in strain ``tix`` whatever
    the other hands hold, leading the first trick or not (the module's three cases)."""
    suits = [(hand >> (16 * s)) & 0xFFFF for s in range(4)]
    if tix != NT and suits[tix].bit_count() == 8:
        return True
    if not all(runs_from_the_top(suits[s], s == tix) for s in range(4)):
        return False
    if tix == NT:
        return on_lead or all(suits)
    return on_lead and suits[tix].bit_count() >= 4


def certain_call(view: DealView, legal: Sequence[Action]) -> Call | None:
    """The highest bid (kapoot or, with ``kanach``, 30) in a strain the seat sweeps alone for
    sure, or a redouble of its side's contra'd contract there; ``None`` when no sweep is sure."""
    on_lead = view.seat == (view.dealer + 1) % 4
    current, holder = last_bid(view)
    for strain, tix in STRAIN_INDEX.items():
        if not takes_every_trick(view.hand, tix, on_lead):
            continue
        bids = [c for c in legal if type(c) is Call and c.is_bid and c.strain == strain]
        top = max(bids, key=lambda c: c.level, default=None)
        if top is not None and top.level >= KAPOOT:
            return top
        # our side's contract (only it may redouble, B-24): made for sure, a kanach if ours alone
        ours = (
            current is not None
            and current.strain == strain
            and (current.level <= KAPOOT or holder == view.seat)
        )
        if REDOUBLE in legal and ours:
            return REDOUBLE
    return None
