"""The compiled play-outs (issue 44 item 1): play-outs a second on one core (CPU time of this
process) from the first card of seeded deals, for each player (``random``, ``basic``,
``heuristic``), next to the same deals played out by the Python ``heuristic`` bots through the
rules engine. Bazar Blot: trump deals (colver has no no-trump contract), and when colver is
installed (``pip install colver==0.11.1``, a Rust Belote Contrée engine) its random rollouts of
the same hands and trump, taking turns deal by deal so that a busy machine weighs on both alike.
3-5-8: first deals, the trump called and the discard made by ``heuristic`` players.

    python benchmarks/playouts.py [--deals 20] [--count 20000] [--seed 1]
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Callable
from random import Random
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--count", type=int, default=20_000, help="play-outs per deal and player")
    parser.add_argument("--python", type=int, default=20, help="Python play-outs per deal")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from blot.bazar import PASS, Deal, bid, random_deal
    from blot.solver._jit import COMPILED
    from blot.solver.bazar_playout import Playouts, Policy

    colver = _colver()
    rng = Random(args.seed)
    spent: dict[str, float] = {}
    for number in range(args.deals):
        strain = "SHDC"[number % 4]
        deal = Deal(random_deal(rng).hands, dealer=number % 4)
        for call in (bid(8, strain), PASS, PASS, PASS):
            deal.apply(call)
        runs: list[tuple[str, Callable[[], object]]] = []
        policies: tuple[Policy, ...] = ("random", "basic", "heuristic")
        for policy in policies:
            playouts = Playouts(deal, seed=number)
            playouts.run(policy, 1)  # compiled before the clock starts
            runs.append((policy, lambda p=playouts, q=policy: p.run(q, args.count)))  # type: ignore[misc]
        if colver is not None:
            env = _colver_env(colver, deal, strain)
            runs.append(("colver", lambda e=env: e.rollout(args.count)))  # type: ignore[misc]
        if number % 2:
            runs.reverse()
        for name, run in runs:
            start = time.process_time()
            run()
            spent[name] = spent.get(name, 0.0) + time.process_time() - start
        start = time.process_time()
        for _ in range(args.python):
            _python_play_out(deal)
        spent["python"] = spent.get("python", 0.0) + time.process_time() - start

    done = args.deals * args.count
    rate = {name: done / s for name, s in spent.items() if name != "python"}
    rate["python"] = args.deals * args.python / spent["python"]
    compiled = "compiled with numba" if COMPILED else "plain Python (numba is not installed)"
    print(f"Bazar Blot play-outs from the first card, {args.deals} deals, one core (CPU time), {compiled}:")
    for name in ("random", "basic", "heuristic"):
        print(f"  {name:<10} {rate[name]:>12,.0f} a second")
    print(f"  {'python':<10} {rate['python']:>12,.0f} a second (the heuristic bots through the rules engine)")
    if colver is not None:
        print(f"  {'colver':<10} {rate['colver']:>12,.0f} a second (colver 0.11.1's random rollouts)")
        print(f"blot random / colver random: {rate['random'] / rate['colver']:.2f}")
    else:
        print("colver is not installed (pip install colver==0.11.1): no comparison")
    print(f"blot heuristic / python heuristic: {rate['heuristic'] / rate['python']:,.0f}")
    three_five_eight(args.deals, args.count, args.python, args.seed, compiled)


def three_five_eight(deals: int, count: int, python: int, seed: int, compiled: str) -> None:
    """The same for 3-5-8: first deals, the trump called and the discard made by ``heuristic``
    players, played out from the first card (16 tricks)."""
    from blot.bots.tfe_heuristic import HeuristicBot
    from blot.solver.tfe_playout import Policy, TfePlayouts
    from blot.three_five_eight import Deal, Phase

    rng = Random(seed)
    spent: dict[str, float] = {}
    policies: tuple[Policy, ...] = ("random", "basic", "heuristic")
    for number in range(deals):
        deal = Deal.random(rng, dealer=number % 3)
        bots = [HeuristicBot(Random(s)) for s in range(3)]
        while deal.phase is not Phase.PLAY:
            seat = deal.to_act
            assert seat is not None
            deal.apply(bots[seat].choose(deal.view(seat)))  # type: ignore[arg-type]
        for policy in policies:
            playouts = TfePlayouts(deal, seed=number)
            playouts.run(policy, 1)  # compiled before the clock starts
            start = time.process_time()
            playouts.run(policy, count)
            spent[policy] = spent.get(policy, 0.0) + time.process_time() - start
        start = time.process_time()
        for _ in range(python):
            copy = deal.copy()
            while not copy.is_over:
                seat = copy.to_act
                assert seat is not None
                copy.apply(bots[seat].choose(copy.view(seat)))  # type: ignore[arg-type]
        spent["python"] = spent.get("python", 0.0) + time.process_time() - start
    print(f"3-5-8 play-outs from the first card, {deals} deals, one core (CPU time), {compiled}:")
    for name in policies:
        print(f"  {name:<10} {deals * count / spent[name]:>12,.0f} a second")
    python_rate = deals * python / spent["python"]
    print(f"  {'python':<10} {python_rate:>12,.0f} a second (the heuristic bots through the rules engine)")
    print(f"blot heuristic / python heuristic: {deals * count / spent['heuristic'] / python_rate:,.0f}")


def _python_play_out(deal: Any) -> None:
    from blot.bots.bazar_heuristic import HeuristicBot

    copy = deal.copy()
    bots = [HeuristicBot(Random(s)) for s in range(4)]
    while not copy.is_over:
        seat = copy.to_act
        copy.apply(bots[seat].choose(copy.view(seat)))


def _colver() -> Any:
    try:
        return importlib.import_module("colver")
    except ImportError:
        return None


def _colver_env(colver: Any, deal: Any, strain: str) -> Any:
    """colver's deal of the same hands at the same table (its cards are ``suit * 8 + plain
    order``, its trumps 0 … 3 blot's suits), ready for the first card."""
    from blot.bazar.tables import PLAIN_ORDER
    from blot.cards import cards_of

    hands = [[8 * c.suit + PLAIN_ORDER.index(c.rank) for c in cards_of(h)] for h in deal.hands]
    env = colver.Env.deal_with_hands(deal.dealer, hands)
    env.set_contract("SHDC".index(strain), 80, 0, 0)
    env.set_phase_playing()
    return env


if __name__ == "__main__":
    main()
