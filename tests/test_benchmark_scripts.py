"""The measuring scripts of issue 27 run end to end at a tiny size (their numbers are printed
for a reader, never asserted: a handful of deals decides nothing)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))  # as tests/web/test_lighthouse.py imports its script


def run(*args: str) -> str:
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_the_ablation_script_runs(game: str) -> None:
    budget = "samples=2,bid_samples=2" if game == "bazar-blot" else "samples=2"
    # 3-5-8's double-dummy losses (every decision of a 16-trick deal solved) cost 60% of its run
    quick = ["--no-dd"] if game == "3-5-8" else []
    args = ("--game", game, "--deals", "1", "--budget", budget, "--against", "heuristic", *quick)
    out = run("benchmarks/ablation.py", *args)
    print(out)
    assert out.count("| `expert") == (5 if game == "bazar-blot" else 6)
    assert out.count("| — | — |") == (0 if game == "bazar-blot" else 6)
    if game == "3-5-8":  # the budget replaces the variant's own samples, not adds a second
        assert "| `expert:exact=7,samples=2` |" in out


def test_the_ladder_script_runs() -> None:
    levels = "random,basic,expert:samples=2,bid_samples=2"
    out = run(
        "benchmarks/ladder.py", "--game", "bazar-blot", "--deals", "2", "--levels", levels, "--rated", "1"
    )
    print(out)
    assert "| `random` | +0 |" in out and "rated tables (OpenSkill" in out
    out = run("benchmarks/ladder.py", "--game", "3-5-8", "--deals", "2", "--levels", "random,basic")
    print(out)
    assert "| `random` | +0 |" in out


def test_the_3_5_8_positions_script_runs() -> None:
    out = run("benchmarks/tfe_positions.py", "--bots", "pimc:samples=2,expert:samples=2", "--deals", "2")
    print(out)
    assert "  pimc:samples=2: " in out and "  expert:samples=2: " in out


def test_the_3_5_8_tail_script_runs() -> None:
    out = run("benchmarks/tfe_tail.py", "--positions", "3", "--left", "8")
    print(out)
    assert out.startswith("3-5-8 exact search: 3 positions with 8 tricks to play, seed 11\nmedian ")
    assert out.count(" nodes\n") == 3


def test_the_arena_in_pieces_adds_up_to_the_arena(tmp_path: Path) -> None:
    """Deals 0 and 1 played in two pieces (one played twice: it is skipped) sum to what blot arena
    gives for 2 deals: the same margins and double-dummy losses."""
    from blot.arena import run as arena

    out = tmp_path / "run.jsonl"
    game = ("--game", "3-5-8", "--a", "heuristic", "--b", "basic", "--seed", "4")
    for first in ("1", "0", "1"):
        run("benchmarks/arena_pieces.py", "play", *game, "--first", first, "--deals", "1", "--out", str(out))
    assert len(out.read_text().splitlines()) == 2
    summed = json.loads(run("benchmarks/arena_pieces.py", "sum", *game, str(out)))
    *_, expected = arena("3-5-8", "heuristic", "basic", 2, 4, dd=True)
    wanted = expected.to_json()
    assert summed["deal_numbers"] == "0-1"
    for key in ("deals", "mean_margin", "ci95", "dd_loss", "decisions"):
        assert summed[key] == wanted[key], key


def test_the_kapoot_script_runs() -> None:
    bot = "expert:bid_samples=2,samples=2"
    out = run("benchmarks/kapoot.py", "--bot", bot, "--deals", "3", "--play-from", "8")
    print(out)
    assert "3 deals bid by four `expert:bid_samples=2,samples=2` (seed 1):" in out


def test_the_ladder_rating_recovers_bradley_terry_strengths() -> None:
    """Scores made from strengths 1, 3 and 9 give back 400 · log10 of them, and a near-certain
    win over the anchor does not outrank a head-to-head loss (the least-squares fit on clipped
    logits it replaced did)."""
    import ladder

    strength = {"random": 1.0, "mid": 3.0, "top": 9.0}
    pairs = [
        ladder.Pair(a, b, 400, 0.0, 0.0, 0.0, strength[a] / (strength[a] + strength[b]), 0.0)
        for a, b in (("mid", "random"), ("top", "random"), ("top", "mid"))
    ]
    rating = ladder.elo(["random", "mid", "top"], pairs)
    assert rating["random"] == 0
    assert rating["mid"] == pytest.approx(400 * math.log10(3), abs=0.5)
    assert rating["top"] == pytest.approx(400 * math.log10(9), abs=0.5)

    scores = {("a", "random"): 0.998, ("b", "random"): 0.993, ("b", "a"): 0.56}
    pairs = [ladder.Pair(a, b, 200, 0.0, 0.0, 0.0, s, 0.0) for (a, b), s in scores.items()]
    rating = ladder.elo(["random", "a", "b"], pairs)
    assert rating["b"] > rating["a"] > 0


def test_the_choices_script_compares_the_same_card_play() -> None:
    """A bot against itself differs nowhere; and where the searched call and discard agree with
    the heuristic's, the card play is the same card for card (the choices draw their own random
    numbers), so the seat's difference is exactly 0."""
    import choices

    same = ("--a", "expert:samples=2", "--b", "expert:samples=2", "--deals", "1", "--repeat", "2")
    out = run("benchmarks/choices.py", *same)
    print(out)
    assert "mean difference per seat and deal (tricks): +0.000" in out
    assert "the call never differed in 3 seat tables" in out
    assert "only the discard never differed in 3 seat tables" in out
    a, b = "expert:samples=2,choices=expert,call_samples=2", "expert:samples=2"
    compared = 0
    for number in range(2):
        base = choices.play_table([b, b, b], 9, number)
        for seat in range(3):
            mine = choices.play_table([a if s == seat else b for s in range(3)], 9, number)
            if (mine.calls, mine.discard) == (base.calls, base.discard):
                assert mine.scores == base.scores, (number, seat)
                compared += 1
    assert compared >= 3  # the check above is not vacuous: seeds 0 and 1 agree at every seat


