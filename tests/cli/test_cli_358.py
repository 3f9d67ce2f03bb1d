"""The ``blot`` command for 3-5-8: replay, simulate and play, exit codes and error lines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from random import Random
from typing import Any

import pytest
from rich.console import Console

from blot.bots import make_bot
from blot.cards import SUIT_SYMBOLS, Card, cards_of
from blot.cli import terminal
from blot.cli import three_five_eight as play_module
from blot.cli.three_five_eight import tfe_winner_text
from blot.play import play as play_game
from blot.records import replay_record
from blot.records.three_five_eight import record_of
from blot.three_five_eight import Game, Phase


def blot(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "blot", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def assert_one_error_line(proc: subprocess.CompletedProcess[str], code: int, text: str) -> None:
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")
    assert text in lines[0]


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = Random(5)
    game = Game(dealer=0, rng=Random(rng.getrandbits(32)))
    play_game(game, [make_bot("3-5-8", "basic", Random(rng.getrandbits(32))) for _ in range(3)])
    path = tmp_path_factory.mktemp("records") / "game.json"
    path.write_text(json.dumps(record_of(game, ["Ivan", "Maria", "Petar"])))
    return path


# --- blot replay -------------------------------------------------------------------------------


def test_replay_json_prints_the_format_object(record_file: Path) -> None:
    proc = blot("replay", str(record_file), "--json")
    assert proc.returncode == 0, proc.stderr
    printed = json.loads(proc.stdout)
    assert printed == replay_record(json.loads(record_file.read_text())).to_json()
    assert list(printed) == ["game", "deals", "totals", "finished", "winner"]
    assert printed["game"] == "3-5-8" and printed["finished"] is True


def test_replay_prints_a_readable_table(record_file: Path) -> None:
    proc = blot("replay", str(record_file))
    assert proc.returncode == 0, proc.stderr
    assert "3-5-8" in proc.stdout and "Game over:" in proc.stdout
    for name in ("Ivan", "Maria", "Petar"):
        assert name in proc.stdout
    assert "tricks/target" in proc.stdout


def test_replay_of_an_unfinished_record(record_file: Path, tmp_path: Path) -> None:
    record = json.loads(record_file.read_text())
    record["deals"] = record["deals"][:2]
    path = tmp_path / "part.json"
    path.write_text(json.dumps(record))
    proc = blot("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    assert "Unfinished: Ivan" in proc.stdout
    assert json.loads(blot("replay", str(path), "--json").stdout)["finished"] is False


def test_replay_of_a_broken_record_exits_1_with_one_line(record_file: Path, tmp_path: Path) -> None:
    record = json.loads(record_file.read_text())
    record["deals"][1]["calls"] = ["X"]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record))
    assert_one_error_line(
        blot("replay", str(broken), "--json"), 1, "deal 2, calls 1 (X, seat 2): 'X' is not a 3-5-8 call"
    )
    record["deals"][1]["calls"] = ["S"]
    record["deals"][0]["exchange"] = ["2C", "5D"]
    broken.write_text(json.dumps(record))
    assert_one_error_line(
        blot("replay", str(broken)),
        1,
        "error: deal 1, exchange 1 (2C): there is no exchange in the first counted deal (T-20)",
    )


@pytest.mark.parametrize(
    ("content", "text"),
    [
        ('{"game": "3-5-8"}', "the record has no key 'deals'"),
        ('{"game": "3-5-8", "deals": [{"dealer": 0}]}', "deal 1 has no key 'hands'"),
        ('{"game": "3-5-8", "players": ["a"], "deals": []}', "players must name 3 players"),
        ('{"game": "3-5-8", "deals": [{"dealer": 4}]}', "deal 1, dealer: must be a seat from 0 to 2, not 4"),
        ("3-5-8", "is not JSON"),
    ],
)
def test_replay_refuses_what_is_not_a_record(tmp_path: Path, content: str, text: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(content)
    assert_one_error_line(blot("replay", str(path)), 1, text)


# --- blot simulate -----------------------------------------------------------------------------


def test_simulate_json_and_records(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    args = ["simulate", "--game", "3-5-8", "--games", "6", "--seed", "3", "--bots", "random,basic"]
    proc = blot(*args, "--records", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    for key in ("games", "deals", "seconds", "deals_per_second", "games_per_second", "deals_per_game"):
        assert key in summary
    for key in (
        "void_deals",
        "no_trump_deals",
        "exchanges",
        "cards_exchanged",
        "average_score_spread",
        "average_total_by_seat",
        "wins_by_seat",
    ):
        assert key in summary
    assert summary["game"] == "3-5-8" and summary["bots"] == ["random", "basic"] and summary["games"] == 6
    assert sum(summary["wins_by_seat"]) == 6
    lines = out.read_text().splitlines()
    assert len(lines) == 6
    deals = nt = 0
    for line in lines:
        result = replay_record(json.loads(line)).to_json()
        assert result["finished"]
        deals += len(result["deals"])
        nt += sum(d["trump"] == "NT" for d in result["deals"])
    assert deals == summary["deals"] and nt == summary["no_trump_deals"]
    again = blot(*args, "--json")
    assert {k: v for k, v in json.loads(again.stdout).items() if "second" not in k} == {
        k: v for k, v in summary.items() if "second" not in k
    }


def test_simulate_prints_a_table() -> None:
    proc = blot("simulate", "--game", "3-5-8", "--games", "2", "--bots", "basic")
    assert proc.returncode == 0, proc.stderr
    for words in ("deals per second", "no trump deals", "void deals", "exchanges", "wins by seat"):
        assert words in proc.stdout


@pytest.mark.parametrize(
    ("args", "code", "text"),
    [
        (["simulate", "--game", "3-5-8", "--bots", "genius"], 2, "unknown bot 'genius' for 3-5-8"),
        (["simulate", "--game", "3-5-8", "--bots", "a,b,c,d"], 2, "--bots names at most 3 bots in 3-5-8"),
        (["simulate", "--game", "3-5-8", "--bots", "basic:depth=3"], 2, "bot basic has no setting 'depth'"),
        (["simulate", "--game", "3-5-8", "--games", "0"], 2, "greater than or equal to 1"),
        (["play", "3-5-8", "--seat", "3"], 2, "--seat is a seat from 0 to 2 in 3-5-8, not 3"),
        (["play", "3-5-8", "--bots", "genius"], 2, "unknown bot 'genius' for 3-5-8"),
        (["play", "3-5-8", "--bots", "random,basic,basic"], 2, "--bots names at most 2 bots in 3-5-8"),
    ],
)
def test_bad_commands_and_options_give_one_line(args: list[str], code: int, text: str) -> None:
    assert_one_error_line(blot(*args), code, text)


# --- blot play 3-5-8 ---------------------------------------------------------------------------


class Script:
    """Answers the prompts of ``blot play 3-5-8`` like a person: each kind of prompt first gets
    something wrong (refused, explained, asked again), then a legal move."""

    def __init__(self) -> None:
        self.table: Any = None
        self.bot = make_bot("3-5-8", "basic")
        self.prompts: list[str] = []
        self.wrong: dict[str, list[str]] = {
            "call": ["9X", "AS"],
            "give": ["AS AS", "pass"],
            "put back": ["2S 3S 4S 5S 6S", "ZZ"],
            "card": ["H", "7Z"],
        }

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        kind = next(k for k in self.wrong if k in prompt.lower())
        if self.wrong[kind]:
            return self.wrong[kind].pop()
        deal = self.table.game.deal
        legal = deal.legal_actions()
        if kind == "call" or kind == "give":
            return str(self.bot.choose(self.table.game.view(deal.to_act)))
        if kind == "put back":  # all four at once
            return " ".join(str(c) for c in cards_of(deal.hand(deal.to_act))[: 4 - len(deal.discard)])
        if kind == "card" and deal.phase is Phase.PLAY and len(legal) > 1:
            # a card the person holds but may not play, when there is one
            held = set(cards_of(deal.hand(deal.to_act))) - set(legal)
            if held and len(self.prompts) % 7 == 0:
                self.wrong["card"].append(str(legal[-1]))
                return str(sorted(held, key=str)[0])
        return str(self.bot.choose(self.table.game.view(deal.to_act)))


def play_scripted(seed: int, seat: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Script, str]:
    script = Script()
    original = play_module.TfeTable.run

    def run(table: Any) -> None:
        script.table = table
        original(table)

    monkeypatch.setattr(play_module.TfeTable, "run", run)
    console = Console(record=True, width=120, color_system=None)
    terminal.play("3-5-8", seed, "basic", seat, ask=script, console=console)
    return script, console.export_text()


def test_play_a_whole_game_against_basic_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    script, text = play_scripted(7, 0, monkeypatch)
    game: Game = script.table.game
    assert game.is_over and game.counted == 9
    assert text.count("Score table") == len(game.results)
    assert "Targets: You 8, Right 5, Left 3" in text  # the first deal: the person calls first
    assert "Talon (shown to all):" in text and "You take it and put back four cards (T-22)." in text
    assert "You put back:" in text and "puts back four cards face down." in text
    assert "tricks: You " in text and "Trick 16:" in text and "→ trick 16" in text
    for label in ("target", "tricks", "score"):
        assert label in text
    names = ["You", "Right", "Left"]
    ending = tfe_winner_text(game.result.to_json(), names).replace("You wins", "You win")
    assert f"Game over: {ending}." in text
    # refused input is explained and asked again
    assert "and AS is not a call" in text and "'9X' is not a 3-5-8 action" in text
    assert "'ZZ' is not a card" in text and "only 4 more cards go back" in text
    assert "and H is not a card" in text and "'7Z' is not a 3-5-8 action" in text
    assert "must follow" in text or "must trump" in text or "must play one" in text


def shown(card: Card) -> str:
    """A card as the terminal shows it (without colour)."""
    return card.text[:-1] + SUIT_SYMBOLS[card.suit]


def test_play_shows_the_exchange_only_as_this_seat_may_see_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """T-20/T-21: the person sees what they gave and what came back, or what they got and had to
    give back; of a step between the two bots only that it happened."""
    names = {0: "Left (seat 0)", 2: "Right (seat 2)"}
    for seed in range(1, 40):
        script, text = play_scripted(seed, 1, monkeypatch)
        game: Game = script.table.game
        steps = [e for d in game.deals for e in d.exchanges]
        if not any(1 not in (e.giver, e.receiver) for e in steps) or not any(e.giver == 1 for e in steps):
            continue
        for e in steps:
            assert e.gift is not None and e.returned is not None
            if e.giver == 1:
                assert f"You give {shown(e.gift)} to {names[e.receiver]}; " in text
            elif e.receiver == 1:
                line = f"{names[e.giver]} gives you {shown(e.gift)}; "
                if e.returned is e.gift:
                    assert line + "you have no stronger" in text
                else:
                    assert line + f"you must give back {shown(e.returned)}" in text
            else:
                assert f"{names[e.giver]} gives {names[e.receiver]} a card and gets one back." in text
        return
    raise AssertionError("no game with both kinds of exchange step")


def test_play_quits_cleanly_on_quit_and_end_of_input() -> None:
    proc = blot("play", "3-5-8", "--seed", "1", stdin="quit\n")
    assert proc.returncode == 0 and "Goodbye" in proc.stdout and "Traceback" not in proc.stderr
    proc = blot("play", "3-5-8", "--seed", "1", stdin="")
    assert proc.returncode == 1 and "the input ended" in proc.stdout and "Traceback" not in proc.stderr
    proc = blot("play", "3-5-8", "--seed", "1", "--seat", "2", "--bots", "random", stdin="S\n2S\nquit\n")
    assert proc.returncode == 0 and "Goodbye" in proc.stdout and proc.stderr == ""


def test_play_ends_cleanly_on_ctrl_c() -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    console = Console(record=True, width=100, color_system=None)
    with pytest.raises(SystemExit) as e:
        terminal.play("3-5-8", 1, "basic", 0, ask=interrupt, console=console)
    assert e.value.code == 130
    assert "Goodbye" in console.export_text()


@pytest.mark.parametrize(
    ("totals", "last", "winner", "text"),
    [
        ([5, 1, -6], [1, 0, -1], 0, "Ivan wins with 5"),
        (
            [3, 3, -6],
            [1, 2, -3],
            1,
            "Maria wins with 3 (tied with Ivan; tie-break T-50: more points in the last deal)",
        ),
        (
            [3, 3, -6],
            [1, 1, -2],
            0,
            "Ivan wins with 3 (tied with Maria; tie-break T-50: took the latest trick of the last deal)",
        ),
    ],
)
def test_the_winner_line_names_the_tie_break(
    totals: list[int], last: list[int], winner: int, text: str
) -> None:
    """T-50: ties are broken by the last counted deal's points, then by its latest trick; a void
    deal after it does not count."""
    void = {"void": True, "scores": [0, 0, 0]}
    data = {"winner": winner, "totals": totals, "deals": [{"void": False, "scores": last}, void]}
    assert tfe_winner_text(data, ["Ivan", "Maria", "Petar"]) == text
