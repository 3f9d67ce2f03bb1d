"""Toy Duel's records (docs/format.md's shape): each deal's hands and its cards in order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from blot.errors import BlotError, SetupError
from blot.game import AnyGame, Replay
from blot.records.common import RecordError, check_type, replay_steps, string_list
from toygame import GAME_NAME, DealtCards, Game, Rules


def replay(record: Mapping[str, Any]) -> Replay:
    """Replay a record, or raise RecordError naming the first broken step."""
    try:
        rules = Rules.from_record(record.get("ruleset"), record.get("options"))
    except SetupError as e:
        raise RecordError(f"the record's rules: {e}") from None
    players = record.get("players")
    if players is not None:
        players = string_list(players, "players")
    game = Game(rules, dealer=record.get("first_dealer", 1))
    deals = record.get("deals", [])
    check_type(deals, list, "deals")
    for number, deal in enumerate(deals, 1):
        try:
            game.start_deal(DealtCards.from_json(deal))
        except BlotError as e:
            raise RecordError.at(number, "hands", str(e)) from None
        replay_steps(game, number, "play", deal.get("play", []), game.parse_action, lambda: None)
    return Replay(game, players)


def record_of(game: AnyGame, players: list[str] | None = None, *, unfinished: bool = False) -> dict[str, Any]:
    """The record of a game: its finished deals (and, with ``unfinished``, the one in progress)."""
    assert isinstance(game, Game)
    out: dict[str, Any] = {"game": GAME_NAME, "ruleset": game.rules.ruleset, "options": {}}
    if players is not None:
        out["players"] = list(players)
    out["first_dealer"] = game.deals[0].dealer if game.deals else game.dealer
    out["deals"] = [
        {**DealtCards(d.dealt).to_json(), "play": [str(c) for c in d.plays]}
        for d in game.deals
        if d.is_over or unfinished
    ]
    return out
