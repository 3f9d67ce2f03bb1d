"""``heuristic`` for 3-5-8: the ``basic`` player's calls, exchange and discard, and its
card-counting play (every card played and every void is remembered), with two refinements
measured with ``blot arena``: the second seat trusts a winner that the last seat cannot beat
because it is known to be out of the suit led and out of trumps (T-31 … T-33), and the leader
cashes a winner in any suit that both other seats are known unable to ruff.
"""

from __future__ import annotations

from blot.bots.tfe_basic import BasicBot, _Play, _segment
from blot.bots.tfe_info import deal_view
from blot.cards import Card
from blot.game import View
from blot.three_five_eight import Action, Phase


class _BetterPlay(_Play):
    def holds_against(self, card: Card, seat: int, led: int) -> bool:
        if self.void[seat] >> led & 1 and (self.no_trumps[seat] or self.trump is None):
            return True  # the last seat can neither follow nor trump
        return super().holds_against(card, seat, led)

    def lead(self) -> Card:
        others = [(self.seat + 1) % 3, (self.seat + 2) % 3]
        cashable = [
            c
            for c in self.legal
            if c.suit != self.trump
            and all(self.void[s] >> c.suit & 1 and (self.no_trumps[s] or self.trump is None) for s in others)
        ]
        if cashable:
            return min(cashable, key=lambda c: c.rank)  # nobody can follow or ruff: any card wins
        if self.trump is not None and not _segment(self.out, self.trump):
            tops = [c for c in self.legal if self.is_top(c)]
            if tops:
                return max(tops, key=lambda c: c.rank)
        return super().lead()


class HeuristicBot(BasicBot):
    name = "heuristic"

    def choose(self, view: View) -> Action:
        deal = deal_view(view)
        if deal.phase is Phase.PLAY and len(deal.legal) > 1:
            return _BetterPlay(deal).choose()
        return super().choose(view)
