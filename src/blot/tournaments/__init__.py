"""League tournaments (issue 25; "events" in the HTTP API, the CLI and the database): tournaments
of Bazar Blot pairs or 3-5-8 players.

The rules of a tournament are pure modules with no I/O, testable without a server:

- :mod:`blot.tournaments.pairing`: who meets whom in a round (Swiss, round robin) and who sits where;
- :mod:`blot.tournaments.standings`: match points (B-71), tie-breaks, the cross table, and the
  matchpoints of duplicate rounds.

A tournament's rows are :mod:`blot.store.tournaments`; the server runs tournaments through
:mod:`blot.server.tournaments`, which opens ordinary tables (online) or score sheets kept by referees
(over the board). Nothing of a tournament is kept in a process's memory: every request and every
periodic task reads it from the database.
"""
