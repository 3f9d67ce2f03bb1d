"""A long ``blot arena --dd-loss`` run in pieces that survive a stop (issue 27's measurements on a
shared machine): each duplicate deal's outcome is appended to a file as one JSON line, a run
started again skips the deals the file holds, and ``sum`` adds the files up as ``blot arena``
does. Every deal is a pure function of the seed and its number, so deals 0 to N-1 give exactly
what ``blot arena --deals N --seed S --dd-loss`` gives, except the time: the bots' thinking is
counted here in CPU seconds of the process (``cpu_ms_per_decision``), which a busy machine does
not inflate.

    python benchmarks/arena_pieces.py play --game 3-5-8 --a expert --b pimc --seed 2027 \\
        --first 0 --deals 500 --out expert-pimc.jsonl
    python benchmarks/arena_pieces.py sum --game 3-5-8 --a expert --b pimc --seed 2027 expert-pimc.jsonl

``sum`` prints ``blot arena --json``'s object for the deals found, and which deals they are.
"""

from __future__ import annotations

import argparse
import json
import time
import types
from dataclasses import asdict
from pathlib import Path


def play(game: str, a: str, b: str, seed: int, first: int, deals: int, out: Path) -> None:
    import blot.arena as arena

    # the bots' thinking in CPU seconds (arena times it with perf_counter, wall clock)
    arena.time = types.SimpleNamespace(perf_counter=time.process_time)  # type: ignore[attr-defined,assignment]
    done = set(_read(out)) if out.exists() else set()
    for number in range(first, first + deals):
        if number not in done:
            outcome = arena.duplicate_deal(game, a, b, seed, number, dd=True)
            with out.open("a") as f:
                f.write(json.dumps({"number": number, **asdict(outcome)}) + "\n")


def _read(path: Path) -> dict[int, dict[str, object]]:
    rows = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            rows[int(row.pop("number"))] = row
    return rows


def total(game: str, a: str, b: str, seed: int, paths: list[Path]) -> dict[str, object]:
    from blot.arena import ArenaResult, DealOutcome

    rows: dict[int, dict[str, object]] = {}
    for path in paths:
        rows |= _read(path)
    result = ArenaResult(game, a, b, seed)
    for number in sorted(rows):
        result.add(DealOutcome(**rows[number]))  # type: ignore[arg-type]
    out = result.to_json()
    for key in ("seconds", "per_second"):
        out.pop(key, None)
    out["cpu_ms_per_decision"] = {
        side: round(1000 * result.bot_seconds[side] / max(result.decisions[side], 1), 2)
        for side in ("a", "b")
    }
    out["deal_numbers"] = _ranges(sorted(rows))
    return out


def _ranges(numbers: list[int]) -> str:
    """``[0, 1, 2, 5]`` -> ``"0-2, 5"``."""
    parts: list[str] = []
    for n in numbers:
        if parts and int(parts[-1].rpartition("-")[2]) == n - 1:
            parts[-1] = f"{parts[-1].partition('-')[0]}-{n}"
        else:
            parts.append(str(n))
    return ", ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("play", "sum"))
    parser.add_argument("--game", default="bazar-blot")
    parser.add_argument("--a", default="expert")
    parser.add_argument("--b", default="pimc")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--first", type=int, default=0, help="play: the first deal's number")
    parser.add_argument("--deals", type=int, default=100, help="play: deals to play from --first")
    parser.add_argument("--out", type=Path, help="play: the file the deals are appended to")
    parser.add_argument("files", nargs="*", type=Path, help="sum: the files to add up")
    args = parser.parse_intermixed_args()
    if args.what == "play":
        if args.out is None:
            parser.error("play needs --out")
        play(args.game, args.a, args.b, args.seed, args.first, args.deals, args.out)
    else:
        print(json.dumps(total(args.game, args.a, args.b, args.seed, args.files)))


if __name__ == "__main__":
    main()
