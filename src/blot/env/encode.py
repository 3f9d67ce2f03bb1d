"""A seat's view as a fixed-size array, and every action as a number (docs/environments.md).

Each game has one :class:`Encoding`: ``observe(view)`` writes the seat's :class:`GameView` into a
float32 array of ``size`` values in [0, 1], seats counted from the observing seat (0 is itself, 1
the next to act after it, …); ``actions`` is the fixed action space, ``mask(view)`` marks the legal
ones, ``action(view, index)`` is the engine's action for an index. Only the view is read, so an
observation can never hold more than the seat may know.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from blot.cards import DECK32, DECK52, cards_of
from blot.errors import IllegalAction
from blot.game import Action

Array = npt.NDArray[Any]


class Layout:
    """Named slices of the observation, in order (the documentation's table is made from it)."""

    def __init__(self, parts: Sequence[tuple[str, int]]) -> None:
        self.slices: dict[str, slice] = {}
        start = 0
        for name, width in parts:
            self.slices[name] = slice(start, start + width)
            start += width
        self.size = start


class Encoding:
    """What both games' encodings share: cards as 0/1 vectors over the game's deck, and the
    action space's order: the calls, then the deck's cards, then any actions of the game's own."""

    seats: int
    layout: Layout
    actions: tuple[str, ...]

    def __init__(self, deck: int, calls: Sequence[object]) -> None:
        self.calls = tuple(calls)
        self.call_action: dict[object, int] = {c: i for i, c in enumerate(self.calls)}
        self.deck = cards_of(deck)
        self.shifts = np.array([c.index for c in self.deck], dtype=np.uint64)
        self.card_action: dict[object, int] = {c: i for i, c in enumerate(self.deck)}

    @property
    def size(self) -> int:
        return self.layout.size

    def cards(self, mask: int | None) -> Array:
        """A card set as 0/1 over the deck."""
        if not mask:
            return np.zeros(len(self.deck), dtype=np.float32)
        return ((np.uint64(mask) >> self.shifts) & np.uint64(1)).astype(np.float32)

    def rel(self, seat: int | None, me: int) -> int | None:
        return None if seat is None else (seat - me) % self.seats

    def one_hot(self, out: Array, name: str, index: int | None) -> None:
        if index is not None:
            out[self.layout.slices[name].start + index] = 1.0

    def put(self, out: Array, name: str, values: Any) -> None:
        out[self.layout.slices[name]] = values

    def mask(self, view: Any) -> Array:
        mask = np.zeros(len(self.actions), dtype=np.int8)
        for action in view.legal:
            mask[self.index(view, action)] = 1
        return mask

    def index(self, view: Any, action: Action) -> int:
        """The number of ``action`` in the action space."""
        call = self.call_action.get(action)
        if call is not None:
            return call
        card = self.card_action.get(action)
        if card is not None:
            return len(self.calls) + card
        return self.other_index(view, action)

    def other_index(self, view: Any, action: Action) -> int:
        """The number of an action that is neither a call nor a card (none in 3-5-8)."""
        raise KeyError(action)

    def action(self, view: Any, index: int) -> Action:
        """The legal action of ``view`` numbered ``index``; ``IllegalAction`` when there is none."""
        for action in view.legal:
            if self.index(view, action) == index:
                chosen: Action = action
                return chosen
        name = self.actions[index] if 0 <= index < len(self.actions) else str(index)
        raise IllegalAction(f"action {index} ({name}) is not legal now (see the action mask)")

    def observe(self, view: Any) -> Array:
        raise NotImplementedError


#: The calls of a Bazar Blot deal the observation holds, in order (a bidding rarely has more).
CALL_HISTORY = 16


class BazarEncoding(Encoding):
    """Bazar Blot: 4 seats, 32 cards, 133 actions (99 calls, 32 cards, 2 declaration choices)."""

    seats = 4

    def __init__(self) -> None:
        from blot.bazar.calls import BIDS, CONTRA, LEVELS, PASS, REDOUBLE, SEVENS, STRAINS
        from blot.bazar.declarations import FIFTY, FOUR, HUNDRED, TERZ
        from blot.bazar.values import Phase

        calls = (PASS, CONTRA, REDOUBLE, SEVENS, *BIDS)
        super().__init__(DECK32, calls)
        self.actions = (
            *(c.text for c in calls),
            *(c.text for c in self.deck),
            "declare none",
            "declare best",
        )
        self.levels = {level: i for i, level in enumerate(LEVELS)}
        self.strains = {s: i for i, s in enumerate(STRAINS)}
        self.phases = {p: i for i, p in enumerate(Phase)}
        self.kinds = {k: i for i, k in enumerate((TERZ, FIFTY, HUNDRED, FOUR))}
        self.layout = Layout(
            [
                ("hand", 32),
                ("played", 4 * 32),
                ("trick", 4 * 32),
                ("phase", len(Phase)),
                ("to_act", 4),
                ("dealer", 4),
                ("bid_level", len(LEVELS)),
                ("bid_strain", len(STRAINS)),
                ("bidder", 4),
                ("multiplier", 2),
                ("contract", 1),
                ("passed", 4),
                ("must_declare", 1),
                ("announced", 4 * 4),
                ("belote", 4),
                ("tricks_won", 4),
                ("card_points", 2),
                ("totals", 2),
                ("calls", CALL_HISTORY * 15),
            ]
        )
        self.call_kinds = {k: i for i, k in enumerate(("pass", "bid", "contra", "redouble", "sevens"))}

    def other_index(self, view: Any, action: Action) -> int:
        """The first trick's declaration choices: declare nothing, or the best (B-43)."""
        deal = view.deal
        best = deal.best_declare if deal is not None else None
        chosen_best = best is not None and best.declarations and action == best
        return len(self.calls) + 32 + (1 if chosen_best else 0)

    def action(self, view: Any, index: int) -> Action:
        deal = view.deal
        if deal is None or not deal.must_declare or not 0 <= index < len(self.actions):
            return super().action(view, index)
        if not self.mask(view)[index]:
            raise IllegalAction(
                f"action {index} ({self.actions[index]}) is not legal now (see the action mask)"
            )
        if index == len(self.calls) + 32:
            from blot.bazar.declarations import DECLARE_NONE

            return DECLARE_NONE
        best: Action = deal.best_declare
        return best

    def mask(self, view: Any) -> Array:
        mask = np.zeros(len(self.actions), dtype=np.int8)
        deal = view.deal
        if deal is not None and deal.must_declare:  # none, and the best set when there is one
            mask[len(self.calls) + 32] = 1
            best = deal.best_declare
            mask[len(self.calls) + 33] = int(best is not None and bool(best.declarations))
            return mask
        return super().mask(view)

    def observe(self, view: Any) -> Array:
        out = np.zeros(self.size, dtype=np.float32)
        v = view.deal
        me = view.seat
        target = view.rules.target
        self.put(out, "totals", [min(t / target, 1.0) for t in _mine_first(view.totals, me % 2)])
        if v is None:
            return out
        self.put(out, "hand", self.cards(v.hand))
        played = [0, 0, 0, 0]
        for t in v.tricks:
            for s, c in t.plays:
                played[s] |= c.bit
        trick = [0, 0, 0, 0]
        for s, c in v.trick:
            played[s] |= c.bit
            trick[s] |= c.bit
        rows = self.layout.slices
        for s in range(4):
            r = (s - me) % 4
            start = rows["played"].start + 32 * r
            out[start : start + 32] = self.cards(played[s])
            start = rows["trick"].start + 32 * r
            out[start : start + 32] = self.cards(trick[s])
        self.one_hot(out, "phase", self.phases[v.phase])
        self.one_hot(out, "to_act", self.rel(v.to_act, me))
        self.one_hot(out, "dealer", self.rel(v.dealer, me))
        bid, bidder, multiplier = None, None, 1
        if v.contract is not None:
            c = v.contract
            bid, bidder, multiplier = (c.level, c.strain), c.declarer, c.multiplier
            out[rows["contract"].start] = 1.0
        passes = [0, 0, 0, 0]
        for s, call in v.calls:
            if call.kind == "bid" and v.contract is None:
                bid, bidder, multiplier = (call.level, call.strain), s, 1
            elif call.kind == "contra" and v.contract is None:
                multiplier = 2
            elif call.kind == "redouble" and v.contract is None:
                multiplier = 4
            passes[s] = int(call.kind == "pass")
        if bid is not None:
            self.one_hot(out, "bid_level", self.levels[bid[0]])
            self.one_hot(out, "bid_strain", self.strains[bid[1]])
            self.one_hot(out, "bidder", self.rel(bidder, me))
            self.put(out, "multiplier", [float(multiplier >= 2), float(multiplier >= 4)])
        self.put(out, "passed", _rotate(passes, me))
        out[rows["must_declare"].start] = float(v.must_declare)
        for a in v.announced:
            i = rows["announced"].start + 4 * ((a.seat - me) % 4) + self.kinds[a.kind]
            out[i] = min(out[i] + 0.5, 1.0)
        for s, _ in v.belotes:
            out[rows["belote"].start + (s - me) % 4] = 1.0
        self.put(out, "tricks_won", [t / 8 for t in _rotate(list(v.tricks_taken), me)])
        self.put(out, "card_points", [p / 162 for p in _mine_first(v.card_points, me % 2)])
        start = rows["calls"].start
        for i, (s, call) in enumerate(v.calls[-CALL_HISTORY:]):  # the bidding, call by call
            at = start + 15 * i
            out[at + (s - me) % 4] = 1.0
            out[at + 4 + self.call_kinds[call.kind]] = 1.0
            if call.is_bid:
                out[at + 9] = call.level / 30
                out[at + 10 + self.strains[call.strain]] = 1.0
        return out


#: The largest total a 3-5-8 seat can have, either way (nine deals of -8 … +13).
TOTAL_RANGE = 144


class TfeEncoding(Encoding):
    """3-5-8: 3 seats, 52 cards, 58 actions (6 calls, 52 cards: a gift, a discard or a play)."""

    seats = 3

    def __init__(self) -> None:
        from blot.three_five_eight.calls import CALLS
        from blot.three_five_eight.values import Phase

        super().__init__(DECK52, CALLS)
        self.actions = (*(c.text for c in CALLS), *(c.text for c in self.deck))
        self.phases = {p: i for i, p in enumerate(Phase)}
        self.layout = Layout(
            [
                ("hand", 52),
                ("played", 3 * 52),
                ("trick", 3 * 52),
                ("talon", 52),
                ("discard", 52),
                ("gave", 52),
                ("received", 52),
                ("phase", len(Phase)),
                ("to_act", 3),
                ("dealer", 3),
                ("caller", 3),
                ("trump", len(CALLS) - 1),
                ("targets", 3),
                ("may_pass", 3),
                ("tricks_taken", 3),
                ("hand_sizes", 3),
                ("totals", 3),
                ("counted", 1),
                ("calls", 3 * 9),
            ]
        )

    def observe(self, view: Any) -> Array:
        out = np.zeros(self.size, dtype=np.float32)
        me = view.seat
        # a seat's total lies between -8 and +13 per deal, so within +-144 over a game of 9 deals
        self.put(
            out, "totals", [(t + TOTAL_RANGE) / (2 * TOTAL_RANGE) for t in _rotate(list(view.totals), me)]
        )
        out[self.layout.slices["counted"].start] = view.counted / 9
        self.put(out, "may_pass", _rotate([float(p) for p in view.may_pass], me))
        d = view.deal
        if d is None:
            return out
        rows = self.layout.slices
        played = [0, 0, 0]
        for t in d.tricks:
            for s, c in t.plays:
                played[s] |= c.bit
        trick = [0, 0, 0]
        for s, c in d.trick:
            played[s] |= c.bit
            trick[s] |= c.bit
        for s in range(3):
            r = (s - me) % 3
            out[rows["played"].start + 52 * r : rows["played"].start + 52 * (r + 1)] = self.cards(played[s])
            out[rows["trick"].start + 52 * r : rows["trick"].start + 52 * (r + 1)] = self.cards(trick[s])
        self.put(out, "hand", self.cards(d.hand))
        self.put(out, "talon", self.cards(d.talon))
        self.put(out, "discard", self.cards(d.discard))
        gave = received = 0
        for e in d.exchanges:
            if e.gift is None or e.returned is None:
                continue
            if e.giver == me:
                gave |= e.gift.bit
                received |= e.returned.bit
            elif e.receiver == me:
                received |= e.gift.bit
                gave |= e.returned.bit
        self.put(out, "gave", self.cards(gave & ~received))
        self.put(out, "received", self.cards(received & ~gave))
        self.one_hot(out, "phase", self.phases[d.phase])
        self.one_hot(out, "to_act", self.rel(d.to_act, me))
        self.one_hot(out, "dealer", self.rel(d.dealer, me))
        self.one_hot(out, "caller", self.rel(d.caller, me))
        if d.trump is not None:
            self.one_hot(out, "trump", self.call_action[d.trump])
        self.put(out, "targets", [t / 8 for t in _rotate(list(d.targets), me)])
        self.put(out, "tricks_taken", [t / 16 for t in _rotate(list(d.tricks_taken), me)])
        self.put(out, "hand_sizes", [min(h / 20, 1.0) for h in _rotate(list(d.hand_sizes), me)])
        first = (d.dealer + 1) % 3
        for i, call in enumerate(d.calls[:3]):  # the trump calls in order, from the first seat
            at = rows["calls"].start + 9 * i
            out[at + (first + i - me) % 3] = 1.0
            out[at + 3 + self.call_action[call]] = 1.0
        return out


def _rotate(values: list[Any], me: int) -> list[Any]:
    """Per-seat values counted from ``me``."""
    return values[me:] + values[:me]


def _mine_first(pair: Sequence[Any], team: int) -> list[Any]:
    return [pair[team], pair[1 - team]]


def encoding(game: str) -> Encoding:
    """The encoding of a game, by its name in the registry."""
    from blot.bazar import GAME_NAME as BAZAR
    from blot.three_five_eight import GAME_NAME as TFE

    kinds: dict[str, Callable[[], Encoding]] = {BAZAR: BazarEncoding, TFE: TfeEncoding}
    return kinds[game]()
