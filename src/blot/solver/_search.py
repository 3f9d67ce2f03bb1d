"""What the two double-dummy kernels share, compiled once (:mod:`blot.solver._jit`): the
transposition table, the node records of the explicit search stack, the root's card list with
its equivalent cards, and the root driver that values every legal card by MTD(f).

The kernels (:mod:`blot.solver.bazar_kernel`, :mod:`blot.solver.tfe_kernel`) differ only where
the games differ: the move rules, the value of a trick, the move ordering and the horizon
estimate. Everything here works on ints and flat int arrays, like the kernels.

**Transposition table**: ``TT_WIDTH`` ints per slot: the generation number (a new solve empties
the table in O(1) by taking a new one), a key of four ints (the hands and the leader, packed by
each kernel), the lower and upper bounds of the position's value, and the best move found with
a payload (what a kernel's key leaves out: the Bazar Blot kernel's exact searches key positions
by the ranks of the cards and keep the cards themselves there). Replaced always.

**Root driver**: the value of every root card, each by a sequence of null-window searches
from a guess (the previous card's value), stepping away from it and then bisecting until the
bounds meet. The driver is a small
state machine in an int array rather than a loop around ``search``, so that each kernel runs it
with its own ``search`` and no function is passed around (numba compiles and caches that
plainly).

numba checks a cached function against its own file only, so the cache's folder is named by a
digest of every solver source (:func:`blot.solver._jit.cache_folder`): editing this module alone
recompiles the kernels that use it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Final, Generic, TypeVar

from blot.solver._jit import bit_count, int_array, jit

INF: Final = 1000

#: Transposition table slot: generation (with the position's ``top`` in its low bits), key (4
#: ints), lower bound, upper bound, best move. Slots come in buckets of two (:func:`tt_store`).
TT_WIDTH: Final = 8
_GEN, _K0, _K1, _K2, _K3, _LO, _HI, _MOVE = range(TT_WIDTH)
_DEPTH_BITS: Final = 8
_DEPTH_MASK: Final = (1 << _DEPTH_BITS) - 1
#: The best move field holds the move + 1 in its low bits and the payload above them.
_MOVE_BITS: Final = 8
_MOVE_MASK: Final = (1 << _MOVE_BITS) - 1

#: Fields of a node's record in a kernel's search stack; a kernel may append its own fields.
R_N, R_LEADER, R_WIN, R_LEFT, R_A, R_B, R_A0, R_B0, R_BEST, R_MOVE, R_I, R_K, R_SLOT, R_OFF, R_CARD = range(
    15
)
NODE_FIELDS: Final = 15

#: Where :func:`root_moves` writes each card's representative (``out[ROOT_REP + i]``).
ROOT_REP: Final = 16


@jit
def compress(x: int, u: int) -> int:
    """The cards ``x`` of one suit (a subset of ``u``, the suit's cards still in play, shifted to
    bit 0) by their rank among ``u``: the i-th weakest card still in play becomes bit i. Both
    kernels key exact searches so (by relative rank)."""
    out = 0
    while x:
        low = x & -x
        x ^= low
        out |= 1 << bit_count(u & (low - 1))
    return out


@jit
def tt_slot(k0: int, k1: int, k2: int, k3: int, mask: int) -> int:
    """The bucket (the first index of its two slots in the table) of a key; ``mask`` is the
    bucket count minus 1."""
    x = (k0 * 0x2545F491) ^ (k1 * 0x6F4F2A35) ^ (k2 * 0x1B873593) ^ (k3 * 0x5BD1E995)
    return ((x ^ (x >> 29) ^ (x >> 47)) & mask) * (2 * TT_WIDTH)


@jit
def tt_holds(tt: Any, slot: int, gen: int, k0: int, k1: int, k2: int, k3: int) -> bool:
    """The slot holds this position of this solve."""
    return bool(
        tt[slot + _GEN] >> _DEPTH_BITS == gen
        and tt[slot + _K0] == k0
        and tt[slot + _K1] == k1
        and tt[slot + _K2] == k2
        and tt[slot + _K3] == k3
    )


@jit
def tt_probe(
    tt: Any, slot: int, gen: int, k0: int, k1: int, k2: int, k3: int, lo: int, hi: int
) -> tuple[int, int, int, int]:
    """The bounds ``(lo, hi)`` the table holds for the position (or the ones given when it holds
    nothing), its best move (-1 if none) and the payload stored with it (-1 if none)."""
    at = slot
    if not tt_holds(tt, at, gen, k0, k1, k2, k3):
        at = slot + TT_WIDTH
        if not tt_holds(tt, at, gen, k0, k1, k2, k3):
            return lo, hi, -1, -1
    raw = tt[at + _MOVE]
    return tt[at + _LO], tt[at + _HI], (raw & _MOVE_MASK) - 1, raw >> _MOVE_BITS


@jit
def tt_store(
    tt: Any,
    slot: int,
    gen: int,
    k0: int,
    k1: int,
    k2: int,
    k3: int,
    v: int,
    alpha: int,
    beta: int,
    top: int,
    move: int,
    payload: int,
) -> None:
    """Record ``v``, the fail-soft result of a search with window (``alpha``, ``beta``): an upper
    bound when ``v <= alpha``, a lower bound when ``v >= beta``, else exact. The other bound is
    kept when the table already holds the position with the same ``payload`` (a kernel's word
    on what its key leaves out, >= 0), else it is the trivial one (0 or ``top``).

    A bucket has two slots: the first keeps the position with the most still to play (``top``,
    the most a search below it can cost), the second the latest other one, so that a deep
    search's few expensive positions are not pushed out by its many cheap ones."""
    second = slot + TT_WIDTH
    if tt_holds(tt, slot, gen, k0, k1, k2, k3):
        at = slot
    elif tt_holds(tt, second, gen, k0, k1, k2, k3):
        at = second
    else:
        first = tt[slot + _GEN]
        if first >> _DEPTH_BITS != gen or top >= first & _DEPTH_MASK:
            for i in range(TT_WIDTH):  # the first slot's position moves to the second
                tt[second + i] = tt[slot + i]
            at = slot
        else:
            at = second
        tt[at + _MOVE] = -1
    if tt[at + _MOVE] >> _MOVE_BITS != payload:
        tt[at + _LO] = 0
        tt[at + _HI] = top
    if v <= alpha:
        tt[at + _HI] = v
    elif v >= beta:
        tt[at + _LO] = v
    else:
        tt[at + _LO] = v
        tt[at + _HI] = v
    tt[at + _GEN] = (gen << _DEPTH_BITS) | top
    tt[at + _K0] = k0
    tt[at + _K1] = k1
    tt[at + _K2] = k2
    tt[at + _K3] = k3
    tt[at + _MOVE] = (payload << _MOVE_BITS) | (move + 1)


