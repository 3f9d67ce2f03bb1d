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

from blot.solver._jit import bit_count, highest_bit, jit, lowest_bit
from blot.solver._random import random_bit
from blot.solver.bazar_kernel import beats, legal_to

RANDOM: Final = 0
BASIC: Final = 1
HEURISTIC: Final = 2

#: Slots of a position array: ``HANDS`` the four hands, ``FORB`` the cards each seat cannot
#: hold, ``TRICK`` the trick's cards (four slots each); ``N`` the cards in the trick, ``LEADER``,
#: ``WIN`` the position of the card winning it, ``PLAYED`` every card played (the trick's
#: included), ``POINTS0`` and ``TRICKS0`` the card points (the last trick's 10 included) and the
#: tricks taken by team 0 and team 1 (two slots each), ``TRUMP`` the trump suit (-1 in no
#: trumps), ``TEAM`` the contractors' team, ``RNG`` the random generator's state
#: (:mod:`blot.solver._random`); ``SIZE`` slots in all.
HANDS, FORB, TRICK = 0, 4, 8
N, LEADER, WIN, PLAYED, POINTS0, TRICKS0, TRUMP, TEAM, RNG, SIZE = 12, 13, 14, 15, 16, 18, 20, 21, 22, 23

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


#: How :func:`pick` orders cards: each the key of one ``min`` or ``max`` of the Python bots.
CHEAPEST: Final = 0  # min (points, key)
MOST_POINTS: Final = 1  # max (points, -key)
CHEAPEST_WINNER: Final = 2  # min (is a trump, key)
CASH: Final = 3  # max (points, key)
LEAD_COST: Final = 4  # the heuristic's lead_cost, a min
GIFT: Final = 5  # max (points - 6 for a master that is not a ten, -key)
CHEAP_WIN: Final = 6  # min (is a trump, points, key)
DISCARD_COST: Final = 7  # the heuristic's discard_cost, a min


@jit
def score(order: int, c: int, p: Any, me: int, cards: int, P: Any) -> int:
    """``c``'s place in ``order`` (lower first) as one int: the Python key's parts weighed so
    that the first part counts before the second and the second before the third (a key is at
    most 107, card points at most 20 plus 5)."""
    trump = p[TRUMP]
    k = key(c, trump)
    pts: int = P[c]
    trumps = 1 if c >> 3 == trump else 0
    if order == CHEAPEST:
        return 1000 * pts + k
    if order == MOST_POINTS:
        return k - 1000 * pts
    if order == CHEAPEST_WINNER:
        return 1000 * trumps + k
    if order == CASH:
        return -1000 * pts - k
    if order == GIFT:
        kept = 6 if master(p, me, c) and not is_rank(c, trump, 6, 4) else 0
        return k - 1000 * (pts - kept)
    if order == CHEAP_WIN:
        return 100000 * trumps + 1000 * pts + k
    in_suit = cards & suit_mask(c >> 3)
    ten = has_ten(in_suit, c >> 3, trump)
    if order == LEAD_COST:
        held = may_hold(p, me, (me + 2) & 3)
        partner_ruffs = trump >= 0 and not (held & suit_mask(c >> 3)) and (held & suit_mask(trump)) != 0
        first = (1 if ten and bit_count(in_suit) <= 2 else 0) - (2 if partner_ruffs else 0)
        return 100000 * first + 1000 * pts + k
    guard = ten and not is_rank(c, trump, 6, 4) and bit_count(in_suit) == 2
    return 100000 * trumps + 1000 * (pts + (5 if guard else 0)) + k  # DISCARD_COST


@jit
def pick(among: int, order: int, p: Any, me: int, cards: int, P: Any) -> int:
    """The first card of ``among`` (non-empty) in card order whose :func:`score` is lowest:
    what ``min``/``max`` over the legal ``cards`` in card order give."""
    best = -1
    best_score = 0
    while among:
        c = lowest_bit(among)
        among &= among - 1
        v = score(order, c, p, me, cards, P)
        if best < 0 or v < best_score:
            best, best_score = c, v
    return best


@jit
def side_or_all(cards: int, trump: int) -> int:
    """The cards that are not trumps, or all of them when every one is."""
    side = cards & ~suit_mask(trump) if trump >= 0 else cards
    return side if side else cards


#: What :func:`select` keeps.
BEATS: Final = 0  # the cards that beat the card winning the trick
SURE: Final = 1  # the cards that will hold the trick (:func:`sure`)
CASHABLE: Final = 2  # plain masters no opponent may ruff


@jit
def select(cards: int, which: int, p: Any, me: int) -> int:
    """The cards of ``cards`` that are ``which``."""
    trump = p[TRUMP]
    w = p[TRICK + p[WIN]]
    out = 0
    x = cards
    while x:
        c = lowest_bit(x)
        x &= x - 1
        if which == BEATS:
            keep = beats(c, w, trump)
        elif which == SURE:
            keep = sure(p, me, c)
        else:
            keep = c >> 3 != trump and master(p, me, c) and not opponents_may_ruff(p, me, c >> 3)
        if keep:
            out |= 1 << c
    return out


@jit
def stake(p: Any, P: Any) -> int:
    """The card points in the trick."""
    total = 0
    for i in range(p[N]):
        total += P[p[TRICK + i]]
    return total


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
        return pick(side_or_all(cards, trump), CHEAPEST, p, me, cards, P)
    win = p[WIN]
    w = p[TRICK + win]
    partner_winning = n >= 2 and win == n - 2
    last = n == 3
    if partner_winning and (last or w >> 3 == trump or is_rank(w, trump, 7, 5)):
        return pick(side_or_all(cards, trump), MOST_POINTS, p, me, cards, P)
    winning = select(cards, BEATS, p, me)
    if winning and (last or stake(p, P) >= 10 or not partner_winning):
        return pick(winning, CHEAPEST_WINNER, p, me, cards, P)
    return pick(cards, CHEAPEST, p, me, cards, P)


@jit
def heuristic_lead(p: Any, me: int, cards: int, P: Any) -> int:
    """The ``heuristic`` bot's lead (its ``lead``)."""
    trump = p[TRUMP]
    if trump >= 0:
        tmask = suit_mask(trump)
        trumps = cards & tmask
        opponents = may_hold(p, me, (me + 1) & 3) | may_hold(p, me, (me + 3) & 3)
        if trumps and opponents & hidden(p, me) & tmask:
            top = highest_bit(trumps)
            if master(p, me, top) and (p[TEAM] == (me & 1) or bit_count(trumps) >= 3):
                return top  # draw trumps with the master
    masters = select(cards, CASHABLE, p, me)
    if masters:
        return pick(masters, CASH, p, me, cards, P)  # cash the master worth most
    return pick(side_or_all(cards, trump), LEAD_COST, p, me, cards, P)


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
    at_stake = stake(p, P)
    if partner_winning and sure(p, me, w):
        return pick(side_or_all(cards, trump), GIFT, p, me, cards, P)  # points to the partner
    winning = select(cards, BEATS, p, me)
    safe = select(winning, SURE, p, me)
    if winning:
        if safe and (last or at_stake + P[pick(safe, CASH, p, me, cards, P)] >= 10 or not partner_winning):
            return pick(safe, MOST_POINTS if last else CHEAPEST_WINNER, p, me, cards, P)
        if not partner_winning and (at_stake >= 10 or n == 1):
            cheap = pick(winning, CHEAP_WIN, p, me, cards, P)
            if P[cheap] <= 4 or at_stake >= 10:
                return cheap
    return pick(cards, DISCARD_COST, p, me, cards, P)  # keeping guarded tens and trumps


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
