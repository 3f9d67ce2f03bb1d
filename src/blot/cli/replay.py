"""``blot replay``: replay and check game records (a file, ``-`` for standard input, one record
or one per line as ``blot simulate --records`` writes them) and print their results."""

from __future__ import annotations

import json
from pathlib import Path

from blot.records import replay_record
from blot.records.common import naming_record, numbered_records


def run(file: str | Path, number: int | None, as_json: bool) -> None:
    """Replay every record of ``file`` (or only record ``number``, from 1); a broken record stops
    the run with its one-line error, naming the record when the file holds several."""
    chosen, count = numbered_records(file, number)
    from blot.games import spec

    for position, record in chosen:
        with naming_record(position, count > 1):
            result = replay_record(record)
        if as_json:
            print(json.dumps(result.to_json()))
            continue
        if count > 1:
            print(f"Record {position} of {count}")
        spec(result.name).cli_module().print_replay(result)
