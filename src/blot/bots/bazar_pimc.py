"""``pimc``: Perfect Information Monte Carlo for Bazar Blot.

For each card decision it deals the hidden cards at random, consistent with everything its
view reveals (cards played, voids and trump limits shown by the play, belote, declarations
announced and shown; :mod:`blot.bots.bazar_info`), solves each deal double-dummy
(:mod:`blot.solver`) and plays the legal card with the best mean value over the samples.

By default it makes the ``heuristic`` player's calls: over 2,000 duplicate deals those bid better
than the sampled bidding (docs/players.md, Strength). With ``bidding=pimc`` it judges calls the way it
judges cards: pass, the heuristic's call, contra, and the cheapest bid in the strain the hand
evaluation rates best. It samples deals of the other hands that fit the bids made so far, solves
each deal from the opening lead in each strain it needs, and from the card points its side would
take works out each candidate's mean game-point margin (B-50 … B-54, its declarations and belote
included); it makes the best call unless the heuristic's is within ``margin`` of it.

Early in a deal each sampled deal is searched ``horizon`` tricks deep and the rest of its card
points estimated (:func:`blot.solver.bazar_kernel.estimate`); once ``exact`` tricks or fewer
remain every sample is solved to the end, exactly.

Settings: ``samples`` (deals per card decision), ``seconds`` (a safety time limit per decision,
unset by default and set at web tables: :mod:`blot.bots.sampling`), ``horizon`` and ``exact``
(above), ``bid_samples`` (deals per strain when bidding), ``caution`` (card points taken off
the side holding a contract when judging it in bidding), ``margin`` (game points by which the
samples must prefer another call to the heuristic player's), ``bidding`` (``heuristic``, the
default, or ``pimc`` for the sampled bidding).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any, ClassVar, Final

from blot.bazar.calls import CONTRA, PASS, REDOUBLE, Call
from blot.bazar.declarations import best_choice, choices
from blot.bazar.scoring import DealSummary, score_deal
from blot.bazar.tables import NT, STRAIN_INDEX
from blot.bazar.values import Action
from blot.bazar.view import DealView
from blot.bots.bazar_bot import BazarBot, last_bid
from blot.bots.bazar_heuristic import STRAINS, HeuristicBot, evaluate
from blot.bots.bazar_info import infer, sample_hands
from blot.bots.sampling import Clock, Sampler, budget, card_totals, search
from blot.bots.settings import Setting
from blot.cards import DECK32, KING, QUEEN, Card
from blot.solver import default_solver

#: The settings of the Bazar search bots' bidding and play, the same for ``pimc`` and ``expert``.
SEARCH: Final = {
    "caution": Setting(int, 0, 80, "card points taken off a contract's side when bidding", default=10),
    **search(8, horizon=4, exact=5),
}


class BazarSampler(Sampler, BazarBot):
    """What both Bazar search bots (``pimc``, ``expert``) are built with besides a sampler's:
    their bidding's samples, whose calls they make, and the margins of :data:`SEARCH`."""

    caution: int
    bid_samples: int
    bidding: str
    margin: float


