"""Friends and invitations (issue 41 item 2), through the real server on SQLite and PostgreSQL:
asking and accepting, removing, blocking, the list with who is online and at which table, and
inviting a friend to a table; every refusal is one keyed sentence that changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from blot.server.friends import SEATED_SECONDS

from .conftest import Account, Clock, Player, Socket, make_client


def friends(who: Player) -> dict[str, Any]:
    response = who.client.get("/api/friends", headers=who.headers)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def refused(response: Any, status: int, reason: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["reason"] == reason, body
    return body


def befriend(a: Account, b: Account) -> None:
    assert a.post("/api/friends", {"username": b.username}) == {"username": b.username, "status": "asked"}
    assert b.post("/api/friends", {"username": a.username.upper()}) == {
        "username": a.username,
        "status": "friend",
    }


def test_issue41_a_request_waits_until_the_other_accepts(database: Path | str) -> None:
    with make_client(database) as client:
        ani, boris = Account(client, "Ani"), Account(client, "Boris")
        ani.post("/api/friends", {"username": "boris"})
        mine, his = friends(ani), friends(boris)
        assert mine["asked"] == [{"username": "Boris", "name": "Boris"}] and mine["friends"] == []
        assert his["asking"] == [{"username": "Ani", "name": "Ani"}] and his["friends"] == []
        boris.post("/api/friends", {"username": "Ani"})  # asking back accepts
        mine = friends(ani)
        assert [f["username"] for f in mine["friends"]] == ["Boris"] and mine["asked"] == []
        assert [f["username"] for f in friends(boris)["friends"]] == ["Ani"]
        # either may remove the other: gone from both lists
        assert client.delete("/api/friends/Ani", headers=boris.headers).json()["status"] is None
        assert friends(ani)["friends"] == [] and friends(boris)["friends"] == []


def test_issue41_friends_see_who_is_online_and_at_which_public_table(database: Path | str) -> None:
    clock = Clock()
    with make_client(database, clock=clock) as client:
        ani, boris, vera = Account(client, "Ani"), Account(client, "Boris"), Account(client, "Vera")
        befriend(ani, boris)
        befriend(ani, vera)
        friends(boris)  # Boris's page is open
        table = boris.table()
        hidden = vera.table(public=False)
        clock.move(SEATED_SECONDS)  # who sits where is read again (at most every 5 s)
        listed = {f["username"]: f for f in friends(ani)["friends"]}
        assert listed["Boris"] == {
            "username": "Boris",
            "name": "Boris",
            "online": True,
            "playing": True,
            "table": table,
            "game": "bazar-blot",
        }
        # a private table is not named, even to a friend; Vera's page never asked: not online
        assert listed["Vera"] == {
            "username": "Vera",
            "name": "Vera",
            "online": False,
            "playing": True,
            "table": None,
            "game": None,
        }
        assert hidden not in str(friends(ani))
        clock.move(61)  # Boris's page stopped asking a minute ago
        assert {f["username"]: f["online"] for f in friends(ani)["friends"]}["Boris"] is False
        with client.websocket_connect(f"/ws/tables/{hidden}") as ws:  # Vera at her table
            Socket(ws, vera.token).joined()
            assert {f["username"]: f["online"] for f in friends(ani)["friends"]}["Vera"] is True
        # nobody else learns where Boris sits
        carl = Account(client, "Carl")
        assert table not in str(friends(carl))


def test_issue41_a_block_hides_the_blocker_and_refuses_his_invitations(database: Path | str) -> None:
    with make_client(database) as client:
        ani, boris = Account(client, "Ani"), Account(client, "Boris")
        befriend(ani, boris)
        assert boris.post("/api/friends/Ani/block") == {"username": "Ani", "status": "blocked"}
        assert friends(ani)["friends"] == [] and friends(boris)["blocked"] == [
            {"username": "Ani", "name": "Ani"}
        ]
        # to Ani, Boris is as an unknown username: asking and inviting him are refused alike
        refused(
            client.post("/api/friends", json={"username": "Boris"}, headers=ani.headers),
            404,
            "no_such_player",
        )
        table = ani.table()
        refused(
            client.post(f"/api/tables/{table}/invitations", json={"username": "Boris"}, headers=ani.headers),
            404,
            "no_such_player",
        )
        assert friends(boris)["asking"] == [] and friends(boris)["invitations"] == []
        # lifting the block: Ani may ask again
        client.delete("/api/friends/Ani", headers=boris.headers)
        assert friends(boris)["blocked"] == []
        assert ani.post("/api/friends", {"username": "Boris"})["status"] == "asked"


def test_issue41_bad_requests_are_one_keyed_sentence(database: Path | str) -> None:
    with make_client(database) as client:
        ani, guest = Account(client, "Ani"), Player(client, "Gayane")
        h = ani.headers
        refused(client.get("/api/friends"), 403, "token_needed")
        refused(client.get("/api/friends", headers=guest.headers), 403, "friends_accounts_only")
        refused(
            client.post("/api/friends", json={"username": "Ani"}, headers=guest.headers),
            403,
            "friends_accounts_only",
        )
        refused(client.post("/api/friends", json={"username": "nobody"}, headers=h), 404, "no_such_player")
        refused(client.post("/api/friends", json={"username": "Gayane"}, headers=h), 404, "no_such_player")
        refused(client.post("/api/friends", json={"username": "ANI"}, headers=h), 409, "friend_yourself")
        refused(client.post("/api/friends/Ani/block", headers=h), 409, "friend_yourself")
        refused(client.post("/api/friends", json={}, headers=h), 400, "field_needed")
        refused(client.post("/api/friends", json={"username": 7}, headers=h), 400, "field_needed")
        refused(client.delete("/api/friends/nobody", headers=h), 404, "no_such_player")
        refused(client.delete("/api/invitations/99", headers=h), 404, "no_such_invitation")
        assert friends(ani) == {"friends": [], "asked": [], "asking": [], "blocked": [], "invitations": []}


def _invite(client: TestClient, who: Player, table: str, username: str) -> Any:
    return client.post(f"/api/tables/{table}/invitations", json={"username": username}, headers=who.headers)


def test_issue41_a_friend_is_invited_to_a_table_with_a_free_seat(database: Path | str) -> None:
    clock = Clock()
    with make_client(database, clock=clock) as client:
        ani, boris, carl = Account(client, "Ani"), Account(client, "Boris"), Account(client, "Carl")
        befriend(ani, boris)
        table = ani.table()
        made = _invite(client, ani, table, "boris").json()
        assert made == {"id": made["id"], "table": table, "game": "bazar-blot", "to": "Boris"}
        listed = friends(boris)["invitations"]
        assert [(i["table"], i["from"], i["game"]) for i in listed] == [(table, "Ani", "bazar-blot")]
        # only friends, only by one who sits at (or hosts) the table
        refused(_invite(client, ani, table, "Carl"), 403, "invite_friends_only")
        refused(_invite(client, carl, table, "Ani"), 403, "invite_friends_only")
        befriend(carl, boris)
        refused(_invite(client, carl, table, "Boris"), 403, "invite_not_seated")
        refused(_invite(client, ani, "nosuchtable", "Boris"), 404, "no_such_table")
        refused(_invite(client, ani, table, "Ani"), 409, "friend_yourself")
        assert friends(carl)["invitations"] == []
        # dismissed: no longer listed
        client.delete(f"/api/invitations/{made['id']}", headers=boris.headers).raise_for_status()
        assert friends(boris)["invitations"] == []
        _invite(client, ani, table, "Boris").raise_for_status()  # asked again: listed again
        assert len(friends(boris)["invitations"]) == 1
        clock.move(3601)  # an hour later it is over
        assert friends(boris)["invitations"] == []
        _invite(client, ani, table, "Boris").raise_for_status()
        boris.post(f"/api/tables/{table}/sit", {"seat": 1})  # accepted: he sits, it is gone
        assert friends(boris)["invitations"] == []
        refused(_invite(client, ani, table, "Boris"), 409, "invite_already_seated")
        befriend(ani, carl)
        ani.post(f"/api/tables/{table}/fill-bots", {"level": "basic"})
        refused(_invite(client, ani, table, "Carl"), 409, "invite_no_free_seat")


def test_issue41_invitations_are_limited_per_account(db: Path) -> None:
    clock = Clock()
    with make_client(db, clock=clock) as client:
        ani, boris = Account(client, "Ani"), Account(client, "Boris")
        befriend(ani, boris)
        table = ani.table()
        for _ in range(30):
            _invite(client, ani, table, "Boris").raise_for_status()
        limited = refused(_invite(client, ani, table, "Boris"), 429, "invite_limit")
        assert limited["message"] == "too many invitations: try again a little later"
        clock.move(601)
        _invite(client, ani, table, "Boris").raise_for_status()


def test_issue41_a_waiting_table_with_invitations_still_expires(database: Path | str) -> None:
    """An invitation names its table: the expiry of a waiting table nobody is at deletes its
    invitations with it (PostgreSQL refuses to delete a row others point to)."""
    clock = Clock()
    with make_client(database, clock=clock, waiting_expiry=60.0, sweep_seconds=3600.0) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        ani, boris = Account(client, "Ani"), Account(client, "Boris")
        befriend(ani, boris)
        table = ani.table()
        _invite(client, ani, table, "Boris").raise_for_status()
        clock.move(61.0)
        client.portal.call(hub.registry.sweep)  # type: ignore[attr-defined]
        assert client.get(f"/api/tables/{table}").status_code == 404
        assert friends(boris)["invitations"] == []
