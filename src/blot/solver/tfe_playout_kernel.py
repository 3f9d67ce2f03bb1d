"""3-5-8's compiled play-outs: a deal in play played to its end by one of three players at every
seat, for the bots that judge a trump call, a gift or a discard by playing it out
(:mod:`blot.bots.tfe_rollout`).

- ``RANDOM``: a legal card at random (T-31 … T-33);
- ``BASIC``: the ``basic`` bot's card (``blot.bots.tfe_basic._Play``), rule for rule;
- ``HEURISTIC``: the ``heuristic`` bot's card (``blot.bots.tfe_heuristic._BetterPlay``), rule
  for rule.

Before the play, :func:`discard` is both bots' discard (T-22), so that a played-out trump call
spends no time in Python on its four discarded cards.

Each seat reads only what it could see: its own hand, the cards played, the suits each other
seat showed it lacks and whether it showed it has no trump (public, so one copy for all seats,
``VOID`` and ``NO_TRUMPS``, updated as each card falls), and the first seat its own discard.
Cards are the engine's (bit ``16 * suit + rank``, rank 2 … 14), so a hand is the engine's card
set as it is. Ties between cards break as the Python bots' ``min``/``max`` over their legal
cards do (the first best in card order).
"""

from __future__ import annotations

from typing import Any, Final

from blot.solver._jit import bit_count, highest_bit, jit, lowest_bit
from blot.solver._random import random_bit

RANDOM: Final = 0
BASIC: Final = 1
HEURISTIC: Final = 2

#: Slots of a position array: ``HANDS`` the three hands, ``TRICK`` the trick's cards (bit
#: numbers), ``TRICKS`` the tricks each seat took in the play-out, ``VOID`` the suits each seat
#: showed it lacks (4 bits), ``NO_TRUMPS`` whether it showed it holds no trump (three slots
#: each); ``N`` the cards in the trick, ``LEADER``, ``PLAYED`` every card played (the trick's
#: included), ``TRUMP`` the trump suit (-1 in no trumps), ``FIRST`` the seat that discarded
#: (T-22; -1 when none), ``DISCARD`` its discard, ``RNG`` the random generator's state
#: (:mod:`blot.solver._random`); ``SIZE`` slots in all.
HANDS, TRICK, TRICKS, VOID, NO_TRUMPS = 0, 3, 6, 9, 12
N, LEADER, PLAYED, TRUMP, FIRST, DISCARD, RNG, SIZE = 15, 16, 17, 18, 19, 20, 21, 22

DECK: Final = 0x7FFC7FFC7FFC7FFC
RANKS: Final = 0x7FFC


@jit
def suit_mask(s: int) -> int:
    return RANKS << (16 * s) if s >= 0 else 0


@jit
def segment(cards: int, s: int) -> int:
    """The ranks (bits 2 … 14) of suit ``s`` in ``cards``."""
    return (cards >> (16 * s)) & RANKS


@jit
def trick_mask(p: Any) -> int:
    out = 0
    for i in range(p[N]):
        out |= 1 << p[TRICK + i]
    return out


@jit
def legal(p: Any) -> int:
    """The legal cards of the seat to act (T-31 … T-33, as :func:`blot.three_five_eight.play.legal_mask`)."""
    n = p[N]
    hand: int = p[HANDS + (p[LEADER] + n) % 3]
    if n == 0:
        return hand
    lead = suit_mask(p[TRICK] >> 4)
    tmask = suit_mask(p[TRUMP])
    follow = hand & lead
    in_trick = trick_mask(p) & tmask
    if follow:
        if lead & tmask:
            higher = follow & -(2 << highest_bit(in_trick)) if in_trick else follow
            return higher if higher else follow
        return follow
    trumps = hand & tmask
    if not trumps:
        return hand
    if in_trick:
        higher = trumps & -(2 << highest_bit(in_trick))
        return higher if higher else hand
    return trumps


@jit
def winner_bit(cards: int, lead: int, tmask: int) -> int:
    """T-34: the highest trump of ``cards``, or with none the highest card of the suit led."""
    trumps = cards & tmask
    return 1 << highest_bit(trumps if trumps else cards & lead)


