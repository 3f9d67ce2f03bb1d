"""The double-dummy search of Bazar Blot on a compact encoding: the hot loop of :mod:`blot.solver`.

Cards are re-numbered per strain as ``suit * 8 + strength``, strength 0 … 7 in B-10 order (the
trump order for the trump suit, the plain order otherwise), so that a hand is a 32-bit int, "the
cards of a suit stronger than ``c``" is ``suit_mask & ~((2 << c) - 1)``, and within one suit a
higher bit is a stronger card. Everything here works on ints and flat int arrays only, so that
numba compiles it (see :mod:`blot.solver._jit`) and plain Python runs it unchanged.

The value of a position is the card points team 0 takes from the trick in progress (cards
already in it count for its winner) and every later trick, the last trick's 10 included.
Seats of team 0 maximise it, seats of team 1 minimise it (the two teams' points add up to the
points still to take). The search is alpha-beta (fail-soft) with (the table, the stack records
and the root driver shared with the 3-5-8 kernel in :mod:`blot.solver._search`):

- a transposition table at trick starts (the four hands and the leader; lower and upper bounds
  and the best lead), replaced always, and invalidated in O(1) by a generation number. Exact
  searches key it by the ranks of the cards among those still in play (:func:`table_key`): two
  positions with one key are played alike card for card and differ only in the points of the
  cards, so the bounds found for one hold for the other widened by those differences
  (:func:`rel_shift`). Far more positions share an entry: the slowest no-trump deal of
  ``benchmarks/solver.py`` fell from 13.6 to 2.3 million nodes, the 200 no-trump deals' from 142
  to 36 million. A search with a horizon keys it by the cards (its estimate reads the cards);
- equivalent cards merged: two cards of one hand and suit with no card of anyone else (or of the
  trick) between them in strength and the same card points lead to the same value, so only one
  of them is searched;
- move ordering: the table's best lead first, then winning cards (in third place, a card the
  last hand cannot beat first: 5% fewer nodes, 15% on the slowest no-trump deal), leads to a
  suit the partner holds the top of (in no trumps 12% fewer nodes), points given to a partner
  whose card the last hand cannot beat, and the cheapest discard;
- the last two tricks valued at once (:func:`last_two`, a plain minimax of at most 16 ways
  to play the seventh trick) when the table does not hold them, and stored as exact;
- zero-window (MTD(f)) root search: each root card's exact value comes from a sequence of
  null-window searches, each a cheap yes/no question that the table's bounds answer in part.
"""

from __future__ import annotations

from typing import Any, Final

from blot.solver import _search as core
from blot.solver._jit import bit_count, jit, lowest_bit
from blot.solver._search import INF

#: Transposition table: ``TT_SIZE`` slots of ``TT_WIDTH`` ints each, in buckets of two.
TT_BITS: Final = 19
TT_SIZE: Final = 1 << TT_BITS
#: The most cards one hand holds, and so the most moves at one node.
MAX_MOVES: Final = 8
#: Scratch slots: cards played since the root (at most 3 in the trick at the root + 32).
MAX_PLY: Final = 40


@jit
def legal_moves(hand: int, tc: Any, ply: int, n: int, win: int, trump: int) -> int:
    """B-31 … B-33 on the compact encoding: the cards of ``hand`` that may be played to the
    trick whose ``n`` cards are ``tc[ply - n : ply]``, ``win`` the position of the card winning
    it; ``trump`` is the trump suit, -1 in a no-trump deal."""
    if n == 0:
        return hand
    return legal_to(hand, tc[ply - n] >> 3, tc[ply - n + win], n >= 2 and win == n - 2, trump)


@jit
def legal_to(hand: int, led: int, w: int, partner: bool, trump: int) -> int:
    """:func:`legal_moves` to a trick already led: ``led`` its suit, ``w`` the card winning it,
    ``partner`` whether that card is the partner's."""
    follow = hand & (0xFF << (8 * led))
    if follow:
        if led == trump:  # B-31: beat the highest trump when able
            above = follow & ~((2 << w) - 1)
            return above if above else follow
        return follow
    if trump < 0:
        return hand  # B-33
    trumps = hand & (0xFF << (8 * trump))
    if trumps == 0:
        return hand  # B-33
    if partner:
        return hand  # B-32 (a): the partner is winning
    if (w >> 3) == trump:  # B-32 (b)/(c)
        above = trumps & ~((2 << w) - 1)
        return above if above else hand
    return trumps  # B-32 (b): any trump beats the trick


