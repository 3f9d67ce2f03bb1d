"""The score sheet API (issue 6): worked examples of every branch of B-50 … B-55 and B-72 through
HTTP, the end of the game and the match score (B-70, B-71), 422 for inconsistent input with
nothing stored, edits that recompute every later total and are recorded, the read-only share link
and its live websocket, and the migration of an older database."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

from blot.scoresheet import sheets as service
from blot.server.routes import scoresheets as routes
from blot.store import Store
from blot.store.schema import metadata

from .conftest import Player


def played(
    team: int, level: int, strain: str, card_points: list[int | None] | None, **extra: Any
) -> dict[str, Any]:
    """A deal entry in the API's form (multiplier 1 unless given)."""
    return {
        "void": False,
        "contract": {
            "team": team,
            "level": level,
            "strain": strain,
            "multiplier": extra.pop("multiplier", 1),
        },
        "card_points": card_points,
        "kapoot": extra.pop("kapoot", None),
        "declaration_points": extra.pop("declaration_points", [0, 0]),
        "belote": extra.pop("belote", [0, 0]),
        **extra,
    }


def new_sheet(client: Any, **body: Any) -> str:
    response = client.post("/api/scoresheets", json={"ruleset": "league", "teams": ["Ani", "Bagrat"], **body})
    assert response.status_code == 200, response.text
    sheet = response.json()
    assert sheet["deals"] == [] and sheet["totals"] == [0, 0] and sheet["finished"] is False
    return str(sheet["id"])


def add(client: Any, sheet: str, entry: dict[str, Any], status: int = 200) -> dict[str, Any]:
    response = client.post(f"/api/scoresheets/{sheet}/deals", json=entry)
    assert response.status_code == status, response.text
    result: dict[str, Any] = response.json()
    return result


# (entry, made, points): every branch with numbers worked by hand from docs/rules.md
WORKED = {
    # B-50, B-52: no contra, made: 10 + (16 - 6) + 2 declarations; the defenders (64 + 4) div 10 = 6
    "no contra made": (played(0, 10, "H", [98, 64], declaration_points=[2, 0]), True, [22, 6]),
    # B-50: the defenders' 65 rounds down to 6, 66 up to 7; the two always add up to 16
    "rounding 5 down": (played(0, 8, "S", [97, 65]), True, [18, 6]),
    "rounding 6 up": (played(0, 8, "S", [96, 66]), True, [17, 7]),
    # B-51: made thanks to belote: 8 tens + 2 >= 9; team 1 scores 9 + 8 + 2
    "made by belote": (played(1, 9, "D", [80, 82], belote=[0, 2]), True, [8, 19]),
    # B-53: no contra, failed (9 + 2 < 12): the defenders 16 + 12 + 5 (Z), the contractors their belote
    "no contra failed": (
        played(0, 12, "C", [90, 72], declaration_points=[0, 5], belote=[2, 0]),
        False,
        [2, 33],
    ),
    # B-53 with the defenders' kapoot: V = 25
    "failed, defenders' kapoot": (played(1, 10, "NT", None, kapoot=0), False, [35, 0]),
    # B-54: contra made: 2 x 10 + 16 + Z (2) for the contractors, the defenders only their belote
    "contra made": (
        played(0, 10, "H", [98, 64], multiplier=2, declaration_points=[2, 0], belote=[0, 2]),
        True,
        [38, 2],
    ),
    # B-54: contra failed: the defenders 2 x 11 + 16 + Z (5, the contractors' declarations)
    "contra failed": (played(1, 11, "S", [90, 72], multiplier=2, declaration_points=[5, 0]), False, [43, 0]),
    # B-54: redouble made with a kapoot: 4 x 12 + 25
    "redouble made": (played(0, 12, "D", None, kapoot=0, multiplier=4), True, [73, 0]),
    # B-54: redouble failed: 4 x 14 + 16
    "redouble failed": (played(1, 14, "C", [100, 62], multiplier=4), False, [72, 0]),
    # B-51: a kapoot bid (25) is made only by taking every trick: 25 + 25
    "kapoot bid made": (played(0, 25, "H", None, kapoot=0), True, [50, 0]),
    "kapoot bid failed": (played(0, 25, "H", [150, 12]), False, [0, 41]),
    # B-52: a natural kapoot: 11 + 25 + belote
    "natural kapoot": (played(1, 11, "S", [0, 162], kapoot=1, belote=[0, 2]), True, [0, 38]),
}


