"""Bazar Blot's compiled play-outs: a deal in play played to its end by one of three players at
every seat, thousands of times a second, for the bots that judge a choice by playing it out.

- ``RANDOM``: a legal card at random (B-31 … B-33);
- ``BASIC``: the ``basic`` bot's card (:class:`blot.bots.bazar_basic.BasicBot`), rule for rule;
- ``HEURISTIC``: the ``heuristic`` bot's card (:class:`blot.bots.bazar_heuristic.HeuristicBot`),
  rule for rule, each seat reading only what it could see: its own hand, the cards played, and
  the cards the play showed each other seat cannot hold (:func:`blot.bots.bazar_info.infer`).
  That knowledge is public, the same for every seat, so one copy (``FORB``) is kept and updated
  as each card falls. (``infer`` also knows cards that declarations and belote showed; in the
  play they only ever narrow what the cards forbidden already narrow, so they are left out:
  ``tests/solver/test_bazar_playout.py`` checks every seat's view of every other card by card.)

Cards are the solver's compact numbers (:mod:`blot.solver.bazar_kernel`: ``suit * 8 +
strength``), a position is one flat int array (the slots below), and a play-out works on a
copy of it. Ties between cards break as the Python bots' ``min``/``max`` over their legal cards
do (the first best in card order: suit by suit), so the differential tests can ask for the
same card every time. The first trick's declarations are not played: a play-out plays cards
only (the caller knows what was declared).
"""

from __future__ import annotations

from typing import Any, Final

from blot.solver._jit import bit_count, jit, lowest_bit
from blot.solver._random import random_bit
from blot.solver.bazar_kernel import beats, legal_to

RANDOM: Final = 0
BASIC: Final = 1
HEURISTIC: Final = 2

#: Slots of a position array: the hands (4), the cards each seat cannot hold (4), the trick's
#: cards (4), then single values.
HANDS: Final = 0
FORB: Final = 4
TRICK: Final = 8
N: Final = 12  # cards in the trick
LEADER: Final = 13
WIN: Final = 14  # position of the card winning the trick
PLAYED: Final = 15  # every card played, the trick's included
POINTS0: Final = 16  # card points taken by team 0 and team 1 (the last trick's 10 included)
TRICKS0: Final = 18  # tricks taken by team 0 and team 1
TRUMP: Final = 20  # the trump suit, -1 in no trumps
TEAM: Final = 21  # the contractors' team
RNG: Final = 22  # the random generator's state (:mod:`blot.solver._random`)
SIZE: Final = 23

ALL: Final = 0xFFFFFFFF


@jit
def suit_mask(s: int) -> int:
    return 0xFF << (8 * s)


@jit
def key(c: int, trump: int) -> int:
    """The card's strength in a trick as :data:`blot.bazar.tables.KEY` gives it: a trump is 100
    more than its strength, any other card its strength."""
    return (c & 7) + (100 if c >> 3 == trump else 0)


@jit
def is_rank(c: int, trump: int, plain: int, in_trumps: int) -> bool:
    """Whether ``c`` has the rank whose strength is ``plain`` in a plain suit, ``in_trumps`` in
    the trump suit (the ten: 6 and 4; the ace: 7 and 5)."""
    return (c & 7) == (in_trumps if c >> 3 == trump else plain)


@jit
def stronger(c: int) -> int:
    """The cards of ``c``'s suit stronger than ``c``."""
    return suit_mask(c >> 3) & ~((2 << c) - 1)


@jit
def hidden(p: Any, me: int) -> int:
    """The cards in the other seats' hands, as ``me`` sees them."""
    return int(ALL & ~p[PLAYED] & ~p[HANDS + me])


@jit
def may_hold(p: Any, me: int, s: int) -> int:
    """The hidden cards seat ``s`` may hold, as ``me`` sees them."""
    if s == me:
        return int(p[HANDS + me])
    return int(hidden(p, me) & ~p[FORB + s])


@jit
def legal(p: Any) -> int:
    """The legal cards of the seat to act (B-31 … B-33)."""
    n = p[N]
    hand: int = p[HANDS + ((p[LEADER] + n) & 3)]
    if n == 0:
        return hand
    win = p[WIN]
    return legal_to(hand, p[TRICK] >> 3, p[TRICK + win], n >= 2 and win == n - 2, p[TRUMP])


