"""3-5-8 card play judged position by position (issue 27): ``heuristic`` players play seeded
deals; at about half of the positions with a number of tricks to play in a chosen range (a
decision among several cards), every bot named chooses a card from that seat's view, and each
choice is valued by an exact search (the tricks the seat takes playing for itself, the other two
against it, as :mod:`blot.analysis.three_five_eight` values cards). The same positions for every
bot, so the comparison is paired. With 12 tricks to play the exact search takes 25 ms at the median
and 1.5 s at the slowest of 200 seeded positions (``benchmarks/tfe_tail.py``).

    python benchmarks/tfe_positions.py [--bots pimc,expert] [--deals 150] [--left 8-12] [--seed 11]

Prints, per bot, the tricks its cards lost against the best card, in all and per decision.
"""

from __future__ import annotations

import argparse
import time
from random import Random


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="pimc,expert", help="bots, as blot simulate --bots names them")
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--left", default="8-12", help="tricks still to play, e.g. 8-12")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    from blot.bots import make_bot, split_bot_specs
    from blot.cards import Card
    from blot.games import spec
    from blot.solver.three_five_eight import default_tfe_solver
    from blot.three_five_eight import Game, Phase, random_deal

    game = spec("3-5-8")
    bots = split_bot_specs(args.bots)
    low, _, high = args.left.partition("-")
    lo, hi = int(low), int(high or low)
    rng = Random(args.seed)
    lost = dict.fromkeys(bots, 0)
    positions = 0
    start = time.process_time()
    for number in range(args.deals):
        state = game.new_game(dealer=number % game.seats)
        assert isinstance(state, Game)
        state.start_deal(random_deal(rng))
        players = [make_bot(game, "heuristic", Random(rng.getrandbits(32))) for _ in range(game.seats)]
        deal = state.deal
        assert deal is not None
        while not deal.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            left = 16 - len(deal.trick_winners)
            several = deal.phase is Phase.PLAY and len(state.legal_actions()) > 1
            if several and lo <= left <= hi and rng.random() < 0.5:
                values = default_tfe_solver().solve(deal, me=seat, horizon=16).values
                best = max(values.values())
                positions += 1
                for bot in bots:
                    card = make_bot(game, bot, Random(positions)).choose(view)
                    assert isinstance(card, Card)
                    lost[bot] += best - values[card]
            state.apply(players[seat].choose(view))
    seconds = time.process_time() - start
    print(f"3-5-8: {positions} positions with {lo}-{hi} tricks to play, {args.deals} deals, seed {args.seed}")
    print(f"({seconds:.0f} s CPU)")
    for bot in bots:
        print(f"  {bot}: {lost[bot]} tricks lost, {lost[bot] / max(positions, 1):.4f} per decision")


if __name__ == "__main__":
    main()
