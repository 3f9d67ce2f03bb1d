"""How a table's game ends (issue 39 item 3: the actor's collaborator for endings): a vote to end
by agreement (League §7) or a resignation, an event's forfeit or its fixed deals played, a
referee's pause, and what the end writes (the row's summary and record, the outcome that the
results and the ratings are made of)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from blot.league import Outcome, SeatOutcome
from blot.server.errors import Refused
from blot.server.table_core import TableCore

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
#: How a finished table ended when the game did not: every person seated agreed (League §7).
AGREEMENT = "agreement"
#: ... or, at a rated table where a side had no person to agree, the sides with persons resigned
#: (issue 22: a person alone with bots is not spared a loss by "agreeing" with themselves).
RESIGNED = "resigned"
#: ... or an event's table ended without the game's end (issue 25): its round's fixed deals were
#: all played (a duplicate round), or an entrant did not come and lost by forfeit.
BOARDS_PLAYED = "boards"
FORFEIT = "forfeit"

if TYPE_CHECKING:
    from blot.server.seats import Seating
    from blot.wire import Event


class EndingsTable(TableCore, Protocol):
    """What endings need of a table (:class:`blot.server.table.Table`) besides its core."""

    seating: Seating
    n: int
    events: list[Event]
    ended: str | None
    end_votes: set[int]
    forfeited: set[int]

    def players(self) -> list[str]: ...

    def summary(self, at_table: bool = True) -> dict[str, Any]: ...

    async def change(self, kind: str, payload: dict[str, Any], seats: bool = False) -> None: ...


class Endings:
    """One table's endings; runs in the table's actor like the table itself."""

    def __init__(self, table: EndingsTable) -> None:
        self.table = table

    def end_is_resignation(self) -> bool:
        """Ending by agreement needs a person on every side (League §7 lets nobody pick their
        results); at a rated table where some side has none, ending is the resignation of the
        sides that have persons, rated as a loss for them."""
        if not self.table.settings.get("rated"):
            return False
        return not all(
            any(self.table.seats[s].player is not None for s in team) for team in self.table.spec.teams
        )

    def changes(self, seats: bool = False, finishing: bool = True) -> dict[str, Any]:
        changes: dict[str, Any] = {"last_seq": self.table.n, "status": self.table.status}
        if seats:
            changes["seats"] = [s.to_json(i) for i, s in enumerate(self.table.seats)]
        if finishing and self.table.status == FINISHED:
            from blot.store import now

            summary = self.table.wire.summary(self.table.game)
            if self.table.ended is not None:
                summary["ended"] = self.table.ended
            if self.table.boards is not None:
                summary["deal_points"] = [list(r.seat_points) for r in self.table.game.result.deals]
            if self.table.forfeited:
                summary["forfeited"] = sorted(self.table.forfeited)
            changes["summary"] = summary
            changes["record"] = self.table.spec.record_of(self.table.game, self.table.players())
            changes["finished_at"] = now()
        return changes

    def outcome(self) -> Outcome | None:
        """How the finished game ended for each seat, for the results and the ratings: a person
        still played by a stand-in bot at the end left and did not come back. None when the
        game neither finished nor ended by agreement (nothing to record)."""
        places = None
        tars = False
        resigned: set[int] = set()
        if self.table.ended is None:
            if not self.table.game.is_over:
                return None
            result = self.table.game.result
            places = tuple(self.table.spec.ranking(result))
            tars = result.bars_losers
        elif self.table.ended in (BOARDS_PLAYED, FORFEIT):
            places = self.event_places()
        elif self.table.ended == RESIGNED:
            losing = [
                team
                for team in self.table.spec.teams
                if any(self.table.seats[s].player is not None for s in team)
            ]
            resigned = {s for team in losing for s in team if self.table.seats[s].player is not None}
            lost = {s for team in losing for s in team}
            places = tuple(1 if seat in lost else 0 for seat in range(self.table.spec.seats))
        seats = tuple(
            SeatOutcome(
                player=s.player,
                bot=s.bot,
                left=s.player is not None and s.substitute and i not in resigned,
                resigned=i in resigned,
            )
            for i, s in enumerate(self.table.seats)
        )
        # a forfeit or a round of fixed deals is no game to the end (B-70): no rating moves
        rated = bool(self.table.settings.get("rated")) and self.table.ended not in (BOARDS_PLAYED, FORFEIT)
        return Outcome(self.table.id, self.table.spec.name, rated, places, seats, tars)

    def event_places(self) -> tuple[int, ...]:
        """Places at an event's table that ended without the game's end: after a forfeit the
        teams that came share the first place; after a duplicate round's deals, by points."""
        if self.table.ended == FORFEIT:
            return tuple(1 if s in self.table.forfeited else 0 for s in range(self.table.spec.seats))
        seats = range(self.table.spec.seats)
        totals = [sum(r.seat_points[s] for r in self.table.game.result.deals) for s in seats]
        return tuple(0 if totals[s] == max(totals) else 1 for s in seats)

    async def vote_end(self, player: int, agree: Any) -> dict[str, Any]:
        """A seated person agrees to end the game now (``agree`` true) or declines (false: every
        vote so far is withdrawn). The game ends, unrated, when every person seated agrees; at a
        rated table where a side has no person it ends then as a resignation
        (:meth:`end_is_resignation`)."""
        if not isinstance(agree, bool):
            raise Refused("malformed", "agree_flag")
        seat = self.table.seating.seat_of(player)
        if seat is None:
            raise Refused("not_seated", "end_vote_seated")
        if self.table.status != PLAYING:
            raise Refused(
                "conflict",
                "game_not_playing" if self.table.status == WAITING else "game_over",
            )
        if (agree and seat not in self.table.end_votes) or (not agree and self.table.end_votes):
            payload: dict[str, Any] = {"seat": seat, "agree": agree}
            if agree and self.end_is_resignation():
                payload["resign"] = True
            await self.table.change("end", payload)
        return self.table.summary()

    async def forfeit(self, seats: list[int]) -> list[int]:
        """An event's entrant did not come (blot.server.tournaments): of ``seats`` (persons who made
        no move of their own), those whose turn came — the game waits on them now, or a
        stand-in or the timer moved for them — did not come; the game ends, lost by their teams.
        Answers the seats of the teams that lost: none while nobody's turn came (a person still
        waiting for a first turn has not failed to come) or once the game is not being played."""
        if self.table.status != PLAYING or self.table.paused:  # nobody fails to come to a paused table
            return []
        turned = {int(p["seat"]) for p, _ in self.table.events if "by" in p and "seat" in p}
        failed = {s for s in seats if s == self.table.game.to_act or s in turned}
        lost = sorted({s for team in self.table.spec.teams if failed & set(team) for s in team})
        if lost:
            await self.table.change("forfeit", {"seats": lost})
        return lost

    async def pause(self, paused: bool) -> dict[str, Any]:
        """The event table's referee pauses the game or resumes it: while paused the turn clock
        stops, bots wait and every play is refused (the table's ``act``); resumed, the turn starts again
        with its whole time."""
        if self.table.status != PLAYING:
            raise Refused(
                "conflict",
                "game_not_playing" if self.table.status == WAITING else "game_over",
            )
        if paused != self.table.paused:
            await self.table.change("pause", {"paused": paused})
        return {"paused": self.table.paused}

    async def boards_over(self) -> None:
        """A duplicate round's deals are all played: the table's game ends there."""
        if self.table.status == PLAYING:
            await self.table.change("boards_over", {})
