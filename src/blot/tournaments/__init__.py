"""League events (issue 25): tournaments of Bazar Blot pairs or 3-5-8 players.

The rules of an event are pure modules with no I/O, testable without a server:

- :mod:`blot.events.pairing`: who meets whom in a round (Swiss, round robin) and who sits where;
- :mod:`blot.events.standings`: match points (B-71), tie-breaks, the cross table, and the
  matchpoints of duplicate rounds.

The event's rows are :mod:`blot.store.events`; the server runs events through
:mod:`blot.server.events`, which opens ordinary tables (online) or score sheets kept by referees
(over the board). Nothing of an event is kept in a process's memory: every request and every
periodic task reads it from the database.
"""
