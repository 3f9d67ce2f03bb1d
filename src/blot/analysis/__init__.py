"""Double-dummy analysis of a finished game: every card played valued against every card the
player could have played, with all hands known (issue 14; ``blot analyse``).

Once a game is over every hand is public, so each position of its play can be solved exactly
(:mod:`blot.solver`). A card's *value* is what the acting seat ends the deal with when everybody
plays perfectly from that card on, counting what it has already won: in Bazar Blot its team's
card points (B-12, the last trick's 10 included, no kapoot bonus), in 3-5-8 its own tricks
against the other two ("paranoid", as the solver plays it). ``best`` is the largest value and a
card's ``loss`` is ``best`` minus its value, 0 for a best card. Declarations and calls are not
cards and are not valued. Each game's part is the module its spec names (``analysis``).

A value is exact (``exact``) unless the game's module says otherwise: 3-5-8 positions with more
than nine tricks to play are searched five tricks deep and the rest estimated, because an exact
48-card search can take minutes.

A game that is over, analysed whole, also gives each seat's *accuracy* (issue 28;
:func:`blot.analysis.values.accuracy`), and each Bazar Blot deal the review of its bidding
against its par contract (:mod:`blot.analysis.par`).

>>> from random import Random
>>> from blot.bots import make_bot
>>> from blot.games import names, spec
>>> from blot.play import play, when_over
>>> bazar = spec(names()[0])
>>> game = bazar.new_game(rng=Random(4))
>>> play(game, [make_bot(bazar, "heuristic", Random(s)) for s in range(4)], until=when_over(game.deal))
[]
>>> deal = analyse(game, 1).deals[0]
>>> all(c.loss >= 0 and c.best == max(c.values.values()) for c in deal.cards)
True
"""

from __future__ import annotations

from collections.abc import Callable

from blot.analysis.values import Accuracy, CardValue, DealAnalysis, GameAnalysis, accuracy, losses
from blot.errors import BlotError
from blot.game import AnyGame
from blot.layers import Analyser

__all__ = [
    "Accuracy",
    "CardValue",
    "DealAnalysis",
    "GameAnalysis",
    "Progress",
    "accuracy",
    "analyse",
    "cost",
    "losses",
]

#: Called after each deal is analysed with (deals done, deals to do).
Progress = Callable[[int, int], None]


def analyse(game: AnyGame, deal: int | None = None, progress: Progress | None = None) -> GameAnalysis:
    """Analyse the finished deals of ``game`` (only deal number ``deal``, from 1, when given).
    Only finished deals are valued, so that no card a player could not yet see is solved for
    anybody still playing."""
    from blot.games import spec

    result = game.result
    game_spec = spec(result.to_json()["game"])
    finished = [i for i, d in enumerate(game.deals) if d.is_over]
    if deal is not None:
        if not 1 <= deal <= len(finished):
            raise BlotError(f"--deal must be from 1 to {len(finished)}, the finished deals of the game")
        finished = [finished[deal - 1]]
    analyser = game_spec.layer(Analyser)
    out = []
    for done, index in enumerate(finished, 1):
        analysed: DealAnalysis = analyser.analyse_deal(game, index)
        out.append(analysed)
        if progress is not None:
            progress(done, len(finished))
    whole = deal is None and game.is_over
    return GameAnalysis(game_spec.name, tuple(out), game_spec.seats, whole, analyser.card_value)


def cost(loss: int, large: int) -> str:
    """How the replay's analysis calls a card's loss: ``none`` (a best card), ``large`` from
    ``large`` on (the game module's threshold), else ``small``."""
    if loss <= 0:
        return "none"
    return "large" if loss >= large else "small"
