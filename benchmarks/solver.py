"""Full-deal double-dummy solve times of Bazar Blot on one core: 40 seeded deals with a trump
contract, every legal first card valued exactly (the position after the bidding, before the first
lead), paired against colver when it is installed; then 200 seeded no-trump deals (the slow
tail); then a whole game analysed.

    python benchmarks/solver.py [--deals 40] [--seed 0] [--repeat 3] [--bots 10] [--nt 200]

Prints the JIT/start-up cost (paid once per process), then blot's median, p90 and max per deal
and the mean node count. When colver (``pip install colver==0.11.1``, a Rust Belote Contrée
engine; a benchmark reference only, never a dependency of blot) is importable, each deal is also
solved by its ``solve_scores`` (every legal first card valued in one search) with the same
hands, leader and trump suit, the two solvers taking turns on each deal; each figure is a
deal's fastest of ``--repeat`` runs (the machine is shared: the least disturbed run), and the
ratios compare blot with colver on the same deals. The rules differ a little (Belote Contrée
obliges a player who cannot overtrump an opponent's trump to undertrump; Bazar Blot lets it
discard), so the trees are close but not identical. Then a whole Bazar Blot game of heuristic
bots (seeded) analysed by ``blot.analysis.analyse`` (every card of every deal valued, and each
deal's dd table), and the default ``pimc`` bots' first-trick decisions.
Set ``BLOT_NO_JIT=1`` to time the same search as plain Python.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from collections.abc import Callable
from random import Random
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40, help="trump deals timed (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="runs per deal and solver (the fastest counts)")
    parser.add_argument("--bots", type=int, default=10, help="first-trick decisions timed per pimc bot")
    parser.add_argument("--game", type=int, default=1, help="whole games analysed (0: none)")
    parser.add_argument("--nt", type=int, default=200, help="no-trump deals timed (0: none)")
    args = parser.parse_args()

    from blot.bazar import PASS, Deal, bid, random_deal
    from blot.solver import COMPILED, Solver

    start = time.perf_counter()
    solver = Solver()
    warm = Deal(random_deal(Random(-1)).hands, dealer=3)
    for call in (bid(8, "S"), PASS, PASS, PASS):
        warm.apply(call)
    solver.solve(warm)
    startup = time.perf_counter() - start
    print(
        f"solver: {'numba' if COMPILED else 'pure Python'}; "
        f"start-up (import, JIT or cache load, first solve) {startup:.2f} s"
    )

    colver = _colver()
    rng = Random(args.seed)
    ours: list[float] = []
    theirs: list[float] = []
    nodes: list[int] = []
    capot: list[int] = []
    for i in range(args.deals):
        deal = Deal(random_deal(rng).hands, dealer=i % 4)
        for call in (bid(8, "SHDC"[i % 4]), PASS, PASS, PASS):
            deal.apply(call)
        blot_run = _blot_run(solver, deal)
        colver_run = _colver_run(colver, deal, i % 4) if colver else None
        best = [float("inf"), float("inf")]
        for r in range(args.repeat):
            runs = [blot_run, colver_run] if (i + r) % 2 == 0 else [colver_run, blot_run]
            for run in runs:
                if run is None:
                    continue
                t = time.perf_counter()
                run()
                spent = time.perf_counter() - t
                side = 0 if run is blot_run else 1
                best[side] = min(best[side], spent)
        solution = solver.solve(deal)
        nodes.append(solution.nodes)
        ours.append(1000 * best[0])
        if colver:
            theirs.append(1000 * best[1])
        if 162 in solution.points:
            capot.append(i)
    if args.deals:
        print(
            f"{args.deals} full deals (trump contracts), every first card valued, fastest of {args.repeat}: "
            f"blot {_figures(ours)}, mean nodes {statistics.mean(nodes):,.0f}"
        )
    if colver and args.deals:
        print(f"colver 0.11.1 on the same deals, taking turns: {_figures(theirs)}")
        ratios = sorted(a / b for a, b in zip(ours, theirs, strict=True))
        median = statistics.median(ours) / statistics.median(theirs)
        print(
            f"blot / colver: median {median:.2f}, p90 {_p90(ours) / _p90(theirs):.2f}, "
            f"max {max(ours) / max(theirs):.2f}; per deal: median {statistics.median(ratios):.2f}, "
            f"worst {ratios[-1]:.2f}; blot faster on {sum(r < 1 for r in ratios)} of {len(ratios)} deals"
        )
    elif not colver:
        print("colver is not installed (pip install colver==0.11.1): no comparison")
    if capot:
        line = f"capot deals (one team takes all 162): {len(capot)}, blot median {_median(ours, capot):.1f}"
        if colver:
            line += f", colver median {_median(theirs, capot):.1f}"
        print(line + " ms")

    if args.nt:
        no_trump(solver, args.nt, args.seed)
    if args.game:
        whole_game(args.seed)
    if args.bots:
        pimc_first_trick(args.bots, args.seed)


def _colver() -> Any:
    try:
        return importlib.import_module("colver")
    except ImportError:
        return None


def _blot_run(solver: Any, deal: Any) -> Callable[[], object]:
    return lambda: solver.solve(deal)


def _colver_run(colver: Any, deal: Any, trump: int) -> Callable[[], object]:
    """colver's all-cards solve of ``deal`` (its cards are ``suit * 8 + plain order``)."""
    from blot.bazar.tables import PLAIN_ORDER
    from blot.cards import cards_of

    hands = [[8 * c.suit + PLAIN_ORDER.index(c.rank) for c in cards_of(h)] for h in deal.hands]
    env = colver.Env.deal_with_hands(deal.dealer, hands)
    env.set_contract(trump, 80, 0, 0)
    env.set_phase_playing()
    if env.current_player() != deal.to_act:
        raise SystemExit("colver's first leader is not blot's: the mapping is wrong")
    return lambda: env.solve_scores()


