"""Issue 40 item 2: a process's heartbeat is written from a thread of its own, so a busy event loop
does not cost it its tables; a loop stuck past the stall lets it lapse and stops driving them."""

from __future__ import annotations

import asyncio
import time

from blot.server.cluster.heartbeat import Heartbeat


def test_a_loop_blocked_below_the_stall_keeps_its_tables_and_one_blocked_past_it_gives_them_up() -> None:
    beats: list[float] = []
    fenced: list[float] = []

    async def scenario() -> tuple[int, int, float]:
        heartbeat = Heartbeat(lambda: beats.append(time.monotonic()), every=0.05, stall=0.8, fence=0.6)
        heartbeat.start()
        watcher = asyncio.get_running_loop().create_task(
            heartbeat.watch(lambda: fenced.append(time.monotonic()))
        )
        try:
            await asyncio.sleep(0.2)
            before = len(beats)
            time.sleep(0.5)  # the loop is busy (below the stall): the thread goes on writing
            written_while_busy = len(beats) - before
            await asyncio.sleep(0.2)
            kept = len(fenced)
            blocked = time.monotonic()
            time.sleep(2.0)  # stuck past the stall: the heartbeat lapses ...
            await asyncio.sleep(0.2)  # ... and the loop, running again, gives its tables up
            return written_while_busy, kept, blocked
        finally:
            watcher.cancel()
            heartbeat.stop()

    written_while_busy, kept, blocked = asyncio.run(scenario())
    assert written_while_busy >= 2 and kept == 0
    assert fenced, "a loop stuck past the stall kept its tables"
    # no heartbeat was written from the stall's end to the loop's return
    assert not [t for t in beats if blocked + 0.8 + 0.1 < t < fenced[0]]
