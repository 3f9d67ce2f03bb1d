"""3-5-8's views, actions and events as JSON (docs/protocol.md; :mod:`blot.wire`).

>>> from random import Random
>>> from blot.three_five_eight import Game
>>> game = Game(dealer=2, rng=Random(1))
>>> view = view_json(game.view(0))
>>> view["phase"], view["targets"], len(view["hand"]), view["legal"]["kind"]
('call', [8, 5, 3], 16, 'call')
>>> spectator = public_json(game.public_view())
>>> spectator["hand"], spectator["seat"], sorted(spectator) == sorted(view)
(None, None, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from blot.game import Action, AnyGame, PublicView, View
from blot.three_five_eight import (
    GAME_NAME,
    SEATS,
    DealView,
    Game,
    GameView,
    Phase,
    PublicDealView,
    PublicGameView,
)
from blot.wire import Event, action_text, cards_json, frame_of, seat_view_json, trick_json, tricks_json


def _game(game: AnyGame) -> Game:
    assert isinstance(game, Game), "a 3-5-8 presenter was given another game"
    return game


def view_json(view: View) -> dict[str, Any] | None:
    """The seat's view as the websocket sends it. ``None`` before the first deal."""
    return seat_view_json(view, seat_json, _json)


def seat_json(view: View) -> dict[str, Any] | None:
    """The fields of the seat's view JSON that a spectator's (:func:`public_json`) has null or
    shows less of: its seat, hand, discard, choices and the exchanged cards it saw (T-20).
    ``None`` before the first deal."""
    assert isinstance(view, GameView), "a 3-5-8 presenter was given another game's view"
    d = view.deal
    if d is None:
        return None
    legal: dict[str, Any] | None = None
    if view.legal:
        cards = [str(a) for a in view.legal]
        if d.phase is Phase.CALL:
            legal = {"kind": "call", "calls": cards}
        elif d.phase is Phase.EXCHANGE:
            legal = {"kind": "give", "cards": cards, "to": d.plan[len(d.exchanges)][1]}
        elif d.phase is Phase.DISCARD:
            left = 4 - (0 if d.discard is None else d.discard.bit_count())
            legal = {"kind": "discard", "cards": cards, "left": left}
        else:
            legal = {"kind": "card", "cards": cards}
    return {
        "seat": view.seat,
        "hand": cards_json(d.hand),
        "discard": None if d.discard is None else cards_json(d.discard),
        "exchanges": _exchanges(d),
        "legal": legal,
    }


def public_json(view: PublicView) -> dict[str, Any] | None:
    """A spectator's view, from the public view: a seat's shape with ``seat``, ``hand``,
    ``discard``, ``legal`` and the exchanged cards null. ``None`` before the first deal."""
    # A seat's view extends the public view: only the public view itself may be shown to all.
    assert type(view) is PublicGameView, "a 3-5-8 presenter was given another view than the public one"
    d = view.deal
    return None if d is None else _json(view, d)


def _json(view: GameView | PublicGameView, d: DealView | PublicDealView) -> dict[str, Any]:
    """A view's JSON: the fields of ``view`` and ``d`` (the exchanged cards a public view does
    not hold are null), the seat's own parts null (:func:`seat_json` gives them)."""
    first = (d.dealer + 1) % SEATS
    return {
        "game": GAME_NAME,
        "seat": None,
        "deal_number": view.deal_number,
        "counted": view.counted,
        "phase": d.phase.value,
        "to_act": d.to_act,
        "dealer": d.dealer,
        "targets": list(d.targets),
        "hand": None,
        "hand_sizes": list(d.hand_sizes),
        "may_pass": list(d.may_pass),
        "calls": [{"seat": (first + i) % SEATS, "call": str(c)} for i, c in enumerate(d.calls)],
        "trump": None if d.trump is None else str(d.trump),
        "caller": d.caller,
        "plan": [{"giver": a, "receiver": b} for a, b in d.plan],
        "exchanges": _exchanges(d),
        "talon": None if d.talon is None else cards_json(d.talon),
        "discard": None,
        "trick": trick_json(d.trick),
        "tricks": tricks_json(d.tricks),
        "tricks_taken": list(d.tricks_taken),
        "legal": None,
        "result": None if d.result is None else d.result.to_json(),
        "history": [r.to_json() for r in view.results[: view.deal_number - 1]],
        "totals": list(view.totals),
        "game_over": None if not view.finished else {"winner": view.winner, "totals": list(view.totals)},
    }


def _exchanges(d: DealView | PublicDealView) -> list[dict[str, Any]]:
    return [
        {
            "giver": e.giver,
            "receiver": e.receiver,
            "gift": None if e.gift is None else e.gift.text,
            "returned": None if e.returned is None else e.returned.text,
        }
        for e in d.exchanges
    ]


def action_json(action: Action) -> Any:
    """An action as a table's log and the bot protocol write it: its record notation."""
    return str(action)


def action_from_json(game: AnyGame, value: Any) -> Action:
    """Read :func:`action_json`'s form (``NotationError`` when it is no action)."""
    return _game(game).parse_action(value)


def event(game: AnyGame, seat: int, action: Action, before: Enum) -> Event:
    """After ``action`` was applied by ``seat`` in phase ``before``: what everybody hears, and
    what only some seats see (an exchanged card: its giver and receiver, T-20; a discarded card:
    the discarder, T-22)."""
    g = _game(game)
    deal = g.deal
    assert deal is not None
    if before is Phase.CALL:
        return {"kind": "call", "seat": seat, "action": str(action)}, {}
    if before is Phase.EXCHANGE:
        e = deal.exchanges[-1]
        secret = {"action": str(e.gift), "returned": str(e.returned)}
        public = {"kind": "give", "seat": seat, "to": e.receiver, "action": None, "returned": None}
        return public, {seat: secret, e.receiver: secret}
    if before is Phase.DISCARD:
        return {"kind": "discard", "seat": seat, "action": None}, {seat: {"action": str(action)}}
    out: dict[str, Any] = {"kind": "card", "seat": seat, "action": str(action)}
    if not deal.trick:
        out["trick_winner"] = deal.trick_winners[-1]
    return out, {}


def action_from_message(game: AnyGame, message: Mapping[str, Any]) -> Action:
    """A player's action from a websocket message: ``{"action": "10H"}`` (docs/protocol.md)."""
    return action_from_json(game, action_text(message))


def frame(game: AnyGame) -> dict[str, Any]:
    """The whole state with every hand, for the replay of a finished game."""
    g = _game(game)
    deal = g.deal
    assert deal is not None
    return frame_of(deal, deal.hands) | {
        "trump": None if deal.trump is None else str(deal.trump),
        "targets": list(deal.targets),
        "tricks": list(deal.tricks_taken),
        "talon": cards_json(deal.talon),
        "discard": [c.text for c in deal.discard],
        "exchanges": [
            {"giver": e.giver, "receiver": e.receiver, "gift": str(e.gift), "returned": str(e.returned)}
            for e in deal.exchanges
        ],
        "result": None if deal.result is None else deal.result.to_json(),
        "totals": list(g.totals),
    }


def summary(game: AnyGame) -> dict[str, Any]:
    """The result of a finished game, for listings."""
    g = _game(game)
    return {"totals": list(g.totals), "winner": g.winner, "deals": len(g.deals)}
