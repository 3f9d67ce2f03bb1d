"""Bazar Blot (Armenian Blot, «Բազար բլոտ»): the pure rules, B-1 … B-91 of docs/rules.md.

No I/O, no clock; randomness only through an injected ``random.Random``. :class:`Game` and
:class:`Deal` implement the game interface of :mod:`blot.game`.
"""

from pathlib import Path

from blot.bazar.bidding import Bidding, Contract, Stage
from blot.bazar.calls import BIDS, CONTRA, PASS, REDOUBLE, SEVENS, Call, bid, parse_call
from blot.bazar.deal import Deal
from blot.bazar.declarations import Declaration, Declare, Outcome
from blot.bazar.game import Game, GameResult
from blot.bazar.rules import PRESETS, Preset, Rules
from blot.bazar.scoring import (
    DealScore,
    DealSummary,
    card_to_game_points,
    game_winner,
    match_score,
    score_deal,
)
from blot.bazar.values import (
    GAME_NAME,
    SEATS,
    Action,
    DealResult,
    DealtCards,
    Phase,
    check_hands,
    random_deal,
)
from blot.bazar.view import Announcement, DealView, GameView, PublicDealView, PublicGameView
from blot.reasons import register

__all__ = [
    "BIDS",
    "CONTRA",
    "GAME_NAME",
    "PASS",
    "PRESETS",
    "REDOUBLE",
    "SEATS",
    "SEVENS",
    "Action",
    "Announcement",
    "Bidding",
    "Call",
    "Contract",
    "Deal",
    "DealResult",
    "DealScore",
    "DealSummary",
    "DealView",
    "DealtCards",
    "Declaration",
    "Declare",
    "Game",
    "GameResult",
    "GameView",
    "Outcome",
    "Phase",
    "Preset",
    "PublicDealView",
    "PublicGameView",
    "Rules",
    "Stage",
    "bid",
    "card_to_game_points",
    "check_hands",
    "game_winner",
    "match_score",
    "parse_call",
    "random_deal",
    "score_deal",
]

register(Path(__file__).with_name("reasons.json"))  # its refusals' sentences (blot.reasons)
