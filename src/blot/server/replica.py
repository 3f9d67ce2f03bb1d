"""A table in a cluster (:mod:`blot.server.cluster`; issue 39 item 3: the actor's collaborator
for replication): the owner publishes its new log lines and volatile state, a follower folds them
into the same state and tells its own sockets what the owner's were told."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from blot.store import LogEntry

if TYPE_CHECKING:
    from blot.server.seats import Seat, Seating
    from blot.server.services import TableServices
    from blot.server.turns import Turns
    from blot.wire import Event


class ReplicaTable(Protocol):
    """What replication needs of a table (:class:`blot.server.table.Table`)."""

    id: str
    services: TableServices
    driving: bool
    epoch: int
    owner: str | None
    n: int
    events: list[Event]
    last_event: dict[str, Any]
    seats: list[Seat]
    seating: Seating
    turns: Turns

    def fold(self, entry: LogEntry) -> Event: ...

    def broadcast(self, n: int) -> None: ...

    def presence(self, relay: bool = True) -> None: ...


class Replica:
    """One table's side of replication; runs in the table's actor like the table itself."""

    def __init__(self, table: ReplicaTable) -> None:
        self.table = table

    def volatile(self) -> dict[str, Any]:
        """What the owner knows that the log does not say: each seat's connections, who is away
        or played for, and the turn's deadline."""
        return {
            "owner": self.table.owner,
            "epoch": self.table.epoch,
            "deadline": self.table.turns.deadline,
            "seats": [[s.connected, s.away, s.substitute, s.handed] for s in self.table.seats],
        }

    def replicate(self, entries: list[LogEntry]) -> None:
        """The owner publishes its new log lines and its volatile state to the followers."""
        if self.table.driving and self.table.services.shared:
            lines = [[e.seq, e.kind, e.payload] for e in entries]
            self.table.services.publish(
                self.table.id, {"n": self.table.n, "entries": lines, "state": self.volatile()}
            )

    def adopt(self, state: Mapping[str, Any]) -> None:
        """A follower takes the owner's volatile state."""
        self.table.owner = state.get("owner") or self.table.owner
        deadline = state.get("deadline")
        self.table.turns.deadline = None if deadline is None else float(deadline)
        for s, (connected, away, substitute, *handed) in zip(
            self.table.seats, state.get("seats", []), strict=False
        ):
            s.connected, s.away, s.substitute = int(connected), bool(away), bool(substitute)
            s.handed = str(handed[0]) if handed and handed[0] is not None else None

    async def follow(self, message: Mapping[str, Any]) -> None:
        """A follower folds what the owner published (run in the actor): the lines after its own
        (any it missed are read from the log first), then the owner's volatile state; and tells
        its sockets, line by line, what the owner's sockets were told."""
        if self.table.driving:
            return
        lines = [
            LogEntry(int(seq), str(kind), dict(payload)) for seq, kind, payload in message.get("entries", [])
        ]
        if lines and lines[0].seq > self.table.n + 1:
            lines = [
                e
                for e in await self.table.services.read_log(self.table.id, self.table.n)
                if e.seq > self.table.n
            ]
        new = [e for e in lines if e.seq > self.table.n]
        for entry in new[:-1]:  # lines read from the log: each told with the view it made
            self.fold_in(entry)
            self.table.broadcast(entry.seq)
        if new:
            self.fold_in(new[-1])
        owner = self.table.owner
        if "state" in message:
            self.adopt(message["state"])
        if new:
            self.table.broadcast(new[-1].seq)
        else:  # the owner's word on presence: told to the sockets, never echoed back to it
            self.table.presence(
                relay=self.table.owner != owner
            )  # (but a new owner hears this process's sockets)

    def fold_in(self, entry: LogEntry) -> None:
        event = self.table.fold(entry)
        self.table.events.append(event)
        self.table.last_event = event[0]
        self.table.n = entry.seq

    async def catch_up(self) -> None:
        """A follower reads the lines it missed from the log (the broker was away)."""
        await self.follow({"entries": [[self.table.n + 2, "", {}]]})

    async def remote_presence(self, node: str, counts: list[int]) -> None:
        """The owner hears another process's connections to each seat."""
        if self.table.driving:
            self.table.seating.remote(node, counts)
            self.table.presence()
