"""3-5-8 records (docs/format.md): replay one through the rules, checking every step, and write any
game played through the engine as a record that replays to the same result.

A deal of the record holds ``dealer``, ``hands`` (three strings of 16 cards), ``talon`` (4
cards), ``calls``, and unless the deal is void (three passes, T-10) ``exchange`` (the cards
given, T-20; the forced returns of T-21 are not written), ``discard`` (the 4 cards the 8-target
player put back, T-22) and ``play`` (the 48 cards in the order played).

>>> from random import Random
>>> from blot.three_five_eight import Game
>>> game, rng = Game(dealer=0, rng=Random(3)), Random(4)
>>> while not game.is_over:
...     game.apply(rng.choice(game.legal_actions()))
>>> replay(record_of(game)).to_json() == game.result.to_json()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from blot.cards import format_cards, parse_card, parse_cards
from blot.errors import BlotError, SetupError
from blot.records import Replay
from blot.records.common import RecordError, check_type, read_hands, replay_steps, require, string_list
from blot.three_five_eight import GAME_NAME, SEATS, Deal, Game, Phase, check_cards, parse_call

#: The keys a void deal may hold only empty (docs/format.md: it has no exchange, discard or play).
_PLAYED_KEYS = ("exchange", "discard", "play")


def replay(record: Mapping[str, Any]) -> Replay:
    """Replay a 3-5-8 record, or raise RecordError naming the first broken step."""
    players = record.get("players")
    if players is not None:
        players = string_list(players, "players")
        if len(players) != SEATS:
            raise RecordError(f"players must name {SEATS} players")
    deals = require(record, "deals", list, "the record")
    game: Game | None = None
    last_void = False
    for number, raw in enumerate(deals, 1):
        where = f"deal {number}"
        check_type(raw, dict, where)
        dealer = require(raw, "dealer", int, where)
        if game is None:
            if dealer not in range(SEATS):
                raise RecordError.at(number, "dealer", f"must be a seat from 0 to 2, not {dealer}")
            game = Game(dealer)
        elif game.is_over:
            raise RecordError(f"deal {number}: the game was already over after deal {number - 1}")
        elif dealer != game.dealer:
            if last_void:
                reason = f"must be seat {game.dealer}, who deals again after a void deal (T-10)"
            else:
                reason = f"must be seat {game.dealer}, the seat after the last dealer (T-2)"
            raise RecordError.at(number, "dealer", reason)
        last_void = _replay_deal(game, number, raw)
    return Replay(game if game is not None else Game(), players)


def _replay_deal(game: Game, number: int, raw: Mapping[str, Any]) -> bool:
    """Replay one deal of the record into ``game``; True when the deal was void."""
    deal = _start(game, number, raw)
    where = f"deal {number}"

    calls = string_list(require(raw, "calls", list, where), f"{where}, calls")

    def no_more_calls() -> str | None:
        if deal.phase is Phase.CALL:
            return None
        if deal.is_over:
            return "the deal is already void: all three passed (T-10)"
        return f"the trump is already named ({deal.trump})"

    replay_steps(game, number, "calls", calls, parse_call, no_more_calls)
    if deal.phase is Phase.CALL:
        raise RecordError.at(number, "calls", "the record ends before the trump call does", len(calls) + 1)

    if deal.is_void:
        _check_void(raw, number)
        return True

    gifts = string_list(require(raw, "exchange", list, where), f"{where}, exchange")
    plan = deal.plan
    replay_steps(
        game,
        number,
        "exchange",
        gifts,
        parse_card,
        lambda: None if deal.phase is Phase.EXCHANGE else _no_more_gifts(game, deal),
    )
    if deal.phase is Phase.EXCHANGE:
        giver, receiver = plan[len(gifts)]
        n = len(plan)
        reason = (
            f"the record ends before the exchange does: seat {giver} must give seat {receiver} "
            f"a card, {n} card{'s' if n > 1 else ''} in all (T-20)"
        )
        raise RecordError.at(number, "exchange", reason, len(gifts) + 1)

    text = require(raw, "discard", str, where)
    words = text.replace(",", " ").split()
    full = "the discard is already complete: the 8-target player puts back 4 cards (T-22)"
    replay_steps(
        game, number, "discard", words, parse_card, lambda: None if deal.phase is Phase.DISCARD else full
    )
    if deal.phase is Phase.DISCARD:
        reason = "the record ends before the discard does: the 8-target player puts back 4 cards (T-22)"
        raise RecordError.at(number, "discard", reason, len(words) + 1)

    play = string_list(require(raw, "play", list, where), f"{where}, play")
    replay_steps(
        game, number, "play", play, parse_card, lambda: "the deal is already over" if deal.is_over else None
    )
    if not deal.is_over:
        raise RecordError.at(number, "play", "the record ends before the deal does", len(play) + 1)
    return False


def _start(game: Game, number: int, raw: Mapping[str, Any]) -> Deal:
    """The deal's cards (T-2): three hands of 16 and a talon of 4 that are the 52 cards."""
    where = f"deal {number}"
    hands = read_hands(raw, number)
    text = require(raw, "talon", str, where)
    try:
        talon = parse_cards(text)
    except BlotError as e:
        raise RecordError.at(number, "talon", str(e)) from None
    try:
        return game.start_deal(check_cards(hands, talon))
    except SetupError as e:
        raise RecordError.at(number, e.field, str(e)) from None


