"""Typed errors shared by every part of blot.

All derive from :class:`BlotError`, a :class:`ValueError` (as python-chess does), and every
message is one plain sentence meant for a player: the CLI prints it as it is and the server sends
it as it is. The family says what went wrong, so that nobody has to read the message to decide:

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


class BlotError(ValueError):
    """Base of every error blot raises on bad input."""


class NotationError(BlotError):
    """Text that is not a card, a call or an action of the game (record notation)."""


class IllegalAction(BlotError):
    """An action the rules do not allow now; the state it was offered to is unchanged."""


class SetupError(BlotError):
    """A game or a deal that cannot be set up as asked. ``field`` names the part at fault."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


class BotFailed(BlotError):
    """A bot program crashed, hung, wrote garbage or answered an action that was not offered: it
    was stopped, and the play loop makes the documented automatic move in its place."""


class BotStopped(BotFailed):
    """A move of a bot program that was stopped earlier in the game (already reported)."""
