"""3-5-8's observation and action numbering (docs/environments.md)."""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import numpy as np

from blot.cards import DECK52
from blot.env.encode import (
    Array,
    Encoding,
    Layout,
    card_from_json,
    cards_from_json,
    rotate,
    trick_from_json,
    tricks_from_json,
)

#: The largest total a 3-5-8 seat can have, either way (nine deals of -8 … +13).
TOTAL_RANGE = 144


class TfeEncoding(Encoding):
    """3-5-8: 3 seats, 52 cards, 58 actions (6 calls, 52 cards: a gift, a discard or a play)."""

    seats = 3

    def __init__(self) -> None:
        from blot.three_five_eight.calls import CALLS
        from blot.three_five_eight.values import Phase

        super().__init__(DECK52, CALLS, Phase)
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

    def from_json(self, view: Mapping[str, Any], options: Mapping[str, Any]) -> Any:
        from blot.three_five_eight.calls import parse_call
        from blot.three_five_eight.values import Phase

        legal = view.get("legal") or {}
        deal = SimpleNamespace(
            hand=cards_from_json(view["hand"]),
            tricks=tricks_from_json(view["tricks"]),
            trick=trick_from_json(view["trick"]),
            talon=None if view["talon"] is None else cards_from_json(view["talon"]),
            discard=None if view["discard"] is None else cards_from_json(view["discard"]),
            exchanges=tuple(
                SimpleNamespace(
                    giver=e["giver"],
                    receiver=e["receiver"],
                    gift=card_from_json(e["gift"]),
                    returned=card_from_json(e["returned"]),
                )
                for e in view["exchanges"]
            ),
            phase=Phase(view["phase"]),
            to_act=view["to_act"],
            dealer=view["dealer"],
            caller=view["caller"],
            trump=None if view["trump"] is None else parse_call(view["trump"]),
            targets=tuple(view["targets"]),
            tricks_taken=tuple(view["tricks_taken"]),
            hand_sizes=tuple(view["hand_sizes"]),
            calls=tuple(parse_call(c["call"]) for c in view["calls"]),
        )
        if legal.get("kind") == "call":
            actions: tuple[Any, ...] = tuple(parse_call(t) for t in legal["calls"])
        else:
            actions = tuple(card_from_json(t) for t in legal.get("cards", ()))
        return SimpleNamespace(
            seat=view["seat"],
            totals=tuple(view["totals"]),
            counted=view["counted"],
            may_pass=tuple(view["may_pass"]),
            deal=deal,
            legal=actions,
        )

    def observe(self, view: Any) -> Array:
        out = np.zeros(self.size, dtype=np.float32)
        me = view.seat
        # a seat's total lies between -8 and +13 per deal, so within +-144 over a game of 9 deals
        self.put(
            out, "totals", [(t + TOTAL_RANGE) / (2 * TOTAL_RANGE) for t in rotate(list(view.totals), me)]
        )
        out[self.layout.slices["counted"].start] = view.counted / 9
        self.put(out, "may_pass", rotate([float(p) for p in view.may_pass], me))
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
        self.put(out, "targets", [t / 8 for t in rotate(list(d.targets), me)])
        self.put(out, "tricks_taken", [t / 16 for t in rotate(list(d.tricks_taken), me)])
        self.put(out, "hand_sizes", [min(h / 20, 1.0) for h in rotate(list(d.hand_sizes), me)])
        first = (d.dealer + 1) % 3
        for i, call in enumerate(d.calls[:3]):  # the trump calls in order, from the first seat
            at = rows["calls"].start + 9 * i
            out[at + (first + i - me) % 3] = 1.0
            out[at + 3 + self.call_action[call]] = 1.0
        return out


def encoding() -> Encoding:
    """A new encoding of the game (it holds no state between observations)."""
    return TfeEncoding()
