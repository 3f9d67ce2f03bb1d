"""Bazar Blot's views, actions and events as JSON (docs/protocol.md; :mod:`blot.wire`).

>>> from random import Random
>>> from blot.bazar import Game
>>> game = Game(dealer=3, rng=Random(1))
>>> view = view_json(game.view(0))
>>> view["phase"], view["to_act"], len(view["hand"]), view["legal"]["kind"]
('bidding', 0, 8, 'call')
>>> spectator = public_json(game.public_view())
>>> spectator["hand"], spectator["seat"], sorted(spectator) == sorted(view)
(None, None, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, Final

from blot.bazar import GAME_NAME, Call, DealResult, DealView, Game, GameView, PublicDealView, PublicGameView
from blot.bazar.declarations import DECLARE_NONE, Declare
from blot.cards import RANK_TEXT, parse_cards
from blot.errors import BlotError, IllegalAction, NotationError, SetupError
from blot.game import Action, AnyGame, PublicView, View
from blot.wire import Event, action_text, cards_json, frame_of, seat_view_json, trick_json, tricks_json

SUITS: Final = "SHDC"


def _game(game: AnyGame) -> Game:
    assert isinstance(game, Game), "a Bazar Blot presenter was given another game"
    return game


def _result(r: DealResult) -> dict[str, Any]:
    out = r.to_json()
    out["tars_kapoot"] = r.tars_kapoot
    out["kapoot"] = r.kapoot  # the team that took every trick (kapoot, B-50), or None
    return dict(out)


def view_json(view: View) -> dict[str, Any] | None:
    """The seat's view as the websocket sends it. ``None`` before the first deal."""
    return seat_view_json(view, seat_json, _json)


def seat_json(view: View) -> dict[str, Any] | None:
    """The fields of the seat's view JSON that a spectator's (:func:`public_json`) has null:
    its seat, hand, declarations and choices. ``None`` before the first deal."""
    assert isinstance(view, GameView), "a Bazar Blot presenter was given another game's view"
    v = view.deal
    if v is None:
        return None
    legal: dict[str, Any] | None = None
    if v.legal:
        first = v.legal[0]
        if isinstance(first, Call):
            legal = {"kind": "call", "calls": [str(a) for a in v.legal]}
        elif isinstance(first, Declare):
            best = v.best_declare or DECLARE_NONE
            legal = {
                "kind": "declare",
                "options": [a.texts for a in v.legal if isinstance(a, Declare)],
                "best": best.texts,
            }
        else:
            legal = {"kind": "card", "cards": [str(a) for a in v.legal]}
    own = None
    if v.own_declarations is not None:
        own = [d.cards_text.split() for d in v.own_declarations]
    return {
        "seat": view.seat,
        "hand": cards_json(v.hand),
        "must_declare": v.must_declare,
        "own_declarations": own,
        "legal": legal,
    }


def public_json(view: PublicView) -> dict[str, Any] | None:
    """A spectator's view, from the public view: a seat's shape with ``seat``, ``hand``,
    ``own_declarations`` and ``legal`` null. ``None`` before the first deal."""
    # A seat's view extends the public view: only the public view itself may be shown to all.
    assert type(view) is PublicGameView, "a Bazar Blot presenter was given another view than the public one"
    v = view.deal
    return None if v is None else _json(view, v)


def _json(view: GameView | PublicGameView, v: DealView | PublicDealView) -> dict[str, Any]:
    """A view's JSON: the public fields of ``view`` and ``v``, the seat's own parts null
    (:func:`seat_json` gives them)."""
    played = [0, 0, 0, 0]
    for t in v.tricks:
        for i in range(4):
            played[t.seat_of(i)] += 1
    for s, _ in v.trick:
        played[s] += 1
    c = v.contract
    return {
        "game": GAME_NAME,
        "seat": None,
        "deal_number": view.deal_number,
        "phase": v.phase.value,
        "to_act": v.to_act,
        "dealer": v.dealer,
        "hand": None,
        "hand_sizes": [8 - p for p in played],
        "calls": [{"seat": s, "call": str(call)} for s, call in v.calls],
        "contract": None if c is None else c.to_json(),
        "trump": None if c is None else c.strain,
        "must_declare": False,
        "own_declarations": None,
        "announced": [{"seat": a.seat, "kind": a.kind, "rank": RANK_TEXT[a.rank]} for a in v.announced],
        "shown": [
            {
                "seat": s,
                "kind": d.kind,
                "rank": RANK_TEXT[d.rank],
                "suit": None if d.suit is None else SUITS[d.suit],
            }
            for s, d in v.shown
        ],
        "declarations_team": v.declarations_team,
        "trick": trick_json(v.trick),
        "tricks": tricks_json(v.tricks),
        "tricks_won": list(v.tricks_taken),
        "card_points": list(v.card_points),
        "belotes": [{"seat": s, "card": card.text} for s, card in v.belotes],
        "legal": None,
        "result": None if v.result is None else _result(v.result),
        "history": [_result(r) for r in view.results[: view.deal_number - 1]],
        "totals": list(view.totals),
        "game_over": None
        if not view.finished
        else {
            "winner": view.winner,
            "match_score": view.match_score,
            "tars_kapoot": view.tars_kapoot,
            "totals": list(view.totals),
        },
    }


