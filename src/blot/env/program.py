"""A trained policy at a table: the program of a ``cmd:`` bot (docs/bot-protocol.md) reads only
the protocol's JSON messages, and :class:`Observer` turns an ``act`` message's view into the
observation and action mask the policy was trained on in :mod:`blot.env`, and the number the
policy chose into the protocol's action.

    observer = Observer(new_game_message)
    seen = observer.observe(act_message["view"])     # {"observation": …, "action_mask": …}
    reply = {"type": "action", "id": act_message["id"], "action": observer.action(view, index)}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from blot.env import encoding
from blot.env.encode import Array
from blot.errors import BlotError


class Observer:
    """One game of one seat, from its ``new_game`` message (the game's name and options)."""

    def __init__(self, new_game: Mapping[str, Any]) -> None:
        self.encoding = encoding(str(new_game["game"]))
        self.options: dict[str, Any] = dict(new_game.get("options") or {})

    def observe(self, view: Mapping[str, Any]) -> dict[str, Array]:
        """The observation and action mask of the seat's JSON view, exactly as the
        environment gives them for the same view."""
        v = self._read(view)
        return {"observation": self.encoding.observe(v), "action_mask": self.encoding.mask(v)}

    def action(self, view: Mapping[str, Any], index: int) -> Any:
        """The protocol's ``action`` for the action numbered ``index`` (``IllegalAction`` when
        the mask does not allow it)."""
        return self.encoding.action_json(self._read(view), index)

    def _read(self, view: Mapping[str, Any]) -> Any:
        """The view's fields; BlotError in one sentence when it is not a seat's view of the game."""
        try:
            return self.encoding.from_json(view, self.options)
        except BlotError as e:
            raise BlotError(f"the view is not one of this game's: {e}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise BlotError(f"the view is not one of this game's: {type(e).__name__} {e}") from None
