"""The reinforcement-learning environments (blot.env, docs/environments.md): PettingZoo's own API
test, the encodings, the rewards, and what an observation may hold."""

from __future__ import annotations

from random import Random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed")

from pettingzoo.test import api_test

from blot.env import encoding, env
from blot.errors import BlotError
from blot.games import names, spec


@pytest.mark.parametrize("game", names())
@pytest.mark.parametrize("reward", ["deal", "game"])
def test_pettingzoo_api_test_passes(game: str, reward: str) -> None:
    api_test(env(game, reward=reward), num_cycles=300, verbose_progress=False)


def play(e: Any, seed: int) -> dict[str, float]:
    """Random legal actions to the end; the total reward of each agent."""
    rng = Random(seed)
    e.reset(seed=seed)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(rng.choice(list(legal))))
    return totals


@pytest.mark.parametrize("game", names())
def test_deal_rewards_are_the_arena_margins_and_sum_to_the_game(game: str) -> None:
    """reward=deal: each deal pays every seat its points minus its opponents' mean; over a whole
    game that is the seat's total minus the opponents' mean total."""
    e = env(game)
    totals = play(e, 3)
    result = e.game.result.to_json()["totals"]  # per team (Bazar Blot) or per seat (3-5-8)
    teams = spec(game).teams

    def total(seat: int) -> float:
        return float(result[next(i for i, t in enumerate(teams) if seat in t)])

    for seat, agent in enumerate(e.possible_agents):
        others = [s for s in range(spec(game).seats) if not any(seat in t and s in t for t in teams)]
        assert totals[agent] == pytest.approx(total(seat) - sum(map(total, others)) / len(others)), agent


@pytest.mark.parametrize("game", names())
def test_game_reward_is_the_placing(game: str) -> None:
    e = env(game, reward="game")
    totals = play(e, 5)
    ranking = e.game.result.ranking()
    best = min(ranking)
    for seat, agent in enumerate(e.possible_agents):
        if ranking[seat] == best:
            assert totals[agent] > 0
        else:
            assert totals[agent] <= 0
    assert sum(totals.values()) == pytest.approx(0.0)


def test_max_deals_truncates_the_game() -> None:
    e = env("bazar-blot", max_deals=2)
    play(e, 1)
    assert len(e.game.result.deals) == 2 and not e.game.is_over


@pytest.mark.parametrize("game", names())
def test_the_mask_is_the_legal_actions_and_every_observation_is_the_seats_own(game: str) -> None:
    """Every legal action has its own index (Bazar Blot declarations: none and the best set), and
    the observation of a seat never changes with the cards of the other hands: two deals that
    differ only in the others' cards give the seat the same first observation."""
    code = encoding(game)
    game_spec = spec(game)
    rng = Random(7)
    for _ in range(20):
        state = game_spec.new_game(rng=Random(rng.getrandbits(32)))
        steps = 0
        while not state.is_over and steps < 200:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            mask = code.mask(view)
            chosen = [code.action(view, int(i)) for i in np.flatnonzero(mask)]
            assert all(a in view.legal for a in chosen)
            if not getattr(view.deal, "must_declare", False):
                assert len(chosen) == len(view.legal)
            obs = code.observe(view)
            assert obs.shape == (code.size,) and obs.min() >= 0 and obs.max() <= 1
            state.apply(rng.choice(chosen))
            steps += 1


def test_an_action_outside_the_mask_is_refused_with_a_sentence() -> None:
    e = env("3-5-8")
    e.reset(seed=2)
    observation, *_ = e.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(BlotError, match=r"is not legal now \(see the action mask\)"):
        e.step(illegal)
    with pytest.raises(BlotError, match="reward must be deal or game"):
        env("3-5-8", reward="money")


