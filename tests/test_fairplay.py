"""Fair play by the numbers (issue 43 items 2, 4 and 6; L-9): the figures of a game are the
analysis's, the test of information adds up as docs/fairplay.md says, its p-values are roughly
uniform for honest bots and small for a cheating pair, and ``blot fairplay`` prints them."""

from __future__ import annotations

import json
import math
from random import Random
from typing import Any

import pytest
from typer.testing import CliRunner

from blot.analysis import analyse
from blot.analysis.values import accuracy
from blot.bots import make_bot
from blot.cli.main import app, main
from blot.fairplay import Settings, report
from blot.fairplay.bazar import decisions
from blot.fairplay.figures import CallLoss, Decision, Figures, score
from blot.fairplay.trial import trial
from blot.games import spec
from blot.play import play, when_over

BAZAR, TFE = spec("bazar-blot"), spec("3-5-8")
#: A cheap cheat and its honest twin: the expert's card play with few samples, heuristic calls.
CHEAT = "cheat:peek=1,samples=6,bid_samples=4,bidding=heuristic"


def heuristic_deal(game_spec: Any, seed: int) -> Any:
    """A game whose first deal heuristic players played to its end (a deal with play: the first
    seed from ``seed`` on whose deal was not void)."""
    for attempt in range(seed, seed + 20):
        game = game_spec.new_game(rng=Random(attempt))
        bots = [make_bot(game_spec, "heuristic", Random(attempt * 10 + s)) for s in range(game_spec.seats)]
        play(game, bots, until=when_over(game.deal))
        if game.deals[0].plays:
            return game
    raise AssertionError("every deal was void")


def test_a_hand_built_set_of_decisions_adds_up() -> None:
    """Accuracies per kind of card and the test's score, worked out by hand."""
    value = 162 / 32
    d = [
        Decision(1, 1, 0, 1, True, "declarer", 10, 3),  # an opening lead, not weighed
        Decision(1, 1, 0, 3, False, "declarer", 0, 2, True, 0.5, 9),
        Decision(1, 1, 2, 4, False, "defence", 20, 4, False, 0.5, 9),
        Decision(1, 2, 2, 5, False, "defence", 0, 2, True, 0.8, 9),
        Decision(1, 2, 0, 8, False, "declarer", 0, 1),  # forced: one legal card
    ]
    figures = Figures("A & B", value, d, [CallLoss(1, 1, 0, 4), CallLoss(1, 2, 2, 0)])
    out = figures.to_json()
    assert out["deals"] == 2 and out["cards"] == 5
    assert out["accuracy"] == accuracy(30, 5, value)
    assert out["opening_lead_accuracy"] == accuracy(10, 1, value)
    assert out["declarer_accuracy"] == accuracy(10, 3, value)
    assert out["defence_accuracy"] == accuracy(20, 2, value)
    assert out["best_card_rate"] == 0.5  # 2 of the 4 cards chosen among several
    assert out["bidding_loss_per_call"] == 2.0
    z = (2 - 1.8) / math.sqrt((0.5 - 0.5) ** 2 + 0.2**2)  # deal 1: 1 - 0.5 + 0 - 0.5; deal 2: 1 - 0.8
    test = score(d)
    assert (test.decisions, test.observed) == (3, 2)
    assert test.expected == pytest.approx(1.8)
    assert test.score == pytest.approx(z)
    assert test.p_value == pytest.approx(0.5 * math.erfc(z / math.sqrt(2)))
    assert out["weighty_deals"][0] == {"game": 1, "deal": 2, "weight": 0.2}


def test_the_figures_of_a_game_are_its_analysis() -> None:
    """Each card's loss is the one ``blot analyse`` gives it; the first card of each deal is its
    opening lead; its side is the contract's."""
    game = heuristic_deal(BAZAR, 3)
    analysis = analyse(game, 1)
    found = [d for d in decisions(game, 1, Settings(samples=2, bidding=False)) if isinstance(d, Decision)]
    cards = [c for deal in analysis.deals for c in deal.cards]
    assert [(d.seat, d.loss) for d in found] == [(c.seat, c.loss) for c in cards]
    assert sum(d.lead for d in found) == sum(not deal.void for deal in analysis.deals)
    assert all((d.q is None) == (d.trick < 3 or d.legal == 1) for d in found)
    assert all(0 <= d.q <= 1 for d in found if d.q is not None)
    pair = report([(game, ["Ani", "Bagrat", "Carine", "Davit"])], Settings(samples=2), ("Carine", "Ani"))
    assert list(pair.pairs) == ["Ani & Carine"] and set(pair.accounts) == {"Ani", "Carine"}
    seats = {0: "Ani", 2: "Carine"}
    for name in ("Ani", "Carine"):
        mine = [c for c in cards if seats.get(c.seat) == name]
        assert pair.accounts[name].to_json()["accuracy"] == accuracy(
            sum(c.loss for c in mine), len(mine), 162 / 32
        )


