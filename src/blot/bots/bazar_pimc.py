"""``pimc``: Perfect Information Monte Carlo for Bazar Blot.

For each card decision it deals the hidden cards at random, consistent with everything its
view reveals (cards played, voids and trump limits shown by the play, belote, declarations
announced and shown; :mod:`blot.bots.bazar_info`), solves each deal double-dummy
(:mod:`blot.solver`) and plays the legal card with the best mean value over the samples.

Bidding evaluates candidate contracts the same way: for each strain it samples deals of the
other hands, solves each deal from the opening lead, and from the card points its side would
take works out the expected game-point margin of each level (B-50 … B-53, its declarations and
belote included) against passing; it bids the best, contras a contract the samples say fails
often, and redoubles one they say is safe.

Settings: ``samples`` (deals per card decision), ``seconds`` (a time limit per decision, which
stops sampling early), ``bid_samples`` (deals per strain when bidding), ``caution`` (card
points taken off the side holding a contract when judging it in bidding).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from random import Random

from blot.bazar.calls import CONTRA, PASS, REDOUBLE, Call
from blot.bazar.deal import Action, Phase
from blot.bazar.declarations import Declare, best_choice, choices
from blot.bazar.scoring import DealSummary, score_deal
from blot.bazar.tables import NT, STRAIN_INDEX
from blot.bazar.view import BazarView
from blot.bots.bazar_heuristic import STRAINS, HeuristicBot
from blot.bots.bazar_info import infer, sample_hands, tix_of
from blot.cards import DECK32, KING, QUEEN, Card
from blot.protocol import View


class PimcBot:
    """Samples hidden hands, solves each, plays the card with the best mean."""

    name = "pimc"

    def __init__(
        self,
        rng: Random | None = None,
        samples: int = 50,
        seconds: float = 1.0,
        bid_samples: int = 8,
        caution: int = 10,
        bidding: str = "pimc",
    ) -> None:
        if bidding not in ("pimc", "heuristic"):
            raise ValueError("bidding must be pimc or heuristic")
        self.bidding = bidding
        if samples < 1 or bid_samples < 1:
            raise ValueError("samples and bid_samples must be at least 1")
        if seconds <= 0:
            raise ValueError("seconds must be above 0")
        self.rng = rng or Random()
        self.caution = caution
        self.samples = samples
        self.seconds = seconds
        self.bid_samples = bid_samples
        self.fallback = HeuristicBot(self.rng)
        self._bid_cache: tuple[int, int, dict[str, list[int]]] | None = None
        from blot.solver import default_solver

        self.solver = default_solver()
        #: Samples used by the last card decision (for tests and measurements).
        self.last_samples = 0

    def reset(self) -> None:
        self._bid_cache = None

    def choose(self, view: View) -> Action:
        assert isinstance(view, BazarView)
        legal = view.legal
        if view.phase is Phase.BIDDING:
            if self.bidding == "heuristic":
                return self.fallback.call(view, legal)
            return self.call(view, legal)
        if type(legal[0]) is Declare:
            return best_choice([a for a in legal if type(a) is Declare], view.rules, tix_of(view))
        cards = [a for a in legal if type(a) is Card]
        if len(cards) == 1:
            return cards[0]
        return self.card(view, cards)

    # --- play ----------------------------------------------------------------------------------

    def card(self, view: BazarView, legal: list[Card]) -> Card:
        k = infer(view)
        tix = k.tix
        trick = [c.index for c in view.trick]
        left = 8 - len(view.tricks)
        totals = dict.fromkeys(legal, 0)
        start = time.perf_counter()
        done = 0
        for _ in range(self.samples):
            hands = sample_hands(k, self.rng)
            if hands is None:
                break
            solution = self.solver.solve_cards(hands, trick, view.trick_leader, tix, left)
            for c in legal:
                totals[c] += solution.values[c]
            done += 1
            if time.perf_counter() - start > self.seconds:
                break
        self.last_samples = done
        if not done:
            return self.fallback.card(view, legal)
        best = max(totals.values())
        tied = [c for c in legal if totals[c] == best]
        if len(tied) == 1:
            return tied[0]
        choice = self.fallback.card(view, legal)
        return choice if choice in tied else tied[0]

    # --- bidding -----------------------------------------------------------------------------

    def _card_points(self, view: BazarView) -> dict[str, list[int]]:
        """For each strain, the card points the bot's team takes in each sampled deal when
        everybody plays it double-dummy (the seat after the dealer leads)."""
        if self._bid_cache is not None and self._bid_cache[:2] == (view.dealer, view.hand):
            return self._bid_cache[2]
        rng = self.rng
        seat = view.seat
        hidden = DECK32 & ~view.hand
        others = [s for s in range(4) if s != seat]
        out: dict[str, list[int]] = {s: [] for s in STRAINS}
        leader = (view.dealer + 1) % 4
        for _ in range(self.bid_samples):
            bits = [1 << i for i in range(64) if hidden >> i & 1]
            rng.shuffle(bits)
            hands = [0, 0, 0, 0]
            hands[seat] = view.hand
            for j, s in enumerate(others):
                hands[s] = sum(bits[8 * j : 8 * j + 8])
            for strain in STRAINS:
                tix = STRAIN_INDEX[strain]
                solution = self.solver.solve_cards(hands, [], leader, tix, 8, all_cards=False)
                out[strain].append(solution.points[view.team])
        self._bid_cache = (view.dealer, view.hand, out)
        return out

    def _bonus(self, view: BazarView, strain: str) -> int:
        tix = STRAIN_INDEX[strain]
        declared = best_choice(choices(view.hand), view.rules, tix).declarations
        bonus = sum(d.points(view.rules, tix) for d in declared)
        if tix != NT and view.hand & (1 << (16 * tix + KING)) and view.hand & (1 << (16 * tix + QUEEN)):
            bonus += 2
        return bonus

    def _margin(self, view: BazarView, strain: str, level: int, multiplier: int, ours: bool) -> float:
        """Mean game-point margin for the bot's team if ``strain`` at ``level`` is played
        (contracted by the bot's team when ``ours``)."""
        team = view.team
        contractors = team if ours else 1 - team
        bonus = self._bonus(view, strain) if ours else 0
        total = 0.0
        samples = self._card_points(view)[strain]
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

    def call(self, view: BazarView, legal: Sequence[Action]) -> Call:
        current = next((c for _, c in reversed(view.calls) if c.is_bid), None)
        holder = next((s for s, c in reversed(view.calls) if c.is_bid), None)
        if REDOUBLE in legal:
            assert current is not None
            plain = self._margin(view, current.strain, current.level, 2, True)
            double = self._margin(view, current.strain, current.level, 4, True)
            return REDOUBLE if double > plain and plain > 0 else PASS
        # passing: the current contract stands (or, with none, a void deal worth 0)
        if current is None or holder is None:
            base = 0.0
        else:
            base = self._margin(view, current.strain, current.level, 1, holder % 2 == view.team)
        best: Call = PASS
        best_value = base
        if CONTRA in legal and current is not None:
            value = self._margin(view, current.strain, current.level, 2, False)
            if value > best_value + 3:
                best, best_value = CONTRA, value
        if holder is not None and holder % 2 == view.team:
            return best  # do not bid over our own side's contract
        bids = [a for a in legal if type(a) is Call and a.is_bid and a.level <= 24]
        for strain in STRAINS:
            options = [b for b in bids if b.strain == strain]
            if not options:
                continue
            lowest = options[0].level
            for level in range(lowest, min(lowest + 6, 25)):
                value = self._margin(view, strain, level, 1, True)
                if value > best_value + 2:
                    best, best_value = next(b for b in options if b.level == level), value
        return best