@jit
def beats(c: int, w: int, trump: int) -> bool:
    """Card ``c`` beats ``w``, the card winning a trick (which is of the suit led or a trump)."""
    cs = c >> 3
    ws = w >> 3
    if cs == ws:
        return c > w
    return cs == trump


@jit
def low_card(x: int) -> int:
    """The lowest card of the non-empty card set ``x``."""
    return lowest_bit(x)


@jit
def rel_shift(stored: int, union: int, P: Any) -> tuple[int, int]:
    """How far the value of a position with the cards ``union`` in play can lie below and above
    the value of one with the same key and the cards ``stored`` in play: card for card (the i-th
    of each, which the same hand holds and plays alike), the points it loses and the points it
    gains."""
    down = 0
    up = 0
    a = stored
    b = union
    while a:
        d = P[lowest_bit(b)] - P[lowest_bit(a)]
        if d > 0:
            up += d
        else:
            down -= d
        a &= a - 1
        b &= b - 1
    return down, up


@jit
def rel_card(c: int, stored: int, union: int) -> int:
    """The card of ``union`` that has the rank of ``c`` among the cards of ``stored``."""
    s = c >> 3
    r = bit_count(stored & ((1 << c) - 1) & (0xFF << (8 * s)))
    x = (union >> (8 * s)) & 0xFF
    for _ in range(r):
        x &= x - 1
    return 8 * s + lowest_bit(x)


@jit
def table_key(h: Any, ldr: int, trump: int, exact: bool) -> tuple[int, int, int, int, int]:
    """The transposition table's key of a trick start (the four hands and the leader) and its
    payload. In an exact search every card is numbered by its rank among the cards of its suit
    still in play (:func:`~blot.solver._search.compress`): positions with one key are played alike
    card for card and
    differ only in the points of the cards, which the payload (the cards in play) tells apart
    (:func:`rel_shift`). A search with a horizon, whose guess reads the cards, renumbers only each
    suit's zero-point cards (7, 8, 9 of a plain suit; 7, 8 of trumps: the weakest of their suit):
    which of them were played does not change the value of the rest, and the payload is 0."""
    k0 = h[0]
    k1 = h[1]
    k2 = h[2]
    k3 = h[3]
    union = k0 | k1 | k2 | k3
    for s in range(4):
        low = 0xFF if exact else (3 if s == trump else 7)
        shift = 8 * s
        u = (union >> shift) & low
        if u & (u + 1) == 0:
            continue  # already the lowest ones
        keep = ~(low << shift)
        k0 = (k0 & keep) | (core.compress((k0 >> shift) & low, u) << shift)
        k1 = (k1 & keep) | (core.compress((k1 >> shift) & low, u) << shift)
        k2 = (k2 & keep) | (core.compress((k2 >> shift) & low, u) << shift)
        k3 = (k3 & keep) | (core.compress((k3 >> shift) & low, u) << shift)
    return k0, k1, k2, k3 | (ldr << 32), union if exact else 0


@jit
def table_bounds(
    tt: Any, slot: int, gen: int, k0: int, k1: int, k2: int, k3: int, union: int, P: Any, lo: int, hi: int
) -> tuple[int, int, int]:
    """The bounds the table holds for the position within ``(lo, hi)``, and its best move (-1 if
    none). Bounds found for other cards of the same ranks are widened by :func:`rel_shift`."""
    low, high, move, stored = core.tt_probe(tt, slot, gen, k0, k1, k2, k3, lo, hi)
    if stored >= 0 and stored != union:
        down, up = rel_shift(stored, union, P)
        low -= down
        high += up
        if move >= 0:
            move = rel_card(move, stored, union)
    return max(lo, low), min(hi, high), move


