"""The double-dummy search of 3-5-8 (T-30 … T-34): the hot loop of
:mod:`blot.solver.three_five_eight`.

Cards keep their index (``suit * 16 + rank``, rank 2 … 14; T-1 strength is the natural order in
every suit), so a hand is an int below 2**63 and within a suit a higher bit is a stronger card.

**Objective (paranoid)**: the value of a position is the number of tricks one seat, ``me``,
takes from the trick in progress on, when ``me`` maximises it and the two other seats together
minimise it. In 3-5-8 each seat scores its own tricks minus its target (T-40) and the three
scores add up to 0, so the tricks ``me`` does not take go to the other two: treating them as one
side is the classic reduction of a three-player game to two (the "paranoid" assumption), exact
for the question "how many tricks can I make for sure", and it keeps alpha-beta's pruning.

Same machinery as the Bazar Blot kernel, shared with it in :mod:`blot.solver._search`:
fail-soft alpha-beta unrolled onto an explicit stack, a transposition table at trick starts
(three hands and the leader; in an exact search the hands by **relative rank**, see
:func:`relative`), in exact searches a trick start bounded by the tricks its leader can cash
(:func:`cashable`), equivalent cards merged (a run of one hand's cards with no card
of anyone else between them; all are worth one trick), move ordering, and MTD(f) at the root.
"""

from __future__ import annotations

from typing import Any, Final

from blot.solver import _search as core
from blot.solver._jit import bit_count, jit

#: As Bazar Blot's table (32 MiB): 18 bits cost the slowest of 200 positions 19 M nodes, not 13 M
#: (before the bound of :func:`cashable`).
TT_BITS: Final = 19
TT_SIZE: Final = 1 << TT_BITS
MAX_MOVES: Final = 16
MAX_PLY: Final = 52
NODE_WIDTH: Final = core.NODE_FIELDS
SUIT: Final = 0x7FFC  # ranks 2 … A of suit 0; shift by 16 * suit
#: Every card counts one trick: no card points (for :func:`blot.solver._search.root_moves`).
_NO_POINTS: Final = (0,) * 64


@jit
def legal_moves(hand: int, tc: Any, ply: int, n: int, win: int, trump: int) -> int:
    """T-31 … T-33: the cards of ``hand`` that may be played to the trick ``tc[ply - n : ply]``
    (``win`` the position of the card winning it); ``trump`` the trump suit or -1 (NT)."""
    if n == 0:
        return hand
    led: int = tc[ply - n] >> 4
    follow = hand & (SUIT << (16 * led))
    if follow:
        if led == trump:
            w: int = tc[ply - n + win]
            above = follow & ~((2 << w) - 1)
            return above if above else follow
        return follow
    if trump < 0:
        return hand
    trumps = hand & (SUIT << (16 * trump))
    if trumps == 0:
        return hand
    w = tc[ply - n + win]
    if (w >> 4) == trump:
        above = trumps & ~((2 << w) - 1)
        return above if above else hand
    return trumps


@jit
def relative(h0: int, h1: int, h2: int) -> tuple[int, int, int]:
    """The three hands with each suit's cards still out renumbered from rank 2 up: the key of a
    position in an exact search. Every trick counts one and the rules look only at suits and at
    which card is higher (T-31 … T-34), so two positions whose cards out stand in the same order
    among the same hands are worth the same tricks, whichever low cards were played before. The
    transposition table then meets a position again however the tricks before it went: with 12
    tricks to play, the position that took 379 M nodes (47 s) takes 6 M (1 s), and the slowest
    of 200 seeded positions 13 M (with :func:`cashable`'s bound 9 M, 1.5 s; ``benchmarks/tfe_tail.py``)."""
    union = h0 | h1 | h2
    k0 = 0
    k1 = 0
    k2 = 0
    for s in range(4):
        shift = 16 * s
        u = (union >> shift) & SUIT
        k0 |= core.compress((h0 >> shift) & SUIT, u) << (shift + 2)
        k1 |= core.compress((h1 >> shift) & SUIT, u) << (shift + 2)
        k2 |= core.compress((h2 >> shift) & SUIT, u) << (shift + 2)
    return k0, k1, k2


