"""The bot protocol (docs/bot-protocol.md): ``cmd:`` bots in blot arena, simulate and play, the
example bots, every way a program can break the protocol, and what a program may see."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

import pytest

from blot.arena import run
from blot.bots import make_bot, program
from blot.bots.program import LOG_PER_MOVE, POOL, Pool, Program
from blot.errors import BlotError, BotFailed, BotStopped
from blot.games import names, spec
from blot.play import Player, finish, moves
from blot.store import LogEntry
from server.frames import cards_in, known_cards

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "bots"
TESTBOT = Path(__file__).with_name("testbot.py")
PY = {
    "random": f"cmd:python3 {EXAMPLES / 'random_bot.py'}",
    "rule": f"cmd:python3 {EXAMPLES / 'rule_bot.py'}",
}
JS = {"random": f"cmd:node {EXAMPLES / 'random.js'}", "rule": f"cmd:node {EXAMPLES / 'rule.js'}"}


def program_bot(mode: str, when: int = 1) -> str:
    return f"cmd:{sys.executable} {TESTBOT} {mode} {when}"


def blot(*args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "blot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, **env},
    )


def need_node() -> None:
    if shutil.which("node") is None:
        if os.environ.get("BLOT_REQUIRE_NODE"):  # set by .ci/run: there, a missing node is a failure
            pytest.fail("node is not installed, and BLOT_REQUIRE_NODE is set")
        pytest.skip("node is not installed: the JavaScript example bots cannot run")


def arena_json(*args: str, **env: str) -> dict[str, Any]:
    proc = blot("arena", *args, "--json", **env)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


NO_FAULTS = {"a": {"stopped": 0, "automatic_moves": 0}, "b": {"stopped": 0, "automatic_moves": 0}}


# --- the example bots, through blot arena --------------------------------------------------------


@pytest.mark.parametrize("game", names())
@pytest.mark.parametrize(
    ("a", "b"),
    [
        (PY["rule"], "basic"),
        (JS["rule"], PY["random"]),
        (JS["random"], "heuristic"),
    ],
    ids=["python-rule-vs-basic", "node-rule-vs-python-random", "node-random-vs-heuristic"],
)
def test_example_bots_play_a_whole_arena_match(game: str, a: str, b: str) -> None:
    if "node" in a or "node" in b:
        need_node()
    out = arena_json("--game", game, "--a", a, "--b", b, "--deals", "3", "--seed", "4")
    tables = 3 * len(spec(game).teams)
    assert (out["a"], out["b"], out["deals"], out["tables"]) == (a, b, 3, tables)
    assert out["bot_faults"] == NO_FAULTS


def test_the_example_bots_are_short() -> None:
    for path in EXAMPLES.iterdir():
        assert len(path.read_text().splitlines()) < 60, path


def test_a_seeded_program_replays_the_same_arena() -> None:
    """new_game carries a seed from the run's seed; the random examples use it."""
    first = list(run("3-5-8", PY["random"], "random", 4, 9))[-1]
    second = list(run("3-5-8", PY["random"], "random", 4, 9))[-1]
    assert first.margins == second.margins
    other = list(run("3-5-8", PY["random"], "random", 4, 10))[-1]
    assert other.margins != first.margins


def test_the_rule_bots_of_both_languages_play_alike() -> None:
    """The two rule examples follow the same rule, so on duplicate deals they tie every deal."""
    need_node()
    for game in names():
        result = list(run(game, PY["rule"], JS["rule"], 3, 2))[-1]
        assert result.margins == [0.0, 0.0, 0.0], game


