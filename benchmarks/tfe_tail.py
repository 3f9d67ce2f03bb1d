"""The tail of 3-5-8's exact search (issue 44 item 2): seeded deals played by ``heuristic``
players up to the first decision among several cards with ``--left`` tricks to play (the trick in
progress counted), each position solved exactly for the seat to act (every card's value, as
analysis and ``blot solve`` ask). Prints the median, the 90th percentile and the slowest
positions with their nodes, in seconds of CPU.

    python benchmarks/tfe_tail.py [--positions 200] [--left 12] [--seed 11]
"""

from __future__ import annotations

import argparse
import statistics
import time
from random import Random


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200, help="deals, one position each")
    parser.add_argument("--left", type=int, default=12, help="tricks to play at the position")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    from blot.bots import make_bot
    from blot.games import spec
    from blot.solver.three_five_eight import default_tfe_solver
    from blot.three_five_eight import Game, Phase, random_deal

    game = spec("3-5-8")
    rng = Random(args.seed)
    solver = default_tfe_solver()
    solved: list[tuple[float, int, int, str]] = []
    for number in range(args.positions):
        state = game.new_game(dealer=number % game.seats)
        assert isinstance(state, Game)
        state.start_deal(random_deal(rng))
        players = [make_bot(game, "heuristic", Random(rng.getrandbits(32))) for _ in range(game.seats)]
        deal = state.deal
        assert deal is not None
        while not deal.is_over:
            seat = state.to_act
            assert seat is not None
            left = 16 - len(deal.trick_winners)
            if deal.phase is Phase.PLAY and left == args.left and len(state.legal_actions()) > 1:
                if not solved:
                    solver.solve(deal, me=seat, horizon=1)  # the kernels compiled or loaded first
                start = time.process_time()
                nodes = solver.solve(deal, me=seat).nodes
                trump = "NT" if deal.trump is None or deal.trump.suit is None else deal.trump.suit.name
                solved.append((time.process_time() - start, nodes, number, trump))
                break
            state.apply(players[seat].choose(state.view(seat)))
    seconds = sorted(s for s, *_ in solved)
    print(f"3-5-8 exact search: {len(solved)} positions with {args.left} tricks to play, seed {args.seed}")
    p90 = seconds[int(0.9 * len(seconds))]
    print(
        f"median {statistics.median(seconds):.3f} s, 90th percentile {p90:.3f} s,"
        f" slowest {seconds[-1]:.3f} s, {sum(seconds):.1f} s of CPU in all"
    )
    for s, nodes, number, trump in sorted(solved, reverse=True)[:5]:
        print(f"  deal {number} ({trump} trump): {s:.3f} s, {nodes:,} nodes")


if __name__ == "__main__":
    main()
