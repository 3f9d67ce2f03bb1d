"""Reinforcement-learning environments: PettingZoo AEC environments for both games
(docs/environments.md). Needs the ``rl`` extra (``pip install -e '.[rl]'``: pettingzoo,
gymnasium, numpy); nothing else in blot imports this package.

An agent is a seat (``seat_0`` …). Its observation is a dict: ``observation``, its seat's view
encoded as a fixed-size float32 array (:mod:`blot.env.encode`), and ``action_mask``, int8 over the
game's fixed action space. Rewards (``reward=``): ``"deal"``, at the end of every deal, the seat's
points in it minus the mean of its opponents' (the margin of ``blot arena``); ``"game"``, at the
end of the game, +1 for each opposing team it finished ahead of and -1 for each it finished
behind, averaged over the opposing teams. ``opponents="heuristic"`` (any bot spec) has that bot
play every seat but the first team's, so that the agents are that team's seats alone;
:func:`single` is the same game as a Gymnasium environment of one learner (for Gymnasium's vector
environments and single-agent trainers; an action outside its mask ends the episode with a
penalty, and ``action_masks()`` serves maskable learners). Importing this package registers each
game's :func:`single` with Gymnasium (``gymnasium.make("blot/BazarBlot-v0")``, :data:`NAMES`).

>>> from blot.env import env
>>> from blot.three_five_eight import GAME_NAME
>>> e = env(GAME_NAME, max_deals=1)
>>> e.reset(seed=1)
>>> observation, reward, terminated, truncated, info = e.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum()), e.agent_selection
((635,), 6, 'seat_1')
"""

from __future__ import annotations

from random import Random
from typing import Any, Final

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from blot.env.encode import Array, Encoding
from blot.errors import BlotError
from blot.game import AnyGame
from blot.games import names as game_names
from blot.games import spec
from blot.layers import Encoder

REWARDS: Final = ("deal", "game")

#: Each game's environment by name: its versioned name (PettingZoo's ``metadata["name"]``; v1
#: since issue 39, when both games stopped sharing ``blot_v0``) and its Gymnasium id
#: (``gymnasium.make("blot/BazarBlot-v0")``). A game not listed is named after its package.
NAMES: Final = {
    "bazar-blot": ("bazar_blot_v1", "blot/BazarBlot-v0"),
    "3-5-8": ("three_five_eight_v1", "blot/ThreeFiveEight-v0"),
}

#: The reward of an action outside the mask in :func:`single`: the episode ends there, as
#: PettingZoo's classic games end it (their ``TerminateIllegalWrapper``).
ILLEGAL_REWARD: Final = -1.0


def names_of(game: str) -> tuple[str, str]:
    """The versioned name and the Gymnasium id of a game's environment (:data:`NAMES`)."""
    if game in NAMES:
        return NAMES[game]
    package = spec(game).package
    return f"{package}_v1", "blot/" + "".join(w.capitalize() for w in package.split("_")) + "-v0"


def encoding(game: str) -> Encoding:
    """The observation and action numbering of a game, by its name in the registry."""
    numbering: Encoding = spec(game).layer(Encoder).encoding()
    return numbering


