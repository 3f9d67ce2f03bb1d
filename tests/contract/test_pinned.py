"""Pinned numbers: a refactor that changes any rule's effect fails here, loudly.

- perft counts (:mod:`contract.perft`) of positions of seeded games of every game and ruleset,
  pinned in ``data/perft.json``;
- golden games: a dozen whole games per game and ruleset (``golden/GAME/RULESET.jsonl``) whose
  ``blot replay --json`` output is kept beside them (``RULESET.replay.jsonl``) and must come out
  the same, byte for byte, and whose records must be written again the same from the replay.

When a change of behaviour is intended, write them again with ``python tests/contract/regenerate.py``
and read the diff (tests/contract/regenerate.py says how).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from blot.cli.replay import run as replay
from blot.games import spec

from .helpers import CASE_IDS, CASES
from .perft import perft, position

HERE = Path(__file__).parent
PERFT: list[dict[str, Any]] = json.loads((HERE / "data" / "perft.json").read_text(encoding="utf-8"))
REGENERATE = "write it with python tests/contract/regenerate.py"
cases = pytest.mark.parametrize(("name", "ruleset"), CASES, ids=CASE_IDS)


@cases
def test_perft_counts_are_pinned(name: str, ruleset: str) -> None:
    positions = [p for p in PERFT if (p["game"], p["ruleset"]) == (name, ruleset)]
    assert positions, f"data/perft.json has no positions of {name} ({ruleset}): {REGENERATE}"
    for p in positions:
        game = position(name, ruleset, p["seed"], p["steps"])
        where = f"{name} ({ruleset}), seed {p['seed']} after {p['steps']} actions"
        assert game.phase.value == p["phase"], f"{where}: the position moved"
        assert perft(game, len(p["counts"])) == p["counts"], f"{where}: legal action sequences by length"


def test_perft_counts_cover_every_phase_where_someone_acts() -> None:
    for name, ruleset in CASES:
        phases = {p["phase"] for p in PERFT if (p["game"], p["ruleset"]) == (name, ruleset)}
        game = position(name, ruleset, 1, 0)
        acting = {ph.value for ph in type(game.phase)} - {"deal", "over"}
        assert acting <= phases, (name, ruleset, sorted(acting - phases))


@cases
def test_golden_games_replay_as_pinned(name: str, ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    records = HERE / "golden" / name / f"{ruleset}.jsonl"
    expected = HERE / "golden" / name / f"{ruleset}.replay.jsonl"
    assert records.exists() and expected.exists(), f"no golden games of {name} ({ruleset}): {REGENERATE}"
    lines = records.read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 12
    replay(records, None, True)
    got = capsys.readouterr().out.splitlines()
    want = expected.read_text(encoding="utf-8").splitlines()
    assert len(got) == len(want) == len(lines)
    for number, (g, w) in enumerate(zip(got, want, strict=True), 1):
        assert g == w, f"golden game {number} of {records.name} replays differently"
    s = spec(name)
    for line in lines:
        record = json.loads(line)
        result = s.replay(record)
        assert s.record_of(result.game, result.players) == record, "the record is written differently"
