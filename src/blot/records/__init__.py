"""Game records (docs/format.md): read one, replay it through the rules, write one.

Each game's reader and writer is named by its spec in :mod:`blot.games`.

>>> from blot.bazar import GAME_NAME
>>> from blot.records import replay_record
>>> replay_record({"game": GAME_NAME, "deals": []}).to_json()["totals"]
[0, 0]
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from blot.game import Replay
from blot.records.common import RecordError, check_type, load_json


def game_of(record: Any) -> str:
    """The record's game, checked against the registry."""
    from blot.games import SPECS, names

    check_type(record, dict, "a record")
    if "game" not in record:
        raise RecordError("the record has no key 'game'")
    game = record["game"]
    if not isinstance(game, str) or game not in SPECS:
        raise RecordError(f"unknown game {game!r}: a record's game is {' or '.join(names())}")
    return game


def replay_record(record: Any) -> Replay:
    """Replay a record (a parsed JSON value) of any game; RecordError on the first broken step."""
    from blot.games import spec

    return spec(game_of(record)).replay(record)


def replay_file(path: str | Path) -> Replay:
    return replay_record(load_json(path))


__all__ = ["RecordError", "Replay", "game_of", "replay_file", "replay_record"]