class PimcBot(BazarSampler):
    """Samples hidden hands, solves each, plays the card with the best mean."""

    name = "pimc"
    #: The safety time limit per decision at web tables (:func:`blot.bots.make_bot`).
    WEB_SECONDS = 1.0
    SETTINGS: ClassVar[dict[str, Setting]] = {
        **budget(samples=50),
        "bid_samples": Setting(int, 1, 100, "deals sampled per strain when bidding", web_high=16, default=8),
        "bidding": Setting(str, help="whose calls", choices=("heuristic", "pimc"), default="heuristic"),
        "margin": Setting(float, 0, 100, "game points the samples must prefer another call by", default=6.0),
        **SEARCH,
    }

    def __init__(self, rng: Random | None = None, **settings: Any) -> None:
        super().__init__(rng, **settings)
        self.fallback = HeuristicBot(self.rng)
        self._bid_cache: tuple[tuple[int, int, int], list[list[int]], dict[str, list[int]]] | None = None
        self._clock = Clock(None)
        from blot.solver import bazar_kernel
        from blot.solver._jit import warn_if_cold

        warn_if_cold(bazar_kernel)

    def reset(self) -> None:
        self._bid_cache = None

    # --- play ----------------------------------------------------------------------------------

    def card(self, view: DealView, legal: list[Card]) -> Card:
        if len(legal) == 1:
            return legal[0]
        k = infer(view)
        tix = k.tix
        trick, leader, left, horizon = self.position(view, 8)
        totals, done = card_totals(
            legal,
            lambda: sample_hands(k, self.rng),
            lambda hands: (
                default_solver().solve_cards(hands, trick, leader, tix, left, horizon=horizon).values
            ),
            self.samples,
            self.seconds,
            self.name,
        )
        return self.settle(totals, done, lambda: self.fallback.card(view, legal), lambda tied: tied[0])

    # --- bidding -----------------------------------------------------------------------------

    def _deals(self, view: DealView) -> list[list[int]]:
        """Sampled deals for the bidding: the other hands at random, kept only when every bid
        made so far is one the heuristic evaluation would make with the hand sampled for its
        bidder (give or take three levels; after 30 refusals a deal is kept anyway)."""
        seat = view.seat
        hidden = [1 << i for i in range(64) if (DECK32 & ~view.hand) >> i & 1]
        others = [s for s in range(4) if s != seat]
        bids = [(s, c) for s, c in view.calls if s != seat and c.is_bid]
        out = []
        for _ in range(self.bid_samples):
            for _attempt in range(30):
                self.rng.shuffle(hidden)
                hands = [0, 0, 0, 0]
                hands[seat] = view.hand
                for j, s in enumerate(others):
                    hands[s] = sum(hidden[8 * j : 8 * j + 8])
                if all(evaluate(hands[s], c.strain, view.rules) >= c.level - 3 for s, c in bids):
                    break
            out.append(hands)
        return out

    def _card_points(self, view: DealView, strain: str) -> list[int]:
        """The card points the bot's team takes in each sampled deal when everybody plays
        ``strain`` double-dummy (the seat after the dealer leads)."""
        key = (view.dealer, view.hand, len([c for _, c in view.calls if c.is_bid]))
        if self._bid_cache is None or self._bid_cache[0] != key:
            self._bid_cache = (key, self._deals(view), {})
        _, deals, solved = self._bid_cache
        if strain not in solved:
            leader = (view.dealer + 1) % 4
            tix = STRAIN_INDEX[strain]
            points = solved[strain] = []
            for hands in deals:
                solution = default_solver().solve_cards(hands, [], leader, tix, 8, False, self.horizon + 1)
                points.append(solution.points[view.team])
                if len(points) < len(deals) and self._clock.expired():
                    self._clock.note_cut(self.name, len(points), len(deals), f"deals in {strain}")
                    break
        return solved[strain]

    def _bonus(self, view: DealView, strain: str) -> int:
        tix = STRAIN_INDEX[strain]
        declared = best_choice(choices(view.hand), view.rules, tix).declarations
        bonus = sum(d.points(view.rules, tix) for d in declared)
        if tix != NT and view.hand & (1 << (16 * tix + KING)) and view.hand & (1 << (16 * tix + QUEEN)):
            bonus += 2
        return bonus

    def _margin(self, view: DealView, strain: str, level: int, multiplier: int, ours: bool) -> float:
        """Mean game-point margin for the bot's team if ``strain`` at ``level`` is played
        (contracted by the bot's team when ``ours``)."""
        team = view.team
        contractors = team if ours else 1 - team
        bonus = self._bonus(view, strain) if ours else 0
        total = 0.0
        samples = self._card_points(view, strain)
        for solved in samples:
            kapoot = None if 0 < solved < 162 else (team if solved == 162 else 1 - team)
            # Double-dummy play and the best of many noisy options flatter every contract:
            # count a few card points less for the side that would hold it.
            mine = solved - self.caution if ours else solved + self.caution
            mine = max(1, min(161, mine)) if kapoot is None else solved
            cp = (mine, 162 - mine) if team == 0 else (162 - mine, mine)
            decl = [0, 0]
            decl[contractors] = bonus
            summary = DealSummary(
                team=contractors,
                level=level,
                multiplier=multiplier,
                card_points=cp,
                kapoot=kapoot,
                declaration_points=(decl[0], decl[1]),
            )
            points = score_deal(summary).points
            total += points[team] - points[1 - team]
        return total / len(samples)

    def call(self, view: DealView, legal: Sequence[Action]) -> Call:
        """The heuristic's call, or with ``bidding=pimc`` the sampled one."""
        if self.bidding == "heuristic":
            return self.fallback.call(view, legal)
        self._clock = Clock(self.seconds)
        return self.sampled_call(view, legal)

    def sampled_call(self, view: DealView, legal: Sequence[Action]) -> Call:
        """Candidate calls: pass, the heuristic player's call, contra when it is legal, and the
        cheapest bid in the strain the heuristic evaluation rates best; each is judged by its
        mean game-point margin over the sampled deals; the heuristic's call stands unless another
        beats it by ``margin``."""
        current, holder = last_bid(view)
        proposal = self.fallback.call(view, legal)
        if REDOUBLE in legal:
            assert current is not None
            plain = self._margin(view, current.strain, current.level, 2, True)
            double = self._margin(view, current.strain, current.level, 4, True)
            return REDOUBLE if double > plain + 2 and plain > 0 else PASS
        candidates: list[Call] = [PASS, proposal]
        if CONTRA in legal:
            candidates.append(CONTRA)
        if holder is None or holder % 2 != view.team:
            partner = next((c.strain for s, c in view.calls if s == (view.seat + 2) % 4 and c.is_bid), None)
            rated = max(STRAINS, key=lambda x: evaluate(view.hand, x, view.rules, partner))
            if evaluate(view.hand, rated, view.rules, partner) >= 8:
                cheapest = next(
                    (a for a in legal if type(a) is Call and a.is_bid and a.strain == rated), None
                )
                if cheapest is not None and cheapest.level <= 16:
                    candidates.append(cheapest)

        def value(call: Call) -> float:
            if call is CONTRA:
                assert current is not None
                return self._margin(view, current.strain, current.level, 2, False)
            if call.is_bid:
                return self._margin(view, call.strain, call.level, 1, True)
            if current is None or holder is None:
                return 0.0  # everybody passing is a void deal
            return self._margin(view, current.strain, current.level, 1, holder % 2 == view.team)

        scored = {c: value(c) for c in dict.fromkeys(candidates)}
        best = max(scored, key=lambda c: scored[c])
        return proposal if scored[best] <= scored[proposal] + self.margin else best
