"""The websocket of a table: ``hello`` first, then actions; events, snapshots, presence and
errors come back (``docs/protocol.md``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from blot.server import secrecy
from blot.server.connection import Connection
from blot.server.errors import Refused
from blot.server.hub import Hub
from blot.server.jsonin import loads
from blot.server.routes import chat_of, hub_of
from blot.server.table import Table

router = APIRouter()

#: The longest message a client may send.
MAX_MESSAGE = 4096
HELLO_TIMEOUT = 30.0
MESSAGE_TYPES = ("action", "chat", "chat_history", "chat_switch", "mute", "ping")


def _error(e: Refused, request_id: Any = None) -> str:
    out: dict[str, Any] = e.to_json()
    if isinstance(request_id, int | str) and not isinstance(request_id, bool):
        out["id"] = request_id
    return json.dumps(out)


def _parse(text: str | None) -> dict[str, Any]:
    if text is None or len(text) > MAX_MESSAGE:
        raise Refused("malformed", "socket_message_size", n=MAX_MESSAGE)
    data = loads(text)
    if not isinstance(data, dict):
        raise Refused("malformed", "socket_message_object")
    return data


async def _receive(ws: WebSocket) -> str | None:
    """The next text message; None for a binary one; WebSocketDisconnect when the peer left."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return message.get("text")


def _check_hello(hello: Mapping[str, Any]) -> None:
    """The socket's first message is a ``hello`` whose fields have their types (one sentence
    otherwise, and nothing else happens)."""
    if hello.get("type") != "hello":
        raise Refused("malformed", "socket_hello_first")
    since = hello.get("since")
    if since is not None and (not isinstance(since, int) or isinstance(since, bool)):
        raise Refused("malformed", "socket_since")
    token = hello.get("token")
    if token is not None and not isinstance(token, str):
        raise Refused("malformed", "socket_token")
    recent = hello.get("recent", 0)
    if not isinstance(recent, int) or isinstance(recent, bool) or recent < 0:
        raise Refused("malformed", "socket_recent")


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    await ws.accept()
    try:
        await _serve(ws, table_id)
    except Refused as e:  # once accepted, a refusal is an error message and a close, never an HTTP answer
        with contextlib.suppress(Exception):
            await ws.send_text(_error(e))
        await _close(ws, 4404 if e.code == "not_found" else 4400)


async def _serve(ws: WebSocket, table_id: str) -> None:
    """The socket's life after its accept: the ``hello``, the connection to the table, then the
    client's messages until it leaves."""
    hub = hub_of(ws)
    try:
        hello = _parse(await asyncio.wait_for(_receive(ws), HELLO_TIMEOUT))
        _check_hello(hello)
        since, token, recent = hello.get("since"), hello.get("token"), hello.get("recent", 0)
        table = await hub.registry.load(table_id)
        if table is None:
            raise Refused("not_found", "no_such_table")
    except (TimeoutError, WebSocketDisconnect):
        await _close(ws)
        return
    found = await hub.accounts.player(token)
    viewer = None if found is None else found[0]
    watched = False
    if secrecy.shares_deals(table.settings):  # a duplicate round's table (issue 38 item 1)
        secret = await hub.read(lambda c: secrecy.of_table(c, table_id))
        if secret is not None and not secret.may_watch(viewer):
            await ws.send_text(_error(secrecy.refused()))
            await _close(ws, 4403)
            return
        # a spectator let in (an organizer, a referee) may lose the right: looked at again
        watched = secret is not None and not secret.over and viewer not in secret.seated

    async def close() -> None:
        await _close(ws)

    conn = Connection(ws.send_text, viewer, close)
    if found is not None and token is not None:
        from blot.server.accounts import token_hash

        conn.session = token_hash(token)
    table = await _join(hub, table_id, table, conn, since, recent)
    chat = chat_of(ws)
    recheck = asyncio.get_running_loop().create_task(_recheck(hub, table_id, conn)) if watched else None
    try:
        try:
            await table.call(chat.history, table, conn)
        except Refused as e:  # the talk refused, not the table
            conn.push(_error(e))
        while True:
            text = await _receive(ws)
            request_id = None
            try:
                message = _parse(text)
                request_id = message.get("id")
                kind = message.get("type")
                if kind == "ping":
                    current = hub.registry.live.get(table_id, table)
                    conn.push(json.dumps({"type": "pong", "n": current.n}))
                elif kind == "action":
                    await hub.registry.command(table_id, "act", {"player": conn.player, "message": message})
                elif kind in ("chat", "chat_history", "chat_switch"):
                    current = hub.registry.live.get(table_id, table)
                    await current.call(chat.command, current, conn, message)
                elif kind == "mute":
                    await chat.mute(conn, message)
                else:
                    raise Refused("malformed", "socket_unknown_type", types=", ".join(MESSAGE_TYPES))
            except Refused as e:
                conn.push(_error(e, request_id))
    except WebSocketDisconnect:
        pass
    finally:
        if recheck is not None:
            recheck.cancel()
        await hub.registry.disconnect(table_id, conn)


async def _join(
    hub: Hub, table_id: str, table: Table, conn: Connection, since: int | None, recent: int
) -> Table:
    """Connect ``conn`` to the table. A finished table leaves memory as soon as its last socket
    closes, which can fall between loading it and connecting to it (a watcher who closes as
    another opens, or the database read in between): then it is loaded again."""
    for _ in range(3):
        try:
            await table.call(table.seating.connect, conn, since, recent)
            return table
        except Refused as e:
            if e.reason != "table_closed":
                raise
        again = await hub.registry.load(table_id)
        if again is None:
            break
        table = again
    raise Refused("not_found", "no_such_table")


async def _recheck(hub: Hub, table_id: str, conn: Connection) -> None:
    """A spectator let in to a table whose deals are still secret (an organizer, a referee) is
    looked at again every few seconds: one who lost the right (a referee stood down, an organizer
    was made a player) is told so and closed; once the round's deals are all open there is nothing
    left to look at."""
    while not conn.closed:
        await asyncio.sleep(secrecy.RECHECK_SECONDS)
        try:
            secret = await hub.read(lambda c: secrecy.of_table(c, table_id))
        except Exception:  # the database is away: look again later
            continue
        if secret is None or secret.over:
            return
        if not secret.may_watch(conn.player):
            conn.push(_error(secrecy.refused()))
            conn.stop()
            return


async def _close(ws: WebSocket, code: int = 1000) -> None:
    with contextlib.suppress(Exception):
        await ws.close(code)
