"""Reinforcement-learning environments: PettingZoo AEC environments for both games
(docs/environments.md). Needs the ``rl`` extra (``pip install -e '.[rl]'``: pettingzoo,
gymnasium, numpy); nothing else in blot imports this package.

An agent is a seat (``seat_0`` …). Its observation is a dict: ``observation``, its seat's view
encoded as a fixed-size float32 array (:mod:`blot.env.encode`), and ``action_mask``, int8 over the
game's fixed action space. Rewards (``reward=``): ``"deal"``, at the end of every deal, the seat's
points in it minus the mean of its opponents' (the margin of ``blot arena``); ``"game"``, at the
end of the game, +1 for each opposing team it finished ahead of and -1 for each it finished
behind, averaged over the opposing teams.

>>> from blot.env import env
>>> from blot.three_five_eight import GAME_NAME
>>> e = env(GAME_NAME, max_deals=1)
>>> e.reset(seed=1)
>>> observation, reward, terminated, truncated, info = e.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum()), e.agent_selection
((608,), 6, 'seat_1')
"""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from blot.env.encode import Array, Encoding, encoding
from blot.errors import BlotError
from blot.game import AnyGame
from blot.games import spec

REWARDS: Final = ("deal", "game")


class BlotEnv(AECEnv):  # type: ignore[misc]
    """One game of Bazar Blot or 3-5-8 as an AEC environment (PettingZoo's agent-environment
    cycle): the seat to act is ``agent_selection``."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "blot_v0",
        "render_modes": ["ansi"],
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
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise BlotError(f"reward must be deal or game, not {reward!r}")
        if max_deals is not None and max_deals < 1:
            raise BlotError("max_deals must be at least 1")
        if render_mode not in (None, "ansi"):
            raise BlotError("render_mode must be None or ansi")
        self.spec = spec(game)
        self.rules = self.spec.rules(ruleset, options)
        self.reward_kind = reward
        self.max_deals = max_deals
        self.render_mode = render_mode
        self.encoding: Encoding = encoding(self.spec.name)
        self.possible_agents = [f"seat_{s}" for s in range(self.spec.seats)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        box = spaces.Box(0.0, 1.0, (self.encoding.size,), np.float32)
        mask = spaces.Box(0, 1, (len(self.encoding.actions),), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(len(self.encoding.actions)) for a in self.possible_agents}
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

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        g = self.game
        return f"{self.spec.title}: deal {len(g.deals)}, phase {g.phase.value}, to act {g.to_act}"

    def close(self) -> None:
        pass

    # --- helpers ----------------------------------------------------------------------------------

    def _select(self) -> None:
        """The seat to act, or (once every seat is done) each remaining agent in turn."""
        game = self.game
        assert game is not None
        if self.agents and (self.terminations[self.agents[0]] or self.truncations[self.agents[0]]):
            self.agent_selection = self.agents[0]
            return
        seat = game.to_act
        assert seat is not None, "the game deals its own cards, so a seat is always to act"
        self.agent_selection = self.possible_agents[seat]

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

__all__ = ["REWARDS", "BlotEnv", "env", "raw_env"]