def test_replay_and_the_bot_protocol_never_import_the_rl_modules(tmp_path: Any) -> None:
    """blot.env's heavy modules (numpy, gymnasium, pettingzoo) are imported by blot.env alone."""
    import json
    import subprocess
    import sys

    from blot.bots import make_bot
    from blot.play import play as play_game

    game_spec = spec("3-5-8")
    state = game_spec.new_game(rng=Random(1))
    play_game(state, [make_bot(game_spec, "random", Random(s)) for s in range(3)])
    record = tmp_path / "game.json"
    record.write_text(json.dumps(game_spec.record_of(state)))
    code = (
        "import sys; from blot.cli.main import main; main(['replay', sys.argv[1], '--json']);"
        "import blot.bots.external, blot.arena;"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'gymnasium', 'pettingzoo'}))"
    )
    command = [sys.executable, "-c", code, str(record)]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[]"


def test_docs_list_every_part_of_each_observation() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "environments.md").read_text()
    for game in names():
        code = encoding(game)
        assert f"**{game}**: {code.size} values." in text
        for name, part in code.layout.slices.items():
            assert f"| `{name}` | {part.start}–{part.stop - 1} | {part.stop - part.start} |" in text, name


@pytest.mark.parametrize("game", names())
def test_built_in_bots_play_the_opponents_seats(game: str) -> None:
    """opponents=: one argument makes a built-in bot the environment's opponents; the agents are
    the first team's seats, and PettingZoo's API test still passes."""
    api_test(env(game, opponents="basic", max_deals=3), num_cycles=200, verbose_progress=False)
    e = env(game, opponents="heuristic")
    assert e.possible_agents == [f"seat_{s}" for s in spec(game).teams[0]]
    totals = play(e, 4)
    assert e.game.is_over and set(totals) == set(e.possible_agents)


def test_a_bad_opponent_is_one_sentence() -> None:
    with pytest.raises(BlotError, match=r"^unknown bot"):
        env("3-5-8", opponents="grandmaster")


def test_a_358_total_of_63_is_not_clipped() -> None:
    from types import SimpleNamespace

    code = encoding("3-5-8")
    view = SimpleNamespace(seat=1, totals=(63, -40, -23), counted=9, may_pass=(True, False, True), deal=None)
    part = code.observe(view)[code.layout.slices["totals"]]
    assert [round(float(v) * 288 - 144) for v in part] == [-40, -23, 63]  # from the seat itself on


def test_the_bazar_observation_holds_the_bidding_call_by_call() -> None:
    e = env("bazar-blot")
    e.reset(seed=2)
    game = e.game
    for text in ("8H", "9S", "pass", "10H"):
        game.apply(game.parse_action(text))
    seat = game.to_act
    code = e.encoding
    calls = code.observe(game.view(seat))[code.layout.slices["calls"]].reshape(16, 15)
    seen = []
    for row in calls[:5]:
        if not row.any():
            continue
        kind = ("pass", "bid", "contra", "redouble", "sevens")[int(np.argmax(row[4:9]))]
        strain = "SHDC"[int(np.argmax(row[10:15]))] if row[10:14].any() else "NT"
        seen.append(f"{round(float(row[9]) * 30)}{strain}" if kind == "bid" else kind)
    assert seen == ["8H", "9S", "pass", "10H"]


def test_info_state_and_render() -> None:
    e = env("3-5-8", render_mode="ansi")
    e.reset(seed=6)
    agent = e.agent_selection
    info = e.infos[agent]
    view = e.game.view(info["seat"])
    assert sorted(info["legal"]) == sorted(str(a) for a in view.legal) and info["phase"] == "call"
    assert e.state().shape == e.state_space.shape == (3 * e.encoding.size,)
    text = e.render()
    assert text is not None and text.startswith("3-5-8: deal 1, call") and text.count("\nseat ") == 3


