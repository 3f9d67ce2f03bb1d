"""The process that analyses one finished game for the server (:mod:`blot.server.analyses`):
``python -m blot.server.analysis_worker``.

It is started for one game and ends with it. It reads one JSON object ``{"game", "record",
"mine"}`` (the record of docs/format.md, finished deals only; ``mine``: look for puzzles, a public
table's game) from its standard input, values every card with :func:`blot.analysis.analyse`
(each seat's accuracy with it when the game is over), and writes JSON lines to its standard
output: ``{"progress": [done, total]}`` after each deal, then ``{"done": document, "seconds": s,
"puzzles": [...]}`` (the puzzles of :func:`blot.puzzles.mine`, none unless asked and the game is
over) or ``{"failed": reason}``. It imports nothing of the server, so that it starts fast, and lowers its
own priority so that the tables' bots and requests come first on a small machine.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import IO, Any

from blot.analysis import GameAnalysis, analyse, cost

#: How much lower than the server a worker runs (``os.nice``).
NICENESS = 10


def work(source: IO[str], out: IO[str]) -> None:
    """Analyse the game read from ``source``; write its progress and document to ``out``."""

    def say(message: dict[str, Any]) -> None:
        out.write(json.dumps(message, separators=(",", ":")) + "\n")
        out.flush()

    try:
        from blot.games import spec
        from blot.puzzles import mine

        request = json.loads(source.readline())
        replayed = spec(request["game"]).replay(request["record"]).game
        started = time.monotonic()
        result = analyse(replayed, progress=lambda done, total: say({"progress": [done, total]}))
        found = [p.to_json() for p in mine(replayed, result)] if request.get("mine") else []
        say({"done": document(result), "seconds": time.monotonic() - started, "puzzles": found})
    except Exception as e:  # one line for the server's log and the page, never a traceback there
        say({"failed": f"{type(e).__name__}: {e}"})


def document(analysis: GameAnalysis) -> dict[str, Any]:
    """What the server stores and serves: ``GameAnalysis.to_json()`` (the ``blot analyse --json``
    object) with each card's ``cost`` (none, small, large: :func:`blot.analysis.cost`) and the
    game's threshold ``large``."""
    from blot.games import spec

    large = spec(analysis.game).analysis_module().large
    data = analysis.to_json()
    for deal in data["deals"]:
        for card in deal["cards"]:
            card["cost"] = cost(card["loss"], large)
    data["large"] = large
    return data


def main() -> None:
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    work(sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