def _no_more_gifts(game: Game, deal: Deal) -> str:
    """Why the record's exchange has a card too many (T-20)."""
    if deal.plan:
        n = len(deal.plan)
        return f"the exchange is already complete: {n} card{'s' if n > 1 else ''} in all (T-20)"
    if deal.trump is not None and deal.trump.is_no_trump:
        return "there is no exchange after an NT call (T-20)"
    if game.counted == 0:
        return "there is no exchange in the first counted deal (T-20)"
    return "nobody finished the last counted deal above his target, so there is no exchange (T-20)"


def _check_void(raw: Mapping[str, Any], number: int) -> None:
    """A void deal has no exchange, discard or play: the keys are left out (or empty)."""
    where = f"deal {number}"
    for key in _PLAYED_KEYS:
        if key not in raw:
            continue
        if key == "discard":
            items = check_type(raw[key], str, f"{where}, {key}").replace(",", " ").split()
        else:
            items = string_list(raw[key], f"{where}, {key}")
        if items:
            reason = {
                "exchange": "the deal is void: no card is given",
                "discard": "the deal is void: no card is discarded",
                "play": "the deal is void: no card is played",
            }[key]
            raise RecordError.at(number, key, reason, 1, items[0])


def deal_record(deal: Deal) -> dict[str, Any]:
    """One deal as the record writes it; a void deal (or one still in its calls) has no
    ``exchange``, ``discard`` or ``play``."""
    out: dict[str, Any] = {
        "dealer": deal.dealer,
        "hands": [format_cards(h) for h in deal.dealt],
        "talon": format_cards(deal.talon),
        "calls": [str(c) for c in deal.calls],
    }
    if deal.trump is not None:
        out["exchange"] = [str(c) for c in deal.gifts]
        out["discard"] = format_cards(deal.discard)
        out["play"] = [str(c) for c in deal.plays]
    return out


def record_of(game: Game, players: list[str] | None = None, *, unfinished: bool = False) -> dict[str, Any]:
    """The docs/format.md record of ``game``: its finished deals (and the one in progress so far with
    ``unfinished``; such a record is for people, not for ``blot replay``)."""
    record: dict[str, Any] = {"game": GAME_NAME}
    if players is not None:
        record["players"] = list(players)
    record["deals"] = [deal_record(d) for d in game.deals if d.is_over or unfinished]
    return record


__all__ = ["deal_record", "record_of", "replay"]