class BlotEnv(AECEnv):  # type: ignore[misc]
    """One game of Bazar Blot or 3-5-8 as an AEC environment (PettingZoo's agent-environment
    cycle): the seat to act is ``agent_selection``."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (each instance names its game)
        "name": "blot_v1",  # each environment names its game (:data:`NAMES`)
        "render_modes": ["ansi"],
        "render_fps": 1,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        reward: str = "deal",
        ruleset: str | None = None,
        options: dict[str, Any] | None = None,
        max_deals: int | None = None,
        render_mode: str | None = None,
        opponents: str | None = None,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise BlotError(f"reward must be deal or game, not {reward!r}")
        if max_deals is not None and max_deals < 1:
            raise BlotError("max_deals must be at least 1")
        if render_mode not in (None, "ansi"):
            raise BlotError("render_mode must be None or ansi")
        self.spec = spec(game)
        self.metadata = {**BlotEnv.metadata, "name": names_of(self.spec.name)[0]}
        self.rules = self.spec.rules(ruleset, options)
        self.reward_kind = reward
        self.max_deals = max_deals
        self.render_mode = render_mode
        self.encoding: Encoding = encoding(self.spec.name)
        self.opponents = opponents
        if opponents is not None:
            from blot.bots import check_bot

            check_bot(self.spec, opponents)  # a bad name or setting: one sentence, now
        #: The seats the agents play; the others are ``opponents``'.
        self.learners = tuple(self.spec.teams[0] if opponents is not None else range(self.spec.seats))
        self.possible_agents = [f"seat_{s}" for s in self.learners]
        self._seat = dict(zip(self.possible_agents, self.learners, strict=True))
        self._bots: dict[int, Any] = {}
        box = spaces.Box(0.0, 1.0, (self.encoding.size,), np.float32)
        mask = spaces.Box(0, 1, (len(self.encoding.actions),), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(len(self.encoding.actions)) for a in self.possible_agents}
        #: Every seat's observation side by side (:meth:`state`: all the hands, for a critic).
        self.state_space = spaces.Box(0.0, 1.0, (self.spec.seats * self.encoding.size,), np.float32)
        self.game: AnyGame | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        rng = Random(seed)
        seats = self.spec.seats
        self.game = self.spec.new_game(
            self.rules, dealer=rng.randrange(seats), rng=Random(rng.getrandbits(64))
        )
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._deals_done = 0
        if self.opponents is not None:
            from blot.bots import make_bot

            others = [s for s in range(seats) if s not in self.learners]
            self._bots = {s: make_bot(self.spec, self.opponents, Random(rng.getrandbits(64))) for s in others}
        self._play_opponents()
        self._select()

    def observe(self, agent: str) -> dict[str, Array]:
        assert self.game is not None, "reset() the environment first"
        seat = self._seat[agent]
        view = self.game.view(seat)
        mask = self.encoding.mask(view) if view.legal else np.zeros(len(self.encoding.actions), dtype=np.int8)
        return {"observation": self.encoding.observe(view), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        seat = self._seat[agent]
        game.apply(self.encoding.action(game.view(seat), int(action)))
        self._play_opponents()
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        finished = game.result.deals[self._deals_done :]
        for deal in finished:
            self._deals_done += 1
            if self.reward_kind == "deal":
                for a in self.agents:
                    self.rewards[a] += self._margin(deal.seat_points, self._seat[a])
        cut = self.max_deals is not None and self._deals_done >= self.max_deals and not game.is_over
        if game.is_over:
            if self.reward_kind == "game":
                ranking = game.result.ranking()
                for a in self.agents:
                    self.rewards[a] += self._placing(ranking, self._seat[a])
            self.terminations = {a: True for a in self.agents}
        elif cut:
            self.truncations = {a: True for a in self.agents}
        self._accumulate_rewards()
        self._select()

    def state(self) -> Array:
        """Every seat's observation side by side (seat 0 first): the whole deal, every hand
        included, for a centralised critic; an agent must act on its own :meth:`observe`."""
        game = self.game
        assert game is not None, "reset() the environment first"
        return np.concatenate([self.encoding.observe(game.view(s)) for s in range(self.spec.seats)])

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the game as text, every hand shown (as a replay shows a
        finished deal): the deal, the calls, the trick in progress and each seat's cards."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        from blot.cards import format_cards

        g: Any = self.game  # either game: its views and deals differ in their details
        lines = [f"{self.spec.title}: deal {len(g.deals)}, {g.phase.value}, to act: seat {g.to_act}"]
        lines.append("totals: " + ", ".join(str(t) for t in g.view(0).totals))
        deal = g.deal
        if deal is not None:
            view = deal.view(0)
            calls = getattr(view, "calls", ())
            lines.append(
                "calls: " + (" ".join(str(c[1] if isinstance(c, tuple) else c) for c in calls) or "none")
            )
            trick = " ".join(f"{s}:{c}" for s, c in view.trick)
            lines.append(f"trick: {trick or 'none'}; tricks taken: {list(view.tricks_taken)}")
            for s in range(self.spec.seats):
                hand = deal.hand(s) if callable(getattr(deal, "hand", None)) else deal.hands[s]
                lines.append(f"seat {s}: {format_cards(hand)}")
        return "\n".join(lines)

    def close(self) -> None:
        pass

    # --- helpers ----------------------------------------------------------------------------------

    def _play_opponents(self) -> None:
        """The opponents' moves, until one of the agents is to act or the game is over (or cut)."""
        game = self.game
        assert game is not None
        while self._bots and not game.is_over and game.to_act in self._bots:
            if self.max_deals is not None and len(game.result.deals) >= self.max_deals:
                return
            seat = game.to_act
            game.apply(self._bots[seat].choose(game.view(seat)))

    def _select(self) -> None:
        """The seat to act, or (once every seat is done) each remaining agent in turn."""
        game = self.game
        assert game is not None
        if self.agents and (self.terminations[self.agents[0]] or self.truncations[self.agents[0]]):
            self.agent_selection = self.agents[0]
            return
        seat = game.to_act
        assert seat is not None, "the game deals its own cards, so a seat is always to act"
        agent = f"seat_{seat}"
        self.agent_selection = agent
        view = game.view(seat)
        names = self.encoding.actions
        legal = [names[self.encoding.index(view, a)] for a in view.legal]
        self.infos[agent] = {"legal": legal, "phase": game.phase.value, "deal": len(game.deals), "seat": seat}

    def _opponents(self, seat: int) -> list[int]:
        mine = next(team for team in self.spec.teams if seat in team)
        return [s for s in range(self.spec.seats) if s not in mine]

    def _margin(self, points: tuple[int, ...], seat: int) -> float:
        others = self._opponents(seat)
        return float(points[seat] - sum(points[s] for s in others) / len(others))

    def _placing(self, ranking: tuple[int, ...], seat: int) -> float:
        teams = [team for team in self.spec.teams if seat not in team]
        mine = ranking[seat]
        return sum((ranking[t[0]] > mine) - (ranking[t[0]] < mine) for t in teams) / len(teams)