#: B-54: redouble made thanks to a hundred (13 + 10 >= 20): 4 x 20 + 16 + 10 = 106
REDOUBLE_0 = played(0, 20, "H", [130, 32], multiplier=4, declaration_points=[10, 0])
REDOUBLE_1 = played(1, 20, "H", [32, 130], multiplier=4, declaration_points=[0, 10])


@pytest.mark.parametrize("name", list(WORKED))
def test_worked_examples_of_b50_to_b54(client: Any, name: str) -> None:
    entry, made, points = WORKED[name]
    sheet = new_sheet(client)
    result = add(client, sheet, entry)
    assert (result["made"], result["points"], result["totals"]) == (made, points, points)
    assert {"made", "points", "totals", "finished", "winner", "match_score"} <= set(result)
    assert result["number"] == 1 and result["finished"] is False and result["winner"] is None


def test_the_issue_example_and_one_card_points_number(client: Any) -> None:
    sheet = new_sheet(client)
    result = add(
        client,
        sheet,
        {
            "void": False,
            "contract": {"team": 0, "level": 10, "strain": "H", "multiplier": 2},
            "card_points": [98, None],  # the other team's 64 follows from 162
            "kapoot": None,
            "declaration_points": [2, 0],
            "belote": [0, 2],
        },
    )
    assert result["made"] is True and result["points"] == [38, 2] and result["totals"] == [38, 2]
    assert result["entry"]["card_points"] == [98, 64]
    assert result["match_score"] is None and result["tars_kapoot"] is False


def test_kanach_made_only_by_the_declarer_alone(client: Any) -> None:
    sheet = new_sheet(client, options={"kanach": True})
    alone = add(client, sheet, played(0, 30, "H", None, kapoot=0, declarer_alone=True))
    assert (alone["made"], alone["points"]) == (True, [55, 0])  # 30 + 25
    with_partner = add(client, sheet, played(0, 30, "S", None, kapoot=0))
    assert (with_partner["made"], with_partner["points"]) == (False, [0, 46])  # 16 + 30
    refused = add(client, new_sheet(client), played(0, 30, "H", None, kapoot=0), status=422)
    assert refused["field"] == "contract.level"  # no kanach without the option


def test_tars_kapoot_ends_the_game_for_the_defenders(client: Any) -> None:
    sheet = new_sheet(client)
    add(client, sheet, REDOUBLE_0)  # 106
    result = add(client, sheet, played(0, 25, "S", None, kapoot=1))  # the contractors took nothing
    assert result["made"] is False and result["points"] == [0, 50]  # 25 + 25
    assert result["totals"] == [106, 50]
    assert result["finished"] is True and result["winner"] == 1 and result["tars_kapoot"] is True
    assert result["match_score"] == "2-0"  # the loser has 106 <= 150 (B-71)
    add(client, sheet, {"void": True}, status=422)


def test_b72_misdeal_and_misplay(client: Any) -> None:
    sheet = new_sheet(client)
    misdeal = add(client, sheet, {"penalty": {"kind": "misdeal", "team": 0}})
    assert misdeal["points"] == [0, 5] and misdeal["made"] is None
    misplay = add(client, sheet, {"penalty": {"kind": "misplay", "team": 1, "declaration_points": 5}})
    assert misplay["points"] == [21, 0] and misplay["totals"] == [21, 5]  # 16 + every declaration