def test_honest_p_values_are_roughly_uniform() -> None:
    """A seeded small run: 16 honest sides of 6 deals each (heuristic against heuristic); the
    scores centre on 0 with a spread near 1 and the p-values fill both halves. Loose bounds:
    docs/fairplay.md has the larger runs."""
    honest = Settings(bidding=False, samples=8)
    tests = [trial("bazar-blot", "heuristic", "heuristic", 6, 100 + r, honest) for r in range(16)]
    scores = [t.score for t in tests]
    mean = sum(scores) / len(scores)
    sd = math.sqrt(sum((z - mean) ** 2 for z in scores) / (len(scores) - 1))
    assert abs(mean) < 0.6 and 0.5 < sd < 1.5, (mean, sd)
    low = sum(t.p_value < 0.5 for t in tests)
    assert 4 <= low <= 12
    assert sum(t.p_value < 0.01 for t in tests) <= 1


def test_a_pair_that_sees_each_others_cards_is_flagged() -> None:
    """``cheat:peek=1`` over 20 seeded deals: p-value below 0.01; its honest twin is not."""
    cheat = trial("bazar-blot", CHEAT, "heuristic", 20, 1000, Settings(bidding=False))
    assert cheat.p_value < 0.01, cheat
    twin = trial(
        "bazar-blot", CHEAT.replace("peek=1", "peek=0"), "heuristic", 20, 1000, Settings(bidding=False)
    )
    assert twin.p_value > 0.05, twin


def test_3_5_8_decisions_are_weighed_late_in_the_deal() -> None:
    """3-5-8: a seat's own figures, no pairs; only decisions with at most ``tfe_left`` tricks to
    play are weighed."""
    game = heuristic_deal(TFE, 2)
    found = report([(game, None)], Settings(samples=3))
    assert found.pairs == {} and len(found.accounts) == 3
    tested = [d for f in found.accounts.values() for d in f.decisions if d.q is not None]
    assert tested and all(d.trick >= 11 and d.legal > 1 for d in tested)
    assert "declarer_accuracy" not in found.accounts["seat 0"].to_json()


def test_blot_fairplay_prints_each_account_and_pair(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    game = heuristic_deal(BAZAR, 5)
    path = tmp_path / "game.json"
    record = BAZAR.record_of(game, ["Ani", "Bagrat", "Carine", "Davit"], unfinished=True)
    record["deals"] = record["deals"][:1]  # the deal played; the next one was only dealt
    path.write_text(json.dumps(record))
    runner = CliRunner()
    shown = runner.invoke(app, ["fairplay", str(path), "--samples", "2"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert "Ani & Carine" in shown.output and "Bagrat & Davit" in shown.output
    out = runner.invoke(app, ["fairplay", str(path), "--samples", "2", "--pair", "Bagrat,Davit", "--json"])
    found = json.loads(out.output)
    assert [p["name"] for p in found["pairs"]] == ["Bagrat & Davit"]
    assert {a["name"] for a in found["accounts"]} == {"Bagrat", "Davit"}
    assert set(found["pairs"][0]["test"]) == {"decisions", "expected", "observed", "score", "p_value"}
    assert "bidding_loss_per_call" in found["pairs"][0]
    quick = runner.invoke(app, ["fairplay", str(path), "--samples", "2", "--no-bidding", "--json"])
    assert all("bidding_loss_per_call" not in p for p in json.loads(quick.output)["pairs"])
    with pytest.raises(SystemExit) as refused:
        main(["fairplay", str(path), "--pair", "Ani,Bagrat"])
    assert refused.value.code == 1
    assert "Ani and Bagrat were never partners in these games" in capsys.readouterr().err
    for bad in (["--pair", "Ani"], ["--pair", "Ani,Ani"], ["--samples", "1"]):  # a bad option value: 2
        with pytest.raises(SystemExit) as usage:
            main(["fairplay", str(path), *bad])
        assert usage.value.code == 2, bad


def test_the_error_rates_script_runs_small(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """benchmarks/fairplay.py at a tiny size (its numbers are for a reader: docs/fairplay.md)."""
    import runpy
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "benchmarks" / "fairplay.py"
    args = ["--honest", "random", "--cheat", "cheat:peek=1,samples=2,bid_samples=2,bidding=heuristic"]
    monkeypatch.setattr(sys, "argv", [str(script), *args, "--pairs", "2", "--deals", "2", "--samples", "4"])
    runpy.run_path(str(script), run_name="__main__")
    out = capsys.readouterr().out
    assert "| `random` | honest | 2 |" in out and "| `cheat:peek=1,samples=2" in out
    assert "ms per deal" in out
