"""Issue 23, item 7: docs/bot-protocol.md against what blot really sends. Real sessions are
recorded on the pipe (tests/protocol/teebot.py between blot and the example rule bot, in a whole
game of each) and the document is checked against them: every message of its example sessions,
its tables of the view's fields and of the decisions, and the orders it promises (cards, calls,
the trick, a 3-5-8 discard as four acts).

The document's example had options that no game sends (``three_passes_end_bidding`` false,
``nt_four_nines`` false) and said nothing of the view's fields nor of the card orders."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from pathlib import Path
from random import Random
from typing import Any

import pytest

from blot.cards import parse_card
from blot.games import names, spec

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
TEEBOT = Path(__file__).with_name("teebot.py")
RULE_BOT = ROOT / "examples" / "bots" / "rule_bot.py"
BAZAR, TFE = names()

#: A message's keys whose values the document must show as blot sends them; elsewhere only the
#: shape (keys, types) is compared, so that the examples need not follow every change of a bot.
FIXED = {"type", "protocol", "game", "ruleset", "options", "seats", "teams", "time_ms", "games", "name"}

Line = tuple[str, dict[str, Any]]  # ("<" or ">", the message)


def _record(game: str, folder: Path) -> list[list[Line]]:
    """One whole game of ``blot simulate`` with the rule bot behind teebot.py in every other seat:
    each program's session as (direction, message) lines."""
    program = f"cmd:{sys.executable} {TEEBOT} {folder} {sys.executable} {RULE_BOT}"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "blot",
            "simulate",
            "--game",
            game,
            "--games",
            "1",
            "--seed",
            "4",
            "--bots",
            f"{program},basic",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    return [
        [(line[0], json.loads(line[2:])) for line in log.read_text(encoding="utf-8").splitlines()]
        for log in sorted(folder.glob("*.log"))
    ]


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[list[Line]]]:
    out = {}
    for game in names():
        folder = tmp_path_factory.mktemp(game)
        out[game] = _record(game, folder)
        assert out[game], f"no session recorded for {game}"
    return out


def _acts(sessions: dict[str, list[list[Line]]], game: str) -> list[dict[str, Any]]:
    return [m for session in sessions[game] for way, m in session if way == ">" and m["type"] == "act"]


# --- the example sessions -----------------------------------------------------------------------------


