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

A bot program (``cmd:``, docs/bot-protocol.md) that breaks the protocol is stopped and the
documented automatic move is played for it for the rest of that table; the result counts, per
side, the programs stopped and the automatic moves made.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from random import Random
from typing import Any

from blot.analysis.values import losses
from blot.bots import make_bot
from blot.errors import BlotError, BotStopped
from blot.game import Action, View
from blot.games import GameSpec, spec
from blot.play import Move, deal_over, finish, play, reset

#: Per side: [bot programs stopped, automatic moves made in their place].
Faults = dict[str, list[int]]


def _no_faults() -> Faults:
    return {"a": [0, 0], "b": [0, 0]}


def _count_faults(faults: Faults, moves: list[Move], mine: tuple[int, ...]) -> None:
    for move in moves:
        side = faults["a" if move.seat in mine else "b"]
        side[0] += not isinstance(move.fault, BotStopped)
        side[1] += 1


#: The kinds of contract ``blot arena`` counts per side (Bazar Blot): every contract, the
#: contra'd and redoubled ones, kapoot (25), and each range of levels.
CONTRACT_KINDS = ("all", "contra", "redouble", "kapoot", "8-9", "10-12", "13-16", "17-24")


def _no_contracts() -> dict[str, dict[str, list[int]]]:
    """Per side and kind of contract: [played, made]."""
    return {side: {kind: [0, 0] for kind in CONTRACT_KINDS} for side in ("a", "b")}


def _contract_kinds(level: int, multiplier: int) -> list[str]:
    kinds = ["all"]
    if multiplier == 2:
        kinds.append("contra")
    elif multiplier == 4:
        kinds.append("redouble")
    if level >= 25:
        kinds.append("kapoot")
    else:
        kinds.append(
            next(k for k, top in (("8-9", 9), ("10-12", 12), ("13-16", 16), ("17-24", 24)) if level <= top)
        )
    return kinds


def _add_faults(total: Faults, more: Faults) -> None:
    for side in ("a", "b"):
        total[side][0] += more[side][0]
        total[side][1] += more[side][1]


@dataclass
class DealOutcome:
    """One duplicate deal: its margin and what each side contracted and made."""

    margin: float
    tables: int
    void: int = 0
    contracts: dict[str, dict[str, list[int]]] = field(default_factory=_no_contracts)
    seconds: dict[str, float] = field(default_factory=lambda: {"a": 0.0, "b": 0.0})
    decisions: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    faults: Faults = field(default_factory=_no_faults)
    #: With ``dd``: per side, the double-dummy loss per seat added up over the tables.
    dd_loss: dict[str, float] | None = None