@jit
def _run_above(mine: int, others: int) -> int:
    """How many of ``mine`` (one suit) are higher than every card of ``others`` in it."""
    if others == 0:
        return bit_count(mine)
    top = 62
    while (others >> top) == 0:
        top -= 1
    return bit_count(mine & ~((2 << top) - 1))


@jit
def cashable(lead: int, x: int, y: int, trump: int) -> int:
    """Tricks the hand on lead takes for sure by cashing its top cards one after another: its
    trumps above every trump out, then, once those leads have drawn every trump of the other two
    hands (or in no trump), its cards above every card out in each other suit. A lower bound of
    the leader's side's tricks: ``me``'s when ``me`` leads, the other two's against ``me`` when
    one of them does (with 12 tricks to play the slowest of 200 positions: 13 M nodes -> 9 M)."""
    total = 0
    if trump >= 0:
        ts = SUIT << (16 * trump)
        total = _run_above(lead & ts, (x | y) & ts)
        if bit_count(x & ts) > total or bit_count(y & ts) > total:
            return total
    for s in range(4):
        if s != trump:
            ss = SUIT << (16 * s)
            total += _run_above(lead & ss, (x | y) & ss)
    return total


@jit
def _key(h: Any, exact: bool) -> tuple[int, int, int]:
    """A trick start's hands as the transposition table knows them: by relative rank when the
    search is exact; as they are when an estimate (which may weigh ranks) ends it."""
    if exact:
        return relative(h[0], h[1], h[2])
    return h[0], h[1], h[2]


@jit
def beats(c: int, w: int, trump: int) -> bool:
    cs = c >> 4
    ws = w >> 4
    if cs == ws:
        return c > w
    return cs == trump


@jit
def _gen_moves(
    h: Any,
    tc: Any,
    ply: int,
    n: int,
    leader: int,
    win: int,
    trump: int,
    me: int,
    hint: int,
    d: int,
    mv: Any,
    ms: Any,
) -> int:
    p = (leader + n) % 3
    hand = h[p]
    legal = legal_moves(hand, tc, ply, n, win, trump)
    others = (h[0] | h[1] | h[2]) & ~hand
    for i in range(n):
        others |= 1 << tc[ply - n + i]
    base = d * MAX_MOVES
    k = 0
    w = 0
    ally_winning = False
    if n > 0:
        w = tc[ply - n + win]
        wseat = (leader + win) % 3
        ally_winning = p != me and wseat != me
    for s in range(4):
        ls = legal & (SUIT << (16 * s))
        if ls == 0:
            continue
        prev = -1
        for r in range(14, 1, -1):
            c = 16 * s + r
            if (ls >> c) & 1 == 0:
                continue
            if prev >= 0 and (others & ((1 << prev) - (2 << c))) == 0:
                prev = c
                continue
            prev = c
            top = (others & (SUIT << (16 * s)) & ~((2 << c) - 1)) == 0
            if c == hint:
                score = 10000
            elif n == 0:
                score = 200 + r if top else 50 - r
            elif beats(c, w, trump):
                if ally_winning:
                    score = 20 - r
                elif n == 2 or top:
                    score = 300 - r if n == 2 else 250 - r
                else:
                    score = 150 - r
            else:
                score = 50 - r
            core.insert(mv, ms, base, k, c, score)
            k += 1
    return k


@jit
def estimate(h: Any, leader: int, left: int, me: int, trump: int) -> int:
    """A quick guess of the tricks ``me`` takes of the ``left`` still to play, for the search
    horizon: its sure winners (cards above every card still out in their suit; in a trump
    suit they cannot be ruffed) plus a third of the tricks that nobody's sure winners account
    for, the lead counting as a small edge."""
    mine = 0
    sure = 0
    for s in range(4):
        out = (h[0] | h[1] | h[2]) & (SUIT << (16 * s))
        top = -1
        for r in range(14, 1, -1):
            c = 16 * s + r
            if (out >> c) & 1 == 0:
                continue
            owner = 0 if (h[0] >> c) & 1 else (1 if (h[1] >> c) & 1 else 2)
            if top < 0:
                top = owner
            if owner != top:
                break
            sure += 1
            if owner == me:
                mine += 1
    rest = left - sure
    if rest < 0:
        rest = 0
    guess = mine + (rest + (1 if leader == me else 0)) // 3
    return guess if guess <= left else left


