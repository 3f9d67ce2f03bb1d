"""A player's profile with thousands of games (issue 22 item 4): ``GET /api/players/bot:basic``
once alone and then under 8 clients at once, with ``--games`` finished Bazar Blot games of
``basic`` written straight into a fresh SQLite database (the profile reads only the tables,
results and, issue 28, each seat's accuracy), and how long a plain database read (the lobby)
waits meanwhile.

    python benchmarks/profile.py                  # 9,138 games, as the attack that found it
    python benchmarks/profile.py --games 2000 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any


def fill(store: Any, games: int) -> None:
    from blot.store import Store
    from blot.store.accounts import bot_player
    from blot.store.schema import accuracies, results

    start = datetime(2026, 1, 1, tzinfo=UTC)

    def write(c: Any) -> None:
        basic, other = bot_player(c, "basic", start), bot_player(c, "random", start)
        for i in range(games):
            table_id = f"bench{i:06d}"
            row = {
                "id": table_id, "game": "bazar-blot", "settings": {}, "public": True, "status": "finished",
                "host": None, "seats": [], "last_seq": 0, "summary": {"match_score": "2-0"},
            }  # fmt: skip
            Store.insert_table(c, row)
            c.execute(
                results.insert(),
                [
                    {
                        "table_id": table_id,
                        "seat": seat,
                        "player_id": basic if seat % 2 == 0 else other,
                        "game": "bazar-blot",
                        "team": seat % 2,
                        "place": (seat + i) % 2,
                        "ending": "played",
                        "rated": False,
                        "finished_at": start + timedelta(minutes=i),
                    }
                    for seat in range(4)
                ],
            )
            c.execute(
                accuracies.insert(),
                [
                    {
                        "table_id": table_id,
                        "seat": seat,
                        "player_id": basic if seat % 2 == 0 else other,
                        "game": "bazar-blot",
                        "cards": 80,
                        "loss": (i * 7 + seat * 13) % 200,
                        "accuracy": round(100 * 0.995 ** ((i * 7 + seat * 13) % 200), 1),
                        "finished_at": start + timedelta(minutes=i),
                    }
                    for seat in range(4)
                ],
            )

    store.write(write)


def run(games: int, clients: int) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from blot.server.app import create_app
    from blot.server.config import ServerConfig

    folder = Path(tempfile.mkdtemp(prefix="blot-profile-"))
    config = ServerConfig(db_url=f"sqlite:///{folder / 'blot.sqlite3'}", hosts=("testserver",))
    with TestClient(create_app(config)) as client:
        fill(client.app.state.hub.store, games)  # type: ignore[attr-defined]

        def timed(path: str) -> float:
            started = time.perf_counter()
            assert client.get(path).status_code == 200
            return (time.perf_counter() - started) * 1000

        alone = [timed("/api/players/bot:basic") for _ in range(5)]
        with ThreadPoolExecutor(clients + 1) as pool:
            busy = [pool.submit(timed, "/api/players/bot:basic") for _ in range(clients * 4)]
            lobby = [pool.submit(timed, "/api/tables") for _ in range(8)]
            under_load = [f.result() for f in busy]
            reads = [f.result() for f in lobby]
    return {
        "games": games,
        "profile_ms_alone_median": round(statistics.median(alone), 1),
        f"profile_ms_{clients}_clients_median": round(statistics.median(under_load), 1),
        f"profile_ms_{clients}_clients_max": round(max(under_load), 1),
        "lobby_ms_meanwhile_max": round(max(reads), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=9138)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = run(args.games, args.clients)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:32} {value}")


if __name__ == "__main__":
    main()
