"""``basic``: a rule-based Bazar Blot player of club level without search.

It bids from a hand count (trump strength and length, side aces and tens, declarations and
belote, plus what a partner brings on average), contras a contract its own trumps should break,
declares its best set, and plays by simple conventions: win a trick cheaply when it can, give
points to a partner who is winning, and throw its cheapest card otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

from blot.bazar.calls import CONTRA, PASS, Call
from blot.bazar.rules import Rules
from blot.bazar.tables import KEY, NT, POINTS, STRAIN_INDEX
from blot.bazar.values import Action
from blot.bazar.view import DealView
from blot.bots.bazar_bot import BazarBot, declaration_bonus, holdings, last_bid
from blot.cards import ACE, JACK, SUIT_MASKS, Card, cards_of

#: Card points a partner brings to a contract on average, and the last trick's share.
PARTNER_SHARE = 28
LAST_TRICK_SHARE = 5


def hand_value(hand: int, strain: str, rules: Rules) -> float:
    """Game points this hand expects to make as declarer's side in ``strain``: card points it
    should win, a partner's average share, declarations and belote (B-50, B-51)."""
    tix = STRAIN_INDEX[strain]
    points = POINTS[tix]
    won = 0.0
    for suit, cards, ranks in holdings(hand):
        if suit == tix:
            length = len(cards)
            if length < 3 or not ranks & {JACK, 9}:
                return 0.0  # no trump suit worth naming
            won += sum(points[c.index] for c in cards) + 6 * (length - 3)
            if JACK in ranks and 9 in ranks:
                won += 10
        else:
            if ACE in ranks:
                won += points[16 * suit + ACE]
                if 10 in ranks:
                    won += 10
            elif 10 in ranks and len(cards) >= 3:
                won += 5
    if tix == NT and won < 45:
        return 0.0
    bonus = declaration_bonus(hand, rules, tix)
    card_points = min(162.0, won + PARTNER_SHARE + LAST_TRICK_SHARE)
    return card_points / 10 + bonus


class BasicBot(BazarBot):
    """The rule-based player of ``blot simulate`` and ``blot play``."""

    name = "basic"

    # --- bidding -----------------------------------------------------------------------------

    def call(self, view: DealView, legal: Sequence[Action]) -> Call:
        bids = [a for a in legal if type(a) is Call and a.is_bid]
        current, holder = last_bid(view)
        if CONTRA in legal and current is not None and self._should_contra(view, current):
            return CONTRA
        if holder is not None and holder % 2 == view.seat % 2:
            return PASS  # partner or self holds the bid: do not bid against our own side
        best: Call | None = None
        best_value = 0.0
        for strain in ("S", "H", "D", "C", "NT"):
            value = hand_value(view.hand, strain, view.rules) + self.boldness
            if value < 8:
                continue
            level = min(int(value), 16)
            options = [b for b in bids if b.strain == strain and b.level <= level]
            if options and value > best_value:
                best, best_value = options[0], value
        return best if best is not None else PASS

    def _should_contra(self, view: DealView, bid: Call) -> bool:
        if bid.trump is None:
            return False
        trumps = view.hand & SUIT_MASKS[bid.trump]
        ranks = {c.rank for c in cards_of(trumps)}
        return bid.level >= 10 and trumps.bit_count() >= 3 and JACK in ranks and 9 in ranks

    # --- play ----------------------------------------------------------------------------------

    def card(self, view: DealView, legal: list[Card]) -> Card:
        if len(legal) == 1:
            return legal[0]
        tix = view.tix
        points, keys = POINTS[tix], KEY[tix]
        trick = [c for _, c in view.trick]
        if not trick:
            return self._lead(view, legal, tix)
        led = trick[0].suit

        def beats(card: Card, best: Card) -> bool:
            return keys[card.index] > keys[best.index] and (card.suit == led or keys[card.index] >= 100)

        winner = trick[0]
        winner_pos = 0
        for i, c in enumerate(trick[1:], 1):
            if beats(c, winner):
                winner, winner_pos = c, i
        partner_winning = len(trick) >= 2 and winner_pos == len(trick) - 2
        last_to_play = len(trick) == 3
        cheapest = min(legal, key=lambda c: (points[c.index], keys[c.index]))
        if partner_winning and (last_to_play or keys[winner.index] >= 100 or winner.rank == ACE):
            # Give points to a safe partner, but keep trumps.
            givers = [c for c in legal if keys[c.index] < 100] or legal
            return max(givers, key=lambda c: (points[c.index], -keys[c.index]))
        winning = [c for c in legal if beats(c, winner)]
        if winning:
            at_stake = sum(points[c.index] for c in trick)
            if last_to_play or at_stake >= 10 or not partner_winning:
                return min(winning, key=lambda c: (keys[c.index] >= 100, keys[c.index]))
        return cheapest

    def _lead(self, view: DealView, legal: list[Card], tix: int) -> Card:
        points, keys = POINTS[tix], KEY[tix]
        contract = view.contract
        ours = contract is not None and contract.team == view.team
        if tix != NT and ours:
            trumps = [c for c in legal if c.suit == tix]
            if trumps and max(keys[c.index] for c in trumps) == 100 + 7:  # the jack: draw trumps
                return max(trumps, key=lambda c: keys[c.index])
        aces = [c for c in legal if c.rank == ACE and c.suit != tix]
        if aces:
            return aces[0]
        side = [c for c in legal if c.suit != tix] or legal
        return min(side, key=lambda c: (points[c.index], keys[c.index]))