@jit
def master(p: Any, me: int, c: int) -> bool:
    """No card out of ``me``'s sight beats ``c`` in its suit."""
    return not (hidden(p, me) & stronger(c))


@jit
def opponents_may_ruff(p: Any, me: int, suit: int) -> bool:
    trump = p[TRUMP]
    if trump < 0 or suit == trump:
        return False
    trumps_out = hidden(p, me) & suit_mask(trump)
    for i in (1, 3):
        s = (me + i) & 3
        held = may_hold(p, me, s)
        if not (held & suit_mask(suit)) and held & trumps_out:
            return True
    return False


@jit
def sure(p: Any, me: int, c: int) -> bool:
    """``c`` will hold the trick: ``me`` plays last, or no opponent still to play can beat it
    with the cards it may hold (the heuristic's ``sure``)."""
    n = p[N]
    if n == 3:
        return True
    trump = p[TRUMP]
    led = p[TRICK] >> 3
    led_mask = suit_mask(led)
    tmask = suit_mask(trump) if trump >= 0 else 0
    for i in range(1, 4 - n):
        s = (me + i) & 3
        if (s & 1) == (me & 1):
            continue
        held = may_hold(p, me, s)
        if c >> 3 == led and held & led_mask:
            if held & stronger(c):
                return False
            continue
        ruffs = trump >= 0 and held & tmask and c >> 3 != trump and not (held & led_mask)
        if ruffs or (c >> 3 == trump and held & stronger(c) and (not (held & led_mask) or led == trump)):
            return False
    return True


@jit
def basic_card(p: Any, me: int, cards: int, P: Any) -> int:
    """The ``basic`` bot's card among the legal ``cards`` (more than one)."""
    trump = p[TRUMP]
    n = p[N]
    if n == 0:
        if trump >= 0 and p[TEAM] == (me & 1) and cards & (1 << (8 * trump + 7)):
            return int(8 * trump + 7)  # the jack of trumps: draw trumps
        x = cards
        while x:
            c = lowest_bit(x)
            x &= x - 1
            if c >> 3 != trump and (c & 7) == 7:
                return c  # the first ace of a plain suit
        side = cards & ~suit_mask(trump) if trump >= 0 else cards
        return cheapest(side if side else cards, P, trump)
    win = p[WIN]
    w = p[TRICK + win]
    partner_winning = n >= 2 and win == n - 2
    last = n == 3
    if partner_winning and (last or w >> 3 == trump or is_rank(w, trump, 7, 5)):
        givers = cards & ~suit_mask(trump) if trump >= 0 else cards
        return most_points(givers if givers else cards, P, trump)
    winning = 0
    x = cards
    while x:
        c = lowest_bit(x)
        x &= x - 1
        if beats(c, w, trump):
            winning |= 1 << c
    if winning:
        stake = 0
        for i in range(n):
            stake += P[p[TRICK + i]]
        if last or stake >= 10 or not partner_winning:
            return cheapest_winner(winning, trump)
    return cheapest(cards, P, trump)


@jit
def cheapest(cards: int, P: Any, trump: int) -> int:
    """``min(cards, key=(points, key))``."""
    best = -1
    best_score = 0
    while cards:
        c = lowest_bit(cards)
        cards &= cards - 1
        score = 1000 * P[c] + key(c, trump)
        if best < 0 or score < best_score:
            best, best_score = c, score
    return best


@jit
def most_points(cards: int, P: Any, trump: int) -> int:
    """``max(cards, key=(points, -key))``."""
    best = -1
    best_score = 0
    while cards:
        c = lowest_bit(cards)
        cards &= cards - 1
        score = 1000 * P[c] - key(c, trump)
        if best < 0 or score > best_score:
            best, best_score = c, score
    return best


@jit
def cheapest_winner(cards: int, trump: int) -> int:
    """``min(cards, key=(is a trump, key))``."""
    best = -1
    best_score = 0
    while cards:
        c = lowest_bit(cards)
        cards &= cards - 1
        score = key(c, trump) + (1000 if c >> 3 == trump else 0)
        if best < 0 or score < best_score:
            best, best_score = c, score
    return best


