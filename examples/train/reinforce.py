"""Train a small policy on blot's environments, end to end, in minutes on one CPU core.

A linear softmax policy over the seat's observation (docs/environments.md), masked to the legal
actions, learns by REINFORCE (the return of each deal against a running baseline) playing the
first team's seats against built-in ``random`` players (``blot.env.single``); then its greedy
choices play fresh deals against ``random`` and ``basic`` and the mean margin per deal is printed
(the seat's deal score minus its opponents' mean, as ``blot arena`` counts it), beside a policy
that picks uniformly among the legal actions.

    python examples/train/reinforce.py [--game 3-5-8] [--deals 20000] [--eval 300] [--seed 1] \
        [--save policy.npz]

With ``--save`` the trained weights are written to a file that ``policy_bot.py`` (beside this
script) plays from, at a table or in the arena, through the bot protocol:

    blot arena --game 3-5-8 --a "cmd:python examples/train/policy_bot.py policy.npz" --b basic

Needs the ``rl`` extra (``pip install -e '.[rl]'``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from blot.env import single


class LinearPolicy:
    """Logits ``W @ observation + b``, with the illegal actions masked out."""

    def __init__(self, size: int, actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((actions, size), dtype=np.float64)
        self.b = np.zeros(actions, dtype=np.float64)
        self.rng = rng

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.w @ observation + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def sample(self, observation: np.ndarray, mask: np.ndarray) -> int:
        return int(self.rng.choice(len(mask), p=self.probabilities(observation, mask)))

    def greedy(self, observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.argmax(np.where(mask > 0, self.w @ observation + self.b, -np.inf)))


def train(game: str, deals: int, seed: int, rate: float) -> LinearPolicy:
    env = single(game, opponents="random", max_deals=1)
    rng = np.random.default_rng(seed)
    first, _ = env.reset(seed=seed)
    policy = LinearPolicy(first["observation"].shape[0], first["action_mask"].shape[0], rng)
    baseline = 0.0
    for episode in range(deals):
        observation, _ = env.reset(seed=seed + 1 + episode)
        steps: list[tuple[np.ndarray, np.ndarray, int]] = []
        total = 0.0
        done = False
        while not done:
            x, mask = observation["observation"].astype(np.float64), observation["action_mask"]
            action = policy.sample(x, mask)
            steps.append((x, mask, action))
            observation, reward, terminated, truncated, _ = env.step(action)
            total += reward
            done = terminated or truncated
        advantage = total - baseline
        baseline += 0.02 * (total - baseline)
        for x, mask, action in steps:  # the gradient of log pi(action) for a softmax policy
            p = policy.probabilities(x, mask)
            p[action] -= 1.0
            policy.w -= rate * advantage * np.outer(p, x)
            policy.b -= rate * advantage * p
    return policy


def margin(game: str, opponents: str, deals: int, seed: int, choose: object) -> float:
    env = single(game, opponents=opponents, max_deals=1)
    total = 0.0
    for d in range(deals):
        observation, _ = env.reset(seed=10_000 + seed + d)
        done = False
        while not done:
            x, mask = observation["observation"].astype(np.float64), observation["action_mask"]
            observation, reward, terminated, truncated, _ = env.step(choose(x, mask))  # type: ignore[operator]
            total += reward
            done = terminated or truncated
    return total / deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="3-5-8")
    parser.add_argument("--deals", type=int, default=20000, help="training deals")
    parser.add_argument("--eval", type=int, default=300, help="deals against each opponent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=0.005, help="the learning rate")
    parser.add_argument("--save", default=None, help="write the trained weights to this .npz file")
    args = parser.parse_args()
    start = time.process_time()
    policy = train(args.game, args.deals, args.seed, args.rate)
    spent = time.process_time() - start
    print(f"{args.game}: trained on {args.deals} deals against random in {spent:.0f} s of CPU")
    if args.save:
        np.savez(args.save, game=args.game, w=policy.w, b=policy.b)
    rng = np.random.default_rng(args.seed)

    def uniform(_x: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    for opponents in ("random", "basic"):
        trained = margin(args.game, opponents, args.eval, args.seed, policy.greedy)
        untrained = margin(args.game, opponents, args.eval, args.seed, uniform)
        print(
            f"against {opponents}, {args.eval} deals: trained policy {trained:+.3f} per deal, "
            f"uniform legal moves {untrained:+.3f}"
        )


if __name__ == "__main__":
    main()
