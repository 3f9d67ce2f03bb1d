"""3-5-8 (Blato; "Sergeant Major" in English): the pure rules, T-1 … T-50 of docs/rules.md.

No I/O, no clock; randomness only through an injected ``random.Random``. Card sets are ints as
in :mod:`blot.cards`; actions are :class:`~blot.three_five_eight.calls.Call` singletons (trump
calls) and :class:`~blot.cards.Card` singletons (gifts, discards and plays, as the phase says).
:class:`Game` and :class:`Deal` implement the game interface of :mod:`blot.game`.
"""

from pathlib import Path

from blot.reasons import register
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
    parse_action,
    parse_call,
)
from blot.three_five_eight.deal import Deal
from blot.three_five_eight.exchange import exchange_plan, targets_for
from blot.three_five_eight.game import COUNTED_DEALS, Game, GameResult, game_winner, ranking
from blot.three_five_eight.play import legal_mask, winning_bit
from blot.three_five_eight.rules import PRESETS, RULESETS, Rules
from blot.three_five_eight.values import (
    GAME_NAME,
    SEATS,
    Action,
    DealResult,
    DealtCards,
    Exchange,
    Phase,
    check_cards,
    random_deal,
)
from blot.three_five_eight.view import DealView, GameView, PublicDealView, PublicGameView

__all__ = [
    "CALLS",
    "CLUBS",
    "COUNTED_DEALS",
    "DIAMONDS",
    "GAME_NAME",
    "HEARTS",
    "NO_TRUMP",
    "PASS",
    "PRESETS",
    "RULESETS",
    "SEATS",
    "SPADES",
    "STRAINS",
    "Action",
    "Call",
    "Deal",
    "DealResult",
    "DealView",
    "DealtCards",
    "Exchange",
    "Game",
    "GameResult",
    "GameView",
    "Phase",
    "PublicDealView",
    "PublicGameView",
    "Rules",
    "check_cards",
    "exchange_plan",
    "game_winner",
    "legal_mask",
    "parse_action",
    "parse_call",
    "random_deal",
    "ranking",
    "targets_for",
    "winning_bit",
]

register(Path(__file__).with_name("reasons.json"))  # its refusals' sentences (blot.reasons)
