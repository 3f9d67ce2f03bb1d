"""What both games' search bots share: dealing the cards a bot cannot see, and valuing each
legal card over many such deals within a budget.

The budget is counted in work (deals sampled, ``samples``), so that a seeded arena run gives
the same result on any machine, however loaded (issue 27 item 8). A wall-clock limit
(``seconds``) is only a safety: unset by default, it is set at web tables (the bot class's
``WEB_SECONDS``, :func:`blot.bots.make_bot`), where a bot must answer in time; a decision it
cuts short says so in the log (``blot.bots``)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import islice
from random import Random
from typing import TypeVar

from blot.bots import PlayedCards
from blot.bots.settings import Configured, Setting
from blot.cards import Card, iter_bits

A = TypeVar("A")


def budget(samples: int) -> dict[str, Setting]:
    """The settings of every sampling bot's budget, with its own default number of ``samples``."""
    return {
        "samples": Setting(int, 1, 1000, "deals sampled per card decision", web_high=100, default=samples),
        "seconds": Setting(
            float, 0, 60, "safety time limit per decision", web_high=3, above_low=True, optional=True
        ),
    }


class Sampler(Configured):
    """What every sampling bot (PIMC and the experts of both games) is built with; the bot's
    ``SETTINGS`` say each one's range and default."""

    samples: int
    seconds: float | None
    #: Tricks searched before the solver's estimate, and tricks left from which it searches all.
    horizon: int
    exact: int
    #: Deals solved by the last card decision (for tests and measurements).
    last_samples: int = 0

    def position(self, view: PlayedCards, tricks: int) -> tuple[list[int], int, int, int]:
        """Where the play stands for the solver, in a game of ``tricks`` tricks: the cards of the
        trick on the table, its leader, the tricks left and how many of them to search."""
        trick = [c.index for _, c in view.trick]
        leader = view.trick[0][0] if view.trick else view.seat
        left = tricks - len(view.tricks)
        return trick, leader, left, tricks if left <= self.exact else self.horizon

    def settle(
        self,
        totals: Mapping[Card, int],
        done: int,
        fallback: Callable[[], A],
        other: Callable[[list[Card]], Card],
    ) -> A | Card:
        """The card with the best total over the ``done`` deals solved. The fallback player
        decides when no deal was solved, and among tied cards when its own is one of them;
        ``other`` picks among the tied cards otherwise."""
        self.last_samples = done
        if not done:
            return fallback()
        tied = best_cards(totals)
        if len(tied) == 1:
            return tied[0]
        choice = fallback()
        return choice if choice in tied else other(tied)


def search(
    tricks: int, horizon: int, exact: int, web_horizon: int | None = None, web_exact: int | None = None
) -> dict[str, Setting]:
    """The settings of how deep a search bot looks in a game of ``tricks`` tricks: ``horizon``
    tricks before the solver's estimate, every one of the last ``exact`` (their defaults)."""
    return {
        "horizon": Setting(
            int, 1, tricks, "tricks searched before the estimate", web_high=web_horizon, default=horizon
        ),
        "exact": Setting(
            int,
            0,
            tricks,
            "tricks left from which samples are solved exactly",
            web_high=web_exact,
            default=exact,
        ),
    }


def weighing(trust: float) -> dict[str, Setting]:
    """The settings of an expert's deals weighed by the calls (:func:`weighted_deals`) and of the
    solver's guess beyond the horizon, the same in both games but for how far a call is trusted."""
    return {
        "pool": Setting(int, 1, 10, "deals drawn per deal solved, weighed by the calls", default=3),
        "trust": Setting(float, 0, 1, "how surely a call tells the hand (0: plain PIMC)", default=trust),
        "leaf": Setting(
            str, help="the guess beyond the horizon", choices=("fitted", "plain"), default="fitted"
        ),
    }


class Weigher(Sampler):
    """What both games' experts are built with besides a sampler's (:func:`weighing`)."""

    pool: int
    trust: float
    leaf: str

    @property
    def fitted(self) -> bool:
        """Whether the solver guesses beyond the horizon with the fitted estimate."""
        return self.leaf == "fitted"


log = logging.getLogger("blot.bots")


