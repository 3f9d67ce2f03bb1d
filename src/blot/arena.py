"""Bot against bot on duplicate deals, so that "A is stronger than B" is a measured fact.

Bazar Blot: each deal is played twice with the same cards and dealer, A's pair in seats 0 and 2
the first time and in seats 1 and 3 the second, so the luck of the cards cancels. The margin of
a deal is A's game points minus B's (B-50 … B-54), averaged over its two tables.

3-5-8: each deal is played three times, A in each seat in turn against two copies of B. The
margin of a deal is A's deal score (T-40) minus the mean of B's two scores, averaged over the
three tables.

The 95% confidence interval of the mean margin is the normal one over the duplicate deals
(mean ± 1.96 · s / √n). With ``games`` full games are played instead (Bazar Blot: pairs of
games on the same seed with the sides swapped; 3-5-8: A in each seat in turn) and A's win rate
is reported with its Wilson interval. Every deal and game is a pure function of the seed and its
number, so a run can be split over processes (``jobs``) and gives the same result.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from random import Random
from typing import Any

from blot.bots import make_bot
from blot.errors import BlotError
from blot.protocol import Bot

GAMES = ("bazar-blot", "3-5-8")


@dataclass
class DealOutcome:
    """One duplicate deal: its margin and what each side contracted and made."""

    margin: float
    tables: int
    void: int = 0
    contracts: dict[str, list[int]] = field(default_factory=lambda: {"a": [0, 0], "b": [0, 0]})
    seconds: dict[str, float] = field(default_factory=lambda: {"a": 0.0, "b": 0.0})


@dataclass
class ArenaResult:
    game: str
    a: str
    b: str
    seed: int
    mode: str = "deals"  # or "games"
    margins: list[float] = field(default_factory=list)
    tables: int = 0
    void: int = 0
    contracts: dict[str, list[int]] = field(default_factory=lambda: {"a": [0, 0], "b": [0, 0]})
    bot_seconds: dict[str, float] = field(default_factory=lambda: {"a": 0.0, "b": 0.0})
    wins: int = 0
    games: int = 0
    seconds: float = 0.0

    def add(self, o: DealOutcome) -> None:
        self.margins.append(o.margin)
        self.tables += o.tables
        self.void += o.void
        for side in ("a", "b"):
            self.contracts[side][0] += o.contracts[side][0]
            self.contracts[side][1] += o.contracts[side][1]
            self.bot_seconds[side] += o.seconds[side]

    @property
    def deals(self) -> int:
        return len(self.margins)

    @property
    def mean_margin(self) -> float:
        return sum(self.margins) / len(self.margins) if self.margins else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        n = len(self.margins)
        if n < 2:
            return (-math.inf, math.inf) if n == 0 else (self.margins[0], self.margins[0])
        mean = self.mean_margin
        var = sum((m - mean) ** 2 for m in self.margins) / (n - 1)
        half = 1.96 * math.sqrt(var / n)
        return (mean - half, mean + half)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_ci95(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        seconds = max(self.seconds, 1e-9)
        out: dict[str, Any] = {"game": self.game, "a": self.a, "b": self.b, "seed": self.seed}
        if self.mode == "games":
            lo, hi = self.win_ci95
            out |= {
                "games": self.games,
                "wins": self.wins,
                "win_rate": round(self.win_rate, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
            }
        else:
            lo, hi = self.ci95
            out |= {
                "deals": self.deals,
                "tables": self.tables,
                "mean_margin": round(self.mean_margin, 3),
                "ci95": [round(lo, 3), round(hi, 3)],
                "void_deals": self.void,
            }
            if self.game == "bazar-blot":
                out["contracts"] = {
                    side: {"played": self.contracts[side][0], "made": self.contracts[side][1]}
                    for side in ("a", "b")
                }
        out["seconds"] = round(self.seconds, 2)
        played = self.tables if self.mode == "deals" else self.games
        out["per_second"] = round(played / seconds, 2)
        out["bot_seconds"] = {side: round(v, 2) for side, v in self.bot_seconds.items()}
        return out


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _seed(seed: int, *parts: int) -> int:
    """A seed for one deal, table or bot, from the run's seed and its numbers."""
    x = seed & 0xFFFFFFFFFFFF
    for p in parts:
        x = (x * 1_000_003 + p + 0x9E3779B1) & 0xFFFFFFFFFFFFFFFF
    return x


