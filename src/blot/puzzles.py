"""Card-play puzzles mined from real games (issue 28; ``blot puzzles``, the server's puzzles).

A *puzzle* is a position of a finished game where one card, or a set of equivalent cards, keeps
the double-dummy value (:mod:`blot.analysis`) and every other legal card loses at least the
game's *threshold*: the analysis' large loss, 10 card points in Bazar Blot (a game point, B-50)
and a trick in 3-5-8 (a point of the score, T-40). Cards are *equivalent* when they are of one
suit and no card still in play (in any hand) ranks between them (B-10, T-1): whichever is
played, the tricks go the same way. Only exact values count (a 3-5-8 position with more than
nine tricks to play is estimated, so it never makes a puzzle).

A double-dummy puzzle is honest only with every hand shown: the position shows all hands, the
contract, the bidding, the declarations and the tricks so far, from the seat to play.

A puzzle offers at least :data:`CHOICES` legal cards. Mining keeps at most :data:`PER_DEAL`
puzzle of each deal: a position where the player went wrong first (the puzzle was hard at the
table), then the one with the most legal cards, then the widest margin (the least any wrong card
loses), then the earliest. Only a game that is over is mined: never one still being played, or
ended before its end. Its record's names are replaced (:func:`anonymous`).

``deal`` is the deal's number in the record (from 1, void deals counted) and ``after`` the cards
of its play before the position, as ``blot solve --deal N --after K`` counts them; a card's value
is what :mod:`blot.analysis` says it is (Bazar Blot: the card points the seat's team ends the
deal with; 3-5-8: the tricks the seat ends it with).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final, cast

from blot.analysis import CardValue, GameAnalysis
from blot.analysis.values import card_values_json, fields_json
from blot.cards import Card, cards_of, parse_card
from blot.errors import BlotError
from blot.game import AnyGame
from blot.games import spec, spec_of

#: Puzzles kept from one deal at most.
PER_DEAL: Final = 1
#: The legal cards a puzzle offers at least (between two cards a guess is right half the time).
CHOICES: Final = 3


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: where (``deal``, ``after``), whose turn, the best cards and every legal card's
    value; ``missed``: the player at the table played another card."""

    game: str
    deal: int
    after: int
    seat: int
    solution: tuple[Card, ...]
    values: dict[Card, int]
    threshold: int
    missed: bool = False

    def to_json(self) -> dict[str, Any]:
        """Its fields but ``missed`` (the miner's, not the puzzle's), cards as their text."""
        solution = [c.text for c in self.solution]
        return fields_json(self, leave={"missed"}, solution=solution, values=card_values_json(self.values))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Puzzle:
        return cls(
            str(data["game"]),
            int(data["deal"]),
            int(data["after"]),
            int(data["seat"]),
            tuple(parse_card(c) for c in data["solution"]),
            {parse_card(c): int(v) for c, v in data["values"].items()},
            int(data["threshold"]),
        )


def clear(card: CardValue, threshold: int) -> bool:
    """An exact position of :data:`CHOICES` legal cards or more where some card loses, and every
    card that loses loses at least ``threshold``."""
    losses = [card.best - v for v in card.values.values() if v != card.best]
    return card.exact and len(card.values) >= CHOICES and bool(losses) and min(losses) >= threshold


def walk(source: AnyGame) -> Iterator[tuple[int, int, AnyGame]]:
    """Every position before a card of ``source``'s deals, in order: (deal index from 0, cards
    of the deal played before it, a game at that position). The game yielded is one object
    that moves on: read it before the next step."""
    game_spec = spec_of(source)
    analyser = game_spec.analysis_module()
    if not source.deals:
        return
    target = game_spec.new_game(cast(Any, source).rules, dealer=source.deals[0].dealer)
    for index in range(len(source.deals)):
        for after in analyser.play_deal(target, source, index):
            yield index, after, target


def touching(game: AnyGame, cards: tuple[Card, ...]) -> bool:
    """The ``cards`` are equivalent in the deal being played: one suit, and no card still in a
    hand ranks between them."""
    if len({c.suit for c in cards}) != 1:
        return False
    strength = spec_of(game).analysis_module().strength
    deal = game.deal
    assert deal is not None
    ranks = sorted(strength(game, c) for c in cards)
    held = 0
    for hand in deal.hands:
        held |= hand
    suit = cards[0].suit
    between = [c for c in cards_of(held) if c.suit is suit and c not in cards]
    return not any(ranks[0] < strength(game, c) < ranks[-1] for c in between)


def mine(source: AnyGame, analysis: GameAnalysis) -> list[Puzzle]:
    """The puzzles of a finished game from its whole analysis (none unless the game is over)."""
    if not analysis.whole or not source.is_over:
        return []
    game_spec = spec_of(source)
    threshold = game_spec.analysis_module().large
    wanted: dict[tuple[int, int], CardValue] = {}
    for deal in analysis.deals:
        for after, card in enumerate(deal.cards):
            if clear(card, threshold):
                wanted[(deal.number - 1, after)] = card
    found: dict[int, list[Puzzle]] = {}
    for index, after, game in walk(source):
        valued = wanted.get((index, after))
        if valued is None:
            continue
        best = tuple(sorted(valued.best_cards, key=lambda c: (c.suit, c.rank)))
        if not touching(game, best):
            continue
        missed = valued.card not in best
        puzzle = Puzzle(
            game_spec.name, index + 1, after, valued.seat, best, dict(valued.values), threshold, missed
        )
        found.setdefault(index, []).append(puzzle)
    out = []
    for index in sorted(found):
        ranked = sorted(found[index], key=lambda p: (not p.missed, -len(p.values), -_margin(p), p.after))
        out.extend(sorted(ranked[:PER_DEAL], key=lambda p: p.after))
    return out


def _margin(p: Puzzle) -> int:
    best = max(p.values.values())
    return min(best - v for v in p.values.values() if v != best)


def anonymous(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record with its players' names replaced by ``Player 1`` … (docs/format.md)."""
    out = dict(record)
    seats = spec(record.get("game")).seats
    out["players"] = [f"Player {s + 1}" for s in range(seats)]
    return out


def record_key(record: Mapping[str, Any]) -> str:
    """The same game's record always has the same key (its canonical JSON's SHA-256), whoever
    mines it and whatever its names were."""
    text = json.dumps(anonymous(record), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def position(record: Mapping[str, Any], deal: int, after: int) -> AnyGame:
    """The game of ``record`` at deal ``deal`` (from 1) before the card after ``after`` cards."""
    from blot.records import replay_record

    source = replay_record(record).game
    for index, played, game in walk(source):
        if index == deal - 1 and played == after:
            return game
    raise BlotError(f"the record has no card after {after} cards of deal {deal}")


def shown(record: Mapping[str, Any], deal: int, after: int, seat: int) -> dict[str, Any]:
    """What a puzzle's page shows: the view of the seat to play (docs/protocol.md: the calls,
    the contract or trump, the declarations, the tricks so far, its legal cards) and every hand."""
    from blot.wire import cards_json

    game = position(record, deal, after)
    state = game.deal
    assert state is not None
    wire = spec_of(game).wire_module()
    return {"view": wire.view_json(game.view(seat)), "hands": [cards_json(h) for h in state.hands]}


__all__ = ["PER_DEAL", "Puzzle", "anonymous", "mine", "position", "record_key", "shown", "touching", "walk"]