@jit
def narrow(lo: int, hi: int, a: int, b: int) -> tuple[bool, int, int, int]:
    """Apply the bounds ``lo <= value <= hi`` to the window (``a``, ``b``): ``(True, v, a, b)``
    when they decide the search (``v`` its fail-soft result), else ``(False, 0, a, b)`` with the
    window narrowed."""
    if lo >= b:
        return True, lo, a, b
    if hi <= a:
        return True, hi, a, b
    if lo > a:
        a = lo
    if hi < b:
        b = hi
    if a >= b:
        return True, a, a, b
    return False, 0, a, b


@jit
def push(st: Any, ch: int, n: int, leader: int, win: int, left: int, a: int, b: int, off: int) -> None:
    """Fill the record of a child node at ``ch``; ``off`` is what the move's trick gave the
    maximising side (the child's window and value are counted without it)."""
    st[ch + R_N] = n
    st[ch + R_LEADER] = leader
    st[ch + R_WIN] = win
    st[ch + R_LEFT] = left
    st[ch + R_A] = a - off
    st[ch + R_B] = b - off
    st[ch + R_OFF] = off


@jit
def open_node(st: Any, b: int, alpha: int, beta: int, slot: int, maximise: bool) -> None:
    """Start searching the node whose record is at ``b`` with the window (``alpha``, ``beta``)."""
    st[b + R_A] = alpha
    st[b + R_B] = beta
    st[b + R_A0] = alpha
    st[b + R_B0] = beta
    st[b + R_SLOT] = slot
    st[b + R_I] = 0
    st[b + R_MOVE] = -1
    st[b + R_BEST] = -INF if maximise else INF


