"""blot: Bazar Blot and 3-5-8 — exact rules engines, bots, records, terminal and browser play.

The shape (docs/developers.md says more):

- :mod:`blot.game` is the one interface of a game (both engines implement it), and
  :mod:`blot.games` the registry of games: everything that handles "a game" asks it;
- :mod:`blot.bazar` and :mod:`blot.three_five_eight` are the pure rules;
- records, the JSON of views (:mod:`blot.wire`), bots, the solver, the arena and the simulator
  sit on them; the CLI (:mod:`blot.cli`) and the server (:mod:`blot.server`) on top.
"""

__version__ = "0.1.0"