@jit
def quick_points(h: Any, ldr: int, P: Any, trump: int, lft: int) -> int:
    """Card points the leader's team takes for sure from here: the leader cashes its cards that
    are above every other card of their suit, one after another (it keeps the lead), and each
    other seat that holds the suit must follow with at least its weakest cards of it (in both
    orders a weaker card is worth no more). A side suit is cashed only as often as every
    opponent holding trumps can follow it; if every trick left is sure, the leader's team takes
    everything, the last trick's 10 included."""
    me = h[ldr]
    opp1 = h[(ldr + 1) & 3]
    opp2 = h[(ldr + 3) & 3]
    everyone = h[0] | h[1] | h[2] | h[3]
    sure = 0
    points = 0
    for s in range(4):
        suit = 0xFF << (8 * s)
        mine = me & suit
        if mine == 0:
            continue
        held = everyone & suit
        k = 0
        c = 7
        while c >= 0:
            bit = 1 << (8 * s + c)
            if held & bit:
                if me & bit == 0:
                    break
                k += 1
            c -= 1
        if k == 0:
            continue
        if trump >= 0 and s != trump:
            trumps = 0xFF << (8 * trump)
            if opp1 & trumps:
                k = min(k, bit_count(opp1 & suit))
            if opp2 & trumps:
                k = min(k, bit_count(opp2 & suit))
            if k == 0:
                continue
        sure += k
        # the leader's k top cards of the suit (the suit's top k), and each other seat's k weakest
        left = k
        c = 7
        while left > 0:
            if (mine >> (8 * s + c)) & 1:
                points += P[8 * s + c]
                left -= 1
            c -= 1
        for i in range(1, 4):
            y = h[(ldr + i) & 3] & suit
            for _ in range(k):
                if y == 0:
                    break
                low = low_card(y)
                points += P[low]
                y ^= 1 << low
    if sure >= lft:
        total = 10
        for c in range(32):
            if (everyone >> c) & 1:
                total += P[c]
        return total
    return points


@jit
def last_trick(h: Any, ldr: int, P: Any, trump: int) -> int:
    """Team 0's points from the last trick (its 10 included), each hand holding one card."""
    c0 = low_card(h[ldr])
    c1 = low_card(h[(ldr + 1) & 3])
    c2 = low_card(h[(ldr + 2) & 3])
    c3 = low_card(h[(ldr + 3) & 3])
    wp = 0
    w = c0
    if beats(c1, w, trump):
        wp = 1
        w = c1
    if beats(c2, w, trump):
        wp = 2
        w = c2
    if beats(c3, w, trump):
        wp = 3
    return P[c0] + P[c1] + P[c2] + P[c3] + 10 if ((ldr + wp) & 1) == 0 else 0


@jit
def _better(v: int, best: int, seat: int) -> int:
    """The better of ``v`` and ``best`` for ``seat`` (team 0 maximises, team 1 minimises)."""
    if (seat & 1) == 0:
        return v if v > best else best
    return v if v < best else best


@jit
def last_two(h: Any, ldr: int, P: Any, trump: int) -> int:
    """Team 0's points from the last two tricks (each hand holds two cards, ``ldr`` leads): plain
    minimax over the at most 16 ways to play the first of them, the last one playing itself.
    Cheaper than the search's nodes, and needs no window and no table."""
    p1 = (ldr + 1) & 3
    p2 = (ldr + 2) & 3
    p3 = (ldr + 3) & 3
    best0 = -INF if (ldr & 1) == 0 else INF
    x0 = h[ldr]
    while x0:
        c0 = low_card(x0)
        x0 ^= 1 << c0
        h[ldr] ^= 1 << c0
        led = c0 >> 3
        best1 = -INF if (p1 & 1) == 0 else INF
        x1 = legal_to(h[p1], led, c0, False, trump)
        while x1:
            c1 = low_card(x1)
            x1 ^= 1 << c1
            h[p1] ^= 1 << c1
            w1 = c1 if beats(c1, c0, trump) else c0
            best2 = -INF if (p2 & 1) == 0 else INF
            x2 = legal_to(h[p2], led, w1, w1 == c0, trump)
            while x2:
                c2 = low_card(x2)
                x2 ^= 1 << c2
                h[p2] ^= 1 << c2
                w2 = c2 if beats(c2, w1, trump) else w1
                best3 = -INF if (p3 & 1) == 0 else INF
                x3 = legal_to(h[p3], led, w2, w2 == c1, trump)
                while x3:
                    c3 = low_card(x3)
                    x3 ^= 1 << c3
                    h[p3] ^= 1 << c3
                    wp = 0
                    if beats(c3, w2, trump):
                        wp = 3
                    elif w2 == c2:
                        wp = 2
                    elif w2 == c1:
                        wp = 1
                    win = (ldr + wp) & 3
                    v = last_trick(h, win, P, trump)
                    if (win & 1) == 0:
                        v += P[c0] + P[c1] + P[c2] + P[c3]
                    h[p3] ^= 1 << c3
                    best3 = _better(v, best3, p3)
                h[p2] ^= 1 << c2
                best2 = _better(best3, best2, p2)
            h[p1] ^= 1 << c1
            best1 = _better(best2, best1, p1)
        h[ldr] ^= 1 << c0
        best0 = _better(best1, best0, ldr)
    return best0