def test_a_game_to_301_its_end_and_match_score(client: Any) -> None:
    sheet = new_sheet(client)
    assert add(client, sheet, {"void": True})["totals"] == [0, 0]  # void deals do not count
    assert add(client, sheet, REDOUBLE_0)["totals"] == [106, 0]
    assert add(client, sheet, REDOUBLE_0)["totals"] == [212, 0]
    # B-70: over 301 in a kapoot deal, play goes on (a redoubled kapoot bid: 4 x 25 + 25)
    kapoot = add(client, sheet, played(0, 25, "D", None, kapoot=0, multiplier=4))
    assert kapoot["points"] == [125, 0] and kapoot["totals"] == [337, 0] and kapoot["finished"] is False
    last = add(client, sheet, played(1, 8, "C", [60, 102]))  # made: 6 vs 8 + 10
    assert last["totals"] == [343, 18]
    assert last["finished"] is True and last["winner"] == 0 and last["match_score"] == "2-0"
    # a deal after the end is refused and not stored
    refused = add(client, sheet, played(0, 8, "S", [97, 65]), status=422)
    assert refused["field"] == "deal" and "game is over" in refused["message"]
    whole = client.get(f"/api/scoresheets/{sheet}").json()
    assert len(whole["deals"]) == 5 and whole["totals"] == [343, 18] and whole["match_score"] == "2-0"
    assert [d["totals"] for d in whole["deals"]][-2:] == [[337, 0], [343, 18]]


def test_a_win_by_1_0_when_the_loser_has_more_than_150(client: Any) -> None:
    sheet = new_sheet(client)
    for deal, totals in zip(
        (REDOUBLE_0, REDOUBLE_1, REDOUBLE_0, REDOUBLE_1),
        ([106, 0], [106, 106], [212, 106], [212, 212]),
        strict=True,
    ):
        result = add(client, sheet, deal)
        assert result["totals"] == totals and result["finished"] is False
    result = add(client, sheet, REDOUBLE_0)
    assert result["totals"] == [318, 212] and result["winner"] == 0 and result["match_score"] == "1-0"


# --- refused input ------------------------------------------------------------------------------

REFUSED = [
    (played(0, 10, "H", [170, -8]), "card_points", "from 0 to 162"),
    (played(0, 10, "H", [163, None]), "card_points", "from 0 to 162"),
    (played(0, 10, "H", [100, 100]), "card_points", "add up to 162"),
    (played(0, 10, "H", None), "card_points", "list of two numbers"),
    (played(0, 10, "H", [100, 62], kapoot=0), "card_points", "all 162"),
    (played(0, 10, "H", [98, 64], declaration_points=[2, 5]), "declaration_points", "only one team"),
    (played(0, 10, "NT", [98, 64], belote=[2, 0]), "belote", "no-trump deal"),
    (played(0, 10, "H", [98, 64], belote=[2, 2]), "belote", "one team at most"),
    (played(0, 7, "H", [98, 64]), "contract.level", "not a level"),
    (played(0, 26, "H", [98, 64]), "contract.level", "not a level"),
    (played(0, 30, "H", [98, 64]), "contract.level", "not a level"),
    (played(0, 10, "X", [98, 64]), "contract.strain", "S, H, D, C or NT"),
    (played(2, 10, "H", [98, 64]), "contract.team", "0 or 1"),
    (played(0, 10, "H", [98, 64], multiplier=3), "contract.multiplier", "1, 2"),
    (played(0, 10, "H", [98, 64], kapoot=2), "kapoot", "null, 0 or 1"),
    (played(0, 10, "H", [98, 64], declarer_alone=True), "declarer_alone", "every trick"),
    (played(0, 10, "H", [98, 64], kapot=0), "kapot", "not a key of a deal"),
    ({"contract": {"team": 0, "level": 10, "strain": "H", "mult": 2}}, "contract.mult", "not a key"),
    ({"penalty": {"kind": "cheating", "team": 0}}, "penalty.kind", "misdeal or misplay"),
    ({"penalty": {"kind": "misdeal", "team": None}}, "penalty.team", "0 or 1"),
    ({"penalty": {"kind": "misplay", "team": 1, "declaration_points": -5}}, "penalty.declaration_points", ""),
    ({"card_points": [98, 64]}, "contract", "needs its contract"),
    ({"void": "yes"}, "void", "true or false"),
    ([1, 2], "deal", "JSON object"),
]


