"""League tournaments on the server (issue 25): creating one, entries, starting rounds (pairing
them and opening their tables or score sheets), results and standings, forfeits, and the
referees' console. The HTTP API, the CLI and the database call them "events" (``/api/events``,
``blot event``, the ``events`` table); in Python an event is only a table's log event.

Nothing of a tournament is kept in this process's memory: every request reads it from the
database and every change is one transaction of the store's writer. What two requests could race
is settled by the database (:mod:`blot.store.tournaments`): an account enters a tournament once,
a round starts once, a table of a round is opened once. Results are never typed twice: an online
table's come from its stored end (the ``tables`` row's summary and the ``results`` rows written
with the game's last line), an over-the-board table's from the referee's score sheet. Standings
are computed from them on every read (:mod:`blot.tournaments.standings`).

The periodic sweep (:mod:`.sweep`; any process may run it) opens the tables of a round whose
start was cut short, starts scheduled rounds and gives forfeits: an entrant with a seat at an
online table where, ``forfeit_seconds`` (5 minutes unless chosen) after the round's start, that
seat's person has made no move of their own though their turn came, loses the game by forfeit
(every seat of a pair must come; one still waiting for a first turn has not failed to come).

One collaborator per concern (issue 39 item 3):

- :mod:`.state`: a tournament as read for one request, its constants and input checks;
- :mod:`.views`: loading and showing (JSON answers, the listing, next games);
- :mod:`.commands`: creating, entries, organizers, score-sheet keepers;
- :mod:`.rounds`: pairing rounds and opening their tables or score sheets;
- :mod:`.publish`: a published round read, corrected and started (issue 42);
- :mod:`.desk`: the organizer's edits: settings, referees, forbidden pairs, requested byes;
- :mod:`.sweep`: the periodic sweep (scheduled rounds, forfeits);
- :mod:`.exports`: the standings and a round as CSV (the TRF is :mod:`blot.tournaments.trf`);
- :mod:`.travellers`: a duplicate round's boards, hand records and travellers, as secrecy allows.
"""

from __future__ import annotations

from blot.server.services import Storage
from blot.server.tables import Tables
from blot.server.tournaments.commands import TournamentCommands
from blot.server.tournaments.desk import EventDesk
from blot.server.tournaments.publish import RoundDesk
from blot.server.tournaments.rounds import TournamentRounds
from blot.server.tournaments.sweep import TournamentSweep
from blot.server.tournaments.views import TournamentViews


class Tournaments:
    """A server's tournaments (the hub owns them): its collaborators, which keep nothing of a
    tournament in memory."""

    def __init__(self, storage: Storage, tables: Tables) -> None:
        self.storage = storage
        self.tables = tables
        self.views = TournamentViews(storage)
        self.commands = TournamentCommands(storage, self.views)
        self.rounds = TournamentRounds(storage, tables, self.views)
        self.sweep = TournamentSweep(storage, tables, self.views, self.rounds)
        self.desk = RoundDesk(storage, self.views, self.rounds)
        self.settings = EventDesk(storage, self.views)