@jit
def heuristic_lead(p: Any, me: int, cards: int, P: Any) -> int:
    """The ``heuristic`` bot's lead (its ``lead``)."""
    trump = p[TRUMP]
    hid = hidden(p, me)
    if trump >= 0:
        tmask = suit_mask(trump)
        trumps = cards & tmask
        trumps_out = hid & tmask
        opp_trumps = (may_hold(p, me, (me + 1) & 3) | may_hold(p, me, (me + 3) & 3)) & trumps_out
        if trumps and opp_trumps:
            top = highest(trumps)
            if master(p, me, top) and (p[TEAM] == (me & 1) or bit_count(trumps) >= 3):
                return top  # draw trumps with the master
    best = -1
    best_score = 0
    x = cards
    while x:
        c = lowest_bit(x)
        x &= x - 1
        if c >> 3 != trump and master(p, me, c) and not opponents_may_ruff(p, me, c >> 3):
            score = 1000 * P[c] + key(c, trump)
            if best < 0 or score > best_score:
                best, best_score = c, score
    if best >= 0:
        return best  # cash the master worth most
    side = cards & ~suit_mask(trump) if trump >= 0 else cards
    if not side:
        side = cards
    partner = (me + 2) & 3
    held = may_hold(p, me, partner)
    x = side
    while x:
        c = lowest_bit(x)
        x &= x - 1
        suit = c >> 3
        in_suit = cards & suit_mask(suit)
        guarded_ten = has_ten(in_suit, suit, trump) and bit_count(in_suit) <= 2
        partner_ruffs = trump >= 0 and not (held & suit_mask(suit)) and (held & suit_mask(trump)) != 0
        score = (
            100000 * ((1 if guarded_ten else 0) - (2 if partner_ruffs else 0)) + 1000 * P[c] + key(c, trump)
        )
        if best < 0 or score < best_score:
            best, best_score = c, score
    return best


@jit
def highest(cards: int) -> int:
    """The highest card number of a non-empty set (the strongest card of its top suit)."""
    while cards & (cards - 1):
        cards &= cards - 1
    return lowest_bit(cards)


@jit
def has_ten(cards: int, suit: int, trump: int) -> bool:
    """Whether ``cards`` hold the ten of ``suit``."""
    return bool(cards & (1 << (8 * suit + (4 if suit == trump else 6))))


@jit
def heuristic_follow(p: Any, me: int, cards: int, P: Any) -> int:
    """The ``heuristic`` bot's card to a trick already led (its ``follow``)."""
    trump = p[TRUMP]
    n = p[N]
    win = p[WIN]
    w = p[TRICK + win]
    partner_winning = n >= 2 and win == n - 2
    last = n == 3
    stake = 0
    for i in range(n):
        stake += P[p[TRICK + i]]
    if partner_winning and sure(p, me, w):
        givers = cards & ~suit_mask(trump) if trump >= 0 else cards
        if not givers:
            givers = cards
        best = -1
        best_score = 0
        while givers:
            c = lowest_bit(givers)
            givers &= givers - 1
            kept = 6 if master(p, me, c) and not is_rank(c, trump, 6, 4) else 0
            score = 1000 * (P[c] - kept) - key(c, trump)
            if best < 0 or score > best_score:
                best, best_score = c, score
        return best  # points to the partner, keeping trumps and masters
    winning = 0
    safe = 0
    safe_points = -1
    x = cards
    while x:
        c = lowest_bit(x)
        x &= x - 1
        if beats(c, w, trump):
            winning |= 1 << c
            if sure(p, me, c):
                safe |= 1 << c
                if P[c] > safe_points:
                    safe_points = P[c]
    if winning:
        if safe and (last or stake + safe_points >= 10 or not partner_winning):
            if last:
                return most_points(safe, P, trump)
            return cheapest_winner(safe, trump)
        if not partner_winning and (stake >= 10 or n == 1):
            best = -1
            best_score = 0
            x = winning
            while x:
                c = lowest_bit(x)
                x &= x - 1
                score = 100000 * (1 if c >> 3 == trump else 0) + 1000 * P[c] + key(c, trump)
                if best < 0 or score < best_score:
                    best, best_score = c, score
            if P[best] <= 4 or stake >= 10:
                return best
    best = -1
    best_score = 0
    x = cards
    while x:
        c = lowest_bit(x)
        x &= x - 1
        suit = c >> 3
        in_suit = cards & suit_mask(suit)
        guard = not is_rank(c, trump, 6, 4) and has_ten(in_suit, suit, trump) and bit_count(in_suit) == 2
        score = 100000 * (1 if suit == trump else 0) + 1000 * (P[c] + (5 if guard else 0)) + key(c, trump)
        if best < 0 or score < best_score:
            best, best_score = c, score
    return best  # the cheapest card, keeping guarded tens and trumps


