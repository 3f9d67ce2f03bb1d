"""What a 3-5-8 seat can infer from its view alone, and random deals of the hidden cards
consistent with it (for PIMC): cards played, voids and trump limits revealed by the play
(T-31 … T-33), the talon (shown to all, then in the first seat's hand or its discard), and the
exchange steps the seat took part in (T-20, T-21). It reads a view only.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from blot.bots import cards_played, deal_of, tricks_seen
from blot.bots.sampling import deal_rest
from blot.cards import DECK52, SUIT_MASKS, Card
from blot.game import View
from blot.three_five_eight import DealView

#: The index of the first seat's discard among the "hands" of a sample: the talon's four cards
#: while it is face down, the four put back once it is taken (T-22).
DISCARD = 3


def deal_view(view: View) -> DealView:
    """The 3-5-8 deal part of a bot's view."""
    return deal_of(view, DealView)


@dataclass
class TfeKnowledge:
    seat: int
    first: int
    trump: int | None
    played: int
    sizes: list[int]  # three seats, then the discard (0 when the seat knows it)
    forbidden: list[int]
    known: list[int]

    @property
    def hidden(self) -> int:
        return DECK52 & ~self.played & ~self.known[self.seat]


def infer(deal: DealView) -> TfeKnowledge:
    me = deal.seat
    first = (deal.dealer + 1) % 3
    trump = deal.trump.suit if deal.trump is not None else None
    tmask = SUIT_MASKS[trump] if trump is not None else 0
    tricks = tricks_seen(deal)
    played, played_by = cards_played(tricks, 3)
    forbidden = [0, 0, 0, 0]
    for leader, cards in tricks:
        led = cards[0].suit
        for i in range(1, len(cards)):
            c = cards[i]
            s = (leader + i) % 3
            top_trump = 0
            for x in cards[:i]:
                if x.suit == trump:
                    top_trump = max(top_trump, x.bit)
            above = tmask & ~((top_trump << 1) - 1) if top_trump else tmask
            if c.suit != led:
                forbidden[s] |= SUIT_MASKS[led]
                if tmask and (c.suit != trump or c.bit < top_trump):
                    forbidden[s] |= above  # T-32: would have had to (over)trump
            elif led == trump and top_trump and c.bit < top_trump:
                forbidden[s] |= above  # T-31: could not overtrump
    if deal.discard is not None:
        played |= deal.discard  # the first seat's own discard is out of play
    known = [0, 0, 0, 0]
    known[me] = deal.hand
    for e in deal.exchanges:
        if e.gift is None or e.returned is None or e.returned is e.gift:
            continue
        holder, c = (e.receiver, e.gift) if e.giver == me else (e.giver, e.returned)
        if holder != first or me == first:  # the first seat may have discarded it
            known[holder] |= c.bit
    for s, ceiling in _return_ceilings(deal).items():
        forbidden[s] |= ceiling & ~(deal.talon or 0)  # the talon is shown: no secret there
    sizes = [16 - played_by[s].bit_count() for s in range(3)] + [0]
    if deal.talon is None:
        sizes[DISCARD] = 4  # the talon, still face down (before T-22)
    elif me != first:
        sizes[DISCARD] = 4
        for s in range(3):
            if s != first:
                forbidden[s] |= deal.talon
    for s in range(4):
        known[s] &= ~played
        if s != me:
            known[s] &= ~deal.hand
            forbidden[s] &= ~known[s]
    return TfeKnowledge(me, first, trump, played, sizes, forbidden, known)


def _return_ceilings(deal: DealView) -> dict[int, int]:
    """The cards that each receiver of the seat's gifts cannot hold: his return was his
    strongest card of the gift's suit, or the gift itself when he held none stronger (T-21), so
    he held nothing above it then. Cards he was given later by the seat are known to it; a
    later gift from the third seat may have brought him anything, and so ends what the seat
    knows of him."""
    me = deal.seat
    ceilings: dict[int, int] = {}
    steps = deal.exchanges
    for i, e in enumerate(steps):
        if e.giver != me or e.returned is None:
            continue
        if any(later.receiver == e.receiver and later.giver != me for later in steps[i + 1 :]):
            continue
        above = SUIT_MASKS[e.returned.suit] & ~((e.returned.bit << 1) - 1)
        ceilings[e.receiver] = ceilings.get(e.receiver, 0) | above
    return ceilings


def sample_hands(k: TfeKnowledge, rng: Random, tries: int = 50) -> list[int] | None:
    """Three hands (the seat's own as it is) and the discard pile, consistent with ``k``."""
    me = k.seat
    slots = [s for s in range(4) if s != me and k.sizes[s] > 0]
    for _ in range(tries):
        hands = [k.known[s] for s in range(4)]
        room = [k.sizes[s] - hands[s].bit_count() if s != me else 0 for s in range(4)]
        if any(r < 0 for r in room):
            return None
        taken = hands[0] | hands[1] | hands[2] | hands[3]
        if deal_rest(k.hidden & ~taken, slots, hands, room, k.forbidden, rng):
            return hands
    return None


def lowest(cards: list[Card]) -> Card:
    """The lowest of tied cards: what the 3-5-8 search bots play when their fallback's card is
    not among them."""
    return min(cards, key=lambda c: c.rank)