def test_single_learner_environment_plays_a_game_and_vectorises() -> None:
    from gymnasium.vector import SyncVectorEnv

    from blot.env import single

    s = single("bazar-blot", opponents="random", max_deals=2)
    observation, _ = s.reset(seed=3)
    total, done = 0.0, False
    while not done:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, reward, terminated, truncated, _ = s.step(action)
        total += reward
        done = terminated or truncated
    assert len(s.aec.game.result.deals) == 2 and total != 0
    envs = SyncVectorEnv([lambda: single("3-5-8", opponents="basic")] * 3)
    observations, _ = envs.reset(seed=1)
    assert observations["action_mask"].shape == (3, 58)


# --- Issue 39, item 6: Gymnasium's checker, registered ids, masks for a maskable learner, names --


@pytest.mark.parametrize("game", names())
def test_gymnasium_check_env_passes_on_single_without_a_warning(game: str) -> None:
    """Gymnasium's own checker steps random actions of the space: an action outside the mask
    raised IllegalAction and the check failed. It now ends the episode with a penalty (below),
    and the checker passes, warning-free, on the environment made from its registered id."""
    import warnings

    import gymnasium
    from gymnasium.utils.env_checker import check_env

    from blot.env import names_of

    for render_mode in (None, "ansi"):
        made = gymnasium.make(names_of(game)[1], render_mode=render_mode, disable_env_checker=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(made.unwrapped)


@pytest.mark.parametrize("game", names())
def test_an_illegal_action_ends_a_single_episode_with_its_penalty(game: str) -> None:
    """As PettingZoo's classic games (TerminateIllegalWrapper): the episode ends, the reward is
    ``illegal_reward`` (-1 by default), info names the action, and the game is left unchanged."""
    from blot.env import ILLEGAL_REWARD, single

    for penalty in (ILLEGAL_REWARD, -25.0):
        e = single(game, illegal_reward=penalty)
        observation, _ = e.reset(seed=4)
        before = e.aec.state().copy()
        illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
        seen, reward, terminated, truncated, info = e.step(illegal)
        assert (reward, terminated, truncated, info["illegal"]) == (penalty, True, False, illegal)
        assert np.array_equal(e.aec.state(), before)  # nothing was played
        assert np.array_equal(seen["action_mask"], observation["action_mask"])
        assert not e.action_masks().any()  # the episode is over
    assert ILLEGAL_REWARD == -1.0


@pytest.mark.parametrize("game", names())
def test_action_masks_are_the_legal_actions_for_a_maskable_learner(game: str) -> None:
    """sb3-contrib's MaskablePPO calls ``action_masks()`` before each step: booleans, the
    observation's mask; an action it allows is never refused, to the end of the game."""
    from blot.env import single

    e = single(game, opponents="basic", max_deals=2)
    observation, _ = e.reset(seed=9)
    rng = Random(9)
    terminated = truncated = False
    steps = 0
    while not (terminated or truncated):
        mask = e.action_masks()
        assert mask.dtype == np.bool_ and np.array_equal(mask, observation["action_mask"].astype(bool))
        observation, _, terminated, truncated, info = e.step(int(rng.choice(list(np.flatnonzero(mask)))))
        assert "illegal" not in info
        steps += 1
    assert steps > 5 and not e.action_masks().any()


def test_each_game_has_its_versioned_name_and_gymnasium_id() -> None:
    """``metadata["name"]`` was ``blot_v0`` for both games; each has its own now, and
    ``gymnasium.make`` knows each game by its id once blot.env is imported."""
    import gymnasium

    from blot.env import names_of, single

    assert [names_of(g) for g in names()] == [
        ("bazar_blot_v1", "blot/BazarBlot-v0"),
        ("three_five_eight_v1", "blot/ThreeFiveEight-v0"),
    ]
    for game in names():
        name, env_id = names_of(game)
        assert env(game).metadata["name"] == name and single(game).metadata["name"] == name
        made = gymnasium.make(env_id, opponents="basic")
        assert made.unwrapped.aec.spec.name == game
        assert made.unwrapped.aec.opponents == "basic"
