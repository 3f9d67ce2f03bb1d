"""``basic``: a rule-based 3-5-8 player without search.

It sees only its seat's view and keeps no memory between calls: everything it knows it reads
from the view each time (its hand, the calls, the exchange steps it took part in, the talon once
shown, its own discard, the tricks so far).

- **Call** (T-10): it estimates the tricks its hand takes in each strain (top cards, trump
  length, short side suits to ruff; long suits and top cards for NT) and names the best. It
  passes only when it still may and even the best strain leaves it well short of its target.
- **Exchange** (T-20, T-21): the receiver must give back his strongest card of the gift's suit
  when it is stronger, so the bot gives the lowest card of the suit where that return is worth
  most on average (trumps above all), using what earlier steps showed about the receiver.
- **Discard** (T-22): from its 20 cards it puts back, one by one, the card whose loss costs the
  hand least, which voids short weak side suits when it holds trumps to ruff with.
- **Play** (T-30 … T-34): every trick is worth one point to whoever takes it (T-40), so it
  takes every trick it can take cheaply: leading, it draws trumps when it holds the top one and
  the length, cashes safe winners, else leads from a short suit to ruff it or low from its long
  one; second, it plays a sure winner or ducks with its lowest card; last, it wins with the
  cheapest card that does, or throws its least useful card. A trick it cannot win gets its
  cheapest card: a winner is never spent on a lost trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from blot.bots.settings import Configured, Setting
from blot.bots.tfe_info import deal_view
from blot.cards import ACE, CARD_OF_BIT, DECK52, JACK, KING, QUEEN, SUIT_MASKS, Card
from blot.game import View
from blot.three_five_eight import NO_TRUMP, PASS, STRAINS, Action, Call, DealView, Phase
from blot.three_five_eight.play import winning_bit

_RANKS: Final = 0x7FFC  # bits 2 … 14 of one suit's 16-bit segment
#: How much a card of each rank is worth as a trick-taker, for the exchange (index = rank).
_WORTH: Final = (0, 0, 0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.07, 0.1, 0.16, 0.3, 0.5, 0.75, 1.0)
_TRUMP_WORTH: Final = 0.35  # a trump of any rank is a possible ruff
#: NT is named only when its estimate beats the best suit's by this many tricks, counting
#: this much for each card the exchange would have made the seat give back (measured with
#: ``blot simulate``: with this bot's play NT pays only for flat hands full of top cards).
NT_MARGIN: Final = 1.0
NT_SAVED_PER_CARD: Final = 0.6


def _segment(cards: int, suit: int) -> int:
    """The ranks (bits 2 … 14) of one suit of a card set."""
    return (cards >> (16 * suit)) & _RANKS


def _top_rank(segment: int) -> int:
    return segment.bit_length() - 1


def suit_tricks(segment: int, trump: bool, no_trump: bool) -> float:
    """Tricks one suit of a hand should take (``segment`` is its ranks)."""
    length = segment.bit_count()
    if not length:
        return 0.0
    a, k, q, j = (bool(segment >> r & 1) for r in (ACE, KING, QUEEN, JACK))
    tricks = 0.0
    if a:
        tricks += 1.0
    if k:
        tricks += 0.9 if a else (0.6 if length >= 2 else 0.15)
    if q:
        if length >= 3:
            tricks += 0.7 if a and k else (0.45 if a or k else 0.25)
        else:
            tricks += 0.1
    if j and length >= 4:
        tricks += 0.35 if a + k + q >= 2 else 0.15
    if trump:
        tricks += max(0, length - 4) * 0.85 + (0.3 if length == 4 else 0.0)
    elif no_trump:
        if length >= 5:
            tricks += (length - 4) * (0.65 if a or k else 0.35)
    elif length >= 6:
        tricks += (length - 5) * 0.25
    return tricks


def hand_tricks(hand: int, trump: int | None) -> float:
    """Tricks ``hand`` should take with ``trump`` (a suit, or ``None`` for NT): the suits' own
    tricks, plus ruffs in short side suits while trumps last."""
    total = 0.0
    ruffs = 0.0
    for suit in range(4):
        segment = _segment(hand, suit)
        total += suit_tricks(segment, suit == trump, trump is None)
        if trump is not None and suit != trump:
            ruffs += (1.0, 0.6, 0.25)[segment.bit_count()] if segment.bit_count() <= 2 else 0.0
    if trump is not None:
        spare = _segment(hand, trump).bit_count() - 2
        total += min(ruffs, max(spare, 0) * 0.8)
    return total


class BasicBot(Configured):
    """The rule-based 3-5-8 player of ``blot simulate`` and ``blot play 3-5-8``.

    ``pass_margin``: it passes (while it still may) only when its best strain's estimate is
    this many tricks short of its target. Passing hands the choice of trump to an opponent,
    which measured worse than naming even a poor strain, so by default only a hopeless first
    hand passes.
    """

    name = "basic"
    SETTINGS: ClassVar[dict[str, Setting]] = {
        "pass_margin": Setting(float, -16, 16, "tricks short of its target before it passes", default=6.0)
    }
    pass_margin: float

    def choose(self, view: View) -> Action:
        deal = deal_view(view)
        legal = deal.legal
        if len(legal) == 1:
            return legal[0]
        phase = deal.phase
        if phase is Phase.CALL:
            return self._call(deal, legal)
        if phase is Phase.EXCHANGE:
            return self._gift(deal)
        if phase is Phase.DISCARD:
            return self._discard(deal)
        return _Play(deal).choose()

    # --- the trump call ------------------------------------------------------------------------

    def _call(self, deal: DealView, legal: Sequence[Action]) -> Call:
        receives = sum(1 for _, receiver in deal.plan if receiver == deal.seat)
        first = deal.seat == (deal.dealer + 1) % 3
        target = deal.targets[deal.seat]
        return trump_call(deal.hand, first, target, receives, PASS in legal, self.pass_margin)

    # --- the exchange --------------------------------------------------------------------------

    def _gift(self, deal: DealView) -> Card:
        """The lowest card of the suit whose forced return (T-21) should gain most."""
        me = deal.seat
        receiver = deal.plan[len(deal.exchanges)][1]
        trump = deal.trump.suit if deal.trump is not None else None
        # What the earlier steps showed: cards the receiver holds for sure, and per suit the
        # rank above which he holds nothing (his return was his strongest card of that suit).
        holds = 0
        ceiling = [15, 15, 15, 15]
        for e in deal.exchanges:
            if e.gift is None or e.returned is None:
                continue
            if e.giver == me and e.receiver == receiver:
                ceiling[e.gift.suit] = min(ceiling[e.gift.suit], e.returned.rank)
                if e.returned is not e.gift:
                    holds |= e.gift.bit
            elif e.receiver == me and e.giver == receiver and e.returned is not e.gift:
                holds |= e.returned.bit
        unknown = DECK52 & ~deal.hand
        share = deal.hand_sizes[receiver] / max(unknown.bit_count(), 1)
        best: tuple[float, int] | None = None
        gift_bit = 0
        for suit in range(4):
            mine = _segment(deal.hand, suit)
            if not mine:
                continue
            low = mine & -mine
            low_rank = low.bit_length() - 1
            bonus = _TRUMP_WORTH if suit == trump else 0.0
            factor = 1.6 if suit == trump else 1.0
            expected = 0.0
            missing = 1.0  # the chance that he holds nothing stronger seen so far
            known = _segment(holds, suit)
            others = _segment(unknown, suit) & ~known
            for rank in range(ACE, low_rank, -1):
                if known >> rank & 1:
                    expected += missing * (_WORTH[rank] * factor + bonus)
                    missing = 0.0
                    break
                if others >> rank & 1 and rank < ceiling[suit]:
                    p = missing * share
                    expected += p * (_WORTH[rank] * factor + bonus)
                    missing -= p
            gain = expected - (1.0 - missing) * (_WORTH[low_rank] * factor + bonus)
            key = (gain, -low_rank)
            if best is None or key > best:
                best, gift_bit = key, low << (16 * suit)
        return CARD_OF_BIT[gift_bit]

    # --- the discard ---------------------------------------------------------------------------

    def _discard(self, deal: DealView) -> Card:
        trump = deal.trump.suit if deal.trump is not None and deal.trump is not NO_TRUMP else None
        return CARD_OF_BIT[discard_bit(deal.hand, trump)]


def trump_call(hand: int, first: bool, target: int, receives: int, may_pass: bool, margin: float) -> Call:
    """The basic player's trump call (T-10) with ``hand``: the strain whose trick estimate is best
    (``first``: the seat that will take the talon; ``receives``: cards the exchange will bring
    it, each of which may cost it its strongest card of a suit), or pass when it ``may_pass`` and
    even that strain leaves it ``margin`` tricks short of its ``target``."""
    best = max(STRAINS[:4], key=lambda c: hand_tricks(hand, c.suit))
    estimate = hand_tricks(hand, best.suit)
    # NT only for a hand clearly better without trumps; NT also cancels the exchange
    # (T-20), which saves a seat that would have to give back its strongest cards (T-21).
    no_trump = hand_tricks(hand, None)
    if no_trump + NT_SAVED_PER_CARD * receives >= estimate + NT_MARGIN:
        best, estimate = NO_TRUMP, no_trump
    if first:
        estimate += 0.7  # the first seat takes the talon and discards his worst four
    if may_pass and estimate < target - margin:
        return PASS
    return best


def discard_bit(hand: int, trump: int | None) -> int:
    """The card (as a card set) whose loss costs ``hand``'s trick estimate least, never a trump
    while anything else may go (T-22, one card of the four)."""
    side = hand & ~SUIT_MASKS[trump] if trump is not None else hand
    best_bit = 0
    best_key: tuple[float, int] | None = None
    bits = side or hand
    while bits:
        bit = bits & -bits
        bits ^= bit
        key = (-hand_tricks(hand ^ bit, trump), (bit.bit_length() - 1) & 15)
        if best_key is None or key < best_key:
            best_key, best_bit = key, bit
    return best_bit


class _Play:
    """One card decision, from what the view shows (T-30 … T-34)."""

    def __init__(self, deal: DealView) -> None:
        self.deal = deal
        self.seat = deal.seat
        self.hand = deal.hand
        self.legal: list[Card] = [a for a in deal.legal if type(a) is Card]
        trump = deal.trump
        self.trump = trump.suit if trump is not None else None
        self.tmask = SUIT_MASKS[self.trump] if self.trump is not None else 0
        played = 0
        # void[seat] = suits the seat has shown out of; no_trumps: seats known to hold none
        self.void = [0, 0, 0]
        self.no_trumps = [False, False, False]
        for trick in deal.tricks:
            self._learn(trick.leader, trick.cards)
            for c in trick.cards:
                played |= c.bit
        if deal.trick:
            self._learn(deal.trick[0][0], tuple(c for _, c in deal.trick))
        for _, c in deal.trick:
            played |= c.bit
        gone = played | (deal.discard or 0)
        #: Cards that another seat may still hold (or that lie in a discard this seat never saw).
        self.out = DECK52 & ~gone & ~self.hand
        self.trick_mask = 0
        for _, c in deal.trick:
            self.trick_mask |= c.bit
        self.lead_mask = SUIT_MASKS[deal.trick[0][1].suit] if deal.trick else 0

    def _learn(self, leader: int, cards: tuple[Card, ...]) -> None:
        led = cards[0].suit
        trumped = False
        for i, c in enumerate(cards[1:], 1):
            seat = (leader + i) % 3
            if c.suit == led:
                continue
            self.void[seat] |= 1 << led
            if self.trump is not None and c.suit != self.trump and not trumped:
                self.no_trumps[seat] = True  # void and did not trump: holds no trump (T-32)
            if c.suit == self.trump:
                trumped = True

    # --- helpers -------------------------------------------------------------------------------

    def is_top(self, card: Card) -> bool:
        """No card still out is stronger in its suit."""
        return not _segment(self.out, card.suit) >> (card.rank + 1)

    def may_ruff(self, seat: int, suit: int) -> bool:
        """Could ``seat`` trump a card of ``suit``?"""
        if self.trump is None or suit == self.trump or self.no_trumps[seat]:
            return False
        if not self.out & self.tmask:
            return False
        if self.void[seat] >> suit & 1:
            return True
        return _segment(self.out, suit).bit_count() < 2  # the suit is nearly gone: somebody is out

    def cost(self, card: Card) -> tuple[int, int, int]:
        """How much it hurts to give ``card`` away: trumps and winners last, then by rank."""
        trump = card.suit == self.trump
        length = _segment(self.hand, card.suit).bit_count()
        return (int(trump), int(self.is_top(card)), card.rank * 16 + length)

    def cheapest(self, cards: Sequence[Card]) -> Card:
        return min(cards, key=self.cost)

    def beats(self, card: Card) -> bool:
        """Would ``card`` take the lead of the trick as it stands?"""
        trick = self.trick_mask | card.bit
        return winning_bit(trick, self.lead_mask or SUIT_MASKS[card.suit], self.tmask) == card.bit

    # --- the decision --------------------------------------------------------------------------

    def choose(self) -> Card:
        n = len(self.deal.trick)
        if n == 0:
            return self.lead()
        winners = [c for c in self.legal if self.beats(c)]
        if n == 2:
            if winners:
                return min(winners, key=lambda c: (c.suit == self.trump, c.rank))
            return self.cheapest(self.legal)
        last = (self.seat + 1) % 3
        led = self.deal.trick[0][1].suit
        sure = [c for c in winners if self.holds_against(c, last, led)]
        if sure:
            return min(sure, key=lambda c: (c.suit == self.trump, c.rank))
        if winners and all(c.suit == self.trump for c in self.legal):
            return min(winners, key=lambda c: c.rank)  # forced to trump: the cheapest that wins
        return self.cheapest(self.legal)

    def holds_against(self, card: Card, seat: int, led: int) -> bool:
        """Will ``card`` still win once ``seat`` (the last to play) has played?"""
        if card.suit == self.trump and led != self.trump:
            # a ruff: only a stronger trump of a seat out of the led suit beats it
            if self.is_top(card):
                return True
            return not (self.void[seat] >> led & 1) and _segment(self.out, led).bit_count() >= 3
        if not self.is_top(card):
            return False
        return not self.may_ruff(seat, led)

    def lead(self) -> Card:
        legal = self.legal
        trump = self.trump
        others = [(self.seat + 1) % 3, (self.seat + 2) % 3]
        if trump is not None:
            mine = _segment(self.hand, trump)
            theirs = _segment(self.out, trump)
            if mine and theirs and not all(self.no_trumps[s] for s in others):
                top = CARD_OF_BIT[1 << (_top_rank(mine) + 16 * trump)]
                if self.is_top(top) and mine.bit_count() >= theirs.bit_count() / 2:
                    return top  # draw trumps while holding the top one and the length
        safe = [
            c
            for c in legal
            if self.is_top(c) and (c.suit == trump or not any(self.may_ruff(s, c.suit) for s in others))
        ]
        if safe:
            return max(safe, key=lambda c: (c.suit != trump, c.rank))
        side = [c for c in legal if c.suit != trump]
        if not side:
            return min(legal, key=lambda c: c.rank)
        if trump is not None and self.hand & self.tmask:
            singles = [c for c in side if _segment(self.hand, c.suit).bit_count() == 1]
            if singles:
                return min(singles, key=lambda c: c.rank)  # make a void to ruff in
        longest = max(range(4), key=lambda s: (s != trump, _segment(self.hand, s).bit_count()))
        in_long = [c for c in side if c.suit == longest] or side
        return min(in_long, key=lambda c: c.rank)
