"""Talk at the table (issue 26): quick phrases and emotes for everybody, free text at casual
tables, over the table's websocket (docs/protocol.md, "Talk at the table").

What may be said, and when:

- the players and the spectators of a table talk in two rooms that never hear each other;
- at a **League table** (:func:`league_table`: a rated table, or any table opened for an event,
  rated or not) the League counts hints and signals as dishonour (L-9, rulebook §10): from the
  first card dealt to the deal's result nobody says anything there, in either room (a second
  account among the spectators is a channel to the partner too), and the host may not switch the
  chat; talk is refused, with one sentence, not held: what was not said cannot leak. Between deals
  and after the game the quick phrases and emotes are said as anywhere else, and free text is off
  for everybody there. The referee's announcements are not talk (:mod:`blot.server.referees`);
- every message carries whether its author is a guest (``guest``), so that a guest who took a name
  like an account's is told apart on the page (and guests may not take an account's name at all:
  :mod:`blot.server.accounts`);
- the table's host may turn its chat off (and on again); ``blot admin silence`` takes an account's
  voice at every table; anyone may mute a player, whose messages are then never sent to them (an
  id that is no player's is refused with one sentence);
- a message is a phrase or an emote of a fixed set (the page translates them), or a text of at
  most :data:`TEXT_LIMIT` characters (control characters removed; the page shows it as text, never
  as HTML); each player may say :data:`BURST` messages in any :data:`BURST_SECONDS` seconds and
  :data:`PER_MINUTE` in any minute.

Messages are stored with the table (:mod:`blot.store.chat`) but are not events: a table's event
numbers, its replay and its record are the same with or without talk. Commands run inside the
table's actor, so that what a message is checked against (the deal, the seats) cannot change under
it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from blot.server.connection import Connection, dumps
from blot.server.errors import RateLimited, Refused
from blot.server.limits import Limit
from blot.store import chat as store

if TYPE_CHECKING:
    from blot.server.hub import Hub
    from blot.server.table import Table

#: The quick phrases (the page says them in the reader's language).
PHRASES: Final = ("hello", "gg", "wp", "thanks", "oops", "sorry", "hurry", "bye")
#: The emotes.
EMOTES: Final = ("👍", "👏", "😄", "😮", "😢", "🤔", "🎉", "🙏")
#: The avatars a player may choose to be shown by (else the page shows initials).
AVATARS: Final = (
    "🦊", "🐻", "🐼", "🦁", "🐯", "🐸", "🐙", "🦉", "🐢", "🐝", "🦄", "🐲",
    "🌻", "🍀", "🍒", "🍉", "⭐", "🌙", "🔥", "⚓", "🎩", "🎲", "🍇", "🐞",
)  # fmt: skip
TEXT_LIMIT: Final = 200
BURST: Final = 3
BURST_SECONDS: Final = 5.0
PER_MINUTE: Final = 20
PLAYERS, SPECTATORS = "players", "spectators"
#: Entries kept in memory before the caches are trimmed (what is dropped is read again).
CACHE_LIMIT: Final = 20_000


def room_of(conn: Connection) -> str:
    return PLAYERS if conn.seat is not None else SPECTATORS


def clean_text(value: Any) -> str:
    """A free text as it is stored: NFC, control characters gone, spaces collapsed; refused when
    nothing is left or it is too long."""
    if not isinstance(value, str):
        raise Refused("malformed", "chat_text_string")
    text = unicodedata.normalize("NFC", value)
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    text = " ".join(text.split())
    if not text:
        raise Refused("malformed", "chat_empty")
    if len(text) > TEXT_LIMIT:
        raise Refused("malformed", "chat_too_long", n=TEXT_LIMIT)
    return text


class Chat:
    """The talk of every table of one server (``app.state.chat``)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        clock = hub.config.clock
        self.burst = Limit(BURST, BURST_SECONDS, clock)
        self.minute = Limit(PER_MINUTE, 60.0, clock)
        #: player -> the players they muted (read when they open a table).
        self._mutes: dict[int, set[int]] = {}
        #: table -> whether its chat is on (read when somebody first opens it here).
        self._on: dict[str, bool] = {}

    async def _is_on(self, table_id: str) -> bool:
        on = self._on.get(table_id)
        if on is None:
            on = await self.hub.read(lambda c: store.chat_on(c, table_id))
            if len(self._on) > CACHE_LIMIT:
                self._on = {t: v for t, v in self._on.items() if t in self.hub.tables}
            self._on[table_id] = on
        return on

    def _keep_mutes(self, player: int, muted: set[int]) -> None:
        """Remember whom a player muted while they have a table open (a player with none open
        may be dropped: their mutes are read again when they open one)."""
        if len(self._mutes) > CACHE_LIMIT:
            connected = {c.player for t in self.hub.tables.values() for c in t.connections}
            self._mutes = {p: m for p, m in self._mutes.items() if p in connected}
        self._mutes[player] = muted

    # --- commands (each runs inside the table's actor: ``table.call``) ---------------------------

    async def command(self, table: Table, conn: Connection, message: Mapping[str, Any]) -> None:
        """A ``chat``, ``chat_history`` or ``chat_switch`` message of a connection."""
        kind = message.get("type")
        if kind == "chat":
            await self.say(table, conn, message)
        elif kind == "chat_history":
            await self.history(table, conn)
        else:
            await self.switch(table, conn, message.get("on"))

    async def history(self, table: Table, conn: Connection) -> None:
        """Send a connection the talk of its room so far, and what it may say there."""
        room = room_of(conn)
        player = conn.player
        if player is not None:
            self._keep_mutes(player, await self.hub.read(lambda c: store.mutes(c, player)))
        muted = self._mutes.get(player, set()) if player is not None else set()
        messages = await self.hub.read(lambda c: store.history(c, table.id, room, muted))
        conn.push(
            dumps(
                {
                    "type": "chat_history",
                    "room": room,
                    "on": await self._is_on(table.id),
                    "free_text": not league_table(table),
                    "phrases": list(PHRASES),
                    "emotes": list(EMOTES),
                    "muted": sorted(muted),
                    "messages": messages,
                }
            )
        )

    async def say(self, table: Table, conn: Connection, message: Mapping[str, Any]) -> None:
        """A message from a connection: checked (see the module's docstring), stored, and sent to
        everybody in its room who has not muted its author."""
        kind, body = self._body(table, message)
        player = conn.player
        if player is None:
            raise Refused("forbidden", "chat_players_only")
        room = room_of(conn)
        if not await self._is_on(table.id):
            raise Refused("forbidden", "chat_off")
        if league_table(table) and in_deal(table):
            raise Refused(
                "forbidden",
                "chat_rated_deal",
            )
        key = str(player)
        wait = max(self.burst.wait(key), self.minute.wait(key))
        if wait > 0:
            raise RateLimited("chat_too_fast", wait, n=max(1, round(wait)))
        if await self.hub.read(lambda c: store.silenced(c, player)):
            raise Refused("forbidden", "chat_silenced")
        self.burst.hit(key)
        self.minute.hit(key)
        at = self.hub.now()
        seat = conn.seat
        said = await self.hub.write(lambda c: store.add(c, table.id, player, seat, room, kind, body, at))
        self._send(table, room, said)

    async def switch(self, table: Table, conn: Connection, on: Any) -> None:
        """The host turns the table's chat off (``on`` false) or on again; both rooms hear of it."""
        if not isinstance(on, bool):
            raise Refused("malformed", "chat_switch_flag")
        player = conn.player
        if player is None or player != table.host:
            raise Refused("forbidden", "chat_switch_host")
        if league_table(table) and in_deal(table):
            raise Refused(
                "forbidden",
                "chat_switch_deal",
            )
        if on == await self._is_on(table.id):
            return
        at = self.hub.now()
        seat = conn.seat
        room = room_of(conn)
        kind = "on" if on else "off"
        said = await self.hub.write(lambda c: store.add(c, table.id, player, seat, room, kind, "", at))
        self._on[table.id] = on
        self._send(table, None, said)

    async def mute(self, conn: Connection, message: Mapping[str, Any]) -> None:
        """Mute a player (``muted`` true) or hear them again; answers the list of muted players."""
        player = conn.player
        target = message.get("player")
        muted = message.get("muted")
        if player is None:
            raise Refused("forbidden", "mute_players_only")
        if not isinstance(target, int) or isinstance(target, bool) or not isinstance(muted, bool):
            raise Refused("malformed", "mute_message")
        if target == player:
            raise Refused("malformed", "mute_self")
        # an id that is no player's (0, -1, 2**62, one of nobody) would break the database's
        # reference, or its 32-bit integer: answered like any refusal, the socket kept
        if not 0 < target < 2**31 or not await self.hub.read(lambda c: store.is_player(c, target)):
            raise Refused("not_found", "no_such_player")
        at = self.hub.now()
        await self.hub.write(lambda c: store.set_mute(c, player, target, muted, at))
        mutes = self._mutes.setdefault(player, set())
        if muted:
            mutes.add(target)
        else:
            mutes.discard(target)
        conn.push(dumps({"type": "muted", "players": sorted(mutes)}))

    # --- helpers ---------------------------------------------------------------------------------

    @staticmethod
    def _body(table: Table, message: Mapping[str, Any]) -> tuple[str, str]:
        given = [k for k in ("phrase", "emote", "text") if k in message]
        if len(given) != 1:
            raise Refused("malformed", "chat_one_kind")
        kind = given[0]
        value = message[kind]
        if kind == "phrase":
            if value not in PHRASES:
                raise Refused("malformed", "chat_phrases", phrases=", ".join(PHRASES))
            return kind, str(value)
        if kind == "emote":
            if value not in EMOTES:
                raise Refused("malformed", "chat_emotes", emotes=" ".join(EMOTES))
            return kind, str(value)
        if league_table(table):
            raise Refused("forbidden", "chat_rated_text")
        return kind, clean_text(value)

    def _send(self, table: Table, room: str | None, said: dict[str, Any]) -> None:
        """To every connection of ``room`` (None: both) that did not mute the author."""
        text = dumps({"type": "chat", "message": said})
        author = said["player"]
        switch = said["kind"] in store.SWITCH
        for conn in list(table.connections):
            if room is not None and room_of(conn) != room:
                continue
            if not switch and conn.player is not None and author in self._mutes.get(conn.player, ()):
                continue
            conn.push(text)


def league_table(table: Table) -> bool:
    """Whether the League's rules of talk hold at the table (L-9: hints and signals are a
    dishonour): a rated table, or any table opened for an event, rated or not (every duplicate
    event is unrated, and a referee's table is an event's)."""
    return bool(table.settings.get("rated") or table.settings.get("event"))


def in_deal(table: Table) -> bool:
    """Whether a deal is being played at the table: from its first card dealt to its result (not
    before the first deal, not between two deals, not after the game). A game ended by agreement
    in the middle of a deal (L-2: it goes on later, at another table) is still in that deal, so a
    paused or ended table is no way around the silence."""
    game = table.game
    return not game.is_over and not game.needs_cards