@jit
def _gen_moves(
    h: Any,
    tc: Any,
    ply: int,
    n: int,
    leader: int,
    win: int,
    trump: int,
    P: Any,
    hint: int,
    d: int,
    mv: Any,
    ms: Any,
    hist: Any,
) -> int:
    """Write the moves of the seat to act at depth ``d`` into ``mv[d * 8 …]``, equivalent cards
    merged and best first; return how many. The trick's cards are ``tc[ply - n : ply]``."""
    p = (leader + n) & 3
    hand = h[p]
    legal = legal_moves(hand, tc, ply, n, win, trump)
    others = (h[0] | h[1] | h[2] | h[3]) & ~hand
    for i in range(n):
        others |= 1 << tc[ply - n + i]
    base = d * MAX_MOVES
    k = 0
    w = 0
    team_winning = False
    led = 0
    last = 0
    if n > 0:
        w = tc[ply - n + win]
        team_winning = ((leader + win) & 1) == (p & 1)
        if n == 2:  # the third hand: what the last hand can beat orders its cards
            led = tc[ply - n] >> 3
            last = h[(p + 1) & 3]
    x = legal
    prev = -1
    while x:
        low = x & -x
        x ^= low
        c = lowest_bit(low)
        s = c >> 3
        r = c & 7
        if prev >= 0 and (prev >> 3) == s and P[c] == P[prev] and (others & ((1 << c) - (2 << prev))) == 0:
            prev = c
            continue  # equivalent to the card just below it
        prev = c
        if c == hint:
            score = 10000
        elif n == 0:
            suit = 0xFF << (8 * s)
            if (others & suit & ~((2 << c) - 1)) == 0:
                score = 200 + P[c]  # a winner
            elif (h[(p + 2) & 3] & suit) > ((h[(p + 1) & 3] | h[(p + 3) & 3]) & suit):
                score = 150 + P[c]  # to the partner's winner
            else:
                score = 50 - P[c] - r
        elif beats(c, w, trump):
            if n == 3 or (n == 2 and not fourth_beats(last, led, c, trump)):
                score = 300 + P[c]  # takes the trick
            elif (others & (0xFF << (8 * s)) & ~((2 << c) - 1)) == 0 and s != trump:
                score = 250 + P[c]
            else:
                score = 150 - r
        elif team_winning and (n != 2 or not fourth_beats(last, led, w, trump)):
            score = 100 + P[c]  # points to the partner's trick
        else:
            score = 50 - P[c] - r
        core.insert(mv, ms, base, k, c, score * 4096 + hist[p * 32 + c])
        k += 1
    return k


@jit
def fourth_beats(hand: int, led: int, x: int, trump: int) -> bool:
    """Whether ``hand``, the last to play to a trick led in suit ``led``, can beat ``x``, the
    card winning it (B-31 … B-33: it follows suit when it can, else may trump)."""
    follow = hand & (0xFF << (8 * led))
    if follow:
        return (x >> 3) == led and (follow & ~((2 << x) - 1)) != 0
    if trump < 0:
        return False
    trumps = hand & (0xFF << (8 * trump))
    if trumps == 0:
        return False
    if (x >> 3) == trump:
        return (trumps & ~((2 << x) - 1)) != 0
    return True


