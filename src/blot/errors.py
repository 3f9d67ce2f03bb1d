"""Typed errors shared by every part of blot.

All derive from :class:`BlotError`, a :class:`ValueError` (as python-chess does). A refusal is
raised with its key and its variable parts (``IllegalAction("does_not_hold", seat=2, card="KS")``,
:mod:`blot.reasons`); its message, ``str(error)``, is the key's English sentence, one plain
sentence meant for a player: the CLI prints it as it is and the server sends it as it is, with the
key and the parts for a page to say it in its reader's language. (An error no client can meet may
be raised with a sentence instead of a key: it has no ``reason``.) The family says what went
wrong, so that nobody has to read the message to decide:

- :class:`NotationError`: text that is not a card, a call or an action (``"1OH"``).
- :class:`IllegalAction`: a well-formed action the rules do not allow now; nothing changed.
- :class:`SetupError`: a game or deal that cannot be set up (cards, dealer, rules); ``field``
  names the part at fault, as a record or a request names it (``hands``, ``talon``, ``dealer``,
  ``ruleset``, ``options``).
- :class:`BotFailed`: a bot program broke the bot protocol (docs/bot-protocol.md) and was stopped.

>>> from blot.cards import parse_card
>>> try:
...     parse_card("1OH")
... except NotationError as e:
...     print(e)
'1OH' is not a card: write the rank (2-10, J, Q, K, A) then the suit (S, H, D, C), e.g. 10H or AS
"""

from __future__ import annotations

from typing import Any

from blot.reasons import Reason, is_key, render


class BlotError(ValueError):
    """Base of every error blot raises on bad input: ``reason`` (its key, or None for a bare
    sentence) and ``params`` (its variable parts) say what ``str(error)`` says in English."""

    def __init__(self, reason: str | Reason, /, **params: Any) -> None:
        if isinstance(reason, Reason):
            params = {**reason.params, **params}
            key = reason.reason
        else:
            key = reason
        keyed = is_key(key)
        super().__init__(render(key, params) if keyed else key)
        self.reason: str | None = key if keyed else None
        self.params: dict[str, Any] = params

    @property
    def message(self) -> str:
        """The English sentence."""
        return str(self.args[0])

    def as_reason(self) -> Reason | None:
        """The key and parts as a value (a part of another refusal), or None for a bare sentence."""
        return None if self.reason is None else Reason(self.reason, **self.params)


class NotationError(BlotError):
    """Text that is not a card, a call or an action of the game (record notation)."""


class IllegalAction(BlotError):
    """An action the rules do not allow now; the state it was offered to is unchanged."""


class SetupError(BlotError):
    """A game or a deal that cannot be set up as asked. ``field`` names the part at fault."""

    def __init__(self, reason: str | Reason, field: str, /, **params: Any) -> None:
        super().__init__(reason, **params)
        self.field = field


class BotFailed(BlotError):
    """A bot program crashed, hung, wrote garbage or answered an action that was not offered: it
    was stopped, and the play loop makes the documented automatic move in its place."""


class BotStopped(BotFailed):
    """A move of a bot program that was stopped earlier in the game (already reported)."""
