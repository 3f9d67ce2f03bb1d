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

Same machinery as the Bazar Blot kernel: fail-soft alpha-beta unrolled onto an explicit stack,
a transposition table at trick starts (three hands and the leader), equivalent cards merged
(a run of one hand's cards with no card of anyone else between them; all are worth one trick),
move ordering, and MTD(f) at the root.
"""

from __future__ import annotations

from typing import Any, Final

from blot.solver._jit import jit

TT_BITS: Final = 18
TT_SIZE: Final = 1 << TT_BITS
TT_WIDTH: Final = 8
MAX_MOVES: Final = 16
MAX_PLY: Final = 52
INF: Final = 1000
NODE_WIDTH: Final = 16
_N, _LEADER, _WIN, _LEFT, _A, _B, _A0, _B0 = range(8)
_BEST, _BEST_MOVE, _I, _K, _SLOT, _OFF, _CARD = range(8, 15)
SUIT: Final = 0x7FFC  # ranks 2 … A of suit 0; shift by 16 * suit


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
            j = k
            while j > 0 and ms[base + j - 1] < score:
                mv[base + j] = mv[base + j - 1]
                ms[base + j] = ms[base + j - 1]
                j -= 1
            mv[base + j] = c
            ms[base + j] = score
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
) -> int:
    r"""Tricks ``me`` takes from the trick in progress (``root_n`` cards in ``tc``, led by
    ``leader``) on, ``left`` tricks to finish; fail-soft alpha-beta on an explicit stack. After
    ``horizon`` completed tricks the rest is :func:`estimate`\ d instead of searched (exact when
    ``horizon >= left``)."""
    st[_N] = root_n
    st[_LEADER] = leader
    st[_WIN] = win
    st[_LEFT] = left
    st[_A] = alpha
    st[_B] = beta
    st[_OFF] = 0
    d = 0
    v = 0
    entering = True
    have = False
    while True:
        b = d * NODE_WIDTH
        if entering:
            entering = False
            stats[0] += 1
            n = st[b + _N]
            ldr = st[b + _LEADER]
            lft = st[b + _LEFT]
            a = st[b + _A]
            bb = st[b + _B]
            done = False
            slot = -1
            hint = -1
            if n == 0:
                if lft == 0:
                    v = 0
                    done = True
                elif left - lft >= horizon:
                    v = estimate(h, ldr, lft, me, trump)
                    done = True
                else:
                    lo = 0
                    hi = lft
                    if d > 0 or force < 0:
                        x = (h[0] * 0x2545F491) ^ (h[1] * 0x6F4F2A35) ^ (h[2] * 0x1B873593)
                        x = (x ^ (x >> 29) ^ (x >> 47) ^ (ldr * 0x3C6EF372)) & (TT_SIZE - 1)
                        slot = x * TT_WIDTH
                        if (
                            tt[slot] == gen
                            and tt[slot + 1] == h[0]
                            and tt[slot + 2] == h[1]
                            and tt[slot + 3] == h[2]
                            and tt[slot + 4] == ldr
                        ):
                            lo = tt[slot + 5]
                            hi = tt[slot + 6]
                            hint = tt[slot + 7]
                    if lo >= bb:
                        v = lo
                        done = True
                    elif hi <= a:
                        v = hi
                        done = True
                    else:
                        if lo > a:
                            a = lo
                        if hi < bb:
                            bb = hi
                        if a >= bb:
                            v = a
                            done = True
            if done:
                if d == 0:
                    return v
                d -= 1
                v += st[b + _OFF]
                have = True
                continue
            st[b + _A] = a
            st[b + _B] = bb
            st[b + _A0] = a
            st[b + _B0] = bb
            st[b + _SLOT] = slot
            st[b + _I] = 0
            st[b + _BEST_MOVE] = -1
            st[b + _BEST] = -INF if (ldr + n) % 3 == me else INF
            if d == 0 and force >= 0:
                mv[0] = force
                st[b + _K] = 1
            else:
                st[b + _K] = _gen_moves(h, tc, root_n + d, n, ldr, st[b + _WIN], trump, me, hint, d, mv, ms)
        n = st[b + _N]
        ldr = st[b + _LEADER]
        p = (ldr + n) % 3
        a = st[b + _A]
        bb = st[b + _B]
        if have:
            have = False
            c = st[b + _CARD]
            h[p] ^= 1 << c
            if p == me:
                if v > st[b + _BEST]:
                    st[b + _BEST] = v
                    st[b + _BEST_MOVE] = c
                    if v > a:
                        a = v
                        st[b + _A] = v
            elif v < st[b + _BEST]:
                st[b + _BEST] = v
                st[b + _BEST_MOVE] = c
                if v < bb:
                    bb = v
                    st[b + _B] = v
        i = st[b + _I]
        if i < st[b + _K] and a < bb:
            c = mv[d * MAX_MOVES + i]
            st[b + _I] = i + 1
            st[b + _CARD] = c
            ply = root_n + d
            h[p] ^= 1 << c
            tc[ply] = c
            wn = st[b + _WIN]
            if n > 0 and beats(c, tc[ply - n + wn], trump):
                wn = n
            elif n == 0:
                wn = 0
            lft = st[b + _LEFT]
            ch = b + NODE_WIDTH
            if n == 2:
                seat = (ldr + wn) % 3
                off = 1 if seat == me else 0
                st[ch + _N] = 0
                st[ch + _LEADER] = seat
                st[ch + _WIN] = 0
                st[ch + _LEFT] = lft - 1
                st[ch + _A] = a - off
                st[ch + _B] = bb - off
                st[ch + _OFF] = off
            else:
                st[ch + _N] = n + 1
                st[ch + _LEADER] = ldr
                st[ch + _WIN] = wn
                st[ch + _LEFT] = lft
                st[ch + _A] = a
                st[ch + _B] = bb
                st[ch + _OFF] = 0
            d += 1
            entering = True
            continue
        v = st[b + _BEST]
        slot = st[b + _SLOT]
        if slot >= 0:
            same = (
                tt[slot] == gen
                and tt[slot + 1] == h[0]
                and tt[slot + 2] == h[1]
                and tt[slot + 3] == h[2]
                and tt[slot + 4] == ldr
            )
            if v <= st[b + _A0]:
                tt[slot + 6] = v
                if not same:
                    tt[slot + 5] = 0
            elif v >= st[b + _B0]:
                tt[slot + 5] = v
                if not same:
                    tt[slot + 6] = st[b + _LEFT]
            else:
                tt[slot + 5] = v
                tt[slot + 6] = v
            tt[slot] = gen
            tt[slot + 1] = h[0]
            tt[slot + 2] = h[1]
            tt[slot + 3] = h[2]
            tt[slot + 4] = ldr
            tt[slot + 7] = st[b + _BEST_MOVE]
        if d == 0:
            return int(v)
        d -= 1
        v += st[b + _OFF]
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
    horizon: int,
) -> int:
    """Every legal card of the seat to act in ``out[0:k]`` with its exact value (tricks ``me``
    takes) in ``values``; equivalent cards share one search. Returns ``k``."""
    p = (leader + n) % 3
    hand = h[p]
    legal = legal_moves(hand, tc, n, n, win, trump)
    others = (h[0] | h[1] | h[2]) & ~hand
    for i in range(n):
        others |= 1 << tc[i]
    k = 0
    guess = left // 2
    for s in range(4):
        prev = -1
        for r in range(14, 1, -1):
            c = 16 * s + r
            if (legal >> c) & 1 == 0:
                continue
            if prev >= 0 and (others & ((1 << prev) - (2 << c))) == 0:
                out[k] = c
                values[k] = values[k - 1]
                k += 1
                prev = c
                continue
            prev = c
            lo = -INF
            hi = INF
            g = guess
            while lo < hi:
                beta = g + 1 if g == lo else g
                v = search(
                    h,
                    tc,
                    n,
                    leader,
                    win,
                    left,
                    beta - 1,
                    beta,
                    c,
                    me,
                    trump,
                    tt,
                    gen,
                    mv,
                    ms,
                    st,
                    stats,
                    horizon,
                )
                if v < beta:
                    hi = v
                else:
                    lo = v
                g = v
            out[k] = c
            values[k] = g
            guess = g
            k += 1
    return k
