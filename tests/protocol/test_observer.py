"""Issue 27 item 7: a trained policy sits at a table as a ``cmd:`` bot. Its program sees only the
bot protocol's JSON view; :class:`blot.env.program.Observer` must give it exactly the observation,
action mask and actions the environment gave it in training, in every phase of both games."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from random import Random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from blot.env import encoding
from blot.env.program import Observer
from blot.errors import BlotError, IllegalAction
from blot.games import spec
from blot.layers import Wire


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_the_protocol_view_observes_as_the_environment(game: str) -> None:
    game_spec = spec(game)
    wire = game_spec.layer(Wire)
    enc = encoding(game)
    checked = set()
    options = {"target": 40} if game == "bazar-blot" else {}
    for seed in range(6):
        rng = Random(seed)
        g = game_spec.new_game(game_spec.rules(None, options), rng=Random(seed + 100))
        observer = Observer({"game": game, "options": options})
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            view = g.view(seat)
            sent = json.loads(json.dumps(wire.view_json(view)))  # as the program receives it
            seen = observer.observe(sent)
            assert np.array_equal(seen["observation"], enc.observe(view)), (seed, view.phase)
            assert np.array_equal(seen["action_mask"], enc.mask(view)), (seed, view.phase)
            legal = np.flatnonzero(seen["action_mask"])
            for index in legal:
                assert observer.action(sent, int(index)) == wire.action_json(enc.action(view, int(index)))
            illegal = int(np.flatnonzero(seen["action_mask"] == 0)[0])
            with pytest.raises(IllegalAction):
                observer.action(sent, illegal)
            checked.add(sent["phase"] + (" declare" if sent.get("must_declare") else ""))
            g.apply(enc.action(view, int(rng.choice(legal))))
    every = {
        "bazar-blot": {"bidding", "play", "play declare"},
        "3-5-8": {"call", "exchange", "discard", "play"},
    }
    assert checked == every[game]


@pytest.mark.parametrize(
    "broken",
    [{}, {"seat": 0}, None, {"game": "bazar-blot", "seat": 0, "hand": ["ZZ"]}, "view"],
)
def test_a_broken_view_is_refused_in_one_sentence(broken: object) -> None:
    game = spec("bazar-blot")
    view = json.loads(json.dumps(game.layer(Wire).view_json(game.new_game(rng=Random(1)).view(1))))
    observer = Observer({"game": "bazar-blot", "options": {}})
    observer.observe(view)  # the whole view is read
    sent = view | broken if isinstance(broken, dict) and "hand" in broken else broken
    with pytest.raises(BlotError, match=r"^the view is not one of this game's: "):
        observer.observe(sent)  # type: ignore[arg-type]


ARENA = ["--deals", "2", "--seed", "3", "--json"]


def test_a_trained_policy_plays_in_the_arena_as_a_cmd_bot(tmp_path: Path) -> None:
    """examples/train: train a little, save, and play the saved policy through the protocol."""
    root = Path(__file__).resolve().parents[2]
    saved = tmp_path / "policy.npz"
    trained = subprocess.run(
        [sys.executable, "examples/train/reinforce.py", "--deals", "60", "--eval", "3", "--save", str(saved)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert trained.returncode == 0, trained.stderr
    bot = f"cmd:{sys.executable} examples/train/policy_bot.py {saved}"
    arena = subprocess.run(
        [sys.executable, "-m", "blot", "arena", "--game", "3-5-8", "--a", bot, "--b", "random", *ARENA],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert arena.returncode == 0, arena.stderr
    result = json.loads(arena.stdout)
    assert result["deals"] == 2
    assert result["bot_faults"]["a"] == {"stopped": 0, "automatic_moves": 0}
