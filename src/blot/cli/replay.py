"""``blot replay``: replay and check game records (a file, ``-`` for standard input, one record
or one per line as ``blot simulate --records`` writes them) and print their results."""

from __future__ import annotations

import json
from pathlib import Path

from blot.records import RecordError, replay_record
from blot.records.common import load_records


def run(file: str | Path, number: int | None, as_json: bool) -> None:
    """Replay every record of ``file`` (or only record ``number``, from 1); a broken record stops
    the run with its one-line error, naming the record when the file holds several."""
    records = load_records(file)
    if number is not None:
        if number > len(records):
            raise RecordError(f"--record {number}: the file holds {_count(len(records))}")
        chosen = [(number, records[number - 1])]
    else:
        chosen = list(enumerate(records, 1))
    several = len(records) > 1
    from blot.games import spec

    for position, record in chosen:
        try:
            result = replay_record(record)
        except RecordError as e:
            raise RecordError(f"record {position}: {e}" if several else str(e)) from None
        if as_json:
            print(json.dumps(result.to_json()))
            continue
        if several:
            print(f"Record {position} of {len(records)}")
        spec(result.name).cli_module().print_replay(result)


def _count(n: int) -> str:
    return "1 record" if n == 1 else f"{n} records"
