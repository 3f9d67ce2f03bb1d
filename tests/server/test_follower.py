"""Issue 24 item 2: a process that follows a table tells its sockets the same frames as the owner's.
When the broker delivers the owner's lines late or out of order, the follower reads the lines it
missed from the log and tells them all at once; each frame must carry the view its own line made.
At saturation every frame of such a batch carried the last line's view, so a person whose turn
came within the batch acted twice (not your turn, a card no longer held)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from blot.server.table import Table
from blot.store import LogEntry

from .conftest import Player, make_client, play_out, start_with_bots


class Heard:
    """A socket of the follower: what it was told."""

    def __init__(self, seat: int | None, player: int | None) -> None:
        self.seat, self.player = seat, player
        self.frames: list[dict[str, Any]] = []

    def push(self, text: str) -> None:
        self.frames.append(json.loads(text))


def test_a_follower_tells_each_line_it_missed_with_the_view_that_line_made(tmp_path: Path) -> None:
    with make_client(tmp_path / "db.sqlite3", bot_delay=0.0, trick_pause=0.0, deal_pause=0.0) as client:
        hub = client.app.state.hub
        ani = Player(client, "Ani")
        table_id = start_with_bots(ani, target=1)
        play_out(client, table_id, {0: ani})
        log: list[LogEntry] = client.portal.call(hub.read_log, table_id)
        start = next(i for i, e in enumerate(log) if e.kind == "start") + 1

        def as_of(count: int) -> Table:
            return Table.rebuild(hub, table_id, "bazar-blot", log[:count], driving=False)

        follower = as_of(start)
        sockets = [Heard(0, ani.id), Heard(None, None)]
        follower.connections = set(sockets)  # type: ignore[arg-type]
        missed = log[start:]
        assert len(missed) > 30  # a whole deal
        # the owner's message for the last line came first: the follower reads the rest from the log
        message = {"n": missed[-1].seq, "entries": [[missed[-1].seq, missed[-1].kind, missed[-1].payload]]}
        client.portal.call(follower.replica.follow, message)
        for sock in sockets:
            assert [f["n"] for f in sock.frames] == [e.seq for e in missed]
            reference = as_of(start)  # the table as each line left it: folded on, line by line
            for frame, entry in zip(sock.frames, missed, strict=True):
                reference.events.append(reference.fold(entry))  # as Table.rebuild folds
                reference.n = entry.seq
                assert frame["view"] == reference.view_json(sock.seat), frame["n"]
