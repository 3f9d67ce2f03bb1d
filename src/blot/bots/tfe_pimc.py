"""``pimc`` for 3-5-8: Perfect Information Monte Carlo card play.

For each card it deals the hidden cards at random consistent with its view
(:mod:`blot.bots.tfe_info`: cards played, voids and trump limits, the talon, the exchange steps
it saw; the first seat's discard is dealt as a fourth, dead hand when the seat has not seen it),
solves each deal with the 3-5-8 solver (:mod:`blot.solver.three_five_eight`: its own tricks
against the other two) and plays the card with the most tricks on average. The calls, the
exchange and the discard are the ``heuristic`` player's.

Settings: ``samples`` (deals per decision), ``seconds`` (a safety time limit per decision, unset
by default and set at web tables: :mod:`blot.bots.sampling`), ``horizon``
(tricks searched exactly before the solver estimates the rest; the last ``exact`` tricks are
always searched to the end).
"""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar

from blot.bots.sampling import Sampler, budget, card_totals, search
from blot.bots.settings import Setting
from blot.bots.tfe_heuristic import HeuristicBot
from blot.bots.tfe_info import deal_view, infer, lowest, sample_hands
from blot.cards import Card
from blot.game import Action, View
from blot.solver.three_five_eight import default_tfe_solver
from blot.three_five_eight import Phase


class PimcBot(Sampler):
    name = "pimc"
    #: The safety time limit per decision at web tables (:func:`blot.bots.make_bot`).
    WEB_SECONDS = 1.5
    SETTINGS: ClassVar[dict[str, Setting]] = {
        **budget(samples=20),
        **search(16, horizon=3, exact=7, web_horizon=4, web_exact=7),
    }

    def __init__(self, rng: Random | None = None, **settings: Any) -> None:
        super().__init__(rng, **settings)
        self.fallback = HeuristicBot(self.rng)
        from blot.solver import tfe_kernel
        from blot.solver._jit import warn_if_cold

        warn_if_cold(tfe_kernel)

    def choose(self, view: View) -> Action:
        deal = deal_view(view)
        legal = deal.legal
        if deal.phase is not Phase.PLAY or len(legal) == 1:
            return self.fallback.choose(view)
        cards = [a for a in legal if type(a) is Card]
        k = infer(deal)
        trick, leader, left, horizon = self.position(deal, 16)
        solve = default_tfe_solver().solve_cards
        totals, done = card_totals(
            cards,
            lambda: sample_hands(k, self.rng),
            lambda hands: solve(hands[:3], trick, leader, k.trump, left, deal.seat, horizon).values,
            self.samples,
            self.seconds,
            self.name,
        )
        return self.settle(totals, done, lambda: self.fallback.choose(view), lowest)
