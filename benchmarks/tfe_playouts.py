"""What the compiled play-outs (issue 44 item 1) save the 3-5-8 ``expert``'s played-out choices:
its trump call, exchange gifts and discard (``blot.bots.tfe_rollout``) timed on one core (CPU
time of this process) on seeded second deals of a game (so that each has an exchange, T-20),
once with the compiled discard and card play and once with every played-out deal played by the
Python ``heuristic`` bots through the rules engine (as before), on the same deals. Both must make
the same choices: the compiled play-outs are the Python bots' play card for card.

    python benchmarks/tfe_playouts.py [--games 6] [--seed 3] [--bot expert]

The card play of the measured deals is the ``heuristic`` bots' (only the choices are timed).
Play-outs a second from the first card, per player, are in ``benchmarks/playouts.py``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from random import Random
from typing import Any, cast


def python_played_out(deal: Any, players: list[Any], me: int) -> int:
    """A deal played to its end by the Python bots, every step (``tfe_rollout`` before issue 44)."""
    from blot.game import View

    while not deal.is_over:
        seat = deal.to_act
        deal.apply(players[seat].choose(cast(View, deal.view(seat))))
    return int(deal.scores[me])


def warm() -> None:
    """Load the compiled kernels before any clock starts."""
    from blot.solver.tfe_playout import TfePlayouts, heuristic_discard
    from blot.three_five_eight import HEARTS, Deal, Phase

    deal = Deal.random(Random(1), dealer=0)
    deal.apply(HEARTS)
    heuristic_discard(deal)
    while deal.phase is not Phase.PLAY:
        deal.apply(deal.legal_actions()[0])
    TfePlayouts(deal).run("heuristic", 1)


def timings(bot: str, games: int, seed: int) -> tuple[dict[str, list[float]], list[str]]:
    """CPU seconds of each choice by kind (call, exchange, discard) and every choice made."""
    from blot.bots import make_bot
    from blot.games import spec
    from blot.play import deal_over, play
    from blot.three_five_eight import Game, random_deal

    game = spec("3-5-8")
    rng = Random(seed)
    spent: dict[str, list[float]] = {"call": [], "exchange": [], "discard": []}
    made: list[str] = []
    for number in range(games):
        state = game.new_game(dealer=number % 3)
        assert isinstance(state, Game)
        players = [make_bot(game, "heuristic", Random(s)) for s in range(3)]
        while not state.results or state.results[-1].void:  # a first deal, for the exchange
            state.start_deal(random_deal(rng))
            play(state, players, until=deal_over)
        state.start_deal(random_deal(rng))
        experts = [make_bot(game, bot, Random(number * 3 + s)) for s in range(3)]
        deal = state.deal
        assert deal is not None
        while not deal.is_over:
            seat = state.to_act
            assert seat is not None
            phase = deal.phase.value
            if phase == "play":
                state.apply(players[seat].choose(state.view(seat)))
                continue
            start = time.process_time()
            action = experts[seat].choose(state.view(seat))
            if len(state.legal_actions()) > 1:
                spent[phase].append(time.process_time() - start)
            made.append(f"{seat}:{action}")
            state.apply(action)
    return spent, made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--bot", default="expert")
    args = parser.parse_args()
    from blot.bots import tfe_rollout
    from blot.solver._jit import COMPILED

    warm()
    compiled = timings(args.bot, args.games, args.seed)
    played_out = tfe_rollout.played_out
    tfe_rollout.played_out = python_played_out
    try:
        python = timings(args.bot, args.games, args.seed)
    finally:
        tfe_rollout.played_out = played_out
    how = "compiled with numba" if COMPILED else "plain Python (BLOT_NO_JIT or no numba)"
    print(f"3-5-8 {args.bot}'s played-out choices, {args.games} second deals, one core (CPU time), {how}:")
    for kind in ("call", "exchange", "discard"):
        ours, theirs = compiled[0][kind], python[0][kind]
        if not ours:
            print(f"  {kind:<9} none")
            continue
        print(
            f"  {kind:<9} {len(ours):>3} decisions: mean {1000 * statistics.mean(ours):7.1f} ms"
            f" (Python play-outs {1000 * statistics.mean(theirs):7.1f} ms), median"
            f" {1000 * statistics.median(ours):7.1f} ms ({1000 * statistics.median(theirs):7.1f} ms)"
        )
    same = compiled[1] == python[1]
    print(f"the same {len(compiled[1])} choices both ways: {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