@jit
def choose(p: Any, policy: int, P: Any) -> int:
    """The card the seat to act plays under ``policy``."""
    cards = legal(p)
    if policy == RANDOM:
        return lowest_bit(random_bit(cards, p, RNG))
    if not (cards & (cards - 1)):
        return lowest_bit(cards)
    me = (p[LEADER] + p[N]) & 3
    if policy == BASIC:
        return basic_card(p, me, cards, P)
    if p[N] == 0:
        return heuristic_lead(p, me, cards, P)
    return heuristic_follow(p, me, cards, P)


@jit
def learn(p: Any, seat: int, c: int) -> None:
    """What everyone learns when ``seat`` plays ``c`` to the trick as it stands (before ``c``):
    B-31 … B-33 forbid it the cards it would have had to play, as
    :func:`blot.bots.bazar_info.infer` reads them."""
    n = p[N]
    trump = p[TRUMP]
    if n == 0:
        return
    led = p[TRICK] >> 3
    win = p[WIN]
    w = p[TRICK + win]
    partner = n >= 2 and win == n - 2
    if c >> 3 != led:
        p[FORB + seat] |= suit_mask(led)
        if trump >= 0 and c >> 3 != trump and not partner:
            p[FORB + seat] |= stronger(w) if w >> 3 == trump else suit_mask(trump)
        elif trump >= 0 and c >> 3 == trump and w >> 3 == trump and c < w and not partner:
            p[FORB + seat] |= stronger(w)
    elif led == trump and w >> 3 == trump and c < w:
        p[FORB + seat] |= stronger(w)


@jit
def play(p: Any, c: int, P: Any, informed: bool) -> None:
    """The seat to act plays ``c``; a full trick goes to its winner (with the last trick's 10)."""
    n = p[N]
    seat = (p[LEADER] + n) & 3
    if informed:
        learn(p, seat, c)
    p[HANDS + seat] &= ~(1 << c)
    p[PLAYED] |= 1 << c
    p[TRICK + n] = c
    if n == 0:
        p[WIN] = 0
    elif beats(c, p[TRICK + p[WIN]], p[TRUMP]):
        p[WIN] = n
    if n < 3:
        p[N] = n + 1
        return
    winner = (p[LEADER] + p[WIN]) & 3
    taken = P[p[TRICK]] + P[p[TRICK + 1]] + P[p[TRICK + 2]] + P[p[TRICK + 3]]
    if not (p[HANDS] | p[HANDS + 1] | p[HANDS + 2] | p[HANDS + 3]):
        taken += 10  # the last trick
    p[POINTS0 + (winner & 1)] += taken
    p[TRICKS0 + (winner & 1)] += 1
    p[LEADER] = winner
    p[N] = 0
    p[WIN] = 0


@jit
def play_out(p: Any, policy: int, P: Any) -> None:
    """Play the position ``p`` to the end of the deal, every seat by ``policy``."""
    informed = policy == HEURISTIC
    while p[HANDS] | p[HANDS + 1] | p[HANDS + 2] | p[HANDS + 3]:
        play(p, choose(p, policy, P), P, informed)


@jit
def play_outs(start: Any, p: Any, policy: int, P: Any, count: int, out: Any) -> None:
    """``count`` play-outs of ``start`` (``p`` the scratch copy, the generator carried from one
    to the next): ``out`` gets the sums of each team's card points, of each team's tricks, and
    the play-outs in which each team took every trick still to play."""
    for i in range(6):
        out[i] = 0
    rng = start[RNG]
    for _ in range(count):
        for i in range(SIZE):
            p[i] = start[i]
        p[RNG] = rng
        before0 = p[TRICKS0]
        before1 = p[TRICKS0 + 1]
        play_out(p, policy, P)
        rng = p[RNG]
        out[0] += p[POINTS0]
        out[1] += p[POINTS0 + 1]
        out[2] += p[TRICKS0]
        out[3] += p[TRICKS0 + 1]
        if p[TRICKS0 + 1] == before1:
            out[4] += 1
        if p[TRICKS0] == before0:
            out[5] += 1
    start[RNG] = rng