class Clock:
    """A decision's safety time limit: ``seconds`` None never expires (a budget in work only)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.start = time.perf_counter()

    def expired(self) -> bool:
        return self.seconds is not None and time.perf_counter() - self.start > self.seconds

    def note_cut(self, bot: str, done: int, planned: int, what: str = "deals") -> None:
        """Log that the time limit stopped a search after ``done`` of its ``planned`` units."""
        limit = self.seconds
        log.warning(
            "%s: the time limit of %g s cut its search after %d of %d %s", bot, limit, done, planned, what
        )


def deal_rest(
    rest: int, seats: Sequence[int], hands: list[int], room: list[int], forbidden: Sequence[int], rng: Random
) -> bool:
    """Deal the cards of ``rest`` into ``hands`` of ``seats``, at most ``room[s]`` more each and none
    that ``forbidden[s]`` rules out; False when the random choices reach a dead end.

    The cards some seat may not hold go first, most constrained first (random order among
    equals), each to a seat drawn in proportion to its room, so that the deals it makes are close
    to uniform; the cards any seat may hold then fill the room left in a random order (a uniform
    deal of them)."""
    barred = 0
    for s in seats:
        barred |= forbidden[s]
    cards = list(iter_bits(rest & barred))
    rng.shuffle(cards)
    cards.sort(key=lambda b: sum(1 for s in seats if not forbidden[s] & b))
    for b in cards:
        choices = [s for s in seats if room[s] > 0 and not forbidden[s] & b]
        if not choices:
            return False
        pick = rng.randrange(sum(room[s] for s in choices))
        for s in choices:
            pick -= room[s]
            if pick < 0:
                hands[s] |= b
                room[s] -= 1
                break
    free = list(iter_bits(rest & ~barred))
    if len(free) != sum(room[s] for s in seats):
        return False
    rng.shuffle(free)
    at = 0
    for s in seats:
        for b in free[at : at + room[s]]:
            hands[s] |= b
        at += room[s]
        room[s] = 0
    return True


def card_totals(
    cards: Sequence[Card],
    sample: Callable[[], list[int] | None],
    solve: Callable[[list[int]], Mapping[Card, int]],
    samples: int,
    seconds: float | None,
    bot: str = "pimc",
) -> tuple[dict[Card, int], int]:
    """Each card's value summed over up to ``samples`` deals from ``sample`` (each valued by
    ``solve``), and how many deals that was: sampling stops early when ``sample`` finds no deal
    that fits what the bot knows (None), or once the safety limit of ``seconds`` has passed
    (logged as ``bot``'s)."""
    deals = ((hands, 1) for hands in islice(iter(sample, None), samples))
    return weighted_card_totals(cards, deals, samples, solve, seconds, bot)


#: A sampled deal (each seat's hand) and how many of the deals drawn it stands for.
Weighted = tuple[list[int], int]


def weighted_deals(
    sample: Callable[[], list[int] | None],
    weight: Callable[[list[int]], float],
    count: int,
    pool: int,
    rng: Random,
) -> list[Weighted]:
    """``count`` deals drawn in proportion to ``weight`` from ``pool`` deals of ``sample``
    (:func:`resample`), each distinct deal once with the number of draws it got; fewer when
    ``sample`` runs dry (None)."""
    deals: list[list[int]] = []
    for _ in range(pool):
        hands = sample()
        if hands is None:
            break
        deals.append(hands)
    return [(deals[i], drawn) for i, drawn in resample([weight(h) for h in deals], count, rng)]


def weighted_card_totals(
    cards: Sequence[Card],
    deals: Iterable[Weighted],
    count: int,
    solve: Callable[[list[int]], Mapping[Card, int]],
    seconds: float | None,
    bot: str,
) -> tuple[dict[Card, int], int]:
    """Each card's value summed over the ``count`` weighted ``deals`` (each counted as often as it
    was drawn), and how many deals were solved: all of them, or as many as the safety limit of
    ``seconds`` allowed (the cut logged as ``bot``'s)."""
    totals = dict.fromkeys(cards, 0)
    clock = Clock(seconds)
    done = 0
    for hands, draws in deals:
        values = solve(hands)
        for c in cards:
            totals[c] += draws * values[c]
        done += 1
        if done < count and clock.expired():
            clock.note_cut(bot, done, count)
            break
    return totals, done


def resample(weights: list[float], count: int, rng: Random) -> list[tuple[int, int]]:
    """``count`` draws in proportion to ``weights`` (systematic resampling: one random offset,
    then evenly spaced), as (index, draws) for each index drawn at least once, in order. When
    every weight is 0 (nothing explains what was seen), all weigh alike."""
    total = sum(weights)
    if not weights:
        return []
    if total <= 0:
        weights = [1.0] * len(weights)
        total = float(len(weights))
    step = total / count
    point = rng.random() * step
    out: list[tuple[int, int]] = []
    running = 0.0
    taken = 0
    for i, w in enumerate(weights):
        running += w
        drawn = 0
        while point < running and taken < count:
            drawn += 1
            taken += 1
            point += step
        if drawn:
            out.append((i, drawn))
    return out


def best_cards(totals: Mapping[Card, int]) -> list[Card]:
    """The cards with the highest total, in the order of ``totals``."""
    best = max(totals.values())
    return [c for c, total in totals.items() if total == best]