def _section(title: str) -> str:
    start = DOC.index(f"\n## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end > 0 else None]


def _example_lines() -> list[tuple[str, str]]:
    """The ``>``/``<`` lines of the example session's text blocks: (direction, JSON text)."""
    blocks = re.findall(r"```text\n(.*?)```", _section("An example session"), re.S)
    return [
        (line[0], line[2:]) for block in blocks for line in block.splitlines() if line[:2] in ("> ", "< ")
    ]


def _unshorten(text: str) -> Any:
    """The JSON of an example line with its ``…`` taken out."""
    text = re.sub(r",\s*…", "", text)
    text = re.sub(r"…\s*,", "", text)
    return json.loads(text.replace("…", ""))


def _fits(doc: Any, real: Any, complete: bool) -> bool:
    """Whether the document's (shortened) value has the real one's shape: its keys are the real
    value's (all of them when ``complete``), each list item fits some item of the real list, and
    scalars are of the same type."""
    if isinstance(doc, dict):
        if not isinstance(real, dict) or (complete and set(doc) != set(real)):
            return False
        return all(k in real and _fits(v, real[k], complete) for k, v in doc.items())
    if isinstance(doc, list):
        return isinstance(real, list) and all(any(_fits(d, r, complete) for r in real) for d in doc)
    return type(doc) is type(real)


def _same_message(doc: dict[str, Any], real: dict[str, Any], complete: bool) -> bool:
    """The real message has the document's shape, and its values under :data:`FIXED` keys."""
    fixed = all(doc[k] == real.get(k) for k in FIXED & set(doc))
    return fixed and _fits(doc, real, complete)


def _kind(message: dict[str, Any]) -> str | None:
    view = message.get("view")
    legal = view.get("legal") if isinstance(view, dict) else None
    return legal.get("kind") if isinstance(legal, dict) else None


EXAMPLES = _example_lines()


def test_the_document_has_example_sessions_of_both_games() -> None:
    games = {_unshorten(text).get("view", {}).get("game") for _, text in EXAMPLES}
    assert set(names()) <= games
    kinds = {_kind(_unshorten(text)) for _, text in EXAMPLES}
    assert {"call", "declare", "card", "discard"} <= kinds


@pytest.mark.parametrize(("way", "text"), EXAMPLES, ids=[f"line{i}" for i in range(len(EXAMPLES))])
def test_each_example_message_is_shaped_as_blot_sends_it(
    sessions: dict[str, list[list[Line]]], way: str, text: str
) -> None:
    doc = _unshorten(text)
    complete = "…" not in text
    real = [
        m
        for game in names()
        for session in sessions[game]
        for w, m in session
        if w == way and m["type"] == doc["type"] and _kind(m) == _kind(doc)
    ]
    assert real, f"blot never sent a {doc['type']} message like {text[:80]}"
    assert any(_same_message(doc, m, complete) for m in real), f"no real message is like {text[:200]}"


# --- the tables --------------------------------------------------------------------------------------


def _first_column(table: str) -> list[str]:
    return re.findall(r"^\| `([a-z_]+)` \|", table, re.M)


@pytest.mark.parametrize("game", names())
def test_the_view_table_lists_every_field_of_the_view(
    sessions: dict[str, list[list[Line]]], game: str
) -> None:
    bazar_table, tfe_table = _section("The view").split("\n3-5-8:\n")
    documented = _first_column(bazar_table if game == BAZAR else tfe_table)
    sent = {key for act in _acts(sessions, game) for key in act["view"]}
    assert sorted(documented) == sorted(sent)
    assert len(documented) == len(set(documented))


def _kinds_in_play(game: str, seed: int) -> set[str]:
    """Every ``legal.kind`` the views of a whole game between random players show."""
    game_spec = spec(game)
    wire = game_spec.wire_module()
    rng = Random(seed)
    state = game_spec.new_game(rng=Random(seed))
    kinds = set()
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        shown = wire.view_json(state.view(seat))
        assert shown is not None
        kinds.add(shown["legal"]["kind"])
        state.apply(rng.choice(state.legal_actions()))
    return kinds


def test_the_decisions_table_names_every_kind_of_decision() -> None:
    rows = re.findall(r"^\| `([a-z]+)` \| ([^|]+) \|", _section("Decisions"), re.M)
    for game in names():
        documented = {kind for kind, where in rows if where.strip() in ("both", spec(game).title)}
        seen = set().union(*(_kinds_in_play(game, seed) for seed in range(3)))
        assert documented == seen, game


# --- the orders --------------------------------------------------------------------------------------


def _in_natural_order(cards: list[str]) -> bool:
    keys = [(int(parse_card(c).suit), parse_card(c).rank) for c in cards]
    return keys == sorted(keys)


@pytest.mark.parametrize("game", names())
def test_card_lists_calls_and_tricks_come_in_the_documented_order(
    sessions: dict[str, list[list[Line]]], game: str
) -> None:
    seats = spec(game).seats
    strains = ["S", "H", "D", "C", "NT"]
    for act in _acts(sessions, game):
        view = act["view"]
        for cards in (view["hand"], view.get("talon") or [], view.get("discard") or []):
            assert _in_natural_order(cards), cards
        legal = view["legal"]
        if "cards" in legal:
            assert _in_natural_order(legal["cards"]), legal
        trick = view["trick"]
        assert [p["seat"] for p in trick] == [(trick[0]["seat"] + k) % seats for k in range(len(trick))]
        if legal["kind"] != "call":
            continue
        calls = legal["calls"]
        if game == TFE:
            assert calls == [c for c in [*strains, "pass"] if c in calls]
            continue
        assert calls[0] == "pass"
        if calls[1:] == ["redouble"]:
            continue
        bids = [c for c in calls if c[0].isdigit()]
        assert calls == ["pass", *(["sevens"] if "sevens" in calls else []), *bids] + (
            ["contra"] if "contra" in calls else []
        )
        keys = [
            (
                int(b[:-2] if b.endswith("NT") else b[:-1]),
                strains.index(b[-2:] if b.endswith("NT") else b[-1]),
            )
            for b in bids
        ]
        assert keys == sorted(keys)


def test_a_discard_is_four_acts_and_a_declaration_comes_before_its_card(
    sessions: dict[str, list[list[Line]]],
) -> None:
    for session in sessions[TFE]:
        acts = [m for way, m in session if way == ">" and m["type"] == "act"]
        lefts = [a["view"]["legal"]["left"] for a in acts if _kind(a) == "discard"]
        assert lefts and lefts == [4, 3, 2, 1] * (len(lefts) // 4)
    declared = 0
    for session in sessions[BAZAR]:
        acts = [m for way, m in session if way == ">" and m["type"] == "act"]
        for act, after in itertools.pairwise(acts):
            if _kind(act) == "declare":
                assert _kind(after) == "card" and after["view"]["seat"] == act["view"]["seat"]
                assert after["view"]["must_declare"] is False and act["view"]["must_declare"] is True
                declared += 1
    assert declared > 0