def _p90(ms: list[float]) -> float:
    s = sorted(ms)
    return s[min(len(s) - 1, int(0.9 * len(s)))]


def _figures(ms: list[float]) -> str:
    return f"median {statistics.median(ms):.1f} ms, p90 {_p90(ms):.1f} ms, max {max(ms):.1f} ms"


def _median(ms: list[float], which: list[int]) -> float:
    return statistics.median(ms[i] for i in which)


def no_trump(solver: Any, deals: int, seed: int) -> None:
    """Seeded no-trump deals (the solver's slowest kind: every suit can run), every first card
    valued exactly, each timed once in CPU time of this process (a busy machine does not count)."""
    from blot.bazar import PASS, Deal, bid, random_deal

    rng = Random(seed)
    times, nodes = [], []
    for i in range(deals):
        deal = Deal(random_deal(rng).hands, dealer=i % 4)
        for call in (bid(8, "NT"), PASS, PASS, PASS):
            deal.apply(call)
        start = time.process_time()
        solution = solver.solve(deal)
        times.append(1000 * (time.process_time() - start))
        nodes.append(solution.nodes)
    print(
        f"{deals} no-trump deals, every first card valued (CPU time): blot {_figures(times)}, "
        f"mean nodes {statistics.mean(nodes):,.0f}, most {max(nodes):,}"
    )


def whole_game(seed: int) -> None:
    """A seeded Bazar Blot game of heuristic bots, analysed whole (one core)."""
    from blot.analysis import analyse
    from blot.bots import make_bot
    from blot.games import names, spec

    bazar = spec(names()[0])
    game = bazar.new_game(rng=Random(seed + 7))
    from blot.play import play

    play(game, [make_bot(bazar, "heuristic", Random(seed * 10 + s)) for s in range(4)])
    t = time.perf_counter()
    analysis = analyse(game)
    spent = time.perf_counter() - t
    cards = sum(len(d.cards) for d in analysis.deals)
    print(
        f"a whole game analysed (blot.analysis.analyse): {len(analysis.deals)} deals, {cards} cards valued "
        f"and 5 dd-table strains per deal in {spent:.1f} s"
    )


def pimc_first_trick(decisions: int, seed: int) -> None:
    from blot.bazar import PASS, Deal, bid, random_deal
    from blot.bots.bazar_pimc import PimcBot
    from blot.bots.tfe_pimc import PimcBot as TfePimcBot
    from blot.three_five_eight import Deal as TfeDeal
    from blot.three_five_eight import Phase

    rng = Random(seed + 1)
    bot = PimcBot(Random(seed))
    times, samples = [], []
    for i in range(decisions + 1):
        deal = Deal(random_deal(rng).hands, dealer=3)
        for call in (bid(8, ("S", "H", "D", "C", "NT")[i % 5]), PASS, PASS, PASS):
            deal.apply(call)
        while deal.must_declare:
            deal.apply(deal.best_declare(deal.to_act or 0))
        t = time.perf_counter()
        bot.choose(deal.view(0))
        if i:  # the first decision pays the import and JIT cache load
            times.append(time.perf_counter() - t)
            samples.append(bot.last_samples)
    _report("pimc (Bazar Blot, defaults), opening lead", times, samples)

    tbot = TfePimcBot(Random(seed))
    times, samples = [], []
    for i in range(decisions + 1):
        tdeal = TfeDeal.random(rng, dealer=2)
        tdeal.apply(tdeal.legal_actions()[i % 4])
        while tdeal.phase is not Phase.PLAY:
            tdeal.apply(tdeal.legal_actions()[0])
        t = time.perf_counter()
        tbot.choose(tdeal.view(tdeal.to_act or 0))
        if i:
            times.append(time.perf_counter() - t)
            samples.append(tbot.last_samples)
    _report("pimc (3-5-8, defaults), first lead", times, samples)


def _report(what: str, times: list[float], samples: list[int]) -> None:
    times.sort()
    print(
        f"{what}: median {statistics.median(times):.2f} s, max {times[-1]:.2f} s, "
        f"samples median {statistics.median(samples):.0f}, min {min(samples)}"
    )


if __name__ == "__main__":
    main()