def env(game: str, **settings: Any) -> BlotEnv:
    """The environment of a game (by its name in :mod:`blot.games`); settings as :class:`BlotEnv`."""
    return BlotEnv(game, **settings)


raw_env = env


class SingleEnv(gymnasium.Env):
    """A game against built-in bots as a Gymnasium environment of one learner: the first team's
    seats (Bazar Blot: seats 0 and 2, one policy for both; 3-5-8: seat 0) act through
    :meth:`step`, the ``opponents`` play the others. The reward of a step is the team's (the
    same for both partners). An action outside the mask ends the episode with
    ``illegal_reward`` (-1 unless set; the game is left as it was), as PettingZoo's classic games
    do, so that any action of the space may be tried (Gymnasium's ``check_env`` does);
    :meth:`action_masks` gives the mask to a maskable learner (sb3-contrib's ``MaskablePPO``).
    Gymnasium's vector environments run many at once::

        from gymnasium.vector import AsyncVectorEnv
        envs = AsyncVectorEnv([lambda: single("3-5-8", opponents="basic")] * 8)
    """

    def __init__(
        self, game: str, opponents: str = "random", illegal_reward: float = ILLEGAL_REWARD, **settings: Any
    ) -> None:
        super().__init__()
        self.aec = BlotEnv(game, opponents=opponents, **settings)
        self.metadata = {"render_modes": ["ansi"], "render_fps": 1, "name": self.aec.metadata["name"]}
        first = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(first)
        self.action_space = self.aec.action_space(first)
        self.render_mode = self.aec.render_mode
        self.illegal_reward = float(illegal_reward)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        # Unseeded, the next game follows from the last seed (Gymnasium's reset contract).
        self.aec.reset(seed=seed if seed is not None else int(self.np_random.integers(2**63 - 1)))
        observation, _, _, _, info = self.aec.last()
        return observation, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        observation, _, terminated, truncated, info = self.aec.last()
        if not (terminated or truncated) and not observation["action_mask"][int(action)]:
            self.aec.terminations = {a: True for a in self.aec.agents}  # the episode ends here
            return observation, self.illegal_reward, True, False, {**info, "illegal": int(action)}
        self.aec.step(int(action))
        agents = self.aec.agents
        reward = sum(self.aec.rewards[a] for a in agents) / len(agents)
        observation, _, terminated, truncated, info = self.aec.last()
        return observation, reward, terminated, truncated, info

    def action_masks(self) -> Array:
        """The legal actions of the seat to act, as booleans (sb3-contrib's ``MaskablePPO`` asks
        for them before each step); none once the episode is over."""
        observation, _, terminated, truncated, _ = self.aec.last()
        mask: Array = observation["action_mask"].astype(bool)
        return mask & (not (terminated or truncated))

    def render(self) -> str | None:
        return self.aec.render()


def single(game: str, opponents: str = "random", **settings: Any) -> SingleEnv:
    """A game against ``opponents`` (a bot spec) as a Gymnasium environment (:class:`SingleEnv`)."""
    return SingleEnv(game, opponents, **settings)


def register() -> None:
    """Register each game's :func:`single` environment with Gymnasium under its id
    (:data:`NAMES`), so that ``gymnasium.make("blot/BazarBlot-v0", opponents="basic")`` works
    once ``blot.env`` is imported (or ``gymnasium.make("blot.env:blot/BazarBlot-v0")``, which
    imports it)."""
    for game in game_names():
        env_id = names_of(game)[1]
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="blot.env:single", kwargs={"game": game})


register()

__all__ = [
    "ILLEGAL_REWARD",
    "NAMES",
    "REWARDS",
    "BlotEnv",
    "SingleEnv",
    "env",
    "names_of",
    "raw_env",
    "register",
    "single",
]
