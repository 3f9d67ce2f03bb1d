"""What the browser's card room needs from the server (issue 26): the games described for one
presenter per game, a game's rating changes at its end, one's own replays, the table's log after a
reconnect and for spectators, avatars, and the page's installable parts."""

from __future__ import annotations

from typing import Any

import pytest

from blot.games import SPECS

from .conftest import Account, Player, Socket, play_out, start_with_bots


def test_games_describe_everything_a_presenter_needs(client: Any) -> None:
    games = {g["game"]: g for g in client.get("/api/games").json()["games"]}
    assert list(games) == list(SPECS)
    bazar, tfe = games["bazar-blot"], games["3-5-8"]
    assert (bazar["presenter"], bazar["teams"], bazar["direction"]) == (
        "bazar",
        [[0, 2], [1, 3]],
        "clockwise",
    )
    assert (tfe["presenter"], tfe["teams"], tfe["direction"]) == (
        "three_five_eight",
        [[0], [1], [2]],
        "counterclockwise",
    )
    assert (bazar["counted_deals"], tfe["counted_deals"]) == (None, 9)  # B-70 a target; T-50 nine deals
    # what an event may do (issue 25): Bazar Blot's duplicate rounds and Davtar over the board
    assert [(g["duplicate"], g["score_sheet"]) for g in (bazar, tfe)] == [(True, True), (False, False)]
    assert [f["name"] for f in bazar["option_fields"]] == [
        "target",
        "kanach",
        "three_passes_end_bidding",
        "nt_four_nines",
    ]
    assert bazar["option_fields"][0] == {"name": "target", "kind": "number", "min": 1, "max": 10000}
    assert bazar["option_fields"][3] == {"name": "nt_four_nines", "kind": "choice", "choices": [10, 0]}
    assert tfe["option_fields"] == [] and tfe["options"] == {}
    for g in games.values():
        assert "random" in g["bots"] and "random" not in g["rated_bots"] and "basic" in g["rated_bots"]


def test_every_offered_option_value_is_accepted_and_one_beyond_is_refused(
    client: Any, player: Player
) -> None:
    """The lobby offers what option_fields say: each value makes a table; outside them, refused."""
    games = client.get("/api/games").json()["games"]
    fields = next(g for g in games if g["game"] == "bazar-blot")["option_fields"]
    offered = {
        "number": lambda f: [f["min"], f["max"]],
        "yes_no": lambda f: [True, False],
        "choice": lambda f: f["choices"],
    }
    beyond = {"number": lambda f: f["max"] + 1, "yes_no": lambda f: "yes", "choice": lambda f: 5}
    made = 0
    for f in fields:
        for value in offered[f["kind"]](f):
            table = player.post("/api/tables", {"game": "bazar-blot", "options": {f["name"]: value}})
            assert table["settings"]["options"][f["name"]] == value
            made += 1
        player.post(
            "/api/tables", {"game": "bazar-blot", "options": {f["name"]: beyond[f["kind"]](f)}}, status=400
        )
    assert made == 8


def test_a_rated_games_end_shows_each_seats_rating_change(client: Any) -> None:
    ani = Account(client, "Ani")
    table = start_with_bots(ani, "bazar-blot", rated=True, options={"target": 1})
    assert client.get(f"/api/tables/{table}/ratings").status_code == 404  # not over yet
    over = play_out(client, table, {0: ani})["game_over"]
    answer = client.get(f"/api/tables/{table}/ratings").json()
    assert answer["rated"] is True and [s["seat"] for s in answer["seats"]] == [0, 1, 2, 3]
    mine = answer["seats"][0]
    assert mine["player"] == "Ani" and answer["seats"][1]["player"] == "bot:basic"
    assert mine["rated"] and (mine["change"] > 0) == (over["winner"] == 0)
    profile = client.get("/api/players/Ani").json()
    assert profile["games"]["bazar-blot"]["rating"] == mine["rating"]
    assert profile["recent"][0]["rating_change"] == mine["change"]


def test_an_unrated_games_end_moves_nobody(client: Any, player: Player) -> None:
    table = start_with_bots(player, "bazar-blot", options={"target": 1})
    play_out(client, table, {0: player})
    answer = client.get(f"/api/tables/{table}/ratings").json()
    assert answer["rated"] is False and all(s["change"] is None and not s["rated"] for s in answer["seats"])


