"""What the parts of the server need of each other, as narrow protocols (so that no part imports
the one that composes them, :class:`blot.server.hub.Hub`):

- :class:`Storage`: the database (reads in the hub's threads, writes through the store's writer)
  and the server's clock and settings; every part gets it;
- :class:`TableServices`: what one table's actor needs around it;
- :class:`TableDirectory`: what the accounts need of the tables (who is connected, who sits where).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from random import Random
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from sqlalchemy.engine import Connection

from blot.server.config import ServerConfig
from blot.server.connection import Connection as Socket
from blot.store import LogEntry

if TYPE_CHECKING:
    from blot.league import Outcome

T = TypeVar("T")


class Storage(Protocol):
    """The database and the clock."""

    @property
    def config(self) -> ServerConfig: ...

    def now(self) -> datetime:
        """The server's clock as an aware UTC time."""
        ...

    async def read(self, fn: Callable[[Connection], T]) -> T:
        """Run a read in the hub's read threads."""
        ...

    async def write(self, fn: Callable[[Connection], T]) -> T:
        """Run a write in one transaction of the store's writer."""
        ...


class TableServices(Storage, Protocol):
    """What a table needs from the server around it (the hub provides it)."""

    def new_rng(self) -> Random: ...

    async def append(
        self,
        table_id: str,
        entries: list[LogEntry],
        changes: dict[str, Any],
        outcome: Outcome | None = None,
        epoch: int = 0,
    ) -> None:
        """Write log lines and the table row's changes, in one transaction; with ``outcome`` (the
        line that ends the game) the results and the ratings it moves too. In a cluster the write
        is refused (``NotOwner``) unless this process still owns the table under ``epoch``."""

    async def check_rated(self, people: list[int], newcomer: int | None = None) -> None:
        """Refuse (:class:`Refused`) seating these persons together at a rated table."""

    async def check_bars(
        self, seats: Mapping[int, int], teams: Sequence[Sequence[int]], newcomer: int | None = None
    ) -> None:
        """Refuse (:class:`Refused`) a public or rated table's seating (seat -> person) that a
        tars kapoot's or a dishonour's bar forbids (:func:`blot.league.seating_bar`)."""

    async def check_browser(self, player: int, others: Mapping[int, str], device: str | None) -> None:
        """Refuse (:class:`Refused`) seating ``player`` beside someone of the same browser."""

    async def read_log(self, table_id: str, since: int = 0) -> list[LogEntry]:
        """The table's log lines after ``since``."""
        ...

    @property
    def shared(self) -> bool:
        """Whether other processes may serve this database's tables (a cluster)."""
        ...

    #: How many lines of followed tables reached this process's sockets ``relayed`` (the owner's
    #: frames as they were) or ``folded`` (their frames built here).
    follows: Counter[str]

    def publish(self, table_id: str, message: dict[str, Any]) -> None:
        """The owner tells the processes that follow the table what it committed."""

    def tell_owner(self, table: Any) -> None:
        """A follower tells the table's owner how many of its sockets sit in each seat."""

    def lost(self, table: Any) -> None:
        """The process no longer owns a table it drove: it follows it from now on."""

    async def is_guest(self, player: int) -> bool:
        """Whether ``player`` is a guest (no account): the tables show it beside the name."""

    def idle(self, table_id: str) -> None:
        """The table may have no one left to serve (it may leave memory)."""

    def backoff(self) -> float:
        """Seconds to wait before the next automatic move while writes fail (0 when they work)."""

    def notify(self, players: Iterable[int], kind: str, url: str, tag: str, **parts: Any) -> None:
        """Tell ``players`` by Web Push (issue 41 item 4), in the background: words and a link."""

    def turn_waits(self, table_id: str, player: int) -> None:
        """It is ``player``'s turn at a table where no socket of theirs is open (Web Push)."""


class TableDirectory(Protocol):
    """What the accounts need of the tables."""

    def sockets(self) -> Iterable[Socket]:
        """Every open connection of every table in memory."""
        ...

    async def unfinished_seat(self, player: int) -> str | None:
        """A table whose game is not over where ``player`` sits, if any."""
        ...

    async def reload(self, ids: list[str]) -> None:
        """Tables whose stored log changed under them fold it again."""
        ...
