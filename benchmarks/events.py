"""Events (issue 25): the time to pair one Swiss round of a large field (pure pairing, no I/O),
and a whole online Swiss played by bot entrants through a real server end to end.

    python benchmarks/events.py                        # 1,000 pairs x 5 rounds; 64 pairs x 5 rounds online
    python benchmarks/events.py --pairs 200 --online-pairs 16 --json

The pairing part plays random results between rounds (B-71 match points: 2 or 1 to the winner)
and prints each round's time (the goal: under 1 s for 1,000 pairs). The online part starts a
server on a fresh SQLite file (bots move at once, tricks and deals do not pause), enters
``--online-pairs`` pairs of ``basic`` bots, and starts each round as soon as the last one ended:
it prints the time of each round, from its start to its last game's end, and the whole event.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import warnings
from pathlib import Path
from random import Random
from typing import Any


def pairing(pairs: int, rounds: int, seed: int = 1) -> list[float]:
    from blot.tournaments.pairing import Played, swiss

    rng = Random(seed)
    entrants = list(range(1, pairs + 1))
    history: list[Played] = []
    times = []
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        p = swiss(entrants, history, size=2, round_number=number, total_rounds=rounds)
        times.append(time.perf_counter() - started)
        points: dict[int, float] = {e: 1 for e in p.byes}
        for a, b in p.tables:
            winner = rng.choice((a, b))
            points[a], points[b] = (rng.choice((1, 2)), 0) if winner == a else (0, rng.choice((1, 2)))
        history.append(Played(p.tables, p.byes, points))
    return times


def online(pairs: int, rounds: int, target: int) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from blot.server.app import create_app
    from blot.server.config import ServerConfig

    with tempfile.TemporaryDirectory() as folder:
        config = ServerConfig(
            db_url=f"sqlite:///{Path(folder) / 'blot.sqlite3'}",
            bot_delay=0.0,
            trick_pause=0.0,
            deal_pause=0.0,
            password_profile="CHEAPEST",
            hosts=("testserver",),
            seed=1,
        )
        with TestClient(create_app(config)) as client:
            made = client.post(
                "/api/accounts", json={"username": "organizer", "password": "correct horse battery"}
            )
            headers = {"Authorization": f"Bearer {made.json()['token']}"}
            body = {"name": "bench", "format": "swiss", "rounds": rounds, "options": {"target": target}}
            event = client.post("/api/events", json=body, headers=headers).json()["id"]
            for _ in range(pairs):
                client.post(f"/api/events/{event}/entries", json={"bot": "basic"}, headers=headers)
            times = []
            games = 0
            started = time.perf_counter()
            for number in range(1, rounds + 1):
                begun = time.perf_counter()
                answer = client.post(f"/api/events/{event}/rounds", headers=headers)
                assert answer.status_code == 200, answer.text
                while True:
                    data = client.get(f"/api/events/{event}").json()
                    if data["rounds"][number - 1]["status"] == "finished":
                        break
                    time.sleep(0.1)
                games += len(data["rounds"][number - 1]["tables"])
                times.append(time.perf_counter() - begun)
            whole = time.perf_counter() - started
            read = time.perf_counter()
            client.get(f"/api/events/{event}")
            read = time.perf_counter() - read
    return {"rounds": times, "total": whole, "games": games, "event_read": read, "status": data["status"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=1000, help="pairs in the pairing benchmark")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--online-pairs", type=int, default=64, help="bot pairs in the online event (0: skip)"
    )
    parser.add_argument("--target", type=int, default=151, help="the online games' target (B-91)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict[str, Any] = {"pairing": pairing(args.pairs, args.rounds)}
    if args.online_pairs:
        out["online"] = online(args.online_pairs, args.rounds, args.target)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    times = out["pairing"]
    print(f"pairing {args.pairs} pairs, {args.rounds} Swiss rounds:")
    for number, seconds in enumerate(times, 1):
        print(f"  round {number}: {seconds * 1000:.0f} ms")
    print(f"  median {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms")
    if "online" in out:
        o = out["online"]
        print(f"online Swiss of {args.online_pairs} bot pairs, {args.rounds} rounds, games to {args.target}:")
        for number, seconds in enumerate(o["rounds"], 1):
            print(f"  round {number}: {seconds:.1f} s")
        read = o["event_read"] * 1000
        print(f"  {o['games']} games in {o['total']:.1f} s; the event page read in {read:.0f} ms")


if __name__ == "__main__":
    main()