#: The features of :func:`fitted_estimate`, in the order of its weights (after the switch).
FEATURES: Final = (
    "one",
    "tricks left",
    "my sure winners outside trumps",
    "my sure winners in trumps",
    "the others' sure winners",
    "my trumps",
    "the most trumps of another seat",
    "the fewest trumps of another seat",
    "my kings below a missing ace",
    "my queens below a missing ace or king",
    "my empty side suits (holding trumps)",
    "my single-card side suits (holding trumps)",
    "my cards beyond 3 in side suits",
    "I lead",
)
#: The weights' scale: they are whole numbers, the fitted ones times this.
SCALE: Final = 1000


@jit
def fitted_estimate(h: Any, leader: int, left: int, me: int, trump: int, W: Any) -> int:
    """The tricks ``me`` takes of the ``left`` still to play, by a linear model of the position
    (:data:`FEATURES`; ``W[1:]`` holds the weights of trump deals then those of no-trump deals,
    times :data:`SCALE`, fitted to exact values by ``benchmarks/tfe_estimate.py``)."""
    sure_side = 0
    sure_trump = 0
    sure_others = 0
    trumps0 = 0
    trumps1 = 0
    trumps2 = 0
    kings = 0
    queens = 0
    voids = 0
    singles = 0
    longs = 0
    everyone = h[0] | h[1] | h[2]
    for s in range(4):
        out = (everyone >> (16 * s)) & SUIT
        top = -1
        for r in range(14, 1, -1):
            if (out >> r) & 1 == 0:
                continue
            c = 16 * s + r
            owner = 0 if (h[0] >> c) & 1 else (1 if (h[1] >> c) & 1 else 2)
            if top < 0:
                top = owner
            if owner != top:
                break
            if owner == me:
                if s == trump:
                    sure_trump += 1
                else:
                    sure_side += 1
            else:
                sure_others += 1
        if s == trump:
            trumps0 = bit_count((h[0] >> (16 * s)) & SUIT)
            trumps1 = bit_count((h[1] >> (16 * s)) & SUIT)
            trumps2 = bit_count((h[2] >> (16 * s)) & SUIT)
        mine = (h[me] >> (16 * s)) & SUIT
        n = bit_count(mine)
        if s != trump:
            if n == 0:
                voids += 1
            elif n == 1:
                singles += 1
            elif n > 3:
                longs += n - 3
        if (mine >> 13) & 1 and (out >> 14) & 1 and (mine >> 14) & 1 == 0:
            kings += 1
        if (
            (mine >> 12) & 1
            and ((out >> 14) & 1 or (out >> 13) & 1)
            and not ((mine >> 14) & (mine >> 13) & 1)
        ):
            queens += 1
    mine_t = trumps0 if me == 0 else (trumps1 if me == 1 else trumps2)
    o1 = trumps1 if me == 0 else trumps0
    o2 = trumps2 if me != 2 else trumps1
    holds = 1 if trump >= 0 and mine_t > 0 else 0
    w = 1 if trump >= 0 else 1 + len(FEATURES)  # a trump deal's weights, then no trump's
    v = W[w] + W[w + 1] * left + W[w + 2] * sure_side + W[w + 3] * sure_trump + W[w + 4] * sure_others
    v += W[w + 5] * mine_t + W[w + 6] * max(o1, o2) + W[w + 7] * min(o1, o2)
    v += W[w + 8] * kings + W[w + 9] * queens
    v += W[w + 10] * voids * holds + W[w + 11] * singles * holds + W[w + 12] * longs
    if leader == me:
        v += W[w + 13]
    v = (v + SCALE // 2) // SCALE
    if v < 0:
        return 0
    return v if v <= left else left


@jit
def search(
    h: Any,
    tc: Any,
    root_n: int,
    leader: int,
    win: int,
    left: int,
    alpha: int,
    beta: int,
    force: int,
    me: int,
    trump: int,
    tt: Any,
    gen: int,
    mv: Any,
    ms: Any,
    st: Any,
    stats: Any,
    horizon: int,
    W: Any,
) -> int:
    r"""Tricks ``me`` takes from the trick in progress (``root_n`` cards in ``tc``, led by
    ``leader``) on, ``left`` tricks to finish; fail-soft alpha-beta on an explicit stack. After
    ``horizon`` completed tricks the rest is estimated instead of searched (exact when ``horizon
    >= left``): by :func:`estimate`, or by :func:`fitted_estimate` when ``W[0]`` is set."""
    core.push(st, 0, root_n, leader, win, left, alpha, beta, 0)
    exact = horizon >= left
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
                elif left - lft >= horizon:
                    if W[0]:
                        v = fitted_estimate(h, ldr, lft, me, trump, W)
                    else:
                        v = estimate(h, ldr, lft, me, trump)
                    done = True
                else:
                    lo = 0
                    hi = lft
                    if d > 0 or force < 0:
                        k0, k1, k2 = _key(h, exact)
                        slot = core.tt_slot(k0, k1, k2, ldr, TT_SIZE // 2 - 1)
                        lo, hi, hint, _ = core.tt_probe(tt, slot, gen, k0, k1, k2, ldr, lo, hi)
                    if exact and (d > 0 or force < 0):
                        q = cashable(h[ldr], h[(ldr + 1) % 3], h[(ldr + 2) % 3], trump)
                        if q > lft:
                            q = lft
                        if ldr == me:
                            lo = max(lo, q)
                        else:
                            hi = min(hi, lft - q)
                    done, v, a, bb = core.narrow(lo, hi, a, bb)
            if done:
                if d == 0:
                    return v
                d -= 1
                v += st[b + core.R_OFF]
                have = True
                continue
            core.open_node(st, b, a, bb, slot, (ldr + n) % 3 == me)
            if d == 0 and force >= 0:
                mv[0] = force
                st[b + core.R_K] = 1
            else:
                st[b + core.R_K] = _gen_moves(
                    h, tc, root_n + d, n, ldr, st[b + core.R_WIN], trump, me, hint, d, mv, ms
                )
        n = st[b + core.R_N]
        ldr = st[b + core.R_LEADER]
        p = (ldr + n) % 3
        if have:
            have = False
            c = st[b + core.R_CARD]
            h[p] ^= 1 << c
            core.take(st, b, v, c, p == me)
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
            lft = st[b + core.R_LEFT]
            ch = b + NODE_WIDTH
            if n == 2:
                seat = (ldr + wn) % 3
                core.push(
                    st, ch, 0, seat, 0, lft - 1, st[b + core.R_A], st[b + core.R_B], 1 if seat == me else 0
                )
            else:
                core.push(st, ch, n + 1, ldr, wn, lft, st[b + core.R_A], st[b + core.R_B], 0)
            d += 1
            entering = True
            continue
        v = st[b + core.R_BEST]
        slot = st[b + core.R_SLOT]
        if slot >= 0:
            k0, k1, k2 = _key(h, exact)
            core.tt_store(
                tt,
                slot,
                gen,
                k0,
                k1,
                k2,
                ldr,
                v,
                st[b + core.R_A0],
                st[b + core.R_B0],
                st[b + core.R_LEFT],
                st[b + core.R_MOVE],
                0,
            )
        if d == 0:
            return int(v)
        d -= 1
        v += st[b + core.R_OFF]
        have = True


@jit
def solve_root(
    h: Any,
    tc: Any,
    n: int,
    leader: int,
    win: int,
    left: int,
    me: int,
    trump: int,
    tt: Any,
    gen: int,
    mv: Any,
    ms: Any,
    st: Any,
    stats: Any,
    out: Any,
    values: Any,
    drv: Any,
    horizon: int,
    W: Any,
) -> int:
    """Every legal card of the seat to act in ``out[0:k]`` with its exact value (tricks ``me``
    takes) in ``values``, listed as :func:`blot.solver._search.root_moves` lists them;
    equivalent cards share one search. Returns ``k``."""
    p = (leader + n) % 3
    hand = h[p]
    legal = legal_moves(hand, tc, n, n, win, trump)
    others = (h[0] | h[1] | h[2]) & ~hand
    for i in range(n):
        others |= 1 << tc[i]
    k = core.root_moves(legal, others, _NO_POINTS, 16, out)
    core.root_start(drv, k, left // 2, core.MTDF, 0, left)
    i = core.root_next(drv, out, values, 0)
    while i >= 0:
        v = search(
            h, tc, n, leader, win, left, drv[core.ALPHA], drv[core.BETA], out[i], me, trump, tt, gen, mv, ms,
            st, stats, horizon, W,
        )  # fmt: skip
        i = core.root_next(drv, out, values, v)
    return k
