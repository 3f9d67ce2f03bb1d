"""The measuring scripts of issue 27 run end to end at a tiny size (their numbers are printed
for a reader, never asserted: a handful of deals decides nothing)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> str:
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_the_ablation_script_runs(game: str) -> None:
    budget = "samples=2,bid_samples=2" if game == "bazar-blot" else "samples=2"
    out = run(
        "benchmarks/ablation.py", "--game", game, "--deals", "1", "--budget", budget, "--against", "heuristic"
    )
    print(out)
    assert out.count("| `expert") == 5


def test_the_ladder_script_runs() -> None:
    levels = "random,basic,heuristic,pimc:samples=2,expert:samples=2,bid_samples=2"
    out = run(
        "benchmarks/ladder.py", "--game", "bazar-blot", "--deals", "2", "--levels", levels, "--rated", "1"
    )
    print(out)
    assert "| `random` | +0 |" in out and "rated tables (OpenSkill" in out
    out = run(
        "benchmarks/ladder.py", "--game", "3-5-8", "--deals", "2", "--levels", "random,basic,expert:samples=2"
    )
    print(out)
    assert "| `random` | +0 |" in out


def test_the_3_5_8_positions_script_runs() -> None:
    out = run("benchmarks/tfe_positions.py", "--bots", "pimc:samples=2,expert:samples=2", "--deals", "2")
    print(out)
    assert "  pimc:samples=2: " in out and "  expert:samples=2: " in out