@jit
def take(st: Any, b: int, v: int, c: int, maximise: bool) -> bool:
    """The child reached by ``c`` is worth ``v``: keep the best and narrow the window. Returns
    whether the window closed (a cut-off)."""
    if maximise:
        if v > st[b + R_BEST]:
            st[b + R_BEST] = v
            st[b + R_MOVE] = c
            if v > st[b + R_A]:
                st[b + R_A] = v
    elif v < st[b + R_BEST]:
        st[b + R_BEST] = v
        st[b + R_MOVE] = c
        if v < st[b + R_B]:
            st[b + R_B] = v
    return bool(st[b + R_A] >= st[b + R_B])


@jit
def next_card(st: Any, b: int, mv: Any, base: int) -> int:
    """The next move of the node at ``b`` (its moves are at ``mv[base:]``), now the one being
    searched; -1 when they are all searched or the window has closed."""
    i = st[b + R_I]
    if i < st[b + R_K] and st[b + R_A] < st[b + R_B]:
        c: int = mv[base + i]
        st[b + R_I] = i + 1
        st[b + R_CARD] = c
        return c
    return -1


@jit
def insert(mv: Any, ms: Any, base: int, k: int, c: int, score: int) -> None:
    """Put card ``c`` with ``score`` into the ``k`` moves at ``mv[base:]``, best first."""
    j = k
    while j > 0 and ms[base + j - 1] < score:
        mv[base + j] = mv[base + j - 1]
        ms[base + j] = ms[base + j - 1]
        j -= 1
    mv[base + j] = c
    ms[base + j] = score


@jit
def root_moves(legal: int, others: int, P: Any, width: int, out: Any) -> int:
    """The ``legal`` cards, suit by suit and strongest first, in ``out[0:k]``, each with its
    representative in ``out[ROOT_REP + i]``: the strongest card of its run, a run being cards of
    one suit and of equal worth ``P[c]`` with none of the ``others`` between them (so all have
    one value). ``width`` is the bits per suit. Returns ``k``."""
    k = 0
    for s in range(4):
        prev = -1
        rep = -1
        for c in range(width * s + width - 1, width * s - 1, -1):
            if (legal >> c) & 1 == 0:
                continue
            if not (prev >= 0 and P[c] == P[prev] and (others & ((1 << prev) - (2 << c))) == 0):
                rep = c
            prev = c
            out[k] = c
            out[ROOT_REP + k] = rep
            k += 1
    return k


# The root driver's record (``DRIVER_WIDTH`` ints).
_COUNT, _AT, _LOW, _HIGH, _GUESS, _MODE, _MIN, _MAX = range(8)
#: The window of the next search the driver asks for.
ALPHA, BETA = 8, 9
#: The next step of a card's probes while they all fail on one side, and which sides have failed.
_STEP, _SIDES = 10, 11
DRIVER_WIDTH: Final = 12
#: Root modes: every card with a full window; every card by zero-window probes from the previous
#: card's value; the first card with a full window and the rest by probes.
FULL, MTDF, FULL_FIRST = 0, 1, 2


@jit
def root_start(drv: Any, count: int, guess: int, mode: int, low: int, high: int) -> None:
    """Value ``count`` root cards (listed as :func:`root_moves` lists them), each between ``low``
    and ``high``; ``guess`` is the first probe's guess."""
    drv[_COUNT] = count
    drv[_AT] = -1
    drv[_GUESS] = guess
    drv[_MODE] = mode
    drv[_MIN] = low
    drv[_MAX] = high