def test_cmd_bots_in_simulate_and_play() -> None:
    proc = blot("simulate", "--game", "3-5-8", "--games", "1", "--bots", f"{PY['rule']},random", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["games"] == 1
    proc = blot("play", "bazar-blot", "--seed", "3", "--bots", PY["random"], stdin="pass\nquit\n")
    assert proc.returncode == 0, proc.stderr
    assert "Left (seat 1):" in proc.stdout and "Game left. Goodbye." in proc.stdout


# --- programs that break the protocol -------------------------------------------------------------

FAULTS = [
    ("crash", "exited (status 3)"),
    ("hang", "did not answer act 2 in time"),
    ("garbage", "wrote 'this is not json', which is not a JSON object"),
    ("illegal", "answered 'ZZ', which is not in legal"),
    ("wrong-id", "answered {'type': 'action', 'id': 102} instead of an action with id 2"),
]


@pytest.mark.parametrize(("mode", "sentence"), FAULTS, ids=[m for m, _ in FAULTS])
def test_a_misbehaving_program_is_stopped_and_counted(mode: str, sentence: str) -> None:
    """At its second decision the program breaks the protocol: blot arena stops it, plays the
    automatic move for it to the end of each table, counts both, and prints one line each time."""
    bot = program_bot(mode, 2)
    out = arena_json("--game", "3-5-8", "--a", bot, "--b", "random", "--deals", "1", BLOT_BOT_TIME_MS="300")
    faults = out["bot_faults"]
    assert faults["b"] == NO_FAULTS["b"]
    assert faults["a"]["stopped"] == 3  # A plays one seat at each of the deal's three tables
    assert faults["a"]["automatic_moves"] > 3 * 10  # the rest of each table: calls, talon, 16 cards
    proc = blot(
        "arena", "--game", "3-5-8", "--a", bot, "--b", "random", "--deals", "1", BLOT_BOT_TIME_MS="300"
    )
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 3 and "Traceback" not in proc.stderr
    name = f"bot 'test {mode}' ({bot[4:]})"
    for line in lines:
        assert line.startswith("seat ") and line.endswith(
            f": {name} {sentence}; it was stopped and the automatic move was made"
        ), line
    assert "bot programs stopped A / B" in proc.stdout


@pytest.mark.parametrize("game", names())
def test_the_automatic_move_replaces_a_failed_program(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a fault every move of the seat is the game's auto_action (the server's automatic
    move), and the next game starts a fresh program."""
    monkeypatch.setenv("BLOT_BOT_TIME_MS", "300")
    game_spec = spec(game)
    players: list[Player] = [make_bot(game, "random", Random(s)) for s in range(game_spec.seats)]
    players[1] = make_bot(game, program_bot("crash", 3), Random(1))
    faults = []
    for number in range(2):
        state = game_spec.new_game(rng=Random(number))
        steps = moves(state, players, until=lambda g: len(g.deals) > 1)
        while True:
            expected = state.copy().auto_action() if state.to_act is not None else None
            move = next(steps, None)
            if move is None:
                break
            if move.fault is not None:
                assert move.seat == 1 and str(move.action) == str(expected)
                faults.append(move.fault)
        finish(state, players)
    assert [type(f) for f in faults[:2]] == [BotFailed, BotStopped]
    firsts = [f for f in faults if not isinstance(f, BotStopped)]
    assert len(firsts) == 2  # one per game: the second game ran a fresh program, which crashed too


SETUP_ERRORS = [
    ("cmd:no-such-program-blot-test", "bot program 'no-such-program-blot-test' cannot start"),
    ("cmd:", "cmd: needs a command line"),
    ("cmd:python3 'unclosed", "cannot read the command line"),
    (program_bot("old"), "speaks protocol 2; blot speaks 1"),
    (program_bot("chess"), "does not play 3-5-8 (its games: chess)"),
    (program_bot("talk"), "wrote 'starting up...', which is not a JSON object"),
]


@pytest.mark.parametrize(("bot", "sentence"), SETUP_ERRORS)
def test_a_program_that_cannot_play_is_refused_before_any_play(bot: str, sentence: str) -> None:
    with pytest.raises(BlotError, match=None) as caught:
        make_bot("3-5-8", bot, Random(0))
    assert sentence in str(caught.value)
    proc = blot("arena", "--game", "3-5-8", "--a", bot, "--b", "random", "--deals", "1")
    unreadable = bot in ("cmd:", "cmd:python3 'unclosed")  # a bad command line (README), not a bad program
    assert proc.returncode == (2 if unreadable else 1) and proc.stdout == ""
    assert proc.stderr.startswith("error: ") and sentence in proc.stderr
    assert len(proc.stderr.splitlines()) == 1, proc.stderr


def test_standard_error_goes_to_the_log_never_to_the_output(bot_log: Path) -> None:
    proc = blot("arena", "--game", "3-5-8", "--a", program_bot("stderr"), "--b", "random", "--deals", "1")
    assert proc.returncode == 0, proc.stderr
    assert "SECRET-DEBUG" not in proc.stdout + proc.stderr
    log = bot_log.read_text()
    assert "SECRET-DEBUG decision 1" in log and f"start: {program_bot('stderr')[4:]}" in log


LOG_LINE_HEAD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[(?P<program>.+?)\] seat (?P<seat>[0-9-]+): ")


def _spew(decisions: int, bot_log: Path) -> list[str]:
    """Three programs that write 2 MB to standard error at every decision play ``decisions``
    moves of a 3-5-8 game; the bot log's lines once they are stopped."""
    game = spec("3-5-8").new_game(rng=Random(1))
    players: list[Player] = [make_bot("3-5-8", program_bot("spew", 2), Random(s)) for s in range(3)]
    taken = list(itertools.islice(moves(game, players), decisions))
    assert not [m for m in taken if m.fault is not None]
    finish(game, players)
    POOL.close()
    return bot_log.read_text().splitlines()


def test_standard_error_is_capped_per_decision_with_the_seat_and_program_on_each_line(
    bot_log: Path,
) -> None:
    """Issue 22: a program writing megabytes per move grew the log without end; now each
    decision keeps LOG_PER_MOVE bytes, then one line says the rest was cut."""
    lines = _spew(12, bot_log)
    assert bot_log.stat().st_size < 12 * (LOG_PER_MOVE + 3_000)  # 24 MB were written
    command = program_bot("spew", 2)[4:]
    body = [line for line in lines if not line.startswith("--- ")]
    assert len(lines) - len(body) == 3  # one start line per program
    for line in body:
        head = LOG_LINE_HEAD.match(line)
        assert head is not None and head["program"] == command and head["seat"] in "012", line[:120]
    cuts = [line for line in body if line.endswith("KiB in one decision, the rest of it is not kept")]
    assert len(cuts) == 12  # one per decision: each wrote more than the cap
    for seat in "012":  # each line names the seat whose decision wrote it
        assert any(line.split(": ", 1)[0].endswith(f"seat {seat}") for line in cuts)


def test_standard_error_is_capped_per_program(bot_log: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(program, "LOG_PER_PROGRAM", 40 * 1024)
    lines = _spew(15, bot_log)
    assert bot_log.stat().st_size < 3 * 40 * 1024 * 1.25  # the prefixes come on top
    kept = [LOG_LINE_HEAD.sub("", line) for line in lines if not line.startswith("--- ")]
    assert sum(len(text) for text in kept if not text.startswith("… output cut")) <= 3 * 40 * 1024
    cut = [line for line in lines if line.endswith("KiB from this program, the rest is not kept")]
    assert len(cut) == 3  # once per program; after it, nothing more of that program
    for line in cut:
        later = lines[lines.index(line) + 1 :]
        assert not any(line.split(": ", 1)[0] == other.split(": ", 1)[0] for other in later)


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie waiting for its parent."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


@pytest.mark.parametrize("ending", ["bye", "stop", "pool closed"])
def test_a_program_and_everything_it_started_end_together(ending: str, tmp_path: Path) -> None:
    """Issue 22: a forking program left an orphan that outlived the server. The program runs in
    a process group of its own, and the whole group is killed when it ends: after ``bye`` (the
    end of a session), when it is stopped (a fault) and when the pool closes (blot exits)."""
    pid_file = tmp_path / "child.pid"
    command = f"{sys.executable} {TESTBOT} fork {pid_file}"
    pool = Pool()
    started = pool.take(command)
    child = int(pid_file.read_text())
    assert _running(child)
    if ending == "bye":
        started.bye()
    elif ending == "stop":
        started.stop()
    else:
        pool.give(started)
        pool.close()
    deadline = time.monotonic() + 5
    while _running(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(child)
    assert started.process.returncode is not None  # reaped


# --- what a program sees ----------------------------------------------------------------------------


def _legal_values(view: dict[str, Any]) -> list[Any]:
    offer = view["legal"]
    if offer["kind"] == "call":
        return list(offer["calls"])
    if offer["kind"] == "declare":
        return [{"declare": option} for option in offer["options"]]
    return list(offer["cards"])


@pytest.mark.parametrize("game", names())
def test_a_program_sees_only_what_its_seat_may_know(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every message a program receives (decisions, events, the end of the game) holds only cards
    its seat may know then: the websocket's check (tests/server/frames.py), over whole deals."""
    game_spec = spec(game)
    wire = game_spec.wire_module()
    sent: list[dict[str, Any]] = []
    original = Program.send

    def spy(self: Program, message: dict[str, Any], deadline: float) -> None:
        sent.append(message)
        original(self, message, deadline)

    monkeypatch.setattr(Program, "send", spy)
    checked = 0
    kinds: set[str] = set()
    for seat in range(game_spec.seats):
        rng = Random(seat)
        players: list[Player] = [
            make_bot(game, "random", Random(rng.getrandbits(32))) for _ in range(game_spec.seats - 1)
        ]
        players.insert(seat, make_bot(game, program_bot("listen"), Random(seat)))
        sent.clear()  # the hello of a program just started
        rules = game_spec.rules()
        state = game_spec.new_game(rules)
        settings = {"ruleset": rules.ruleset, "options": rules.options()}
        entries = [LogEntry(1, "create", {"settings": settings})]
        for _ in range(2):  # two deals, or one when the random players end the game in it
            if state.is_over:
                break
            cards = game_spec.random_deal(rng)
            state.start_deal(cards)
            entries.append(LogEntry(len(entries) + 1, "deal", cards.to_json()))
            before = known_cards(game, entries, len(entries), seat)
            deal = state.deal
            assert deal is not None
            for move in moves(state, players, until=lambda _g, d=deal: d.is_over):
                action = wire.action_json(move.action)
                entries.append(LogEntry(len(entries) + 1, "act", {"seat": move.seat, "action": action}))
                after = known_cards(game, entries, len(entries), seat)
                kinds |= {m["type"] for m in sent}
                for message in sent:  # a decision was asked before the move, events come after it
                    checked += _check_message(message, before if message["type"] == "act" else after, seat)
                sent.clear()
                before = after
        finish(state, players)
        assert [m["type"] for m in sent] == ["end_game"]
        checked += _check_message(sent.pop(), before, seat)
    assert checked > 200 and kinds == {"new_game", "act", "event"}


def _check_message(message: dict[str, Any], allowed: set[str], seat: int) -> int:
    """One message a program received: its cards are all known to the seat; an act message's
    ``legal`` is exactly the view's own choices."""
    kind = message["type"]
    assert kind in ("new_game", "act", "event", "end_game"), kind
    if kind == "new_game":
        assert message["seat"] == seat
        return 0
    if kind == "act":
        assert message["view"]["seat"] == seat
        assert message["legal"] == _legal_values(message["view"])
        message = {k: v for k, v in message.items() if k != "legal"}
    seen = cards_in(message)
    leaked = seen - allowed
    assert not leaked, f"{kind} shows {sorted(leaked)} to seat {seat}"
    return len(seen)


@pytest.mark.parametrize("text", ["²", "9" * 5000, "-5", "0", "1.5"])
def test_a_bad_bot_time_is_one_sentence(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    from blot.bots.external import time_ms

    monkeypatch.setenv("BLOT_BOT_TIME_MS", text)
    with pytest.raises(BlotError, match=r"^BLOT_BOT_TIME_MS must be a number of milliseconds, not '"):
        time_ms()