def test_the_replay_list_filters_to_ones_own_games(client: Any) -> None:
    ani, boris = Player(client, "Ani"), Player(client, "Boris")
    public = start_with_bots(ani, "bazar-blot", options={"target": 1})
    private = start_with_bots(ani, "bazar-blot", options={"target": 1}, public=False)
    others = start_with_bots(boris, "bazar-blot", options={"target": 1})
    for table, who in ((public, ani), (private, ani), (others, boris)):
        play_out(client, table, {0: who})
    everybody = {g["id"] for g in client.get("/api/replays").json()["games"]}
    assert everybody == {public, others}  # public games only
    mine = client.get("/api/replays?mine=1", headers=ani.headers).json()["games"]
    assert {g["id"] for g in mine} == {public, private}
    assert client.get("/api/replays?mine=1").status_code == 403  # whose games?


def test_a_spectator_and_a_page_that_reconnects_get_the_recent_events_for_the_log(
    client: Any, player: Player
) -> None:
    table = start_with_bots(player, "3-5-8")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        sock = Socket(ws, player.token)
        sock.joined()
        n = sock.n
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None, "since": None, "recent": 5})
        snap = ws.receive_json()
    assert snap["reset"] is True and [e["n"] for e in snap["events"]] == list(
        range(snap["n"] - 4, snap["n"] + 1)
    )
    assert snap["n"] >= n
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": player.token, "since": None, "recent": 10_000})
        snap = ws.receive_json()
    assert [e["n"] for e in snap["events"]] == list(range(1, snap["n"] + 1))  # all of them (fewer than 200)
    assert snap["events"][0]["kind"] == "create"
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None, "since": None})
        assert ws.receive_json()["events"] == []  # as before: nothing asked, nothing sent


@pytest.mark.parametrize("recent", [-1, "5", True])
def test_recent_is_a_count(client: Any, player: Player, recent: Any) -> None:
    table = player.table("3-5-8")
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": None, "since": None, "recent": recent})
        error = ws.receive_json()
    assert error["message"] == "recent is the number of recent events wanted for the log"


def test_avatars_are_chosen_from_a_set_and_shown_by_player(client: Any) -> None:
    ani, boris = Account(client, "Ani"), Player(client, "Boris")
    choices = client.get("/api/avatars").json()["choices"]
    assert len(choices) >= 12 and all(len(c) <= 2 for c in choices)
    assert client.put("/api/me/avatar", json={"avatar": choices[0]}, headers=ani.headers).json() == {
        "avatar": choices[0]
    }
    refused = client.put("/api/me/avatar", json={"avatar": "<b>"}, headers=boris.headers)
    assert refused.status_code == 400
    shown = client.get(f"/api/avatars?ids={ani.id},{boris.id},x").json()["avatars"]
    assert shown == {str(ani.id): choices[0]}  # Boris chose none: initials
    client.put("/api/me/avatar", json={"avatar": None}, headers=ani.headers)
    assert client.get(f"/api/avatars?ids={ani.id}").json()["avatars"] == {}
    assert client.put("/api/me/avatar", json={"avatar": choices[0]}).status_code == 403


def test_the_app_is_installable_and_works_offline(client: Any) -> None:
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200 and manifest.headers["content-type"].startswith(
        "application/manifest+json"
    )
    data = manifest.json()
    assert data["start_url"] == "/" and data["display"] == "standalone" and data["name"]
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        png = client.get(icon["src"])
        assert png.status_code == 200 and png.content[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(png.content[16:20], "big"), int.from_bytes(png.content[20:24], "big")
        assert f"{width}x{height}" == icon["sizes"]
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
    assert worker.headers["cache-control"] == "no-cache"
    assert "/static/offline.html" in worker.text and "/static/app.js" in worker.text
    assert client.get("/static/offline.html").status_code == 200
    csp = dict(d.strip().split(" ", 1) for d in client.get("/").headers["content-security-policy"].split(";"))
    assert csp["manifest-src"] == "'self'" and csp["worker-src"] == "'self'"
