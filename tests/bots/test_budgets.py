"""Search budgets counted in work (issue 27 item 8): a seeded arena run of the search bots is the
same however slow the machine, the wall-clock limit is a safety set only at web tables, and a
decision it cuts short says so in the log."""

from __future__ import annotations

import logging
from random import Random
from typing import Any

import pytest

from blot.arena import run
from blot.bazar import Deal, parse_call, random_deal
from blot.bots import make_bot, sampling
from blot.bots.bazar_pimc import PimcBot

SEARCH_BOTS = {"bazar-blot": "pimc:samples=4,bid_samples=2", "3-5-8": "pimc:samples=3"}


class SlowClock:
    """``time.perf_counter`` of a machine so loaded that every reading is ``step`` seconds later."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def arena_margins(game: str, a: str) -> list[float]:
    return list(run(game, a, "heuristic", 3, seed=27))[-1].margins


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_a_seeded_arena_run_is_the_same_on_a_loaded_machine(game: str, monkeypatch: Any) -> None:
    """Before issue 27 the default one-second limit cut sampling on a busy machine (14 of 50
    deals were seen), so the same seeded run gave other results; now only work counts."""
    quiet = arena_margins(game, SEARCH_BOTS[game])
    monkeypatch.setattr(sampling.time, "perf_counter", SlowClock(5.0))
    assert arena_margins(game, SEARCH_BOTS[game]) == quiet


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_the_time_limit_is_set_at_web_tables_only(game: str) -> None:
    cls = type(make_bot(game, "pimc"))
    assert make_bot(game, "pimc").seconds is None  # type: ignore[attr-defined]
    assert make_bot(game, "pimc", web=True).seconds == cls.WEB_SECONDS  # type: ignore[attr-defined]
    assert make_bot(game, "pimc:seconds=0.5", web=True).seconds == 0.5  # type: ignore[attr-defined]


def opening_lead() -> Deal:
    deal = Deal(random_deal(Random(21)).hands, dealer=3)
    for call in ("8H", "pass", "pass", "pass"):
        deal.apply(parse_call(call))
    return deal


def test_a_search_cut_by_the_time_limit_says_so_in_the_log(monkeypatch: Any, caplog: Any) -> None:
    deal = opening_lead()
    monkeypatch.setattr(sampling.time, "perf_counter", SlowClock(1.0))
    bot = PimcBot(Random(1), samples=50, seconds=2.5)
    with caplog.at_level(logging.WARNING, logger="blot.bots"):
        assert bot.choose(deal.view(0)) in deal.legal_actions()
    assert bot.last_samples == 3  # read at 1 s (start), 2, 3 and 4 s: past 2.5 s after 3 deals
    assert "pimc: the time limit of 2.5 s cut its search after 3 of 50 deals" in caplog.text
    caplog.clear()
    unlimited = PimcBot(Random(1), samples=50)
    with caplog.at_level(logging.WARNING, logger="blot.bots"):
        unlimited.choose(deal.view(0))
    assert unlimited.last_samples == 50 and not caplog.text


def test_the_sampled_bidding_keeps_to_the_time_limit(monkeypatch: Any, caplog: Any) -> None:
    """``bidding=pimc`` solved all its deals whatever ``seconds`` said (1.88 s with seconds=1)."""
    deal = Deal(random_deal(Random(5)).hands, dealer=3)
    monkeypatch.setattr(sampling.time, "perf_counter", SlowClock(1.0))
    bot = PimcBot(Random(1), bidding="pimc", bid_samples=20, seconds=1.5)
    with caplog.at_level(logging.WARNING, logger="blot.bots"):
        assert bot.choose(deal.view(0)) in deal.legal_actions()
    assert "pimc: the time limit of 1.5 s cut its search after 2 of 20 deals in S" in caplog.text
