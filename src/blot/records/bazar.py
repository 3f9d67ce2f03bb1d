"""Bazar Blot records (docs/format.md): replay one through the rules, checking every step, and
write any game played through the engine as a record that replays to the same result.

>>> from random import Random
>>> from blot.bazar import Game
>>> game, rng = Game(rng=Random(3)), Random(4)
>>> while not game.is_over:
...     game.apply(rng.choice(game.legal_actions()))
>>> replay(record_of(game)).to_json()["totals"] == list(game.totals)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from blot.bazar import GAME_NAME, Deal, DealtCards, Game, Phase, Rules, parse_call
from blot.bazar.declarations import DECLARE_NONE, Declaration, Declare, parse_declaration
from blot.cards import format_cards, parse_card
from blot.errors import BlotError, SetupError
from blot.records import Replay
from blot.records.common import RecordError, check_type, read_hands, replay_steps, require, string_list


def replay(record: Mapping[str, Any]) -> Replay:
    """Replay a Bazar Blot record, or raise RecordError naming the first broken step."""
    try:
        rules = Rules.from_record(record.get("ruleset"), record.get("options"))
    except SetupError as e:
        raise RecordError(f"the record's rules: {e}") from None
    players = record.get("players")
    if players is not None:
        players = string_list(players, "players")
        if len(players) != 4:
            raise RecordError("players must name 4 players")
    deals = require(record, "deals", list, "the record")
    game: Game | None = None
    for number, raw in enumerate(deals, 1):
        where = f"deal {number}"
        check_type(raw, dict, where)
        dealer = require(raw, "dealer", int, where)
        if game is None:
            if dealer not in range(4):
                raise RecordError.at(number, "dealer", f"must be a seat from 0 to 3, not {dealer}")
            game = Game(rules, dealer)
        elif game.is_over:
            raise RecordError(f"deal {number}: the game was already over after deal {number - 1}")
        elif dealer != game.next_dealer:
            raise RecordError.at(
                number, "dealer", f"must be seat {game.next_dealer}, the seat after the last dealer (B-3)"
            )
        _replay_deal(game, number, raw)
    if game is None:
        game = Game(rules)
    return Replay(game, players)


def _replay_deal(game: Game, number: int, raw: Mapping[str, Any]) -> None:
    where = f"deal {number}"
    hands = read_hands(raw, number)
    try:
        deal = game.start_deal(DealtCards(tuple(hands)))
    except SetupError as e:
        raise RecordError.at(number, e.field, str(e)) from None

    calls = string_list(require(raw, "calls", list, where), f"{where}, calls")
    replay_steps(
        game,
        number,
        "calls",
        calls,
        parse_call,
        lambda: None if deal.phase is Phase.BIDDING else "the bidding is already over",
    )
    if deal.phase is Phase.BIDDING:
        raise RecordError.at(number, "calls", "the record ends before the bidding does", len(calls) + 1)

    declared = _declarations(raw, number)
    play = string_list(require(raw, "play", list, where), f"{where}, play")
    if deal.is_over and declared and any(declared.values()):
        raise RecordError.at(number, "declarations", "the deal is void: nobody plays or declares")
    for i, text in enumerate(play, 1):
        if deal.is_over:
            reason = "the deal is void: no card is played" if deal.is_void else "the deal is already over"
            raise RecordError.at(number, "play", reason, i, text)
        player = deal.to_act
        assert player is not None
        if not deal.tricks and declared is not None and player in declared:
            _declare(game, deal, number, player, declared.pop(player))
        elif deal.must_declare:
            game.apply(deal.best_declare(player) if declared is None else DECLARE_NONE)
        try:
            game.apply(parse_card(text))
        except BlotError as e:
            raise RecordError.at(number, "play", str(e), i, text, player) from None
    if not deal.is_over:
        raise RecordError.at(number, "play", "the record ends before the deal does", len(play) + 1)


def _declarations(raw: Mapping[str, Any], number: int) -> dict[int, list[str]] | None:
    """The record's declarations by seat, or None when the key is missing (each seat's best)."""
    if "declarations" not in raw:
        return None
    value = check_type(raw["declarations"], dict, f"deal {number}, declarations")
    out: dict[int, list[str]] = {}
    for key, texts in value.items():
        if key not in ("0", "1", "2", "3"):
            raise RecordError.at(number, "declarations", f'{key!r} is not a seat: seats are "0" to "3"')
        out[int(key)] = string_list(texts, f"deal {number}, declarations of seat {key}")
    return out


def _declare(game: Game, deal: Deal, number: int, seat: int, texts: list[str]) -> None:
    found: list[Declaration] = []
    used = 0
    for i, text in enumerate(texts, 1):
        try:
            d = parse_declaration(text, deal.dealt[seat])
        except BlotError as e:
            raise RecordError.at(number, "declarations", str(e), i, text, seat) from None
        if d.mask & used:
            reason = "a card may serve in only one declaration (B-43)"
            raise RecordError.at(number, "declarations", reason, i, text, seat)
        used |= d.mask
        found.append(d)
    if deal.must_declare:
        game.apply(Declare(tuple(found)))


def record_of(game: Game, players: list[str] | None = None, *, unfinished: bool = False) -> dict[str, Any]:
    """The docs/format.md record of ``game``: its finished deals (and the one in progress so far with
    ``unfinished``; such a record is for people, not for ``blot replay``)."""
    deals = []
    for deal in game.deals:
        if not deal.is_over and not unfinished:
            continue
        declarations = {str(seat): [d.cards_text for d in ds] for seat, ds in enumerate(deal.declared) if ds}
        deals.append(
            {
                "dealer": deal.dealer,
                "hands": [format_cards(h) for h in deal.dealt],
                "calls": [str(c) for c in deal.calls],
                "declarations": declarations,
                "play": [str(c) for c in deal.plays],
            }
        )
    record: dict[str, Any] = {
        "game": GAME_NAME,
        "ruleset": game.rules.ruleset,
        "options": game.rules.options(),
    }
    if players is not None:
        record["players"] = list(players)
    record["deals"] = deals
    return record
