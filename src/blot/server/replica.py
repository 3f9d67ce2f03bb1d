"""A table in a cluster (:mod:`blot.server.cluster`; issue 39 item 3: the actor's collaborator
for replication): the owner publishes its new log lines, its volatile state and the frames the
followers' sockets are sent; a follower relays those frames to its sockets and folds the lines
into the same state only when something reads it (issue 40 item 1: each action is worked once in
the cluster), or builds the frames itself when it cannot relay them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from blot.store import LogEntry

if TYPE_CHECKING:
    from blot.server.connection import Connection
    from blot.server.seats import Seat, Seating
    from blot.server.services import TableServices
    from blot.server.turns import Turns
    from blot.wire import Event


#: The lines a follower may relay without folding them (:meth:`Replica.relay`): those that
#: change nobody's seat, nor so which frame a socket is sent.
RELAYED = frozenset({"act", "deal"})
#: A follower folds its relayed lines once this many wait (they are folded at the latest when
#: something reads the state).
MAX_PENDING = 512


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
    connections: set[Connection]
    turns: Turns

    def fold(self, entry: LogEntry) -> Event: ...

    def broadcast(self, n: int, also: Iterable[str] = ()) -> dict[str, str]: ...

    def presence(self, relay: bool = True) -> None: ...

    def at_table(self, player: int | None) -> bool: ...

    def frame_key(self, conn: Connection) -> str: ...


class Replica:
    """One table's side of replication; runs in the table's actor like the table itself."""

    def __init__(self, table: ReplicaTable) -> None:
        self.table = table
        #: A follower's lines relayed to its sockets but not folded yet (:meth:`relay`).
        self.pending: list[LogEntry] = []

    def volatile(self) -> dict[str, Any]:
        """What the owner knows that the log does not say: each seat's connections, who is away
        or played for, and the turn's deadline."""
        return {
            "owner": self.table.owner,
            "epoch": self.table.epoch,
            "deadline": self.table.turns.deadline,
            "seats": [[s.connected, s.away, s.substitute, s.handed] for s in self.table.seats],
        }

    def wanted(self) -> set[str]:
        """The frame keys the owner builds for the other processes' sockets (none alone)."""
        if self.table.driving and self.table.services.shared:
            return self.table.seating.remote_frames()
        return set()

    def replicate(self, entries: list[LogEntry], frames: Mapping[str, str]) -> None:
        """The owner publishes its new log lines, its volatile state and the frames it built for
        the other processes' sockets (:meth:`wanted`) to the followers."""
        if self.table.driving and self.table.services.shared:
            lines = [[e.seq, e.kind, e.payload] for e in entries]
            message = {"n": self.table.n, "entries": lines, "state": self.volatile()}
            if frames:
                message["frames"] = dict(frames)
            self.table.services.publish(self.table.id, message)

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

    @property
    def told(self) -> int:
        """The last event this process's sockets were told (a follower may not have folded it
        yet: :attr:`pending`)."""
        return self.pending[-1].seq if self.pending else self.table.n

    def settle(self) -> None:
        """Fold the lines relayed but not folded yet: a follower's state is read only inside
        the actor, which settles before every command but the owner's next message."""
        pending, self.pending = self.pending, []
        for entry in pending:
            self.fold_in(entry)

    def relay(self, message: Mapping[str, Any]) -> bool:
        """The follower's cheap path (issue 40 item 1: each action worked once in the cluster):
        when the message is the next game line and the owner built a frame for each of this
        process's sockets, the sockets get those texts as they are and the line waits, unfolded,
        until something reads the state (:meth:`settle`). False when it cannot."""
        table = self.table
        frames = message.get("frames")
        lines = message.get("entries") or []
        if not isinstance(frames, dict) or len(lines) != 1:
            return False
        seq, kind, payload = lines[0]
        if int(seq) != self.told + 1 or kind not in RELAYED:
            return False
        told: list[tuple[Connection, str]] = []
        for conn in table.connections:
            text = frames.get(table.frame_key(conn))
            if not isinstance(text, str):
                return False  # a socket the owner did not know of yet
            told.append((conn, text))
        self.pending.append(LogEntry(int(seq), str(kind), dict(payload)))
        if "state" in message:
            self.adopt(message["state"])
        for conn, text in told:
            conn.push(text)
        table.services.follows["relayed"] += 1
        if len(self.pending) >= MAX_PENDING:
            self.settle()
        return True

    def relay_presence(self, message: Mapping[str, Any]) -> bool:
        """The owner's word on presence, relayed as its texts when this process has heard every
        line it had and the owner is the same (False when it cannot)."""
        table = self.table
        texts = message.get("presence")
        state = message.get("state")
        if message.get("entries") or not isinstance(texts, dict) or not isinstance(state, Mapping):
            return False
        if message.get("n") != self.told or (state.get("owner") or table.owner) != table.owner:
            return False
        at, away = texts.get("at"), texts.get("away")
        if not isinstance(at, str) or not isinstance(away, str):
            return False
        self.adopt(state)
        for conn in list(table.connections):
            conn.push(at if conn.seat is not None or table.at_table(conn.player) else away)
        return True

    async def follow(self, message: Mapping[str, Any]) -> None:
        """A follower folds what the owner published (run in the actor), unless it can relay it
        (:meth:`relay`): the lines after its own (any it missed are read from the log first),
        then the owner's volatile state; and tells its sockets, line by line, what the owner's
        sockets were told."""
        if self.table.driving or self.relay(message) or self.relay_presence(message):
            return
        self.settle()
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
        self.table.services.follows["folded"] += len(new)
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

    async def remote_presence(self, node: str, counts: list[int], watchers: int = 0) -> None:
        """The owner hears another process's connections to each seat and its spectators'."""
        if self.table.driving and self.table.seating.remote(node, counts, watchers):
            self.table.presence()  # (a follower's periodic word that changed nothing: silence)
