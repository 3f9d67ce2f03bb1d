"""The JSON form of each game's views, actions and events: what the websocket of ``blot serve``
sends (docs/protocol.md) and what the bot protocol speaks.

One module per game (named by its spec in :mod:`blot.games`) provides:

- ``view_json(view)``: a seat's view (``game.view(seat)``) as JSON, and ``public_json(view)``:
  the public view (``game.public_view()``) as JSON, in the same shape, for spectators. Each is
  built from its view alone, so it can never hold more than that seat (or everybody) may know.
- ``action_json(action)`` and ``action_from_json(game, value)``: an action as a table's log and
  the bot protocol write it (record notation; Bazar Blot declarations as ``{"declare": [...]}``).
- ``event(game, seat, action, phase_before)``: after ``action`` was applied, what everybody hears
  and what only some seats see.
- ``action_from_message(game, message)``: a player's action from a websocket message.
- ``frame(game)``: the whole state with every hand, for the replay of a finished game.
- ``summary(game)``: the result of a finished game, for listings.

Cards are always written one card per JSON string (``"10H"``), never as bit sets, so that a test
can scan every frame for cards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from blot.cards import Card, cards_of
from blot.errors import SetupError
from blot.game import DealState, Trick
from blot.layers import Event, Wire

__all__ = [
    "ACTION_LIMIT",
    "Event",
    "Wire",
    "action_text",
    "cards_json",
    "frame_of",
    "seat_view_json",
    "trick_json",
    "tricks_json",
]


def cards_json(mask: int) -> list[str]:
    """A card set as a list of card strings."""
    return [c.text for c in cards_of(mask)]


def trick_json(trick: Iterable[tuple[int, Card]]) -> list[dict[str, Any]]:
    """The trick in progress: ``[{"seat", "card"}, …]`` in playing order."""
    return [{"seat": s, "card": c.text} for s, c in trick]


def tricks_json(tricks: Iterable[Trick]) -> list[dict[str, Any]]:
    """Completed tricks: ``[{"leader", "cards", "winner"}, …]``."""
    return [{"leader": t.leader, "cards": [c.text for c in t.cards], "winner": t.winner} for t in tricks]


#: The longest action a message may carry.
ACTION_LIMIT = 40


def action_text(message: Mapping[str, Any]) -> str:
    """The ``action`` of a message: a call or a card in record notation (its shape checked)."""
    action = message.get("action")
    if not isinstance(action, str) or not action.strip() or len(action) > ACTION_LIMIT:
        raise SetupError("action_message", "action")
    return action


def seat_view_json(
    view: Any,
    own: Callable[[Any], dict[str, Any] | None],
    public: Callable[[Any, Any], dict[str, Any]],
) -> dict[str, Any] | None:
    """A seat's view (a game view with its ``deal``) as JSON, in both games: the fields a
    spectator's has (``public(view, view.deal)``) with the seat's own parts (``own(view)``) over
    them. ``None`` before the first deal."""
    mine = own(view)
    return None if mine is None else {**public(view, view.deal), **mine}


def frame_of(deal: DealState, hands: Iterable[int]) -> dict[str, Any]:
    """The part of a replay frame both games share: the phase, who is to act, every hand and the
    trick in progress."""
    return {
        "phase": deal.phase.value,
        "to_act": deal.to_act,
        "hands": [cards_json(h) for h in hands],
        "trick": trick_json(deal.trick),
    }
