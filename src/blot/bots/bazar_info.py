"""What a Bazar Blot seat can infer from its view alone: cards played, voids and trump limits
revealed by the play (B-31 … B-33), cards located by declarations and belote (B-42 … B-44),
and random deals of the hidden cards consistent with all of it (for PIMC).

Everything here reads a :class:`~blot.bazar.view.DealView` only; nothing can reach another
seat's hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from blot.bazar.declarations import FOUR
from blot.bazar.tables import ABOVE, KEY, NT
from blot.bazar.view import DealView
from blot.bots import cards_played, tricks_seen
from blot.bots.sampling import deal_rest
from blot.cards import DECK32, KING, QUEEN, SUIT_MASKS, Card, Suit, card, rank_mask


@dataclass
class Knowledge:
    """Inferences of one seat. Card sets are ints; lists are indexed by seat."""

    seat: int
    tix: int
    played: int  # every card played so far, the trick in progress included
    played_by: list[int]  # the cards each seat has played
    sizes: list[int]  # how many cards each seat holds now
    forbidden: list[int]  # cards each seat cannot hold
    known: list[int]  # cards each seat is known to hold (not yet played)
    announced: list[tuple[int, str, int]]  # (seat, kind, top rank) of sequences not shown

    @property
    def hidden(self) -> int:
        """The cards in the other seats' hands."""
        return DECK32 & ~self.played & ~self.known[self.seat]

    def void(self, seat: int, suit: int) -> bool:
        return not ((self.known[seat] | ~self.forbidden[seat]) & SUIT_MASKS[suit] & self.hidden)

    def may_hold(self, seat: int) -> int:
        """The hidden cards ``seat`` may hold."""
        return self.hidden & ~self.forbidden[seat] if seat != self.seat else self.known[seat]


def infer(view: DealView) -> Knowledge:
    """Read everything the view reveals."""
    tix = view.tix
    keys = KEY[tix]
    trump_mask = SUIT_MASKS[tix] if tix != NT else 0
    tricks = tricks_seen(view)
    played, played_by = cards_played(tricks, 4)
    forbidden = [0, 0, 0, 0]
    for leader, cards in tricks:
        led = cards[0].suit
        win = 0
        for i in range(1, len(cards)):
            c = cards[i]
            s = (leader + i) % 4
            w = cards[win]
            if c.suit != led:
                forbidden[s] |= SUIT_MASKS[led]  # B-31: did not follow
                if trump_mask and c.suit != tix and not (i >= 2 and win == i - 2):
                    # B-32 (b): a seat void in the suit led that holds a trump stronger than
                    # every card in the trick must play one
                    forbidden[s] |= ABOVE[tix][w.index] if w.suit == tix else trump_mask
                elif (
                    trump_mask
                    and c.suit == tix
                    and w.suit == tix
                    and keys[c.index] < keys[w.index]
                    and not (i >= 2 and win == i - 2)
                ):
                    forbidden[s] |= ABOVE[tix][w.index]  # under-trumped: holds no higher trump
            elif led == tix and w.suit == tix and keys[c.index] < keys[w.index]:
                forbidden[s] |= ABOVE[tix][w.index]  # B-31: could not beat the trump
            if keys[c.index] > keys[w.index] and (c.suit == led or keys[c.index] >= 100):
                win = i
    known = [0, 0, 0, 0]
    known[view.seat] = view.hand
    # B-42: belote announced with one card means the same seat holds the other
    if tix != NT:
        pair = card(Suit(tix), KING).bit | card(Suit(tix), QUEEN).bit
        for s, _ in view.belotes:
            known[s] |= pair & ~played
    announced: list[tuple[int, str, int]] = []
    shown = {(s, d.kind, d.rank) for s, d in view.shown}
    for s, d in view.shown:
        known[s] |= d.mask & ~played
    for a in view.announced:
        if a.seat == view.seat:
            continue
        if a.kind == FOUR:
            known[a.seat] |= rank_mask(a.rank) & ~played
        elif (a.seat, a.kind, a.rank) not in shown:
            announced.append((a.seat, a.kind, a.rank))
    for s in range(4):
        known[s] &= ~played
        if s != view.seat:
            known[s] &= ~view.hand
            forbidden[s] &= ~known[s]
    sizes = [8 - played_by[s].bit_count() for s in range(4)]
    return Knowledge(view.seat, tix, played, played_by, sizes, forbidden, known, announced)


_SEQ_LEN = {"terz": 3, "fifty": 4, "hundred": 5}


def sample_hands(k: Knowledge, rng: Random, tries: int = 50) -> list[int] | None:
    """One deal of the hidden cards consistent with ``k``: each seat's hand as a card set (the
    seat's own hand as it is), or None when no consistent deal was found in ``tries`` tries."""
    me = k.seat
    others = [s for s in range(4) if s != me]
    for _ in range(tries):
        hands = list(k.known)
        taken = hands[0] | hands[1] | hands[2] | hands[3]
        ok = True
        for s, kind, rank in k.announced:
            length = _SEQ_LEN[kind]
            options = []
            for suit in range(4):
                run = sum(card(Suit(suit), rank - i).bit for i in range(length))
                free = run & ~k.played_by[s]
                if free & (k.played | taken & ~hands[s]) or free & k.forbidden[s]:
                    continue
                options.append(free)
            if not options:
                ok = False
                break
            chosen = rng.choice(options)
            hands[s] |= chosen
            taken |= chosen
        if not ok:
            continue
        room = [k.sizes[s] - hands[s].bit_count() if s != me else 0 for s in range(4)]
        if any(r < 0 for r in room):
            continue
        if deal_rest(k.hidden & ~taken, others, hands, room, k.forbidden, rng):
            return hands
    return None


def trick_state(view: DealView) -> tuple[list[Card], int, int]:
    """The trick in progress: its cards, the position of the card winning it, the strain."""
    tix = view.tix
    keys = KEY[tix]
    cards = [c for _, c in view.trick]
    win = 0
    for i in range(1, len(cards)):
        c, w = cards[i], cards[win]
        if keys[c.index] > keys[w.index] and (c.suit == cards[0].suit or keys[c.index] >= 100):
            win = i
    return cards, win, tix