@jit
def beats(p: Any, c: int) -> bool:
    """Would ``c`` take the lead of the trick as it stands?"""
    lead = suit_mask(p[TRICK] >> 4) if p[N] else suit_mask(c >> 4)
    return winner_bit(trick_mask(p) | (1 << c), lead, suit_mask(p[TRUMP])) == 1 << c


@jit
def out(p: Any, me: int) -> int:
    """The cards another seat may still hold, as ``me`` sees them (its own discard excepted)."""
    gone = p[PLAYED] | (p[DISCARD] if me == p[FIRST] else 0)
    return int(DECK & ~gone & ~p[HANDS + me])


@jit
def is_top(p: Any, me: int, c: int) -> bool:
    """No card still out is stronger in ``c``'s suit."""
    return not (segment(out(p, me), c >> 4) >> ((c & 15) + 1))


@jit
def tops(p: Any, me: int, cards: int) -> int:
    """The cards of ``cards`` that :func:`is_top` holds for, found suit by suit at once."""
    left = out(p, me)
    found = 0
    for s in range(4):
        seg = segment(left, s)
        mine = cards & suit_mask(s)
        found |= mine & -(2 << (highest_bit(seg) + 16 * s)) if seg else mine
    return found


@jit
def void(p: Any, s: int, suit: int) -> bool:
    return bool(p[VOID + s] >> suit & 1)


@jit
def may_ruff(p: Any, me: int, s: int, suit: int) -> bool:
    """Could seat ``s`` trump a card of ``suit``, as ``me`` sees it?"""
    trump = p[TRUMP]
    if trump < 0 or suit == trump or p[NO_TRUMPS + s]:
        return False
    left = out(p, me)
    if not (left & suit_mask(trump)):
        return False
    if void(p, s, suit):
        return True
    return bit_count(segment(left, suit)) < 2  # the suit is nearly gone: somebody is out


@jit
def holds_against(p: Any, me: int, c: int, s: int, led: int, better: bool) -> bool:
    """Will ``c`` still win once ``s`` (the last to play) has played? ``better``: the heuristic's
    first look, a last seat known out of the suit led and of trumps."""
    trump = p[TRUMP]
    if better and void(p, s, led) and (p[NO_TRUMPS + s] or trump < 0):
        return True
    if c >> 4 == trump and led != trump:
        if is_top(p, me, c):
            return True
        return not void(p, s, led) and bit_count(segment(out(p, me), led)) >= 3
    if not is_top(p, me, c):
        return False
    return not may_ruff(p, me, s, led)


#: How :func:`pick` orders cards: each the key of one ``min`` or ``max`` of the Python bots.
LOWEST: Final = 0  # min rank
HIGHEST: Final = 1  # max rank
CHEAPEST_WIN: Final = 2  # min (is a trump, rank)
COST: Final = 3  # min (is a trump, is top, rank * 16 + length in the hand)
SAFE_LEAD: Final = 4  # max (is not a trump, rank)


@jit
def pick(among: int, order: int, p: Any, me: int) -> int:
    """The first card of ``among`` (non-empty) in card order whose score in ``order`` is lowest:
    what ``min``/``max`` over the legal cards in card order give."""
    trump = p[TRUMP]
    best = -1
    best_score = 0
    top_cards = tops(p, me, among) if order == COST else 0
    while among:
        c = lowest_bit(among)
        among &= among - 1
        rank = c & 15
        trumps = 1 if c >> 4 == trump else 0
        if order == LOWEST:
            v = rank
        elif order == HIGHEST:
            v = -rank
        elif order == CHEAPEST_WIN:
            v = 100 * trumps + rank
        elif order == COST:
            top = top_cards >> c & 1
            v = 100000 * trumps + 10000 * top + 16 * rank + bit_count(segment(p[HANDS + me], c >> 4))
        else:
            v = -(100 * (1 - trumps) + rank)
        if best < 0 or v < best_score:
            best, best_score = c, v
    return best


