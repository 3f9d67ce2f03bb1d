"""Fits the 3-5-8 solver's horizon estimate (``fitted_estimate`` of blot.solver.tfe_kernel) and
shows how far each estimate is from the exact values.

A search that stops after a few tricks must guess the tricks still to come; the plain guess
(sure winners plus a third of the rest) is 1.5 to 2 tricks from the exact value on average. This
script plays seeded deals (heuristic players, with some random cards and some no-trump deals
forced, for variety), stops each at a trick start with 8 to 11 tricks left, solves it exactly
for each seat (the paranoid value the search uses), and fits a linear model of 14 features of
the position by least squares, trump and no-trump deals apart. It prints the mean error of the
plain and the fitted estimate on held-out positions, and the weights for
``blot.solver.three_five_eight.FITTED_WEIGHTS``.

    python benchmarks/tfe_estimate.py [--positions 3000] [--seed 2]
"""

from __future__ import annotations

import argparse
from random import Random
from typing import Any

import numpy as np

from blot.bots import make_bot
from blot.games import spec
from blot.solver import tfe_kernel as k
from blot.solver.three_five_eight import TfeSolver
from blot.three_five_eight import NO_TRUMP

SUIT = 0x7FFC


def positions(count: int, seed: int) -> list[dict[str, Any]]:
    game = spec("3-5-8")
    rng = Random(seed)
    solver = TfeSolver()
    found: list[dict[str, Any]] = []
    while len(found) < count:
        state = game.new_game(dealer=len(found) % 3)
        state.start_deal(game.random_deal(rng))
        bots = [make_bot(game, "heuristic", Random(rng.getrandbits(30))) for _ in range(3)]
        left, no_trump, noisy = rng.choice((8, 9, 10, 11)), rng.random() < 0.25, rng.random() < 0.2
        deal = state.deal
        assert deal is not None
        while not deal.is_over:
            phase = deal.phase.value
            if phase == "play" and not deal.trick and 16 - len(deal.tricks) == left:
                break
            seat = state.to_act
            if phase == "call" and no_trump:
                state.apply(NO_TRUMP)
            elif phase == "play" and noisy and rng.random() < 0.3:
                state.apply(rng.choice(state.legal_actions()))
            else:
                state.apply(bots[seat].choose(state.view(seat)))
        if deal.is_over:
            continue
        leader = deal.to_act
        values = []
        for me in range(3):
            cards = solver.solve(deal, me=me).values.values()
            values.append(max(cards) if me == leader else min(cards))  # the others play against me
        trump = -1 if deal.trump is None or deal.trump.suit is None else int(deal.trump.suit)
        found.append({"hands": [deal.hand(s) for s in range(3)], "leader": leader, "trump": trump,
                      "left": left, "values": values})  # fmt: skip
    return found


def features(h: list[int], leader: int, left: int, me: int, trump: int) -> list[float]:
    """:data:`blot.solver.tfe_kernel.FEATURES` of a position, as the kernel counts them."""
    sure = [0, 0, 0]
    sure_trump = 0
    trumps = [0, 0, 0]
    kings = queens = voids = singles = longs = 0
    everyone = h[0] | h[1] | h[2]
    for s in range(4):
        out = (everyone >> (16 * s)) & SUIT
        top = -1
        for r in range(14, 1, -1):
            if not (out >> r) & 1:
                continue
            owner = next(p for p in range(3) if (h[p] >> (16 * s + r)) & 1)
            top = owner if top < 0 else top
            if owner != top:
                break
            sure[owner] += 1
            sure_trump += owner == me and s == trump
        if s == trump:
            trumps = [((h[p] >> (16 * s)) & SUIT).bit_count() for p in range(3)]
        mine = (h[me] >> (16 * s)) & SUIT
        n = mine.bit_count()
        if s != trump:
            voids += n == 0
            singles += n == 1
            longs += max(0, n - 3)
        kings += bool((mine >> 13) & 1 and (out >> 14) & 1 and not (mine >> 14) & 1)
        queens += bool((mine >> 12) & 1 and (out >> 14 | out >> 13) & 1 and not (mine >> 14 & mine >> 13) & 1)
    others = [trumps[p] for p in range(3) if p != me]
    holds = int(trump >= 0 and trumps[me] > 0)
    return [1.0, left, sure[me] - sure_trump, sure_trump, sum(sure) - sure[me], trumps[me],
            max(others), min(others), kings, queens, voids * holds, singles * holds, longs,
            float(leader == me)]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    found = positions(args.positions, args.seed)
    weights: list[int] = []
    for no_trump in (False, True):
        rows = [(p, me) for p in found if (p["trump"] < 0) == no_trump for me in range(3)]
        x = np.array([features(p["hands"], p["leader"], p["left"], me, p["trump"]) for p, me in rows])
        y = np.array([p["values"][me] for p, me in rows])
        guess = getattr(k.estimate, "py_func", k.estimate)  # plain Python: it is given lists
        plain = np.array([guess(p["hands"], p["leader"], p["left"], me, p["trump"]) for p, me in rows])
        cut = int(0.7 * len(rows))
        w, *_ = np.linalg.lstsq(x[:cut], y[:cut], rcond=None)
        held = np.clip(np.rint(x[cut:] @ w), 0, x[cut:, 1])
        what = "no trump" if no_trump else "trump deals"
        errors = np.abs(plain[cut:] - y[cut:]).mean(), np.abs(held - y[cut:]).mean()
        print(
            f"{what}: {len(rows)} positions x seats; on the {len(rows) - cut} held out, mean error: "
            f"plain {errors[0]:.2f} tricks, fitted {errors[1]:.2f}"
        )
        w, *_ = np.linalg.lstsq(x, y, rcond=None)
        weights += [round(v * k.SCALE) for v in w]
    print("FITTED_WEIGHTS =", tuple(weights))


if __name__ == "__main__":
    main()
