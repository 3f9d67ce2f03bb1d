"""What every game's records share: reading the JSON, typed checks of its parts, and the error
that names the first broken step exactly as docs/format.md writes it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from blot.cards import parse_cards
from blot.errors import BlotError
from blot.game import AnyGame


class RecordError(BlotError):
    """A record that is not a record, or that breaks a rule. ``str()`` is the one line that
    ``blot replay`` prints after ``error: ``."""

    @classmethod
    def at(
        cls,
        deal: int,
        where: str,
        reason: str,
        position: int | None = None,
        action: str | None = None,
        seat: int | None = None,
    ) -> RecordError:
        """``deal D, <where> P (<action>, seat S): <reason>`` — deal and position count from 1."""
        text = f"deal {deal}, {where}"
        if position is not None:
            text += f" {position}"
        if action is not None:
            text += f" ({action}, seat {seat})" if seat is not None else f" ({action})"
        return cls(f"{text}: {reason}")


def replay_steps(
    game: AnyGame,
    number: int,
    where: str,
    texts: Sequence[str],
    read: Callable[[str], object],
    why_no_more: Callable[[], str | None],
) -> None:
    """Apply a record's list ``where`` of deal ``number``, each text read by ``read``;
    ``why_no_more()`` says why the list may take no more items now (``None`` while it may). The
    first refused step raises :class:`RecordError` naming its position, text and seat."""
    for i, text in enumerate(texts, 1):
        reason = why_no_more()
        if reason is not None:
            raise RecordError.at(number, where, reason, i, text)
        seat = game.to_act
        try:
            game.apply(read(text))
        except BlotError as e:
            raise RecordError.at(number, where, str(e), i, text, seat) from None


def _name(path: str | Path) -> str:
    return "standard input" if str(path) == "-" else str(path)


def read_text(path: str | Path) -> str:
    """The text of ``path`` (``-``: standard input), or a RecordError saying in one sentence why
    it cannot be read."""
    try:
        if str(path) == "-":
            import sys

            return sys.stdin.read()
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{path} is a directory, not a record") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"{_name(path)} cannot be read: {getattr(e, 'strerror', None) or e}") from None


def load_json(path: str | Path) -> Any:
    """The JSON value in ``path`` (``-``: standard input), or a RecordError saying in one
    sentence why not."""
    return parse_json(read_text(path), _name(path))


def load_records(path: str | Path) -> list[Any]:
    """The records in ``path`` (``-``: standard input): one JSON value, or one per line (JSON
    Lines, as ``blot simulate --records`` writes them)."""
    name = _name(path)
    text = read_text(path)
    try:
        return [json.loads(text)]
    except json.JSONDecodeError as e:
        if not e.msg.startswith("Extra data"):
            raise RecordError(f"{name} is not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise RecordError(f"{name} is not a record: its JSON is nested too deeply") from None
    return [
        parse_json(line, f"{name}, line {number},")
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip()
    ]


def numbered_records(path: str | Path, number: int | None) -> tuple[list[tuple[int, Any]], int]:
    """The records of ``path`` (:func:`load_records`) with their positions from 1, or only record
    ``number`` (``--record N``), and how many the file holds."""
    records = load_records(path)
    if number is None:
        return list(enumerate(records, 1)), len(records)
    if not 1 <= number <= len(records):
        held = "1 record" if len(records) == 1 else f"{len(records)} records"
        raise RecordError(f"--record {number}: the file holds {held}")
    return [(number, records[number - 1])], len(records)


@contextmanager
def naming_record(position: int, several: bool) -> Iterator[None]:
    """An error about one record of a file of several names it: ``record 3: deal 2, …``."""
    try:
        yield
    except BlotError as e:
        if not several:
            raise
        kind = RecordError if isinstance(e, RecordError) else BlotError
        raise kind(f"record {position}: {e}") from None


def parse_json(text: str, name: str = "the record") -> Any:
    """The JSON value of ``text``; a RecordError in one sentence when it is not JSON, or is
    nested so deep that no record is (Python's parser gives up at about 1,000 levels)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{name} is not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise RecordError(f"{name} is not a record: its JSON is nested too deeply") from None


def require(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``obj[key]``, which must exist and be of ``kind`` (bool is never taken for int)."""
    if key not in obj:
        raise RecordError(f"{where} has no key {key!r}")
    return check_type(obj[key], kind, f"{where}, {key}")


def check_type(value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if not ok:
        names = " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)
        raise RecordError(f"{what} must be {names}")
    return value


def string_list(value: Any, what: str) -> list[str]:
    check_type(value, list, what)
    for i, item in enumerate(value, 1):
        check_type(item, str, f"{what} {i}")
    return list(value)


_TYPE_NAMES = {
    dict: "an object",
    list: "a list",
    str: "a string",
    int: "a whole number",
    bool: "true or false",
    type(None): "null",
}


def read_hands(raw: Mapping[str, Any], number: int) -> list[int]:
    """Deal ``number``'s ``hands`` as card sets; a card that is not one names its hand."""
    where = f"deal {number}"
    hands = []
    for seat, text in enumerate(string_list(require(raw, "hands", list, where), f"{where}, hands")):
        try:
            hands.append(parse_cards(text))
        except BlotError as e:
            raise RecordError.at(number, "hands", str(e), seat + 1) from None
    return hands
