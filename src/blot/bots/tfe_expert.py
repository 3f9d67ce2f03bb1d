"""``expert`` for 3-5-8 (issue 27): PIMC over deals weighted by the trump calls, with a horizon
estimate fitted to exact values; the trump call and the discard judged by playing them out.

**Card play.** As ``pimc`` (:mod:`blot.bots.tfe_pimc`) it deals the hidden cards consistent with
its view and solves each deal, but it draws ``pool`` times as many deals and solves ``samples``
of them drawn in proportion to how well each explains the calls: a seat that named a trump
should hold the hand the ``basic`` player names it with (:func:`blot.bots.tfe_basic.trump_call`),
a seat that passed a hopeless one (``trust`` 0 weighs every deal alike). Each deal is searched
``horizon`` tricks deep, and what lies beyond is guessed by a linear model fitted to exact
solutions (``leaf=fitted``, :func:`blot.solver.tfe_kernel.fitted_estimate`: about half the error
of the plain guess ``pimc`` uses). From ``exact`` = 9 tricks left (``pimc``: 7) each deal is
solved to the end; those searches cost more, so it solves fewer deals than ``pimc`` (14 against
20) in about the same time, and plays the middle of the deal without a guess (measured:
docs/players.md, *expert against pimc*).

**Trump call and discard** (``choices=rollout``, the default). For the call it deals the cards
it cannot see ``call_samples`` times (the other two hands and the talon) and plays each strain
out to the end with ``heuristic`` players at every seat (:mod:`blot.bots.tfe_rollout`); it names
the strain with the best mean score when that beats the heuristic player's strain by
``CALL_MARGIN`` tricks a deal. Holding the talon, it plays out the ``basic`` player's four cards
to put back and other sets (each short side suit emptied, the lowest cards) over ``call_samples``
deals of the other two hands, and puts back the best. Measured on their own
(``benchmarks/choices.py``, docs/players.md) these choices beat the heuristic player's, which
``pimc`` makes: +0.017 tricks per seat and deal [+0.001, +0.033] over 1,000 duplicate deals, most
of it from the discard. ``choices=heuristic`` makes the heuristic player's choices;
``choices=expert`` searches both double-dummy instead, which measured worse (-0.026 [-0.064,
+0.013], 300 deals). Where the exchange is still to come (T-20), the played-out call plays it
out too, the heuristic player giving at every seat.

**Gifts** (``gifts=rollout``, the default). Each card to give in the exchange is judged the same
way: the lowest card of each suit it holds (the heuristic player's gift among them) played out
over ``call_samples`` deals of the hidden cards that fit what the exchange has shown so far (a
receiver whose return was his strongest card of a suit holds nothing above it, T-21), the best
mean score given, the heuristic player's gift on a tie. ``gifts=heuristic`` gives as the
heuristic player does (``pimc``'s gifts). Measured alone on 1,000 second deals of a game
(``benchmarks/choices.py --later``): +0.017 [-0.001, +0.036] tricks per seat and deal; the call,
gifts and discard together against the heuristic player's: +0.042 [+0.002, +0.082] (600 deals).

Settings: ``samples``, ``pool``, ``trust``, ``leaf``, ``choices`` (``rollout``, ``heuristic`` or
``expert``), ``gifts`` (``rollout`` or ``heuristic``), ``call_samples``, ``horizon`` and ``exact``
(as ``pimc``), ``seconds`` (a safety time limit, set at web tables).
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any, ClassVar

from blot.bots import tfe_rollout as rollout
from blot.bots.sampling import (
    Clock,
    Weigher,
    budget,
    deal_rest,
    search,
    weighing,
    weighted_card_totals,
    weighted_deals,
)
from blot.bots.settings import Setting
from blot.bots.tfe_basic import discard_bit, trump_call
from blot.bots.tfe_heuristic import HeuristicBot
from blot.bots.tfe_info import DISCARD, TfeKnowledge, deal_view, infer, lowest, sample_hands
from blot.cards import CARD_OF_BIT, DECK52, SUIT_MASKS, Card, iter_bits
from blot.game import Action, View
from blot.solver.three_five_eight import default_tfe_solver
from blot.three_five_eight import NO_TRUMP, PASS, Call, DealView, Phase

#: Tricks per deal by which a strain must beat the heuristic player's to be named instead.
CALL_MARGIN = 0.25


class TfeCallModel:
    """The likelihood of the other seats' trump calls for the hands a deal gives them."""

    def __init__(self, deal: DealView, trust: float, margin: float) -> None:
        self.seat = deal.seat
        self.miss = 1.0 - trust
        self.first = (deal.dealer + 1) % 3
        self.targets = deal.targets
        self.margin = margin
        #: (seat, call, whether it could still pass, cards the exchange was to bring it)
        self.steps: list[tuple[int, Call, bool, int]] = []
        for i, call in enumerate(deal.calls):
            seat = (self.first + i) % 3
            if seat != deal.seat:
                receives = sum(1 for _, receiver in deal.plan if receiver == seat)
                self.steps.append((seat, call, call is PASS or deal.may_pass[seat], receives))
        self._cache: dict[tuple[int, int], float] = {}

    @property
    def informative(self) -> bool:
        return self.miss < 1.0 and bool(self.steps)

    def weight(self, dealt: list[int]) -> float:
        """The likelihood of the calls seen for the hands ``dealt`` (each seat's 16 cards as
        dealt, before the exchange and the talon)."""
        weight = 1.0
        for seat, call, may_pass, receives in self.steps:
            key = (seat, dealt[seat])
            w = self._cache.get(key)
            if w is None:
                first = seat == self.first
                model = trump_call(dealt[seat], first, self.targets[seat], receives, may_pass, self.margin)
                w = self._cache[key] = 1.0 if model is call else self.miss
            weight *= w
        return weight