def _snapshot(client: Any, sheet: str) -> dict[str, Any]:
    whole: dict[str, Any] = client.get(f"/api/scoresheets/{sheet}").json()
    return {k: whole[k] for k in ("deals", "totals", "history", "version")}


@pytest.mark.parametrize(("entry", "field", "words"), REFUSED)
def test_inconsistent_deals_are_refused_with_422_naming_the_field(
    client: Any, entry: Any, field: str, words: str
) -> None:
    sheet = new_sheet(client)
    add(client, sheet, played(0, 8, "S", [97, 65]))
    before = _snapshot(client, sheet)
    refused = add(client, sheet, entry, status=422)
    assert refused["error"] == "invalid" and refused["field"] == field
    assert refused["message"].startswith(f"{field}: ") and words in refused["message"]
    replaced = client.put(f"/api/scoresheets/{sheet}/deals/1", json=entry)
    assert replaced.status_code == 422 and replaced.json()["field"] == field
    assert _snapshot(client, sheet) == before  # nothing stored, no history line


def test_a_body_that_is_not_json_is_refused(client: Any) -> None:
    sheet = new_sheet(client)
    response = client.post(f"/api/scoresheets/{sheet}/deals", content=b"{not json")
    assert response.status_code == 422 and response.json()["field"] == "body"
    assert _snapshot(client, sheet)["version"] == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"ruleset": "street"}, "ruleset"),
        ({"ruleset": 3}, "ruleset"),
        ({"options": {"target": 0}}, "options"),
        ({"options": {"kanach": "yes"}}, "options"),
        ({"options": {"speed": 2}}, "options"),
        ({"options": [1]}, "options"),
        ({"teams": ["Ani"]}, "teams"),
        ({"teams": ["Ani", "  "]}, "teams"),
        ({"teams": ["Ani", "x" * 41]}, "teams"),
        ({"teams": "Ani,Bagrat"}, "teams"),
        ({"teams": ["Ani", "Bagrat"], "by": 7}, "by"),
    ],
)
def test_a_bad_ruleset_option_or_team_is_refused(client: Any, body: dict[str, Any], field: str) -> None:
    response = client.post("/api/scoresheets", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["field"] == field and response.json()["message"].startswith(f"{field}: ")


def test_options_and_teams_are_kept(client: Any) -> None:
    made = client.post(
        "/api/scoresheets",
        json={"ruleset": "classic", "options": {"target": 501, "kanach": True}, "teams": [" Ani  A ", "B"]},
    ).json()
    assert made["ruleset"] == "classic" and made["options"]["target"] == 501 and made["options"]["kanach"]
    assert made["teams"] == ["Ani A", "B"]
    default = client.post("/api/scoresheets", json={}).json()
    assert default["ruleset"] == "league" and default["options"]["target"] == 301
    assert default["teams"] == ["Team 1", "Team 2"]


def test_unknown_sheets_and_deals_are_404(client: Any) -> None:
    sheet = new_sheet(client)
    assert client.get("/api/scoresheets/nosuchsheet").status_code == 404
    assert client.post("/api/scoresheets/nosuchsheet/deals", json={"void": True}).status_code == 404
    assert client.put("/api/scoresheets/nosuchsheet/deals/1", json={"void": True}).status_code == 404
    assert client.get("/api/scoresheets/shared/nosuchsheet").status_code == 404
    assert client.get("/api/scoresheets/" + "x" * 300).status_code == 404
    for number in ("1", "0", "x", "-1", "²", "9" * 5000):
        response = client.put(f"/api/scoresheets/{sheet}/deals/{number}", json={"void": True})
        assert response.status_code == 404 and response.json()["error"] == "not_found"
    assert _snapshot(client, sheet)["version"] == 0


# --- edits and history --------------------------------------------------------------------------


def test_edits_recompute_every_later_total_and_are_recorded(client: Any, player: Player) -> None:
    sheet = new_sheet(client)
    add(client, sheet, {**played(0, 10, "H", [108, 54]), "by": "Referee"})  # 10 + 11 vs 5
    add(client, sheet, played(1, 10, "S", [60, 102]))  # 6 vs 10 + 10
    assert [d["totals"] for d in client.get(f"/api/scoresheets/{sheet}").json()["deals"]] == [
        [21, 5],
        [27, 25],
    ]
    response = client.put(
        f"/api/scoresheets/{sheet}/deals/1",
        json=played(0, 10, "H", [60, 102]),  # now failed: 0 vs 16 + 10
        headers=player.headers,
    )
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["number"] == 1 and result["made"] is False and result["points"] == [0, 26]
    assert result["deal_totals"] == [0, 26] and result["totals"] == [6, 46]
    assert [d["totals"] for d in result["deals"]] == [[0, 26], [6, 46]]
    whole = client.get(f"/api/scoresheets/{sheet}").json()
    assert [d["totals"] for d in whole["deals"]] == [[0, 26], [6, 46]] and whole["totals"] == [6, 46]
    history = whole["history"]
    assert [(h["seq"], h["deal"], h["action"]) for h in history] == [
        (1, 1, "add"),
        (2, 2, "add"),
        (3, 1, "replace"),
    ]
    assert (history[0]["who"], history[0]["player"], history[0]["before"]) == ("Referee", None, None)
    assert (history[1]["who"], history[1]["player"]) == (None, None)
    assert (history[2]["who"], history[2]["player"]) == ("Ani", player.id)  # the token's player
    assert history[2]["before"]["card_points"] == [108, 54] and history[2]["after"]["card_points"] == [
        60,
        102,
    ]
    assert all(h["when"].endswith("+00:00") for h in history)
    assert whole["version"] == 3


def test_an_edit_that_would_end_the_game_before_a_later_deal_is_refused(client: Any) -> None:
    sheet = new_sheet(client, options={"target": 100})
    add(client, sheet, played(0, 8, "S", [97, 65]))
    add(client, sheet, played(0, 8, "S", [97, 65]))
    before = _snapshot(client, sheet)
    response = client.put(f"/api/scoresheets/{sheet}/deals/1", json=REDOUBLE_0)
    assert response.status_code == 422 and response.json()["field"] == "deal"
    assert "after the end of the game" in response.json()["message"]
    assert _snapshot(client, sheet) == before


def test_only_the_last_deal_can_be_taken_back(client: Any) -> None:
    sheet = new_sheet(client)
    add(client, sheet, played(0, 8, "S", [97, 65]))
    add(client, sheet, {"void": True})
    refused = client.delete(f"/api/scoresheets/{sheet}/deals/1")
    assert refused.status_code == 422 and refused.json()["field"] == "deal"
    assert client.delete(f"/api/scoresheets/{sheet}/deals/3").status_code == 404
    after = client.request("DELETE", f"/api/scoresheets/{sheet}/deals/2", json={"by": "Ref"}).json()
    assert len(after["deals"]) == 1 and after["totals"] == [18, 6]
    last = after["history"][-1]
    assert (last["action"], last["deal"], last["before"], last["after"]) == (
        "delete",
        2,
        {"void": True},
        None,
    )
    assert last["who"] == "Ref"
    assert add(client, sheet, {"void": True, "who": "Lilit"})["number"] == 2  # "who" names the editor too
    assert client.get(f"/api/scoresheets/{sheet}").json()["history"][-1]["who"] == "Lilit"


# --- the read-only share link -------------------------------------------------------------------


def test_the_share_link_only_reads(client: Any) -> None:
    sheet = new_sheet(client)
    add(client, sheet, played(0, 8, "S", [97, 65]))
    whole = client.get(f"/api/scoresheets/{sheet}").json()
    share = whole["share"]
    assert share != sheet and len(share) >= 16 and whole["share_path"] == f"/scoresheet/shared/{share}"
    shared = client.get(f"/api/scoresheets/shared/{share}").json()
    assert "id" not in shared and sheet not in json.dumps(shared)
    assert shared["read_only"] is True and shared["deals"] == whole["deals"] and shared["totals"] == [18, 6]
    # the share id opens nothing that writes
    assert client.post(f"/api/scoresheets/{share}/deals", json={"void": True}).status_code == 404
    assert client.put(f"/api/scoresheets/{share}/deals/1", json={"void": True}).status_code == 404
    assert client.delete(f"/api/scoresheets/{share}/deals/1").status_code == 404
    assert client.get(f"/api/scoresheets/{share}").status_code == 404
    assert _snapshot(client, sheet)["version"] == 1
    for path in ("/scoresheet", f"/scoresheet/{sheet}", f"/scoresheet/shared/{share}"):
        page = client.get(path)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]


