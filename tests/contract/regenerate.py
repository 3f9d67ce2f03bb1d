"""Write the contract suite's pinned numbers again, deliberately: the perft counts
(``data/perft.json``) and the golden games (``golden/GAME/RULESET.jsonl`` and their
``blot replay --json`` output, ``golden/GAME/RULESET.replay.jsonl``).

Run it only when a change of the rules' effect is intended (a rule fixed, a ruleset added), then
read the diff: every number or line that moved is a behaviour that changed::

    python tests/contract/regenerate.py            # both
    python tests/contract/regenerate.py perft      # or golden
"""

from __future__ import annotations

import io
import json
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path
from random import Random
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from blot.bots import make_bot  # noqa: E402
from blot.cli.replay import run as replay  # noqa: E402
from blot.games import spec  # noqa: E402
from blot.play import play  # noqa: E402
from contract.helpers import CASES  # noqa: E402
from contract.helpers import play as moves  # noqa: E402
from contract.perft import perft, position  # noqa: E402
from toygame import registered  # noqa: E402

PERFT = HERE / "data" / "perft.json"
GOLDEN = HERE / "golden"
#: Seeded games whose positions are counted, per game and ruleset.
PERFT_SEEDS = (1, 2)
#: Stop deepening a position once its count passes this many sequences (a few seconds in all).
PERFT_BUDGET = 8_000
PERFT_MAX_DEPTH = 12
#: Golden games per game and ruleset, and the options they are played under in turn.
GOLDEN_GAMES = 12
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "bazar-blot": [
        {},
        {"kanach": True},
        {"three_passes_end_bidding": False},
        {"target": 151},
        {"nt_four_nines": 0, "target": 501},
    ],
}
#: The bot levels of the golden games played by bots, seat by seat from a seeded rotation; every
#: third golden game is played by random legal actions instead (passing often), which reaches
#: the corners bots avoid (void deals, kapoots, odd contracts).
LEVELS = ("heuristic", "basic")
RANDOM_PASS_RATE = 0.6


def perft_positions(name: str, ruleset: str, seed: int) -> list[int]:
    """The steps of a seeded game at which to count: its start, the first state of each phase
    it enters later, a few actions into its first play, and a few actions before its first deal
    ends (so that the counts cross into the next deal)."""
    game = position(name, ruleset, seed, 0)
    rng = Random(seed)
    steps = [0]
    phases = {game.phase}
    play_start = None
    step = 0
    while not game.is_over and step < 400:
        legal = sorted(game.legal_actions(), key=str)
        deals = len(game.deals)
        game.apply(legal[rng.randrange(len(legal))])
        step += 1
        if len(game.deals) != deals and deals == 1:
            steps.append(step - 6)
        if game.phase not in phases and game.legal_actions():
            phases.add(game.phase)
            steps.append(step)
            if game.phase.value == "play":
                play_start = step
        if play_start is not None and step == play_start + 5:
            steps.append(step)
    return sorted(set(steps))


def write_perft() -> None:
    out = []
    started = time.perf_counter()
    for name, ruleset in CASES:
        for seed in PERFT_SEEDS:
            for steps in perft_positions(name, ruleset, seed):
                game = position(name, ruleset, seed, steps)
                depth = 1
                counts = perft(game, depth)
                while counts[-1] < PERFT_BUDGET and depth < PERFT_MAX_DEPTH:
                    deeper = perft(game, depth + 1)
                    if deeper[-1] > 5 * PERFT_BUDGET:
                        break
                    depth, counts = depth + 1, deeper
                out.append(
                    {
                        "game": name,
                        "ruleset": ruleset,
                        "seed": seed,
                        "steps": steps,
                        "phase": game.phase.value,
                        "counts": counts,
                    }
                )
    PERFT.parent.mkdir(exist_ok=True)
    text = "[\n" + ",\n".join(json.dumps(p) for p in out) + "\n]\n"
    PERFT.write_text(text, encoding="utf-8")
    print(f"{PERFT}: {len(out)} positions in {time.perf_counter() - started:.1f} s")


def golden_game(name: str, ruleset: str, number: int) -> dict[str, Any]:
    """Golden game ``number`` (from 0) of ``name`` under ``ruleset``: seeded deals, and seeded
    bots or seeded random actions."""
    s = spec(name)
    variants = OPTIONS.get(name, [{}])
    options = variants[number % len(variants)]
    if ruleset != "league":
        options = {k: v for k, v in options.items() if k != "nt_four_nines"}
    rng = Random(1000 * number + len(ruleset))
    game = s.new_game(s.rules(ruleset, options), dealer=number % s.seats, rng=Random(rng.getrandbits(64)))
    if number % 3 == 0:
        moves(game, rng, pass_rate=RANDOM_PASS_RATE)
    else:
        shift = rng.randrange(len(LEVELS))
        have = [level for level in LEVELS if level in s.bots] or ["random"]  # the toy game: random only
        levels = [have[(seat + shift) % len(have)] for seat in range(s.seats)]
        play(game, [make_bot(s, level, Random(rng.getrandbits(64))) for level in levels])
    return s.record_of(game, [f"seat {seat}" for seat in range(s.seats)])


def write_golden() -> None:
    for name, ruleset in CASES:
        folder = GOLDEN / name
        folder.mkdir(parents=True, exist_ok=True)
        records = folder / f"{ruleset}.jsonl"
        lines = [json.dumps(golden_game(name, ruleset, n)) for n in range(GOLDEN_GAMES)]
        records.write_text("\n".join(lines) + "\n", encoding="utf-8")
        printed = io.StringIO()
        with redirect_stdout(printed):
            replay(records, None, True)
        (folder / f"{ruleset}.replay.jsonl").write_text(printed.getvalue(), encoding="utf-8")
        print(f"{records}: {GOLDEN_GAMES} games")


if __name__ == "__main__":
    what = sys.argv[1:] or ["perft", "golden"]
    unknown = set(what) - {"perft", "golden"}
    if unknown:
        sys.exit(f"usage: python {sys.argv[0]} [perft] [golden]")
    with registered():  # the tests' toy game is pinned too (tests/toygame)
        if "perft" in what:
            write_perft()
        if "golden" in what:
            write_golden()