# Fields of a node's record in the search stack beyond the shared ones (``NODE_WIDTH`` ints).
_TPTS, _RPTS = core.NODE_FIELDS, core.NODE_FIELDS + 1
NODE_WIDTH: Final = core.NODE_FIELDS + 2


@jit
def estimate(h: Any, left: int, rpts: int, P: Any, trump: int) -> int:
    """A quick guess of team 0's card points from the ``left`` tricks still to play (the search
    horizon of PIMC): each team's run of top trumps takes its own points for sure; the rest
    (and the last trick's 10) is shared in proportion to the trumps and top cards each team
    holds."""
    sure0 = 0
    sure1 = 0
    w0 = 1
    w1 = 1
    for s in range(4):
        out = ((h[0] | h[1] | h[2] | h[3]) >> (8 * s)) & 0xFF
        team = -1
        run = True
        for r in range(7, -1, -1):
            if (out >> r) & 1 == 0:
                continue
            c = 8 * s + r
            t = 0 if ((h[0] | h[2]) >> c) & 1 else 1
            if s == trump:
                if t == 0:
                    w0 += 3
                else:
                    w1 += 3
            if run:
                if team < 0:
                    team = t
                if t != team:
                    run = False
                elif s == trump:
                    if t == 0:
                        sure0 += P[c]
                    else:
                        sure1 += P[c]
                elif t == 0:
                    w0 += 4
                else:
                    w1 += 4
    rest = rpts + 10 - sure0 - sure1
    return sure0 + (rest * w0) // (w0 + w1)


#: The features of :func:`fitted_estimate`, each team 0's count less team 1's (after the points
#: still to take), in the order of its weights.
FEATURES: Final = (
    "card points still to take, the last trick's 10 included",
    "card points held",
    "trumps held",
    "cards in runs of top cards of their suit",
    "card points in runs of top cards",
    "trumps in the run of top trumps",
    "empty side suits of a seat holding trumps",
    "the lead (+1 team 0, -1 team 1)",
)
#: The weights' scale: whole numbers, the fitted ones times this.
SCALE: Final = 1000