class _Timed:
    """A bot whose thinking time is added up."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seconds = 0.0

    def choose(self, view: Any) -> Any:
        t = time.perf_counter()
        action = self.bot.choose(view)
        self.seconds += time.perf_counter() - t
        return action

    def reset(self) -> None:
        reset: Callable[[], None] | None = getattr(self.bot, "reset", None)
        if reset is not None:
            reset()


def _bots(game: str, specs: list[str], seed: int) -> list[_Timed]:
    return [_Timed(make_bot(game, spec, Random(_seed(seed, s)))) for s, spec in enumerate(specs)]


def _play(state: Any, bots: list[_Timed]) -> None:
    for bot in bots:
        bot.reset()
    deal = state.deal
    while not deal.is_over:
        seat = state.to_act
        state.apply(bots[seat].choose(state.view(seat)))


def bazar_deal(a: str, b: str, seed: int, number: int) -> DealOutcome:
    """Deal ``number`` of a run: the same cards at two tables, the sides swapped."""
    from blot.bazar import Game, random_hands

    rng = Random(_seed(seed, number))
    hands = random_hands(rng)
    dealer = number % 4
    outcome = DealOutcome(0.0, 2)
    total = 0.0
    for table in range(2):
        a_team = table  # table 0: A in seats 0 and 2; table 1: A in seats 1 and 3
        specs = [a if s % 2 == a_team else b for s in range(4)]
        bots = _bots("bazar-blot", specs, _seed(seed, number, table))
        game = Game(dealer=dealer)
        game.start_deal(hands)
        _play(game, bots)
        deal = game.deal
        assert deal is not None
        points = deal.points
        total += points[a_team] - points[1 - a_team]
        if deal.contract is None:
            outcome.void += 1
        else:
            side = "a" if deal.contract.team == a_team else "b"
            outcome.contracts[side][0] += 1
            outcome.contracts[side][1] += bool(deal.score and deal.score.made)
        for s, bot in enumerate(bots):
            outcome.seconds["a" if s % 2 == a_team else "b"] += bot.seconds
    outcome.margin = total / 2
    return outcome


def tfe_deal(a: str, b: str, seed: int, number: int) -> DealOutcome:
    """Deal ``number`` of a 3-5-8 run: the same cards at three tables, A in each seat in turn."""
    from blot.three_five_eight import Game, random_cards

    rng = Random(_seed(seed, number))
    hands, talon = random_cards(rng)
    dealer = number % 3
    outcome = DealOutcome(0.0, 3)
    total = 0.0
    for table in range(3):
        specs = [a if s == table else b for s in range(3)]
        bots = _bots("3-5-8", specs, _seed(seed, number, table))
        game = Game(dealer=dealer)
        game.start_deal(hands, talon)
        _play(game, bots)
        result = game.results[-1]
        if result.void:
            outcome.void += 1
        scores = result.scores
        others = [scores[s] for s in range(3) if s != table]
        total += scores[table] - sum(others) / 2
        for s, bot in enumerate(bots):
            outcome.seconds["a" if s == table else "b"] += bot.seconds
    outcome.margin = total / 3
    return outcome


def game_pair(game: str, a: str, b: str, seed: int, number: int) -> tuple[int, int, float, float]:
    """Full games for ``--games``: Bazar Blot plays game ``number`` with A as team 0 or 1 by its
    parity, on the seed of its pair; 3-5-8 puts A in seat ``number % 3``. Returns (A won,
    games, A's and B's thinking seconds)."""
    from blot.simulate import new_game

    if game == "bazar-blot":
        a_team = number % 2
        specs = [a if s % 2 == a_team else b for s in range(4)]
        state = new_game(game, Random(_seed(seed, number // 2)), dealer=(number // 2) % 4)
        bots = _bots(game, specs, _seed(seed, number))
        mine = [s for s in range(4) if s % 2 == a_team]
        while not state.is_over:
            seat = state.to_act
            state.apply(bots[seat].choose(state.view(seat)))
        won = int(state.winner == a_team)
    else:
        a_seat = number % 3
        specs = [a if s == a_seat else b for s in range(3)]
        state = new_game(game, Random(_seed(seed, number // 3)), dealer=0)
        bots = _bots(game, specs, _seed(seed, number))
        mine = [a_seat]
        while not state.is_over:
            seat = state.to_act
            state.apply(bots[seat].choose(state.view(seat)))
        won = int(state.winner == a_seat)
    a_sec = sum(bot.seconds for s, bot in enumerate(bots) if s in mine)
    b_sec = sum(bot.seconds for s, bot in enumerate(bots) if s not in mine)
    return won, 1, a_sec, b_sec


def _deal_job(args: tuple[str, str, str, int, int]) -> DealOutcome:
    game, a, b, seed, number = args
    return bazar_deal(a, b, seed, number) if game == "bazar-blot" else tfe_deal(a, b, seed, number)


def _game_job(args: tuple[str, str, str, int, int]) -> tuple[int, int, float, float]:
    game, a, b, seed, number = args
    return game_pair(game, a, b, seed, number)


def check(game: str, a: str, b: str, count: int) -> None:
    if game not in GAMES:
        raise BlotError(f"unknown game {game!r}: use bazar-blot or 3-5-8")
    if count < 1:
        raise BlotError("play at least 1 deal or game")
    for spec in (a, b):
        make_bot(game, spec, Random(0))  # a bad name or setting fails here, before any play


def run(
    game: str, a: str, b: str, deals: int, seed: int, games: int = 0, jobs: int = 1
) -> Iterator[ArenaResult]:
    """Play the run, yielding the result so far after each deal (or game)."""
    mode = "games" if games else "deals"
    count = games or deals
    check(game, a, b, count)
    result = ArenaResult(game, a, b, seed, mode)
    tasks = [(game, a, b, seed, i) for i in range(count)]
    start = time.perf_counter()
    outcomes: Iterator[Any]
    pool = None
    job: Callable[[tuple[str, str, str, int, int]], Any] = _game_job if games else _deal_job
    if jobs > 1:
        import multiprocessing

        pool = multiprocessing.get_context("spawn").Pool(jobs)
        outcomes = pool.imap(job, tasks)
    else:
        outcomes = map(job, tasks)
    try:
        for o in outcomes:
            if games:
                won, n, a_sec, b_sec = o
                result.wins += won
                result.games += n
                result.bot_seconds["a"] += a_sec
                result.bot_seconds["b"] += b_sec
            else:
                result.add(o)
            result.seconds = time.perf_counter() - start
            yield result
    finally:
        if pool is not None:
            pool.terminate()
