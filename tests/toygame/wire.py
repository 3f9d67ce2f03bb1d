"""Toy Duel's views, actions and events as JSON (the shape of docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from blot.cards import Card
from blot.errors import IllegalAction
from blot.game import Action, AnyGame, PublicView
from blot.game import View as AnyView
from blot.wire import Event, action_text, cards_json, frame_of, trick_json, tricks_json
from toygame import GAME_NAME, Game, View
from toygame import PublicView as ToyPublicView

#: The keys of a view's JSON (tests/server/frames.py pins them).
VIEW_KEYS = frozenset(
    {"game", "seat", "phase", "to_act", "dealer", "deal_number", "hand", "hand_sizes", "calls", "trick"}
    | {"tricks", "tricks_taken", "result", "totals", "game_over", "legal"}
)


def _json(public: ToyPublicView) -> dict[str, Any]:
    view = public if isinstance(public, View) else None  # a seat's, or None: a spectator's
    return {
        "game": GAME_NAME,
        "seat": view.seat if view else None,
        "phase": public.phase.value,
        "to_act": public.to_act,
        "dealer": public.dealer,
        "deal_number": public.deal_number,
        "hand": cards_json(view.hand) if view else None,
        "hand_sizes": list(public.hand_sizes),
        "calls": [],
        "trick": trick_json(public.trick),
        "tricks": tricks_json(public.tricks),
        "tricks_taken": list(public.tricks_taken),
        "result": None if public.result is None else public.result.to_json(),
        "totals": list(public.totals),
        "game_over": {"winner": public.winner, "totals": list(public.totals)} if public.finished else None,
        "legal": {"kind": "card", "cards": [str(c) for c in view.legal]} if view and view.legal else None,
    }


def view_json(view: AnyView) -> dict[str, Any] | None:
    assert isinstance(view, View)
    return None if view.deal_number == 0 else _json(view)


def public_json(view: PublicView) -> dict[str, Any] | None:
    assert isinstance(view, ToyPublicView)
    return None if view.deal_number == 0 else _json(view)


def seat_json(view: AnyView) -> dict[str, Any] | None:
    full = view_json(view)
    if full is None:
        return None
    return {k: full[k] for k in ("seat", "hand", "legal")}


def action_json(action: Action) -> Any:
    return str(action)


def action_from_json(game: AnyGame, value: Any) -> Action:
    if not isinstance(value, str):
        raise IllegalAction("an action of Toy Duel is a card such as AS")
    return game.parse_action(value)


def action_from_message(game: AnyGame, message: Mapping[str, Any]) -> Action:
    return game.parse_action(action_text(message))


def event(game: AnyGame, seat: int, action: Action, before: Enum) -> Event:
    assert isinstance(action, Card)
    return {"kind": "card", "seat": seat, "action": str(action)}, {}


def frame(game: AnyGame) -> dict[str, Any]:
    assert isinstance(game, Game) and game.deal is not None
    deal = game.deal
    result = {"points": list(deal.tricks_taken)} if deal.is_over else None
    return {**frame_of(deal, deal.hands), "result": result, "totals": list(game.result.totals)}


def summary(game: AnyGame) -> dict[str, Any]:
    assert isinstance(game, Game)
    result = game.result
    return {
        "totals": list(result.totals),
        "winner": result.winner,
        "tricks": [tricks_json(d.tricks) for d in game.deals],
    }