@jit
def fitted_estimate(h: Any, left: int, rpts: int, P: Any, trump: int, leader: int, W: Any) -> int:
    """Team 0's card points from the ``left`` tricks still to play, by a linear model of the
    position (:data:`FEATURES`; ``W[1:]`` the weights of trump deals then of no-trump deals,
    times :data:`SCALE`, fitted to exact values by ``benchmarks/bazar_estimate.py``): much
    closer to the exact value than :func:`estimate`."""
    held = 0
    trumps = 0
    tops = 0
    top_points = 0
    trump_run = 0
    voids = 0
    team0 = h[0] | h[2]
    everyone = h[0] | h[1] | h[2] | h[3]
    for s in range(4):
        suit = 0xFF << (8 * s)
        owner = -1
        for c in range(8 * s + 7, 8 * s - 1, -1):
            if (everyone >> c) & 1 == 0:
                continue
            sign = 1 if (team0 >> c) & 1 else -1
            held += sign * P[c]
            if s == trump:
                trumps += sign
            if owner == 0:
                continue
            if owner < 0:
                owner = sign
            if sign != owner:
                owner = 0  # the run of top cards has ended
                continue
            tops += sign
            top_points += sign * P[c]
            if s == trump:
                trump_run += sign
        if trump >= 0 and s != trump:
            trump_suit = 0xFF << (8 * trump)
            for p in range(4):
                if h[p] & suit == 0 and h[p] & trump_suit:
                    voids += 1 if (p & 1) == 0 else -1
    w = 1 if trump >= 0 else 1 + len(FEATURES)
    total = rpts + 10
    v = W[w] * total + W[w + 1] * held + W[w + 2] * trumps + W[w + 3] * tops + W[w + 4] * top_points
    v += W[w + 5] * trump_run + W[w + 6] * voids + W[w + 7] * (1 if (leader & 1) == 0 else -1)
    v = (v + SCALE // 2) // SCALE
    if v < 0:
        return 0
    return v if v <= total else total


@jit
def search(
    h: Any,
    tc: Any,
    root_n: int,
    leader: int,
    win: int,
    tpts: int,
    rpts: int,
    left: int,
    alpha: int,
    beta: int,
    force: int,
    P: Any,
    trump: int,
    tt: Any,
    gen: int,
    mv: Any,
    ms: Any,
    st: Any,
    stats: Any,
    hist: Any,
    horizon: int,
    W: Any,
) -> int:
    """The value (team 0's card points from the trick in progress on) of the position: hands
    ``h``, the trick's ``root_n`` cards in ``tc[0:root_n]`` (worth ``tpts``, ``win`` the position
    of the card winning it, led by ``leader``), ``rpts`` card points still in the hands, ``left``
    tricks to finish, the current one included. Fail-soft alpha-beta: a value ``<= alpha`` is an
    upper bound, ``>= beta`` a lower bound. ``force`` (a card, or -1) holds the seat to act to
    that card.

    The recursion is unrolled onto the stack ``st`` (one record of ``NODE_WIDTH`` ints per
    depth), which keeps numba's generated code simple, fast and cacheable."""
    exact = horizon >= left
    core.push(st, 0, root_n, leader, win, left, alpha, beta, 0)
    st[_TPTS] = tpts
    st[_RPTS] = rpts
    d = 0
    v = 0
    entering = True
    have = False
    while True:
        b = d * NODE_WIDTH
        if entering:
            entering = False
            stats[0] += 1
            n = st[b + core.R_N]
            ldr = st[b + core.R_LEADER]
            lft = st[b + core.R_LEFT]
            a = st[b + core.R_A]
            bb = st[b + core.R_B]
            done = False
            slot = -1
            hint = -1
            if n == 0:
                if lft == 0:
                    v = 0
                    done = True
                elif left - lft >= horizon and lft > 1:
                    if W[0]:
                        v = fitted_estimate(h, lft, st[b + _RPTS], P, trump, ldr, W)
                    else:
                        v = estimate(h, lft, st[b + _RPTS], P, trump)
                    done = True
                elif lft == 1:  # the last trick plays itself
                    v = last_trick(h, ldr, P, trump)
                    done = True
                else:
                    lo = 0
                    hi = st[b + _RPTS] + 10
                    if d > 0 or force < 0:
                        k0, k1, k2, k3, union = table_key(h, ldr, trump, exact)
                        slot = core.tt_slot(k0, k1, k2, k3, TT_SIZE // 2 - 1)
                        lo, hi, hint = table_bounds(tt, slot, gen, k0, k1, k2, k3, union, P, lo, hi)
                        if lft == 2 and lo < hi:
                            lo = last_two(h, ldr, P, trump)
                            hi = lo
                            core.tt_store(tt, slot, gen, k0, k1, k2, k3, lo, -1, INF, hi, -1, union)
                        elif lo < hi and exact:  # exact searches only: the
                            # sure points bound the true value, not a guess beyond a horizon
                            q = quick_points(h, ldr, P, trump, lft)
                            if (ldr & 1) == 0:
                                lo = max(lo, q)
                            else:
                                hi = min(hi, st[b + _RPTS] + 10 - q)
                    done, v, a, bb = core.narrow(lo, hi, a, bb)
            if done:
                if d == 0:
                    return v
                d -= 1
                v += st[b + core.R_OFF]
                have = True
                continue
            core.open_node(st, b, a, bb, slot, ((ldr + n) & 1) == 0)
            if d == 0 and force >= 0:
                mv[0] = force
                st[b + core.R_K] = 1
            else:
                st[b + core.R_K] = _gen_moves(
                    h, tc, root_n + d, n, ldr, st[b + core.R_WIN], trump, P, hint, d, mv, ms, hist
                )
        n = st[b + core.R_N]
        ldr = st[b + core.R_LEADER]
        p = (ldr + n) & 3
        if have:
            have = False
            c = st[b + core.R_CARD]
            h[p] ^= 1 << c
            if core.take(st, b, v, c, (p & 1) == 0):
                x = p * 32 + c
                if hist[x] < 4000:
                    hist[x] += 1
        c = core.next_card(st, b, mv, d * MAX_MOVES)
        if c >= 0:
            ply = root_n + d
            h[p] ^= 1 << c
            tc[ply] = c
            wn = st[b + core.R_WIN]
            if n > 0 and beats(c, tc[ply - n + wn], trump):
                wn = n
            elif n == 0:
                wn = 0
            pts = st[b + _TPTS] + P[c]
            lft = st[b + core.R_LEFT]
            ch = b + NODE_WIDTH
            st[ch + _RPTS] = st[b + _RPTS] - P[c]
            if n == 3:
                seat = (ldr + wn) & 3
                if lft == 1:
                    pts += 10
                core.push(
                    st,
                    ch,
                    0,
                    seat,
                    0,
                    lft - 1,
                    st[b + core.R_A],
                    st[b + core.R_B],
                    pts if (seat & 1) == 0 else 0,
                )
                st[ch + _TPTS] = 0
            else:
                core.push(st, ch, n + 1, ldr, wn, lft, st[b + core.R_A], st[b + core.R_B], 0)
                st[ch + _TPTS] = pts
            d += 1
            entering = True
            continue
        v = st[b + core.R_BEST]
        slot = st[b + core.R_SLOT]
        if slot >= 0:
            k0, k1, k2, k3, union = table_key(h, ldr, trump, exact)
            core.tt_store(
                tt, slot, gen, k0, k1, k2, k3, v, st[b + core.R_A0], st[b + core.R_B0],
                st[b + _RPTS] + 10, st[b + core.R_MOVE], union,
            )  # fmt: skip
        if d == 0:
            return int(v)
        d -= 1
        v += st[b + core.R_OFF]
        have = True


@jit
def root_moves(h: Any, tc: Any, ply: int, n: int, leader: int, win: int, trump: int, P: Any, out: Any) -> int:
    """The legal cards of the seat to act as :func:`blot.solver._search.root_moves` lists them."""
    p = (leader + n) & 3
    hand = h[p]
    legal = legal_moves(hand, tc, ply, n, win, trump)
    others = (h[0] | h[1] | h[2] | h[3]) & ~hand
    for i in range(n):
        others |= 1 << tc[ply - n + i]
    return core.root_moves(legal, others, P, 8, out)


@jit
def solve_root(
    h: Any,
    tc: Any,
    n: int,
    leader: int,
    win: int,
    tpts: int,
    rpts: int,
    left: int,
    P: Any,
    trump: int,
    tt: Any,
    gen: int,
    mv: Any,
    ms: Any,
    st: Any,
    stats: Any,
    hist: Any,
    out: Any,
    values: Any,
    drv: Any,
    all_cards: bool,
    mode: int,
    horizon: int,
    W: Any,
) -> int:
    """Value the root. With ``all_cards`` every legal card of the seat to act gets its exact
    value in ``values[i]`` (cards in ``out[i]``, as :func:`root_moves`); otherwise only the
    best value is exact and ``values[0]`` holds it. Returns the number of cards listed."""
    k = root_moves(h, tc, n, n, leader, win, trump, P, out)
    total = tpts + rpts + 10
    # MTD(f)'s first guess: the quick estimate of the hands, and half the trick in progress
    guess = min(max(estimate(h, left, rpts, P, trump) + tpts // 2, 1), total)
    if all_cards:
        core.root_start(drv, k, guess, mode, 0, total)
    else:  # one "card": the seat's free choice
        out[0] = -1
        out[core.ROOT_REP] = -1
        core.root_start(drv, 1, guess, core.FULL if mode == core.FULL else core.MTDF, 0, total)
    i = core.root_next(drv, out, values, 0)
    while i >= 0:
        v = search(
            h, tc, n, leader, win, tpts, rpts, left, drv[core.ALPHA], drv[core.BETA], out[i], P, trump, tt,
            gen, mv, ms, st, stats, hist, horizon, W,
        )  # fmt: skip
        stats[1] += 1
        i = core.root_next(drv, out, values, v)
    return k