@jit
def lead(p: Any, me: int, cards: int, better: bool) -> int:
    """The lead of ``basic`` (``_Play.lead``), or with ``better`` of ``heuristic``."""
    trump = p[TRUMP]
    s1 = (me + 1) % 3
    s2 = (me + 2) % 3
    hand = p[HANDS + me]
    left = out(p, me)
    top_cards = tops(p, me, cards)
    if better:
        cashable = 0
        if (p[NO_TRUMPS + s1] and p[NO_TRUMPS + s2]) or trump < 0:
            for suit in range(4):
                if suit != trump and void(p, s1, suit) and void(p, s2, suit):
                    cashable |= cards & suit_mask(suit)
        if cashable:
            return pick(cashable, LOWEST, p, me)  # nobody can follow or ruff: any card wins
        if trump >= 0 and not segment(left, trump) and top_cards:
            return pick(top_cards, HIGHEST, p, me)
    if trump >= 0:
        mine = segment(hand, trump)
        theirs = segment(left, trump)
        if mine and theirs and not (p[NO_TRUMPS + s1] and p[NO_TRUMPS + s2]):
            top = int(highest_bit(mine) + 16 * trump)
            if is_top(p, me, top) and 2 * bit_count(mine) >= bit_count(theirs):
                return top  # draw trumps while holding the top one and the length
    safe = 0
    for suit in range(4):
        mine = top_cards & suit_mask(suit)
        if mine and (suit == trump or not (may_ruff(p, me, s1, suit) or may_ruff(p, me, s2, suit))):
            safe |= mine
    if safe:
        return pick(safe, SAFE_LEAD, p, me)
    side = cards & ~suit_mask(trump)
    if not side:
        return pick(cards, LOWEST, p, me)
    if trump >= 0 and hand & suit_mask(trump):
        singles = 0
        for s in range(4):
            if side & suit_mask(s) and bit_count(segment(hand, s)) == 1:
                singles |= side & suit_mask(s)
        if singles:
            return pick(singles, LOWEST, p, me)  # make a void to ruff in
    longest = 0
    longest_score = -1
    for s in range(4):
        v = 100 * (1 if s != trump else 0) + bit_count(segment(hand, s))
        if v > longest_score:
            longest, longest_score = s, v
    in_long = side & suit_mask(longest)
    return pick(in_long if in_long else side, LOWEST, p, me)


@jit
def follow(p: Any, me: int, cards: int, better: bool) -> int:
    """A card to a trick already led (``_Play.choose``)."""
    trump = p[TRUMP]
    winners = 0
    x = cards
    while x:
        c = lowest_bit(x)
        x &= x - 1
        if beats(p, c):
            winners |= 1 << c
    if p[N] == 2:
        if winners:
            return pick(winners, CHEAPEST_WIN, p, me)
        return pick(cards, COST, p, me)
    last = (me + 1) % 3
    led = p[TRICK] >> 4
    sure = 0
    x = winners
    while x:
        c = lowest_bit(x)
        x &= x - 1
        if holds_against(p, me, c, last, led, better):
            sure |= 1 << c
    if sure:
        return pick(sure, CHEAPEST_WIN, p, me)
    if winners and not (cards & ~suit_mask(trump)):
        return pick(winners, LOWEST, p, me)  # forced to trump: the cheapest that wins
    return pick(cards, COST, p, me)


@jit
def choose(p: Any, policy: int) -> int:
    """The card (its bit number) the seat to act plays under ``policy``."""
    cards = legal(p)
    if policy == RANDOM:
        return lowest_bit(random_bit(cards, p, RNG))
    if not (cards & (cards - 1)):
        return lowest_bit(cards)
    me = (p[LEADER] + p[N]) % 3
    better = policy == HEURISTIC
    if p[N] == 0:
        return lead(p, me, cards, better)
    return follow(p, me, cards, better)


@jit
def play(p: Any, c: int) -> None:
    """The seat to act plays ``c``: what it showed is learned (``_Play._learn``), and a full trick
    goes to its winner (T-34)."""
    n = p[N]
    seat = (p[LEADER] + n) % 3
    trump = p[TRUMP]
    if n:
        led = p[TRICK] >> 4
        if c >> 4 != led:
            p[VOID + seat] |= 1 << led
            trumped = False  # a card after the lead that trumped it
            for i in range(1, n):
                if led != trump and p[TRICK + i] >> 4 == trump:
                    trumped = True
            if trump >= 0 and c >> 4 != trump and not trumped:
                p[NO_TRUMPS + seat] = 1  # void and did not trump: holds no trump (T-32)
    p[HANDS + seat] &= ~(1 << c)
    p[PLAYED] |= 1 << c
    p[TRICK + n] = c
    if n < 2:
        p[N] = n + 1
        return
    cards = (1 << p[TRICK]) | (1 << p[TRICK + 1]) | (1 << c)
    w = lowest_bit(winner_bit(cards, suit_mask(p[TRICK] >> 4), suit_mask(trump)))
    for i in range(3):
        if p[TRICK + i] == w:
            winner = (p[LEADER] + i) % 3
    p[TRICKS + winner] += 1
    p[LEADER] = winner
    p[N] = 0


