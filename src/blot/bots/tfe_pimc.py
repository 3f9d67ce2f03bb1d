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
from typing import ClassVar

from blot.bots.sampling import BUDGET, best_cards, card_totals
from blot.bots.settings import Setting, check_values
from blot.bots.tfe_heuristic import HeuristicBot
from blot.bots.tfe_info import deal_view, infer, sample_hands
from blot.cards import Card
from blot.game import Action, View
from blot.solver.three_five_eight import default_tfe_solver
from blot.three_five_eight import Phase


class PimcBot:
    name = "pimc"
    #: The safety time limit per decision at web tables (:func:`blot.bots.make_bot`).
    WEB_SECONDS = 1.5
    SETTINGS: ClassVar[dict[str, Setting]] = {
        **BUDGET,
        "horizon": Setting(int, 1, 16, "tricks searched before the estimate", web_high=4),
        "exact": Setting(int, 0, 16, "tricks left from which samples are solved exactly", web_high=7),
    }

    def __init__(
        self,
        rng: Random | None = None,
        samples: int = 20,
        seconds: float | None = None,
        horizon: int = 3,
        exact: int = 7,
    ) -> None:
        check_values(PimcBot, {"samples": samples, "seconds": seconds, "horizon": horizon, "exact": exact})
        self.rng = rng or Random()
        self.samples = samples
        self.seconds = seconds
        self.horizon = horizon
        self.exact = exact
        self.fallback = HeuristicBot(self.rng)
        self.last_samples = 0
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
        trick = [c.index for _, c in deal.trick]
        leader = deal.trick[0][0] if deal.trick else deal.seat
        left = 16 - len(deal.tricks)
        horizon = 16 if left <= self.exact else self.horizon
        solve = default_tfe_solver().solve_cards
        totals, done = card_totals(
            cards,
            lambda: sample_hands(k, self.rng),
            lambda hands: solve(hands[:3], trick, leader, k.trump, left, deal.seat, horizon).values,
            self.samples,
            self.seconds,
            self.name,
        )
        self.last_samples = done
        if not done:
            return self.fallback.choose(view)
        tied = best_cards(totals)
        if len(tied) == 1:
            return tied[0]
        choice = self.fallback.choose(view)
        return choice if choice in tied else min(tied, key=lambda c: c.rank)
