"""The 3-5-8 trump call and discard judged by playing them out (issue 27 item 2): for each choice,
the deal is dealt again and again with the cards the seat cannot see at random, and played to
the end by ``heuristic`` players at every seat (a fast, honest player that sees only its own
cards; its discard and card play compiled, :mod:`blot.solver.tfe_playout`, card for card the
Python bot's); the choice whose deals leave the seat the best mean score is made.

Where the double-dummy search of :mod:`blot.bots.tfe_expert` lets every player see every card
(and guesses the last tricks), a played-out deal keeps the hidden cards hidden, and costs about
20 µs of CPU (about 3 ms when the Python bots played it, issue 44 item 1). Every choice is
judged on the same deals (common random numbers), so the comparison of two choices is much
closer than either mean. The exchange's gifts (T-20) are judged the same way,
and an exchange still to come is played out too, by the same players (each deal starts from the
hands as they are now, the remaining steps of the exchange still to make).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import TypeVar, cast

from blot.bots.sampling import Clock
from blot.bots.tfe_heuristic import HeuristicBot
from blot.cards import CARD_OF_BIT, DECK52, SUIT_MASKS, Card, iter_bits
from blot.game import View
from blot.solver.tfe_playout import TfePlayouts, heuristic_score
from blot.three_five_eight import PASS, Call, Deal, DealView, Phase
from blot.three_five_eight.values import Action, DealtCards

T = TypeVar("T")


def played_out(deal: Deal, players: list[HeuristicBot], me: int) -> int:
    """``me``'s score (T-40) once ``deal`` is played to its end by ``heuristic`` players: an
    exchange still to come by ``players``, the discard (T-22) and the card play compiled
    (:mod:`blot.solver.tfe_playout`, card for card the ``heuristic`` bot's)."""
    while deal.phase is Phase.CALL or deal.phase is Phase.EXCHANGE:
        seat = deal.to_act
        assert seat is not None
        deal.apply(players[seat].choose(cast(View, deal.view(seat))))  # a bot takes a deal's view
    if deal.is_over:
        return deal.scores[me]
    if deal.tricks or deal.trick:  # in the middle of the play: never so in the choices judged here
        tricks = TfePlayouts(deal).run("heuristic", 1).tricks
        return deal.tricks_taken[me] + round(tricks[me]) - deal.targets[me]
    return heuristic_score(deal, me)  # the discard and the card play, compiled in one call


def _start(view: DealView, hands: list[int], talon: int) -> Deal:
    """A deal of these cards (the hands as they are now) at the view's table, its calls so far
    made again and the steps of the exchange not yet made still to come."""
    first = (view.dealer + 1) % 3
    passed = {(first + i) % 3 for i, c in enumerate(view.calls) if c is PASS}
    may_pass = tuple(view.may_pass[s] or s in passed for s in range(3))
    cards = DealtCards((hands[0], hands[1], hands[2]), talon)
    deal = Deal._trusted(cards, view.dealer, may_pass, view.plan[len(view.exchanges) :])
    for call in view.calls:
        deal.apply(call)
    return deal


def _totals(
    view: DealView,
    options: Mapping[T, Sequence[Action]],
    draw: Callable[[Random], tuple[list[int], int] | None],
    samples: int,
    rng: Random,
    clock: Clock,
    what: str,
) -> tuple[dict[T, int], int]:
    """Each option's total score for the seat over up to ``samples`` deals drawn by ``draw``
    (the three hands as they are now and the talon, ``None`` when no deal fits), each played out
    after the option's actions; and how many deals were played."""
    me = view.seat
    totals = dict.fromkeys(options, 0)
    players = [HeuristicBot(Random(rng.getrandbits(32))) for _ in range(3)]
    done = 0
    for _ in range(samples):
        drawn = draw(rng)
        if drawn is None:
            break
        hands, talon = drawn
        for option, actions in options.items():
            deal = _start(view, hands, talon)
            for action in actions:
                deal.apply(action)
            totals[option] += played_out(deal, players, me)
        done += 1
        if done < samples and clock.expired():
            clock.note_cut("expert", done, samples, f"deals when {what}")
            break
    return totals, done


def _first_best(totals: Mapping[T, int]) -> T:
    """The first option (the proposal's place) with the best total."""
    best = max(totals.values())
    return next(option for option, total in totals.items() if total == best)


def best_call(
    view: DealView,
    strains: list[Call],
    proposal: Call,
    margin: float,
    samples: int,
    rng: Random,
    clock: Clock,
) -> Call:
    """The strain whose played-out deals leave ``view.seat`` the best mean score (T-40), when
    it beats ``proposal``'s by ``margin`` tricks a deal; else ``proposal``."""
    me = view.seat
    unseen = list(iter_bits(DECK52 & ~view.hand))
    others = [s for s in range(3) if s != me]

    def draw(rng: Random) -> tuple[list[int], int]:
        rng.shuffle(unseen)
        hands = [0, 0, 0]
        hands[me] = view.hand
        hands[others[0]] = sum(unseen[:16])
        hands[others[1]] = sum(unseen[16:32])
        return hands, sum(unseen[32:36])

    totals, done = _totals(view, {c: [c] for c in strains}, draw, samples, rng, clock, "calling")
    best = max(strains, key=lambda c: totals[c])
    return best if totals[best] > totals[proposal] + margin * done else proposal


def best_discard(
    view: DealView,
    candidates: list[int],
    deal_others: Callable[[Random], list[int] | None],
    samples: int,
    rng: Random,
    clock: Clock,
) -> int:
    """Of ``candidates`` (sets of cards to put back, T-22), the one whose played-out deals leave
    the first seat the best mean score; ``deal_others(rng)`` deals the hands it cannot see."""
    me = view.seat
    talon = view.talon or 0
    done = view.discard or 0  # the cards already put back

    def draw(rng: Random) -> tuple[list[int], int] | None:
        dealt = deal_others(rng)
        if dealt is None:
            return None
        hands = list(dealt[:3])
        hands[me] = (view.hand | done) & ~talon
        return hands, talon

    options = {cards: [CARD_OF_BIT[bit] for bit in iter_bits(done | cards)] for cards in candidates}
    return _first_best(_totals(view, options, draw, samples, rng, clock, "discarding")[0])


def best_gift(
    view: DealView,
    proposal: Card,
    deal_hidden: Callable[[Random], list[int] | None],
    samples: int,
    rng: Random,
    clock: Clock,
) -> Card:
    """The card to give (T-20) whose played-out deals leave the giver the best mean score, of
    ``proposal`` and the lowest card of each other suit it holds (a higher card of a suit
    brings back no more, T-21, and costs more); ``deal_hidden(rng)`` deals the other two hands
    and the talon. ``proposal`` on a tie, or when no deal fits what the seat knows."""
    lowest = [CARD_OF_BIT[held & -held] for suit in SUIT_MASKS if (held := view.hand & suit)]
    candidates = [proposal, *(c for c in lowest if c.suit != proposal.suit)]

    def draw(rng: Random) -> tuple[list[int], int] | None:
        dealt = deal_hidden(rng)
        if dealt is None:
            return None
        hands = list(dealt[:3])
        hands[view.seat] = view.hand
        return hands, dealt[3]

    return _first_best(_totals(view, {c: [c] for c in candidates}, draw, samples, rng, clock, "giving")[0])