def test_the_choices_script_measures_the_exchange_on_second_deals() -> None:
    """``--later``: the measured deal follows a first deal that sets an exchange (T-20), the same
    at every table; where the played-out gifts agree with the heuristic's the tables are equal."""
    import choices

    quick = "expert:samples=2,choices=heuristic,gifts=heuristic"  # --later is this test's subject
    same = ("--a", quick, "--b", quick, "--deals", "2", "--later")
    out = run("benchmarks/choices.py", *same)
    print(out)
    assert "2 duplicate second deals of a game" in out
    assert "mean difference per seat and deal (tricks): +0.000" in out
    assert "only the gifts never differed in 6 seat tables" in out
    a = "expert:samples=2,choices=heuristic,call_samples=2"
    b = "expert:samples=2,choices=heuristic,gifts=heuristic"
    exchanges = compared = 0
    for number in range(4):
        base = choices.play_table([b, b, b], 9, number, later=True)
        exchanges += bool(base.gifts)
        for seat in range(3):
            mine = choices.play_table([a if s == seat else b for s in range(3)], 9, number, later=True)
            assert mine.calls == base.calls  # both make the heuristic player's calls
            if mine.gifts == base.gifts:
                assert mine.scores == base.scores, (number, seat)
                compared += 1
    assert exchanges >= 2 and compared >= 3  # not vacuous: most seats' gifts agree


def test_the_decisions_script_times_the_3_5_8_gifts_apart() -> None:
    """Item 3's speed at a web table: every other 3-5-8 deal is a second deal of a game, so the
    exchange's gifts are timed too, on their own line (seed 5 gives the bot's seat one)."""
    bot = "expert:samples=2,call_samples=2"
    out = run("benchmarks/decisions.py", "--bot", bot, "--game", "3-5-8", "--deals", "4", "--seed", "5")
    print(out)
    assert f"3-5-8, {bot} at a web table's settings, 4 deals against pimc:" in out
    assert "  gifts: 1 decisions, median" in out


def test_the_bazar_play_outs_script_runs() -> None:
    out = run("benchmarks/playouts.py", "--deals", "2", "--count", "50", "--python", "1")
    print(out)
    assert out.startswith("Bazar Blot play-outs from the first card, 2 deals, one core (CPU time), ")
    assert "\n3-5-8 play-outs from the first card, 2 deals, one core (CPU time), " in out
    for name in ("random", "basic", "heuristic", "python"):
        assert out.count(f"\n  {name:<10} ") == 2


def test_the_3_5_8_expert_choices_script_runs() -> None:
    """issue 44 item 1: the expert's played-out choices timed compiled and with the Python
    play-outs, the same choices both ways."""
    out = run("benchmarks/tfe_playouts.py", "--games", "1", "--bot", "expert:call_samples=3,samples=2")
    print(out)
    assert "3-5-8 expert:call_samples=3,samples=2's played-out choices, 1 second deals, one core" in out
    assert "  call        1 decisions: mean " in out
    assert "\nthe same " in out and " choices both ways: yes" in out


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_the_regret_script_runs(game: str) -> None:
    args = ("--game", game, "--positions", "3", "--judge", "4", "--bots", "random,heuristic")
    out = run("benchmarks/regret.py", *args, "--pair", "random,heuristic")
    print(out)
    title = "Bazar Blot" if game == "bazar-blot" else "3-5-8"
    assert out.startswith(f"{title} card play, regret against the judge (the expert's search, 4 deals ")
    assert "\nrandom " in out and "\nheuristic " in out
    assert "\nrandom less heuristic, position by position: " in out