@jit
def play_out(p: Any, policy: int) -> None:
    """Play the position ``p`` to the end of the deal, every seat by ``policy``."""
    while p[HANDS] | p[HANDS + 1] | p[HANDS + 2]:
        play(p, choose(p, policy))


@jit
def play_outs(start: Any, p: Any, policy: int, count: int, out: Any) -> None:
    """``count`` play-outs of ``start`` (``p`` the scratch copy, the generator carried from one
    to the next): ``out`` gets the sums of the tricks each seat took."""
    for i in range(3):
        out[i] = 0
    rng = start[RNG]
    for _ in range(count):
        for i in range(SIZE):
            p[i] = start[i]
        p[RNG] = rng
        play_out(p, policy)
        rng = p[RNG]
        for i in range(3):
            out[i] += p[TRICKS + i]
    start[RNG] = rng


# --- the discard (T-22) ---------------------------------------------------------------------


@jit
def suit_tricks(seg: int, trump: bool, no_trump: bool) -> float:
    """``blot.bots.tfe_basic.suit_tricks``, the same floats added in the same order (so that
    ties between discards break alike)."""
    length = bit_count(seg)
    if length == 0:
        return 0.0
    a = seg >> 14 & 1 == 1
    k = seg >> 13 & 1 == 1
    q = seg >> 12 & 1 == 1
    j = seg >> 11 & 1 == 1
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
        tricks += 0.35 if int(a) + int(k) + int(q) >= 2 else 0.15
    if trump:
        tricks += max(0, length - 4) * 0.85 + (0.3 if length == 4 else 0.0)
    elif no_trump:
        if length >= 5:
            tricks += (length - 4) * (0.65 if a or k else 0.35)
    elif length >= 6:
        tricks += (length - 5) * 0.25
    return tricks


@jit
def hand_tricks(hand: int, trump: int) -> float:
    """``blot.bots.tfe_basic.hand_tricks`` (``trump`` -1 for no trumps), float for float."""
    total = 0.0
    ruffs = 0.0
    for s in range(4):
        seg = segment(hand, s)
        total += suit_tricks(seg, s == trump, trump < 0)
        if trump >= 0 and s != trump:
            n = bit_count(seg)
            ruffs += 1.0 if n == 0 else (0.6 if n == 1 else (0.25 if n == 2 else 0.0))
    if trump >= 0:
        spare = bit_count(segment(hand, trump)) - 2
        total += min(ruffs, max(spare, 0) * 0.8)
    return total


@jit
def discard(hand: int, trump: int) -> int:
    """The ``basic`` and ``heuristic`` bots' next discard from ``hand`` (``tfe_basic.discard_bit``,
    as a bit number): the card whose loss costs the hand's trick estimate least, the lowest rank
    of the first such in card order, never a trump while another card may go (T-22)."""
    side = hand & ~suit_mask(trump)
    cards = side if side else hand
    best = -1
    best_tricks = 0.0
    while cards:
        c = lowest_bit(cards)
        cards &= cards - 1
        t = hand_tricks(hand & ~(1 << c), trump)
        if best < 0 or t > best_tricks or (t == best_tricks and c & 15 < best & 15):
            best, best_tricks = c, t
    return best


@jit
def discard_and_play_out(p: Any, policy: int) -> None:
    """From the first seat's discard (T-22: ``FIRST`` holds the talon, ``DISCARD`` the cards put
    back so far, ``LEADER`` the first seat): the rest of its four cards put back as the bots put
    them back, then the deal played to its end by ``policy``."""
    first = p[FIRST]
    while bit_count(p[DISCARD]) < 4:
        c = discard(p[HANDS + first], p[TRUMP])
        p[HANDS + first] &= ~(1 << c)
        p[DISCARD] |= 1 << c
    play_out(p, policy)