def test_the_live_view_follows_every_change_and_refuses_edits(client: Any) -> None:
    sheet = new_sheet(client)
    share = client.get(f"/api/scoresheets/{sheet}").json()["share"]
    with client.websocket_connect(f"/ws/scoresheets/{share}") as ws:
        first = ws.receive_json()
        assert first["type"] == "sheet" and first["sheet"]["deals"] == [] and "id" not in first["sheet"]
        add(
            client,
            sheet,
            played(0, 10, "H", [98, 64], multiplier=2, declaration_points=[2, 0], belote=[0, 2]),
        )
        update = ws.receive_json()["sheet"]
        assert update["totals"] == [38, 2] and update["version"] == 1
        client.put(f"/api/scoresheets/{sheet}/deals/1", json={"void": True})
        assert ws.receive_json()["sheet"]["totals"] == [0, 0]
        ws.send_text(json.dumps({"type": "deal", "deal": {"void": True}}))
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "forbidden"
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json() == {"type": "pong", "version": 2}
    assert _snapshot(client, sheet)["version"] == 2


def test_the_live_view_of_an_unknown_sheet_closes_with_4404(client: Any) -> None:
    from starlette.websockets import WebSocketDisconnect

    with client.websocket_connect("/ws/scoresheets/nosuchsheet") as ws:
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_the_live_view_sees_changes_made_by_another_process(
    client: Any, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Such as ``blot scoresheet`` in a terminal, writing to the same database."""
    monkeypatch.setattr(routes, "POLL_SECONDS", 0.05)
    sheet = new_sheet(client)
    share = client.get(f"/api/scoresheets/{sheet}").json()["share"]
    other = Store.open(f"sqlite:///{db}")
    try:
        with client.websocket_connect(f"/ws/scoresheets/{share}") as ws:
            assert ws.receive_json()["sheet"]["version"] == 0
            with other.engine.begin() as c:
                service.add_deal(c, sheet, {"void": True}, service.Editor("terminal"))
            update = ws.receive_json()["sheet"]
            assert update["version"] == 1 and update["history"][0]["who"] == "terminal"
    finally:
        other.close()


# --- storage --------------------------------------------------------------------------------------


def test_an_older_database_is_migrated_and_keeps_its_tables(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(Path(service.__file__).parents[1] / "store" / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "INSERT INTO players (name, token_hash, created_at) VALUES ('Ani', 'h', '2025-01-01 00:00:00')"
        )
    engine.dispose()
    store = Store.open(url)
    try:
        with store.engine.connect() as c:
            assert compare_metadata(MigrationContext.configure(c), metadata) == []
            assert c.exec_driver_sql("SELECT name FROM players").scalar() == "Ani"
        with store.engine.begin() as c:
            made = service.create(c, {"teams": ["A", "B"]}, service.Editor("Ani", 1))
        with store.engine.connect() as c:
            assert service.load(c, made.id).row["created_player"] == 1
    finally:
        store.close()
