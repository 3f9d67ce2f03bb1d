"""Issue 24: a command another process forwards to a table's owner runs once, however often it is
sent. The sender sends it again, under the same key, when the owner's answer is late (a busy
owner is not a dead one); at saturation two processes applied such an action and then refused its
repeat as not the seat's turn, so the player saw an error for a move that was made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .conftest import Player, Socket, make_client, simple_choice, start_with_bots


def test_a_forwarded_command_sent_again_under_its_key_runs_once(tmp_path: Path) -> None:
    with make_client(tmp_path / "db.sqlite3", bot_delay=5.0) as client:
        hub = client.app.state.hub
        replies: list[dict[str, Any]] = []

        async def reply(request: dict[str, Any], answer: dict[str, Any]) -> None:
            replies.append(answer)

        hub.cluster.reply = reply
        ani = Player(client, "Ani")
        table = start_with_bots(ani)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            socket = Socket(ws, ani.token)
            socket.joined()
            view = socket.my_turn(0)
            action = {"type": "action", **simple_choice(view)}

            def forwarded(key: str) -> dict[str, Any]:
                args = {"player": ani.id, "message": action}
                return {"kind": "command", "table": table, "name": "act", "args": args, "key": key, "id": 1}

            client.portal.call(hub.registry.ownership.inbox, forwarded("node-b:1"))
            client.portal.call(hub.registry.ownership.inbox, forwarded("node-b:1"))  # the same, sent again
            client.portal.call(hub.registry.ownership.inbox, forwarded("node-b:2"))  # another command
        assert replies[0] == replies[1] == {"result": None}
        assert replies[2]["error"]["code"] == "not_your_turn"
