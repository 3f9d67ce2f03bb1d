"""Random-policy steps per second of the reinforcement-learning environments (blot.env).

Each step is PettingZoo's cycle as a learner drives it: ``last()`` (the acting seat's observation
and action mask), a uniformly random legal action from the mask, ``step(action)``; games are
played to their end and the environment is reset. Time is the process's CPU time (one core);
prints the best of several rounds for each game.

    python benchmarks/env.py [--seconds 3] [--rounds 3]
"""

from __future__ import annotations

import argparse
import time
from random import Random

import numpy as np

from blot.env import env
from blot.games import names


def steps(game: str, seconds: float, seed: int) -> tuple[int, float]:
    e = env(game)
    rng = Random(seed)
    e.reset(seed=seed)
    count = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _agent in e.agent_iter():
            observation, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            e.step(int(legal[int(rng.random() * len(legal))]))
            count += 1
        e.reset(seed=rng.getrandbits(32))
    return count, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for game in names():
        best = 0.0
        for r in range(args.rounds):
            count, cpu = steps(game, args.seconds, r)
            best = max(best, count / cpu)
        print(f"{game}: {best:,.0f} environment steps per second (random policy, one core)")


if __name__ == "__main__":
    main()