class ExpertBot(Weigher):
    """PIMC over call-weighted deals; the trump call and the discard by search."""

    name = "expert"
    WEB_SECONDS = 1.5
    SETTINGS: ClassVar[dict[str, Setting]] = {
        **budget(samples=14),
        **weighing(trust=0.8),
        "call_samples": Setting(int, 1, 100, "deals judged per strain or discard", web_high=40, default=40),
        "choices": Setting(
            str, help="whose call and discard", choices=("expert", "heuristic", "rollout"), default="rollout"
        ),
        "gifts": Setting(
            str, help="whose exchange gifts", choices=("heuristic", "rollout"), default="rollout"
        ),
        **search(16, horizon=3, exact=9, web_horizon=4, web_exact=9),
    }
    call_samples: int
    choices: str
    gifts: str

    def __init__(self, rng: Random | None = None, **settings: Any) -> None:
        super().__init__(rng, **settings)
        self.fallback = HeuristicBot(self.rng)
        self._discards: tuple[int, int] | None = None  # (hand when chosen, the four cards)
        self._model: tuple[tuple[object, ...], TfeCallModel] | None = None
        from blot.solver import tfe_kernel
        from blot.solver._jit import warn_if_cold

        warn_if_cold(tfe_kernel)

    def reset(self) -> None:
        self._discards = None
        self._model = None

    def choose(self, view: View) -> Action:
        deal = deal_view(view)
        legal = deal.legal
        if len(legal) == 1:
            return legal[0]
        if deal.phase is Phase.PLAY:
            return self._card(deal, [a for a in legal if type(a) is Card], view)
        if self.choices != "heuristic" and deal.phase is Phase.CALL:
            return self._call(deal, view) if self.choices == "expert" else self._rollout_call(deal, view)
        if self.choices != "heuristic" and deal.phase is Phase.DISCARD:
            return self._discard(deal)
        if self.gifts == "rollout" and deal.phase is Phase.EXCHANGE:
            return self._gift(deal, view)
        return self.fallback.choose(view)

    # --- play ----------------------------------------------------------------------------------

    def knowledge(self, deal: DealView) -> TfeKnowledge:
        """What the seat knows of the hidden cards when it plays: its view's inferences (the
        fair-play tests' ``cheat`` adds the hands it peeked at, :mod:`blot.bots.cheat`)."""
        return infer(deal)

    def _card(self, deal: DealView, legal: list[Card], view: View) -> Card:
        k = self.knowledge(deal)
        key = (deal.dealer, deal.calls, deal.plan, deal.talon, deal.seat)
        if self._model is None or self._model[0] != key:  # kept for the deal, with its weights
            self._model = (key, TfeCallModel(deal, self.trust, self.fallback.pass_margin))
        model = self._model[1]
        pool = self.samples * self.pool if model.informative else self.samples
        talon = deal.talon or 0
        played = _played_by(deal)

        def dealt(hands: list[int]) -> list[int]:
            """Each seat's cards before the talon and the play (the first seat's discard back)."""
            out = [hands[s] | played[s] for s in range(3)]
            if k.sizes[DISCARD]:
                out[k.first] = (out[k.first] | hands[DISCARD]) & ~talon
            return out

        deals = weighted_deals(
            lambda: sample_hands(k, self.rng),
            lambda hands: model.weight(dealt(hands)),
            self.samples,
            pool,
            self.rng,
        )
        trick, leader, left, horizon = self.position(deal, 16)
        solver = default_tfe_solver()
        seat, fitted = deal.seat, self.fitted

        def solve(hands: list[int]) -> Mapping[Card, int]:
            return solver.solve_cards(hands[:3], trick, leader, k.trump, left, seat, horizon, fitted).values

        totals, done = weighted_card_totals(legal, deals, len(deals), solve, self.seconds, self.name)
        # The heuristic player's card breaks a tie, and decides when no deal was solved.
        card = self.settle(totals, done, lambda: self.fallback.choose(view), lowest)
        assert type(card) is Card
        return card

    # --- the trump call ----------------------------------------------------------------------

    def _call(self, deal: DealView, view: View) -> Action:
        proposal = self.fallback.choose(view)
        if proposal is PASS:
            return PASS
        me = deal.seat
        first = (deal.dealer + 1) % 3
        unseen = list(iter_bits(DECK52 & ~deal.hand))
        strains = [c for c in deal.legal if type(c) is Call and c is not PASS]
        totals = dict.fromkeys(strains, 0.0)
        clock = Clock(self.seconds)
        solver = default_tfe_solver()
        rng = _choice_rng(deal)
        for n in range(self.call_samples):
            rng.shuffle(unseen)
            hands = [0, 0, 0]
            hands[me] = deal.hand
            others = [s for s in range(3) if s != me]
            hands[others[0]] = sum(unseen[:16])
            hands[others[1]] = sum(unseen[16:32])
            talon = sum(unseen[32:36])
            for strain in strains:
                trump = strain.suit
                play = list(hands)
                play[first] = _without(play[first] | talon, trump)
                solution = solver.solve_cards(play, [], first, trump, 16, me, self.horizon, self.fitted)
                totals[strain] += max(solution.values.values()) if first == me else _value(solution, me)
            if n + 1 < self.call_samples and clock.expired():
                clock.note_cut(self.name, n + 1, self.call_samples, "deals when calling")
                break
        best = max(totals, key=lambda c: totals[c])
        if proposal in totals and totals[best] <= totals[proposal] + CALL_MARGIN * self.call_samples:
            return proposal
        return best

    def _rollout_call(self, deal: DealView, view: View) -> Action:
        proposal = self.fallback.choose(view)
        if proposal is PASS:
            return PASS
        strains = [c for c in deal.legal if type(c) is Call and c is not PASS]
        assert type(proposal) is Call
        return rollout.best_call(
            deal, strains, proposal, CALL_MARGIN, self.call_samples, _choice_rng(deal), Clock(self.seconds)
        )

    # --- the exchange ------------------------------------------------------------------------

    def _gift(self, deal: DealView, view: View) -> Card:
        proposal = self.fallback.choose(view)
        assert type(proposal) is Card
        k = infer(deal)
        return rollout.best_gift(
            deal, proposal, lambda rng: sample_hands(k, rng), self.call_samples, _choice_rng(deal),
            Clock(self.seconds),
        )  # fmt: skip

    # --- the discard -------------------------------------------------------------------------

    def _discard(self, deal: DealView) -> Card:
        trump = deal.trump.suit if deal.trump is not None and deal.trump is not NO_TRUMP else None
        hand = deal.hand
        plan = self._discards
        # a plan holds while every card gone since it was made is one of its four
        if plan is None or hand & ~plan[0] or (plan[0] & ~hand) & ~plan[1]:
            plan = self._discards = (hand, self._best_discard(deal, trump))
        cards = plan[1] & hand
        return CARD_OF_BIT[cards & -cards]

    def _best_discard(self, deal: DealView, trump: int | None) -> int:
        """The four cards to put back (T-22) that keep the seat the most tricks."""
        hand = deal.hand
        put_back = 4 - (20 - hand.bit_count())
        candidates = _discard_sets(hand, trump, put_back)
        if len(candidates) == 1:
            return candidates[0]
        me = deal.seat
        k = infer(deal)
        others = [s for s in range(3) if s != me]
        if self.choices == "rollout":
            return rollout.best_discard(
                deal, candidates, lambda rng: _deal_others(k, others, rng), self.call_samples,
                _choice_rng(deal), Clock(self.seconds),
            )  # fmt: skip
        solver = default_tfe_solver()
        totals = dict.fromkeys(candidates, 0)
        clock = Clock(self.seconds)
        rng = _choice_rng(deal)
        for n in range(self.call_samples):
            hands = _deal_others(k, others, rng)
            if hands is None:
                break
            for cards in candidates:
                play = list(hands[:3])
                play[me] = hand & ~cards
                solution = solver.solve_cards(play, [], me, trump, 16, me, self.horizon, self.fitted)
                totals[cards] += max(solution.values.values())
            if n + 1 < self.call_samples and clock.expired():
                clock.note_cut(self.name, n + 1, self.call_samples, "deals when discarding")
                break
        best = max(totals.values())
        return next(c for c in candidates if totals[c] == best)  # the basic player's set on a tie


