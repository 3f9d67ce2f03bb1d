"""Bazar Blot's observation and action numbering (docs/environments.md)."""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import numpy as np

from blot.cards import DECK32
from blot.env.encode import (
    Array,
    Encoding,
    Layout,
    card_from_json,
    cards_from_json,
    mine_first,
    rotate,
    trick_from_json,
    tricks_from_json,
)
from blot.errors import IllegalAction
from blot.game import Action

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
        super().__init__(DECK32, calls, Phase, ("declare none", "declare best"))
        self.levels = {level: i for i, level in enumerate(LEVELS)}
        self.strains = {s: i for i, s in enumerate(STRAINS)}
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

    def action_json(self, view: Any, index: int) -> Any:
        """Calls and cards as text; a declaration choice as ``{"declare": [...]}``."""
        action = self.action(view, index)
        texts = getattr(action, "texts", None)  # a set of declarations (Declare, or from_json's best)
        return str(action) if texts is None else {"declare": list(texts)}

    def from_json(self, view: Mapping[str, Any], options: Mapping[str, Any]) -> Any:
        from blot.bazar.calls import parse_call
        from blot.bazar.deal import DEFAULT_RULES
        from blot.bazar.values import Phase

        legal = view.get("legal") or {}
        c = view["contract"]
        best = legal.get("best") if legal.get("kind") == "declare" else None
        deal = SimpleNamespace(
            hand=cards_from_json(view["hand"]),
            tricks=tricks_from_json(view["tricks"]),
            trick=trick_from_json(view["trick"]),
            phase=Phase(view["phase"]),
            to_act=view["to_act"],
            dealer=view["dealer"],
            contract=None
            if c is None
            else SimpleNamespace(
                level=c["level"], strain=c["strain"], declarer=c["seat"], multiplier=c["multiplier"]
            ),
            calls=tuple((int(x["seat"]), parse_call(x["call"])) for x in view["calls"]),
            must_declare=bool(view["must_declare"]),
            announced=tuple(SimpleNamespace(seat=a["seat"], kind=a["kind"]) for a in view["announced"]),
            belotes=tuple((int(b["seat"]), card_from_json(b["card"])) for b in view["belotes"]),
            tricks_taken=tuple(view["tricks_won"]),
            card_points=tuple(view["card_points"]),
            best_declare=None
            if best is None
            else SimpleNamespace(declarations=tuple(best), texts=tuple(best)),
        )
        actions: list[Action] = [parse_call(t) for t in legal.get("calls", ())]
        actions += [card_from_json(t) for t in legal.get("cards", ())]
        return SimpleNamespace(
            seat=view["seat"],
            rules=SimpleNamespace(target=options.get("target", DEFAULT_RULES.target)),
            totals=tuple(view["totals"]),
            deal=deal,
            legal=tuple(actions),
        )

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
        self.put(out, "totals", [min(t / target, 1.0) for t in mine_first(view.totals, me % 2)])
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
        self.put(out, "passed", rotate(passes, me))
        out[rows["must_declare"].start] = float(v.must_declare)
        for a in v.announced:
            i = rows["announced"].start + 4 * ((a.seat - me) % 4) + self.kinds[a.kind]
            out[i] = min(out[i] + 0.5, 1.0)
        for s, _ in v.belotes:
            out[rows["belote"].start + (s - me) % 4] = 1.0
        self.put(out, "tricks_won", [t / 8 for t in rotate(list(v.tricks_taken), me)])
        self.put(out, "card_points", [p / 162 for p in mine_first(v.card_points, me % 2)])
        start = rows["calls"].start
        for i, (s, call) in enumerate(v.calls[-CALL_HISTORY:]):  # the bidding, call by call
            at = start + 15 * i
            out[at + (s - me) % 4] = 1.0
            out[at + 4 + self.call_kinds[call.kind]] = 1.0
            if call.is_bid:
                out[at + 9] = call.level / 30
                out[at + 10 + self.strains[call.strain]] = 1.0
        return out


def encoding() -> Encoding:
    """A new encoding of the game (it holds no state between observations)."""
    return BazarEncoding()
