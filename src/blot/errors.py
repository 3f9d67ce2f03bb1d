"""Typed errors shared by every part of blot.

All derive from :class:`ValueError` (as python-chess does), and every message is one plain
sentence meant for a player: the CLI prints it as it is and the server sends it as it is.
"""

from __future__ import annotations


class BlotError(ValueError):
    """Base of every error blot raises on bad input."""


class CardError(BlotError):
    """Text that is not a card, or a set of cards that is not what was asked for."""


class IllegalAction(BlotError):
    """An action the rules do not allow now; the state it was offered to is unchanged."""