def action_json(action: Action) -> Any:
    """An action as a table's log and the bot protocol write it: record notation, and a set of
    declarations as ``{"declare": ["KS QS JS", …]}``."""
    if isinstance(action, Declare):
        return {"declare": action.texts}
    return str(action)


def action_from_json(game: AnyGame, value: Any) -> Action:
    """Read :func:`action_json`'s form for the seat to act: text as the phase means it, or
    ``{"declare": "best" | "none" | ["KS QS JS", …]}``. ``NotationError`` or ``IllegalAction``
    when it is not one of the seat's actions."""
    g = _game(game)
    if isinstance(value, str):
        return g.parse_action(value)
    if not isinstance(value, dict) or set(value) != {"declare"}:
        raise NotationError("action_json")
    return _declare(g, value["declare"])


def _declare(game: Game, choice: Any) -> Declare:
    deal = game.deal
    seat = game.to_act
    if deal is None or seat is None or not deal.must_declare:
        raise IllegalAction("declare_when")
    if choice == "best":
        return deal.best_declare(seat)
    if choice == "none":
        return DECLARE_NONE
    if not isinstance(choice, list) or not all(isinstance(t, str) for t in choice) or len(choice) > 8:
        raise NotationError("declare_choice")
    try:
        masks = sorted(parse_cards(t) for t in choice)
    except BlotError as e:
        raise NotationError(e.as_reason() or e.message) from None
    for option in deal.declare_options(seat):
        if sorted(d.mask for d in option.declarations) == masks:
            return option
    raise IllegalAction("declare_not_possible")


def event(game: AnyGame, seat: int, action: Action, before: Enum) -> Event:
    """After ``action`` was applied by ``seat``: what everybody hears, and what only some seats
    see (nothing, in Bazar Blot: every action is public once made; declarations are heard as
    kind and top rank only, B-43)."""
    g = _game(game)
    if isinstance(action, Declare):
        said = [{"kind": d.kind, "rank": RANK_TEXT[d.rank]} for d in action.declarations]
        return {"kind": "declare", "seat": seat, "declare": said}, {}
    if isinstance(action, Call):
        return {"kind": "call", "seat": seat, "action": str(action)}, {}
    deal = g.deal
    assert deal is not None
    out: dict[str, Any] = {"kind": "card", "seat": seat, "action": str(action)}
    belotes = deal.belotes
    if belotes and belotes[-1] == (seat, action):
        out["belote"] = "belote" if len(belotes) == 1 else "rebelote"
    if not deal.trick and deal.trick_winners:
        out["trick_winner"] = deal.trick_winners[-1]
    return out, {}


def action_from_message(game: AnyGame, message: Mapping[str, Any]) -> Action:
    """A player's action from a websocket message (docs/protocol.md): ``{"action": "10H"}``, or
    in the first trick ``{"declare": "best" | "none" | [declarations written as cards]}``."""
    if "declare" in message:
        choice = message["declare"]
        if choice in ("best", "none") or (
            isinstance(choice, list) and len(choice) <= 8 and all(isinstance(t, str) for t in choice)
        ):
            return action_from_json(game, {"declare": choice})
        raise SetupError("declare_choice", "declare")
    return action_from_json(game, action_text(message))


def frame(game: AnyGame) -> dict[str, Any]:
    """The whole state with every hand, for the replay of a finished game."""
    g = _game(game)
    deal = g.deal
    assert deal is not None
    c = deal.contract
    return frame_of(deal, deal.hands) | {
        "contract": None if c is None else f"{c.level}{c.strain}" + {1: "", 2: "×2", 4: "×4"}[c.multiplier],
        "declarer": None if c is None else c.declarer,
        "tricks": list(deal.team_tricks),
        "card_points": list(deal.card_points),
        "result": None if deal.result is None else _result(deal.result),
        "totals": list(g.totals),
    }


def summary(game: AnyGame) -> dict[str, Any]:
    """The result of a finished game, for listings."""
    g = _game(game)
    return {"totals": list(g.totals), "winner": g.winner, "match_score": g.match_score, "deals": len(g.deals)}


__all__ = [
    "action_from_json",
    "action_json",
    "event",
    "frame",
    "public_json",
    "summary",
    "view_json",
]
