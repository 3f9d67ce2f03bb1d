"""Fits the Bazar Blot solver's horizon estimate (``fitted_estimate`` of blot.solver.bazar_kernel)
and shows how far each estimate is from the exact values.

A search that stops after a few tricks guesses the card points still to come. This script deals
seeded random deals in every strain, plays them (heuristic players, or random legal cards) to a
trick start with 3 to 6 tricks left, solves each position exactly (team 0's card points from
there, the last trick's 10 included), and fits a linear model of 8 features of the position
(each team 0's count less team 1's) by least squares, trump and no-trump deals apart. It prints
the mean error of the plain and the fitted estimate on held-out positions, then the error of a
whole deal searched 4 tricks deep from the opening lead with each estimate, and the weights for
``blot.solver.bazar.FITTED_WEIGHTS``.

    python benchmarks/bazar_estimate.py [--positions 6000] [--seed 3]
"""

from __future__ import annotations

import argparse
from random import Random
from typing import Any

import numpy as np

from blot.bazar import PASS, Deal, bid, random_deal
from blot.bots import make_bot
from blot.solver import bazar_kernel as k
from blot.solver._jit import int_array_of
from blot.solver.bazar import COMPACT, Solver, to_compact

STRAINS = ("S", "H", "D", "C", "NT")


def positions(count: int, seed: int) -> list[dict[str, Any]]:
    rng = Random(seed)
    solver = Solver()
    found: list[dict[str, Any]] = []
    while len(found) < count:
        strain = STRAINS[len(found) % 5]
        deal = Deal(random_deal(rng).hands, dealer=rng.randrange(4))
        for call in (bid(8, strain), PASS, PASS, PASS):
            deal.apply(call)
        left = rng.choice((3, 4, 5, 6))
        bots = [make_bot("bazar-blot", "heuristic", Random(rng.getrandbits(30))) for _ in range(4)]
        noisy = rng.random() < 0.5
        while 8 - len(deal.trick_winners) > left or deal.trick:
            seat = deal.to_act
            assert seat is not None
            if noisy and not deal.must_declare:
                deal.apply(rng.choice(deal.legal_actions()))
            else:
                deal.apply(bots[seat].choose(deal.view(seat)))
        tix = deal.tix
        hands = list(deal.hands)
        points = solver.solve_cards(hands, [], deal.leader, tix, left, False).points[0]
        found.append({"hands": hands, "leader": deal.leader, "tix": tix, "left": left, "points": points})
    return found


def features(hands: list[int], tix: int, leader: int) -> tuple[list[float], int, Any]:
    """:data:`blot.solver.bazar_kernel.FEATURES` of a position (compact encoding, as the kernel
    counts them), its points still to take, and the compact hands."""
    h = [to_compact(x, tix) for x in hands]
    pts = [0] * 32
    from blot.bazar.tables import POINTS

    for index, c in enumerate(COMPACT[tix]):
        if c >= 0:
            pts[c] = POINTS[tix][index]
    trump = -1 if tix == 4 else tix
    team0 = h[0] | h[2]
    everyone = h[0] | h[1] | h[2] | h[3]
    held = trumps = tops = top_points = trump_run = voids = 0
    for s in range(4):
        owner = -1
        for c in range(8 * s + 7, 8 * s - 1, -1):
            if not (everyone >> c) & 1:
                continue
            sign = 1 if (team0 >> c) & 1 else -1
            held += sign * pts[c]
            trumps += sign * (s == trump)
            if owner == 0:
                continue
            owner = sign if owner < 0 else owner
            if sign != owner:
                owner = 0
                continue
            tops += sign
            top_points += sign * pts[c]
            trump_run += sign * (s == trump)
        if trump >= 0 and s != trump:
            for p in range(4):
                if not h[p] & (0xFF << (8 * s)) and h[p] & (0xFF << (8 * trump)):
                    voids += 1 if p % 2 == 0 else -1
    total = sum(pts[c] for c in range(32) if (everyone >> c) & 1) + 10
    lead = 1.0 if leader % 2 == 0 else -1.0
    return [total, held, trumps, tops, top_points, trump_run, voids, lead], total - 10, (h, pts, trump)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    found = positions(args.positions, args.seed)
    plain_guess = getattr(k.estimate, "py_func", k.estimate)  # plain Python: it is given lists
    weights: list[int] = []
    for no_trump in (False, True):
        rows = [p for p in found if (p["tix"] == 4) == no_trump]
        x, y, plain = [], [], []
        for p in rows:
            f, rpts, (h, pts, trump) = features(p["hands"], p["tix"], p["leader"])
            x.append(f)
            y.append(p["points"])
            plain.append(plain_guess(h, p["left"], rpts, pts, trump))
        xa, ya, pa = np.array(x), np.array(y), np.array(plain)
        cut = int(0.7 * len(rows))
        w, *_ = np.linalg.lstsq(xa[:cut], ya[:cut], rcond=None)
        held = np.clip(np.rint(xa[cut:] @ w), 0, xa[cut:, 0])
        errors = np.abs(pa[cut:] - ya[cut:]).mean(), np.abs(held - ya[cut:]).mean()
        what = "no trump" if no_trump else "trump deals"
        print(
            f"{what}: {len(rows)} positions; on the {len(rows) - cut} held out, mean error: "
            f"plain {errors[0]:.1f} card points, fitted {errors[1]:.1f}"
        )
        w, *_ = np.linalg.lstsq(xa, ya, rcond=None)
        weights += [round(v * k.SCALE) for v in w]
    print("FITTED_WEIGHTS =", tuple(weights))
    whole_deals(weights, args.seed)


def whole_deals(weights: list[int], seed: int, count: int = 60) -> None:
    """A whole deal searched 4 tricks deep from the opening lead, each estimate beyond, against
    the exact value (the bidding's question: what a strain is worth)."""
    solver = Solver()
    solver.fitted = int_array_of([1, *weights])
    rng = Random(seed + 1)
    errors: dict[str, list[int]] = {"plain": [], "fitted": []}
    for i in range(count):
        hands = list(random_deal(rng).hands)
        tix = i % 5
        exact = solver.solve_cards(hands, [], 0, tix, 8, False).points[0]
        for name in errors:
            value = solver.solve_cards(hands, [], 0, tix, 8, False, 4, name == "fitted").points[0]
            errors[name].append(abs(value - exact))
    print(
        f"whole deals from the opening lead, 4 tricks deep, {count} deals: mean error "
        + ", ".join(f"{name} {np.mean(e):.1f} card points" for name, e in errors.items())
    )


if __name__ == "__main__":
    main()
