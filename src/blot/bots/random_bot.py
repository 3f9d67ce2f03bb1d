"""The random player: uniform over the legal actions of its view, calls included."""

from __future__ import annotations

from random import Random

from blot.game import Action, View


class RandomBot:
    """Chooses uniformly among ``view.legal``; works for every game."""

    name = "random"

    def __init__(self, rng: Random | None = None) -> None:
        self.rng = rng or Random()

    def choose(self, view: View) -> Action:
        return self.rng.choice(view.legal)