@dataclass
class GameOutcome:
    """One full game: whether A won, each side's thinking seconds and faults."""

    won: int
    seconds: dict[str, float]
    faults: Faults = field(default_factory=_no_faults)


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
    contracts: dict[str, dict[str, list[int]]] = field(default_factory=_no_contracts)
    bot_seconds: dict[str, float] = field(default_factory=lambda: {"a": 0.0, "b": 0.0})
    decisions: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})
    wins: int = 0
    games: int = 0
    seconds: float = 0.0
    faults: Faults = field(default_factory=_no_faults)
    dd_loss: dict[str, float] | None = None

    def add_game(self, o: GameOutcome) -> None:
        self.wins += o.won
        self.games += 1
        for side in ("a", "b"):
            self.bot_seconds[side] += o.seconds[side]
        _add_faults(self.faults, o.faults)

    def add(self, o: DealOutcome) -> None:
        self.margins.append(o.margin)
        self.tables += o.tables
        self.void += o.void
        for side in ("a", "b"):
            for kind, (played, made) in o.contracts[side].items():
                self.contracts[side][kind][0] += played
                self.contracts[side][kind][1] += made
            self.bot_seconds[side] += o.seconds[side]
            self.decisions[side] += o.decisions[side]
        _add_faults(self.faults, o.faults)
        if o.dd_loss is not None:
            total = self.dd_loss or {"a": 0.0, "b": 0.0}
            self.dd_loss = {side: total[side] + o.dd_loss[side] for side in ("a", "b")}

    @property
    def mean_dd_loss(self) -> dict[str, float] | None:
        """Each side's double-dummy loss per deal and seat, card play only (card points in Bazar
        Blot, tricks in 3-5-8: the last :data:`blot.analysis.three_five_eight.EXACT_TRICKS`
        tricks, the cards valued exactly), over every table."""
        if self.dd_loss is None or not self.tables:
            return None
        return {side: loss / self.tables for side, loss in self.dd_loss.items()}

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
            out |= {"games": self.games, "wins": self.wins, "win_rate": round(self.win_rate, 4)}
            out["ci95"] = [round(x, 4) for x in self.win_ci95]
        else:
            out |= {"deals": self.deals, "tables": self.tables, "mean_margin": round(self.mean_margin, 3)}
            out["ci95"] = [round(x, 3) for x in self.ci95]
            out["void_deals"] = self.void
            dd = self.mean_dd_loss
            if dd is not None:
                out["dd_loss"] = {side: round(v, 3) for side, v in dd.items()}
            if spec(self.game).contracts:
                out["contracts"] = {side: self._contracts_json(side) for side in ("a", "b")}
        out["seconds"] = round(self.seconds, 2)
        played = self.tables if self.mode == "deals" else self.games
        out["per_second"] = round(played / seconds, 2)
        out["bot_seconds"] = {side: round(v, 2) for side, v in self.bot_seconds.items()}
        if self.mode == "deals":
            out["decisions"] = dict(self.decisions)
        out["bot_faults"] = {
            side: {"stopped": stopped, "automatic_moves": automatic}
            for side, (stopped, automatic) in self.faults.items()
        }
        return out

    def _contracts_json(self, side: str) -> dict[str, Any]:
        """A side's contracts: how many it played and made, and [played, made] of each kind."""
        counts = self.contracts[side]
        out: dict[str, Any] = {"played": counts["all"][0], "made": counts["all"][1]}
        for kind in CONTRACT_KINDS[1:]:
            out[kind] = list(counts[kind])
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

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.seconds = 0.0
        self.decisions = 0
        if hasattr(bot, "see"):  # the fair-play tests' cheat (blot.bots.cheat) is shown the game
            self.see = bot.see

    def choose(self, view: View) -> Action:
        t = time.perf_counter()
        action: Action = self.bot.choose(view)
        self.seconds += time.perf_counter() - t
        self.decisions += 1
        return action

    def reset(self) -> None:
        reset([self.bot])

    @property
    def listens(self) -> bool:
        return bool(getattr(self.bot, "listens", False))

    def hear(self, view: View, event: dict[str, Any]) -> None:
        self.bot.hear(view, event)

    def end(self, view: View) -> None:
        finish_one = getattr(self.bot, "end", None)
        if callable(finish_one):
            finish_one(view)


def _bots(game: GameSpec, specs: list[str], seed: int) -> list[_Timed]:
    return [_Timed(make_bot(game, bot, Random(_seed(seed, s)), testing=True)) for s, bot in enumerate(specs)]


def _sides(game: GameSpec, a: str, b: str, a_team: int) -> list[str]:
    """Each seat's bot when A holds the seats of team ``a_team`` and B all the others."""
    mine = game.teams[a_team]
    return [a if s in mine else b for s in range(game.seats)]


def _mean(values: list[int]) -> float:
    return sum(values) / len(values)


def duplicate_deal(game: str, a: str, b: str, seed: int, number: int, dd: bool = False) -> DealOutcome:
    """Deal ``number`` of a run: the same cards and dealer at one table per team, A holding that
    team's seats and B the others (Bazar Blot: two tables, the sides swapped; 3-5-8: three, A in
    each seat in turn). A table's margin is the mean deal score of A's seats minus the mean of
    B's; the deal's is the mean over its tables. With ``dd`` every card of every table is valued
    by double-dummy (:mod:`blot.analysis`) and each side's mean loss per seat is added up, over
    the cards valued exactly: 3-5-8's analysis values a card with more than
    :data:`blot.analysis.three_five_eight.EXACT_TRICKS` tricks to play by a search that stops at a
    horizon and guesses the rest, and a loss against that guess would judge a bot by the guess's
    own opinion (a bot that guesses otherwise, like ``expert``, would seem to lose by it)."""
    game_spec = spec(game)
    cards = game_spec.random_deal(Random(_seed(seed, number)))
    dealer = number % game_spec.seats
    tables = len(game_spec.teams)
    outcome = DealOutcome(0.0, tables, dd_loss={"a": 0.0, "b": 0.0} if dd else None)
    total = 0.0
    for table in range(tables):
        mine = game_spec.teams[table]
        bots = _bots(game_spec, _sides(game_spec, a, b, table), _seed(seed, number, table))
        state = game_spec.new_game(dealer=dealer)
        state.start_deal(cards)
        reset(bots)
        automatic = play(state, bots, until=deal_over)
        finish(state, bots)
        _count_faults(outcome.faults, automatic, mine)
        result = state.result.deals[-1]
        points = result.seat_points
        total += _mean([points[s] for s in mine]) - _mean(
            [points[s] for s in range(game_spec.seats) if s not in mine]
        )
        _count_contract(outcome, result, mine)
        if outcome.dd_loss is not None:
            analysed = game_spec.analysis_module().analyse_deal(state, 0).cards
            lost = losses([c for c in analysed if c.exact], game_spec.seats)
            theirs = [s for s in range(game_spec.seats) if s not in mine]
            outcome.dd_loss["a"] += _mean([lost[s] for s in mine])
            outcome.dd_loss["b"] += _mean([lost[s] for s in theirs])
        for s, bot in enumerate(bots):
            outcome.seconds["a" if s in mine else "b"] += bot.seconds
            outcome.decisions["a" if s in mine else "b"] += bot.decisions
    outcome.margin = total / tables
    return outcome