def _choice_rng(deal: DealView) -> Random:
    """The searched call's and discard's own random numbers, drawn from the seat's cards and place
    rather than the bot's generator: the card play then draws the same numbers whichever way the
    choices are made, so that measuring the choices alone (``benchmarks/choices.py``) compares
    the same card play."""
    return Random((deal.hand << 8) | (deal.seat << 4) | deal.dealer)


def _value(solution: object, me: int) -> int:
    """The tricks ``me`` takes when another seat leads: the leader's best card for itself is
    not known, so the seat counts the card that leaves it fewest (the paranoid view)."""
    values = solution.values  # type: ignore[attr-defined]
    return int(min(values.values()))


def _without(hand: int, trump: int | None) -> int:
    """``hand`` (20 cards) less the four the basic player puts back."""
    for _ in range(hand.bit_count() - 16):
        hand ^= discard_bit(hand, trump)
    return hand


def _discard_sets(hand: int, trump: int | None, count: int) -> list[int]:
    """Sets of ``count`` cards to put back: the basic player's first, then each short side suit
    emptied (filled up with the basic player's choices), then the lowest side cards."""
    sets: list[int] = []

    def fill(start: int) -> int:
        rest = hand & ~start
        chosen = start
        for _ in range(count - start.bit_count()):
            bit = discard_bit(rest, trump)
            chosen |= bit
            rest ^= bit
        return chosen

    sets.append(fill(0))
    for suit in range(4):
        cards = hand & SUIT_MASKS[suit]
        if suit != trump and 0 < cards.bit_count() <= count:
            sets.append(fill(cards))
    side = [b for b in iter_bits(hand) if trump is None or not b & SUIT_MASKS[trump]]
    side.sort(key=lambda b: (b.bit_length() - 1) & 15)
    if len(side) >= count:
        sets.append(sum(side[:count]))
    return list(dict.fromkeys(s for s in sets if s.bit_count() == count))


def _deal_others(k: TfeKnowledge, others: list[int], rng: Random) -> list[int] | None:
    """The other two hands at random (the seat holding the talon knows every other card)."""
    hands = [k.known[s] for s in range(4)]
    room = [k.sizes[s] - hands[s].bit_count() if s in others else 0 for s in range(4)]
    if deal_rest(k.hidden & ~(hands[0] | hands[1] | hands[2]), others, hands, room, k.forbidden, rng):
        return hands
    return None


def _played_by(deal: DealView) -> list[int]:
    from blot.bots import cards_played, tricks_seen

    return cards_played(tricks_seen(deal), 3)[1]
