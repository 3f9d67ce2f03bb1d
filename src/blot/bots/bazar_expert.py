"""``expert``: the strongest Bazar Blot player (issue 27): PIMC over deals weighted by the calls,
and a bidder that chooses its level, its contras and its redoubles by their expected score.

**Card play.** Like ``pimc`` it deals the hidden cards consistent with everything the view shows
and solves each deal double-dummy, but it does not treat those deals alike: it draws ``pool``
times as many, weighs each by how well its hands explain the calls the other seats made
(:mod:`blot.bots.bazar_belief`: a seat that bid hearts should hold hearts, a seat that passed
should hold little) and solves ``samples`` of them drawn in proportion to their weights. Early in
a deal each is searched ``horizon`` tricks deep and the rest guessed by a linear model fitted to
exact solutions (``leaf=fitted``, :func:`blot.solver.bazar_kernel.fitted_estimate`); from
``exact`` tricks left, exactly.

**Bidding.** Whether to bid and in which strain is the ``heuristic`` player's judgement (its
hand evaluation); the level, and whether to contra or redouble, are the expert's own. It deals
``bid_samples`` hands to the other seats (weighted by the calls, as above), searches each deal
from the opening lead in the strain at stake (``bid_horizon`` tricks deep, the fitted guess
beyond), scores it (B-50 … B-55: the card points less ``caution`` for the side holding the
contract, every seat's best declarations, belote, kapoot, and a contra where the opponents' hands
would call one) at every level, and calls the level with the best mean score: up to kapoot (25)
when nearly every deal takes all eight tricks (asked exactly: :meth:`Solver.takes_all`). A hand
that takes every trick itself whatever the others hold bids the top level at once, kanach (30)
where the rules allow it (:mod:`blot.bots.bazar_certain`). A
contra, a redouble, or passing instead of the heuristic's call must beat the heuristic's call by
``margin`` game points.

Settings: ``samples`` (deals solved per card), ``pool`` (deals drawn per deal solved), ``trust``
(how surely a call tells the hand: 0 weighs every deal alike, plain PIMC), ``leaf`` (``fitted`` or
``plain``), ``bid_samples``, ``bid_horizon``, ``caution``, ``margin``, ``kapoot`` (the share of the
bidding's deals that must take every trick before it bids kapoot), ``bidding`` (``expert``;
``heuristic`` or ``pimc`` for the other bots' calls, to measure the bidding alone), ``horizon``
and ``exact`` (as ``pimc``), ``seconds`` (a safety time limit, set at web tables).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar, Final

from blot.bazar.calls import CONTRA, PASS, REDOUBLE, Call
from blot.bazar.declarations import best_choice, choices, resolve
from blot.bazar.scoring import DealSummary, score_deal
from blot.bazar.tables import NT, STRAIN_INDEX
from blot.bazar.values import Action
from blot.bazar.view import DealView
from blot.bots.bazar_belief import CallModel, deal_others
from blot.bots.bazar_bot import last_bid
from blot.bots.bazar_certain import certain_call
from blot.bots.bazar_heuristic import HeuristicBot, defence, evaluate, heuristic_call
from blot.bots.bazar_info import Knowledge, infer, sample_hands
from blot.bots.bazar_pimc import SEARCH, BazarSampler
from blot.bots.sampling import (
    Clock,
    Weigher,
    budget,
    resample,
    weighing,
    weighted_card_totals,
    weighted_deals,
)
from blot.bots.settings import Setting
from blot.cards import KING, QUEEN, Card
from blot.solver import default_solver

#: What one dealt world gives the bot's team in a strain: its card points double-dummy from the
#: opening lead, the team that takes every trick (kapoot) or None, and the declaration points and
#: belote points of each team.
Solved = tuple[int, int | None, tuple[int, int], tuple[int, int]]

#: Card points from which a dealt world is asked whether a team takes every trick: the horizon
#: search guesses the last tricks, so it cannot tell a kapoot itself.
SWEEP_FROM: Final = 130


@dataclass
class _World:
    """One deal dealt for the bidding, with what it gives in each strain solved so far."""

    hands: list[int]
    draws: int
    solved: dict[str, Solved]


class ExpertBot(Weigher, BazarSampler):
    """PIMC over deals weighted by the calls; levels, contras and redoubles by expected score."""

    name = "expert"
    WEB_SECONDS = 1.0
    SETTINGS: ClassVar[dict[str, Setting]] = {
        **budget(samples=24),
        **weighing(trust=0.9),
        **SEARCH,
        "bid_samples": Setting(int, 1, 100, "deals solved per bidding decision", web_high=32, default=24),
        "margin": Setting(
            float, 0, 100, "game points by which another call must beat the heuristic's", default=2.0
        ),
        "bidding": Setting(
            str, help="whose calls", choices=("expert", "heuristic", "pimc"), default="expert"
        ),
        "bid_horizon": Setting(
            int, 1, 8, "tricks searched before the estimate when bidding", web_high=5, default=3
        ),
        "kapoot": Setting(
            float, 0, 1, "share of the bidding deals that must take all tricks to bid kapoot", default=0.9
        ),
    }
    bid_horizon: int
    kapoot: float

    def __init__(self, rng: Random | None = None, **settings: Any) -> None:
        super().__init__(rng, **settings)
        self.fallback = HeuristicBot(self.rng)
        self._model: tuple[tuple[object, ...], CallModel] | None = None
        self._bid_pool: tuple[tuple[object, ...], list[_World]] | None = None
        from blot.bots.bazar_pimc import PimcBot
        from blot.solver import bazar_kernel
        from blot.solver._jit import warn_if_cold

        self._pimc = (
            PimcBot(self.rng, bidding="pimc", seconds=self.seconds) if self.bidding == "pimc" else None
        )
        warn_if_cold(bazar_kernel)

    def reset(self) -> None:
        self._model = None
        self._bid_pool = None
        if self._pimc is not None:
            self._pimc.reset()

    def call_model(self, view: DealView, dealt: int) -> CallModel:
        """The model of the other seats' calls in this deal (kept from one decision to the next,
        with the weights it has worked out)."""
        key = (view.dealer, dealt, view.calls, view.rules)
        if self._model is None or self._model[0] != key:
            self._model = (key, CallModel(view, self.trust))
        return self._model[1]

    # --- play ----------------------------------------------------------------------------------

    def knowledge(self, view: DealView) -> Knowledge:
        """What the seat knows of the hidden cards when it plays: its view's inferences (the
        fair-play tests' ``cheat`` adds the hands it peeked at, :mod:`blot.bots.cheat`)."""
        return infer(view)

    def card(self, view: DealView, legal: list[Card]) -> Card:
        if len(legal) == 1:
            return legal[0]
        k = self.knowledge(view)
        played_by = k.played_by
        model = self.call_model(view, view.hand | played_by[view.seat])
        pool = self.samples * self.pool if model.informative else self.samples
        deals = weighted_deals(
            lambda: sample_hands(k, self.rng),
            lambda hands: model.weight([hands[s] | played_by[s] for s in range(4)]),
            self.samples,
            pool,
            self.rng,
        )
        trick, leader, left, horizon = self.position(view, 8)
        solver = default_solver()

        def solve(hands: list[int]) -> Mapping[Card, int]:
            return solver.solve_cards(hands, trick, leader, k.tix, left, True, horizon, self.fitted).values

        totals, done = weighted_card_totals(legal, deals, len(deals), solve, self.seconds, self.name)
        return self.settle(totals, done, lambda: self.fallback.card(view, legal), lambda tied: tied[0])

    # --- bidding -------------------------------------------------------------------------------

    def call(self, view: DealView, legal: Sequence[Action]) -> Call:
        proposal = heuristic_call(view.hand, view.seat, view.calls, view.rules, legal, self.boldness)
        if self.bidding == "heuristic":
            return proposal
        if self._pimc is not None:
            return self._pimc.call(view, legal)
        certain = certain_call(view, legal)
        if certain is not None:
            return certain  # a sweep whatever the others hold: the top bid, or the redouble
        current, holder = last_bid(view)
        ours = holder is not None and holder % 2 == view.team
        candidates: list[Call] = []
        if REDOUBLE in legal:
            candidates = [PASS, REDOUBLE]
        elif proposal.is_bid:
            candidates = [c for c in legal if type(c) is Call and c.is_bid and c.strain == proposal.strain]
            if current is not None and not ours:
                candidates += [PASS, *([CONTRA] if CONTRA in legal else [])]
        elif CONTRA in legal:
            candidates = [PASS, CONTRA]
        if len(candidates) < 2:
            return proposal
        worlds = self._worlds(view)
        if not worlds:
            return proposal
        strains = {c.strain for c in candidates if c.is_bid}
        if current is not None and not all(c.is_bid for c in candidates):
            strains.add(current.strain)
        clock = Clock(self.seconds)
        solved: list[_World] = []
        for i, world in enumerate(worlds):  # every candidate on the same deals, however many
            if i and clock.expired():
                clock.note_cut(self.name, i, len(worlds), "deals when bidding")
                break
            for strain in strains:
                self._solve(view, world, strain)
            solved.append(world)
        sure = {(strain, team) for strain in strains for team in (0, 1) if self._sweeps(solved, strain, team)}
        weight = sum(world.draws for world in solved)
        scored = {
            c: sum(w.draws * self._world_score(view, w, c, current, holder, sure) for w in solved) / weight
            for c in candidates
        }
        best = max(scored, key=lambda c: scored[c])
        if proposal in scored and best.is_bid and proposal.is_bid:
            return best  # the level: whichever scores best
        if proposal in scored and scored[best] <= scored[proposal] + self.margin:
            if proposal.is_bid:  # keep the heuristic's strain, at its best level
                return max((c for c in scored if c.is_bid), key=lambda c: scored[c])
            return proposal
        return best

    def _sweeps(self, worlds: list[_World], strain: str, team: int) -> bool:
        """Whether ``team`` takes every trick in nearly all of the bidding's deals (solved in
        ``strain``): at least the share ``kapoot`` of them. Double-dummy play, knowing every
        card, takes all eight far more often than play at the table (kapoot bid on two deals in
        three of that kind went down), so short of that share a deal's sweep is not believed."""
        draws = sum(w.draws for w in worlds)
        return sum(w.draws for w in worlds if w.solved[strain][1] == team) >= self.kapoot * draws

    def _worlds(self, view: DealView) -> list[_World]:
        """The deals the bidding is judged on: ``bid_samples`` drawn, in proportion to how well
        they explain the calls so far, from ``pool`` times as many deals of the other hands. The
        pool is dealt once per deal and kept with what each of its deals gave when solved, so a
        later call of the same deal only solves what it has not solved yet."""
        key = (view.dealer, view.hand, view.rules)
        if self._bid_pool is None or self._bid_pool[0] != key:
            size = self.bid_samples * self.pool
            self._bid_pool = (key, [_World(deal_others(view, self.rng), 0, {}) for _ in range(size)])
        pool = self._bid_pool[1]
        model = self.call_model(view, view.hand)
        weights = [model.weight(w.hands) for w in pool] if model.informative else [1.0] * len(pool)
        drawn = resample(weights, self.bid_samples, self.rng)
        for i, draws in drawn:
            pool[i].draws = draws
        return [pool[i] for i, _ in drawn]

    def _solve(self, view: DealView, world: _World, strain: str) -> Solved:
        """The bot's team's card points double-dummy in ``strain`` from the opening lead, and
        each team's declaration and belote points, for one dealt world."""
        found = world.solved.get(strain)
        if found is None:
            tix = STRAIN_INDEX[strain]
            leader = (view.dealer + 1) % 4
            solver = default_solver()
            solved = solver.solve_cards(world.hands, [], leader, tix, 8, False, self.bid_horizon, self.fitted)
            points = solved.points[view.team]
            sweeper = None
            for team, share in ((view.team, points), (1 - view.team, 162 - points)):
                if share >= SWEEP_FROM and solver.takes_all(world.hands, leader, tix, team):
                    sweeper = team
            declared = [best_choice(choices(h), view.rules, tix).declarations for h in world.hands]
            outcome = resolve(declared, view.rules, tix, leader)
            belote = [0, 0]
            if tix != NT:
                pair = (1 << (16 * tix + KING)) | (1 << (16 * tix + QUEEN))
                for seat, hand in enumerate(world.hands):
                    if hand & pair == pair:
                        belote[seat % 2] = 2
            found = world.solved[strain] = (points, sweeper, outcome.points, (belote[0], belote[1]))
        return found

    def _world_score(
        self,
        view: DealView,
        world: _World,
        call: Call,
        current: Call | None,
        holder: int | None,
        sure: set[tuple[str, int]],
    ) -> int:
        """The bot's team's game-point margin in one dealt world if it makes ``call`` and the
        bidding then ends (the opponents contra a bid of ours where the heuristic player would
        with their hands, and redouble a contra of theirs where it would). A team's sweep of
        all tricks counts only where ``sure`` holds its strain and team (:meth:`_sweeps`)."""
        if call.is_bid:
            contract, declarer, multiplier = call, view.seat, 1
        elif current is None or holder is None:
            return 0  # everybody passing is a void deal
        else:
            contract, declarer = current, holder
            contra_called = any(c is CONTRA for _, c in view.calls)
            multiplier = 4 if call is REDOUBLE else 2 if call is CONTRA or contra_called else 1
        solved = self._solve(view, world, contract.strain)
        if solved[1] is not None and (contract.strain, solved[1]) not in sure:
            solved = (solved[0], None, *solved[2:])
        if call.is_bid and self._opponents_contra(view, world, call):
            multiplier = 2
        elif call is CONTRA and self._redoubled(view, world, contract, declarer):
            multiplier = 4
        return self._score(view.team, declarer % 2, contract.level, multiplier, solved)

    def _score(
        self,
        team: int,
        contractors: int,
        level: int,
        multiplier: int,
        solved: Solved,
    ) -> int:
        """The bot's team's game points minus the other team's for one solved deal."""
        points, kapoot, declared, belote = solved
        if kapoot is None:
            # double-dummy play flatters the side holding the contract: count a few points less
            shift = -self.caution if contractors == team else self.caution
            points = max(1, min(161, points + shift))
        else:
            points = 162 if kapoot == team else 0
        card_points = (points, 162 - points) if team == 0 else (162 - points, points)
        summary = DealSummary(contractors, level, multiplier, card_points, kapoot, False, declared, belote)
        result = score_deal(summary).points
        return result[team] - result[1 - team]

    def _opponents_contra(self, view: DealView, world: _World, bid: Call) -> bool:
        """Whether the heuristic player would contra ``bid`` from either opponent's hand."""
        if bid.level < 10:
            return False
        need = 162 - 10 * bid.level + 25
        return any(defence(world.hands[(view.seat + i) % 4], bid.strain) + 30 > need for i in (1, 3))

    def _redoubled(self, view: DealView, world: _World, contract: Call, declarer: int) -> bool:
        """Whether the heuristic player would redouble our contra from either contractor's hand."""
        for s in (declarer, (declarer + 2) % 4):
            partner = next((c.strain for p, c in view.calls if p == (s + 2) % 4 and c.is_bid), None)
            if evaluate(world.hands[s], contract.strain, view.rules, partner) >= contract.level + 5:
                return True
        return False