def _count_contract(outcome: DealOutcome, result: Any, mine: tuple[int, ...]) -> None:
    """A void deal, or the side whose contract it was and whether it was made (Bazar Blot)."""
    if result.void:
        outcome.void += 1
        return
    contract = getattr(result, "contract", None)
    if contract is not None:
        side = "a" if contract.declarer in mine else "b"
        for kind in _contract_kinds(contract.level, contract.multiplier):
            outcome.contracts[side][kind][0] += 1
            outcome.contracts[side][kind][1] += bool(result.made)


def game_pair(game: str, a: str, b: str, seed: int, number: int) -> GameOutcome:
    """Full games for ``--games``: game ``number`` puts A on team ``number % teams`` (Bazar Blot:
    the two games of a pair share their seed with the sides swapped; 3-5-8: A in each seat in
    turn), the first dealer moving from pair to pair."""
    game_spec = spec(game)
    teams = len(game_spec.teams)
    a_team, pair = number % teams, number // teams
    mine = game_spec.teams[a_team]
    state = game_spec.new_game(dealer=pair % game_spec.seats, rng=Random(_seed(seed, pair)))
    bots = _bots(game_spec, _sides(game_spec, a, b, a_team), _seed(seed, number))
    reset(bots)
    automatic = play(state, bots)
    finish(state, bots)
    won = int(state.result.ranking()[mine[0]] == 0)
    a_sec = sum(bot.seconds for s, bot in enumerate(bots) if s in mine)
    b_sec = sum(bot.seconds for s, bot in enumerate(bots) if s not in mine)
    outcome = GameOutcome(won, {"a": a_sec, "b": b_sec})
    _count_faults(outcome.faults, automatic, mine)
    return outcome


def _deal_job(args: tuple[str, str, str, int, int, bool]) -> DealOutcome:
    return duplicate_deal(*args)


def _game_job(args: tuple[str, str, str, int, int, bool]) -> GameOutcome:
    return game_pair(*args[:5])


def check(game: str, a: str, b: str, count: int) -> None:
    game_spec = spec(game)
    if count < 1:
        raise BlotError("play at least 1 deal or game")
    for bot in (a, b):
        # a bad name or setting, or a program that cannot start, fails here before any play
        reset([make_bot(game_spec, bot, Random(0), testing=True)])


def run(
    game: str, a: str, b: str, deals: int, seed: int, games: int = 0, jobs: int = 1, dd: bool = False
) -> Iterator[ArenaResult]:
    """Play the run, yielding the result so far after each deal (or game); with ``dd`` the
    duplicate deals' card play is also measured against double-dummy play."""
    mode = "games" if games else "deals"
    count = games or deals
    check(game, a, b, count)
    result = ArenaResult(game, a, b, seed, mode)
    tasks = [(game, a, b, seed, i, dd) for i in range(count)]
    start = time.perf_counter()
    outcomes: Iterator[Any]
    pool = None
    job: Callable[[tuple[str, str, str, int, int, bool]], Any] = _game_job if games else _deal_job
    if jobs > 1:
        import multiprocessing

        pool = multiprocessing.get_context("spawn").Pool(jobs)
        outcomes = pool.imap(job, tasks)
    else:
        outcomes = map(job, tasks)
    try:
        for o in outcomes:
            if games:
                result.add_game(o)
            else:
                result.add(o)
            result.seconds = time.perf_counter() - start
            yield result
    finally:
        if pool is not None:
            pool.terminate()
