"""Bazar Blot (Armenian Blot, «Բազար բլոտ»): the pure rules, B-1 … B-91 of docs/rules.md.

No I/O, no clock; randomness only through an injected ``random.Random``.
"""

from blot.bazar.bidding import Bidding, Contract, Stage
from blot.bazar.calls import BIDS, CONTRA, PASS, REDOUBLE, SEVENS, Call, bid, parse_call
from blot.bazar.deal import (
    Action,
    Deal,
    DealResult,
    Phase,
    Trick,
    check_hands,
    random_hands,
)
from blot.bazar.declarations import Declaration, Declare, Outcome
from blot.bazar.game import Game
from blot.bazar.rules import Rules
from blot.bazar.scoring import (
    DealScore,
    DealSummary,
    card_to_game_points,
    game_winner,
    match_score,
    score_deal,
)
from blot.bazar.view import Announcement, BazarView, view_of

__all__ = [
    "BIDS",
    "CONTRA",
    "PASS",
    "REDOUBLE",
    "SEVENS",
    "Action",
    "Announcement",
    "BazarView",
    "Bidding",
    "Call",
    "Contract",
    "Deal",
    "DealResult",
    "DealScore",
    "DealSummary",
    "Declaration",
    "Declare",
    "Game",
    "Outcome",
    "Phase",
    "Rules",
    "Stage",
    "Trick",
    "bid",
    "card_to_game_points",
    "check_hands",
    "game_winner",
    "match_score",
    "parse_call",
    "random_hands",
    "score_deal",
    "view_of",
]
