"""Game records (docs/format.md): read one, replay it through the rules, write one.

>>> from blot.records import replay_record
>>> replay_record({"game": "bazar-blot", "deals": []}).to_json()["totals"]
[0, 0]
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any, Protocol

from blot.records.common import RecordError, check_type, load_json

#: Each game's record module, imported only when a record of that game is met.
GAMES = {"bazar-blot": "blot.records.bazar", "3-5-8": "blot.records.three_five_eight"}


class Replay(Protocol):
    def to_json(self) -> dict[str, Any]: ...


def game_of(record: Any) -> str:
    """The record's game, checked."""
    check_type(record, dict, "a record")
    if "game" not in record:
        raise RecordError("the record has no key 'game'")
    game = record["game"]
    if game not in GAMES:
        raise RecordError(f"unknown game {game!r}: a record's game is bazar-blot or 3-5-8")
    return str(game)


def replay_record(record: Any) -> Replay:
    """Replay a record (a parsed JSON value) of either game; RecordError on the first broken step."""
    module = import_module(GAMES[game_of(record)])
    result: Replay = module.replay(record)
    return result


def replay_file(path: str | Path) -> Replay:
    return replay_record(load_json(path))


__all__ = ["GAMES", "RecordError", "Replay", "game_of", "replay_file", "replay_record"]
