"""Ratings (OpenSkill, Plackett-Luce) of finished games, and what counts (League rulebook §7).

One rating per player (an account, or a bot level: bots are rated players too) per game. A game
is rated from its teams (:attr:`blot.games.GameSpec.teams`) and each seat's place
(``result.ranking()``): Bazar Blot is two teams of two, the winner by B-70; 3-5-8 is a ranking of
three, T-50's tie-break included.

What counts, as :func:`changes` applies it:

- only a finished game moves ratings; a game ended by agreement of every person seated moves
  nobody's (an unfinished game is not rated, §7);
- a person who left and did not come back before the end (a stand-in bot finished the game for
  them) loses it: each such person is rated as if their team came last against all the others,
  and nobody else's rating moves (the others played on against or with a stand-in);
- one bot level may sit in several seats: each copy is rated as a player, and the level moves
  by the mean of its copies' changes (a level playing itself learns nothing).

The displayed rating is the conservative estimate ``mu - 3 sigma`` (:func:`display`): it starts at
0 and rises as a player wins and as the system grows sure of them. Until a player has
:data:`PROVISIONAL_GAMES` rated games of a game their rating there is *provisional*
(:func:`provisional`, issue 41 item 7): a newcomer's first loss takes the number below 0, which
reads as a penalty, so the pages show a word instead of it until the estimate has settled.

>>> new = changes(((0, 2), (1, 3)), (0, 1, 0, 1), ("ani", "bot", "gohar", "bot"), {}, frozenset())
>>> new["ani"].mu > 25 > new["bot"].mu, round(new["ani"].mu - new["gohar"].mu, 9)
(True, 0.0)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

MU = 25.0
SIGMA = MU / 3


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


#: Rated games of a game after which a player's rating there is no longer provisional: by then a
#: player who won half of them stands above 0 (about 3.9 with partners and opponents all new: sigma
#: from 8.3 to 7.1), while the first loss alone shows about -1.5.
PROVISIONAL_GAMES = 10


def provisional(games: int) -> bool:
    """Whether a rating of ``games`` rated games is still provisional (shown as a word)."""
    return games < PROVISIONAL_GAMES


def display(mu: float, sigma: float) -> float:
    """The rating shown on leaderboards and profiles: ``mu - 3 sigma``, to one decimal."""
    return round(mu - 3 * sigma, 1)


def _rate(teams: list[list[Rating]], ranks: list[int]) -> list[list[Rating]]:
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=MU, sigma=SIGMA)
    rated = model.rate(
        [[model.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams],
        ranks=[float(r) for r in ranks],
    )
    return [[Rating(float(r.mu), float(r.sigma)) for r in team] for team in rated]


def changes(
    teams: Sequence[Sequence[int]],
    places: Sequence[int],
    players: Sequence[K],
    current: Mapping[K, Rating],
    left: Set[int],
) -> dict[K, Rating]:
    """The new rating of every player whose rating a finished game moves.

    ``teams``: the seats of each team; ``places``: each seat's place (0 first); ``players``: who
    sat in each seat; ``current``: their ratings (a missing player has the initial one);
    ``left``: the seats of persons who left and did not come back."""
    before = [[current.get(players[s], Rating()) for s in team] for team in teams]
    moves: dict[K, list[Rating]] = {}
    if left:
        for index, team in enumerate(teams):
            leavers = [i for i, s in enumerate(team) if s in left]
            if not leavers:
                continue
            after = _rate(before, [1 if t == index else 0 for t in range(len(teams))])
            for i in leavers:
                moves.setdefault(players[team[i]], []).append(after[index][i])
    else:
        after = _rate(before, [places[team[0]] for team in teams])
        for team, new in zip(teams, after, strict=True):
            for seat, rating in zip(team, new, strict=True):
                moves.setdefault(players[seat], []).append(rating)
    out: dict[K, Rating] = {}
    for player, copies in moves.items():
        old = current.get(player, Rating())
        d_mu = sum(r.mu - old.mu for r in copies) / len(copies)
        d_sigma = sum(r.sigma - old.sigma for r in copies) / len(copies)
        out[player] = Rating(old.mu + d_mu, old.sigma + d_sigma)
    return out


__all__ = ["MU", "SIGMA", "Rating", "changes", "display"]