@jit
def _probe(drv: Any, beta: int) -> None:
    drv[ALPHA] = beta - 1
    drv[BETA] = beta


@jit
def root_next(drv: Any, out: Any, values: Any, v: int) -> int:
    """One step of the root driver: ``v`` is the result of the search it last asked for (ignored
    on the first call). Returns the index of the root card to search next, with the window in
    ``drv[ALPHA]``, ``drv[BETA]``, or -1 once every card has its exact value in ``values``.

    A card is valued by zero-window probes ("is it worth at least ``beta``?"), each answered with
    a bound. The first asks about the previous card's value (MTD(f)); while the answers all fall
    on one side the next probe steps 1, 2, 4, … beyond the bound (MTD(f) steps by one, and card
    points can be 20 away from the guess), and once both sides have answered it bisects."""
    i: int = drv[_AT]
    if i >= 0:
        if drv[ALPHA] < drv[_MIN] and drv[BETA] > drv[_MAX]:  # a full window: exact
            drv[_LOW] = v
            drv[_HIGH] = v
        elif v < drv[BETA]:
            drv[_HIGH] = v
            drv[_SIDES] |= 2
        else:
            drv[_LOW] = v
            drv[_SIDES] |= 1
        low = drv[_LOW]
        high = drv[_HIGH]
        if low < high:
            step = drv[_STEP]
            sides = drv[_SIDES]
            if sides == 3:
                _probe(drv, (low + high + 1) // 2)
            elif sides == 2:
                _probe(drv, max(low + 1, high - step + 1))
            else:
                _probe(drv, min(high, low + step))
            drv[_STEP] = 2 * step
            return i
        values[i] = v
        drv[_GUESS] = v
    i += 1
    while i < drv[_COUNT] and out[ROOT_REP + i] != out[i]:
        for j in range(i):
            if out[j] == out[ROOT_REP + i]:
                values[i] = values[j]
        i += 1
    drv[_AT] = i
    if i >= drv[_COUNT]:
        return -1
    mode = drv[_MODE]
    if mode == FULL or (mode == FULL_FIRST and i == 0):
        drv[ALPHA] = drv[_MIN] - 1
        drv[BETA] = drv[_MAX] + 1
    else:
        drv[_LOW] = drv[_MIN]
        drv[_HIGH] = drv[_MAX]
        drv[_STEP] = 1
        drv[_SIDES] = 0
        _probe(drv, min(max(drv[_GUESS], drv[_MIN] + 1), drv[_MAX]))
    return i


class Workspace:
    """The arrays one solver's searches work in, allocated once and reused from one solve to the
    next (a new generation number empties the transposition table in constant time)."""

    def __init__(self, tt_slots: int, seats: int, max_ply: int, max_moves: int, node_width: int) -> None:
        self.tt = int_array(tt_slots * TT_WIDTH)
        self.gen = 0
        self.h = int_array(seats)
        self.tc = int_array(max_ply)
        self.mv = int_array(max_ply * max_moves)
        self.ms = int_array(max_ply * max_moves)
        self.st = int_array(max_ply * node_width)
        self.out = int_array(2 * ROOT_REP)
        self.values = int_array(ROOT_REP)
        self.drv = int_array(DRIVER_WIDTH)
        self.stats = int_array(4)


W = TypeVar("W", bound=Workspace)


class PerThread(Generic[W]):
    """One workspace per thread, made on the thread's first call: a search writes its
    transposition table and stack in place and the compiled kernels release the GIL, so two
    searches at once in one workspace corrupt each other (issue 22). Each thread keeps its own
    for its life (the server's two bot threads: two), so nothing is locked and nothing shared."""

    def __init__(self, make: Callable[[], W]) -> None:
        self._make = make
        self._local = threading.local()

    def __call__(self) -> W:
        workspace: W | None = getattr(self._local, "workspace", None)
        if workspace is None:
            workspace = self._local.workspace = self._make()
        return workspace
