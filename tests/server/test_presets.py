"""Issue 39 item 4: a ruleset is one preset. A throwaway Bazar Blot ruleset (``family``: the
League's declarations, but four sevens do not void the deal, B-25, and four 8s only rank highest,
B-45) is added as one ``Preset`` with its label in each language, and nothing else: the lobby
lists it with its label, the score sheet and ``blot score-deal`` take it, a game is played under
it through the server, and its record names it and round-trips through the rules and
``blot replay``."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from random import Random
from types import MappingProxyType

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from blot.bazar.rules import PRESETS
from blot.cli.main import app
from blot.games import spec
from contract.helpers import new_game, play

from .conftest import Player, make_client, play_out, start_with_bots

LABELS = {"hy": "Ընտանեկան", "ru": "Семейные", "bg": "Семейни", "en": "Family"}


@pytest.fixture
def family(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The throwaway preset, in PRESETS for one test (the one line a new ruleset is)."""
    preset = dataclasses.replace(
        PRESETS["league"],
        four_sevens_void=False,
        four_eights_void_others=False,
        labels=MappingProxyType(LABELS),
    )
    monkeypatch.setitem(PRESETS, "family", preset)
    yield "family"


@pytest.fixture
def family_client(family: str, db: Path) -> Iterator[TestClient]:
    with make_client(db) as client:
        yield client


def test_the_lobby_lists_a_new_preset_with_its_label(family_client: TestClient) -> None:
    games = {g["game"]: g for g in family_client.get("/api/games").json()["games"]}
    bazar = games["bazar-blot"]
    assert bazar["rulesets"] == ["league", "classic", "family"]
    assert bazar["ruleset_labels"]["family"] == LABELS
    assert bazar["ruleset_labels"]["league"]["en"] == "League"


def test_a_game_is_played_under_a_new_preset_and_its_record_round_trips(
    family_client: TestClient, tmp_path: Path
) -> None:
    ani = Player(family_client, "Ani")
    table = start_with_bots(ani, ruleset="family", options={"target": 60}, level="random")
    last = play_out(family_client, table, {0: ani})
    assert last["game_over"] is not None
    record = family_client.get(f"/api/tables/{table}/record").json()
    assert record["ruleset"] == "family"
    s = spec("bazar-blot")
    replayed = s.replay(record)
    assert replayed.game.rules.ruleset == "family" and replayed.game.rules.preset == PRESETS["family"]
    assert s.record_of(replayed.game, replayed.players) == record
    path = tmp_path / "family.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["totals"] == last["game_over"]["totals"]


def test_the_score_sheet_and_the_command_line_take_a_new_preset(family_client: TestClient) -> None:
    sheet = family_client.post("/api/scoresheets", json={"ruleset": "family", "teams": ["A", "B"]})
    assert sheet.status_code == 200, sheet.text
    assert sheet.json()["ruleset"] == "family"
    # an unknown ruleset is refused naming every preset, the new one too
    out = CliRunner().invoke(
        app,
        ["score-deal", "--ruleset", "family", "--contract", "8H", "--team", "0", "--card-points", "100,62"],
    )
    assert out.exit_code == 0, out.output
    out = CliRunner().invoke(
        app,
        ["score-deal", "--ruleset", "nosuch", "--contract", "8H", "--team", "0", "--card-points", "100,62"],
    )
    assert out.exit_code != 0 and "use league or classic or family" in out.output + str(out.exception)


def test_random_games_under_a_new_preset_keep_the_contract(family: str) -> None:
    """The contract suite's random play and record round trip, under the new preset (its pins
    are written by tests/contract/regenerate.py once the preset is committed)."""
    s = spec("bazar-blot")
    for seed in range(3):
        game = new_game("bazar-blot", family, seed)
        play(game, Random(seed))
        record = s.record_of(game)
        assert s.record_of(s.replay(json.loads(json.dumps(record))).game) == record
