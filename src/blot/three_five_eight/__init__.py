"""3-5-8 (Blato; "Sergeant Major" in English): the pure rules, T-1 … T-50 of docs/rules.md.

No I/O, no clock; randomness only through an injected ``random.Random``. Card sets are ints as
in :mod:`blot.cards`; actions are :class:`~blot.three_five_eight.calls.Call` singletons (trump
calls) and :class:`~blot.cards.Card` singletons (gifts, discards and plays, as the phase says).
"""

from blot.three_five_eight.calls import (
    CALLS,
    CLUBS,
    DIAMONDS,
    HEARTS,
    NO_TRUMP,
    PASS,
    SPADES,
    STRAINS,
    Call,
    parse_call,
)
from blot.three_five_eight.deal import (
    Action,
    Deal,
    DealResult,
    DealView,
    Exchange,
    Phase,
    Trick,
    check_cards,
    exchange_plan,
    parse_action,
    random_cards,
    targets_for,
)
from blot.three_five_eight.game import COUNTED_DEALS, Game, GameResult, GameView, game_winner
from blot.three_five_eight.play import legal_mask, winning_bit

__all__ = [
    "CALLS",
    "CLUBS",
    "COUNTED_DEALS",
    "DIAMONDS",
    "HEARTS",
    "NO_TRUMP",
    "PASS",
    "SPADES",
    "STRAINS",
    "Action",
    "Call",
    "Deal",
    "DealResult",
    "DealView",
    "Exchange",
    "Game",
    "GameResult",
    "GameView",
    "Phase",
    "Trick",
    "check_cards",
    "exchange_plan",
    "game_winner",
    "legal_mask",
    "parse_action",
    "parse_call",
    "random_cards",
    "targets_for",
    "winning_bit",
]
