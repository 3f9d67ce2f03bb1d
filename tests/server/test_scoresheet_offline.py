"""A score sheet kept offline (issue 41 item 9; docs/players.md, *The score sheet offline*): a
page records deals with no network and sends them when it returns, each under an id of its own
(``client_id``). Deals from two devices are appended in the order they reach the server; a deal
sent again (its answer was lost) is the one already in, never a second; of two edits of one deal
the last to arrive stands and the other stays in the history. SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .conftest import make_client
from .test_scoresheets import new_sheet, played


def send(client: Any, sheet: str, entry: dict[str, Any], client_id: str, by: str) -> Any:
    return client.post(f"/api/scoresheets/{sheet}/deals", json={**entry, "client_id": client_id, "by": by})


def test_deals_of_two_offline_devices_are_merged_in_order_and_none_twice(database: Path | str) -> None:
    with make_client(database) as client:
        sheet = new_sheet(client)
        # phone A recorded two deals offline, phone B one; A's first answer was lost on the way
        first = send(client, sheet, played(0, 10, "H", [108, 54]), "A-1", "Ani")
        assert first.status_code == 200 and first.json()["number"] == 1
        assert send(client, sheet, played(1, 8, "S", [60, 102]), "B-1", "Bagrat").json()["number"] == 2
        assert send(client, sheet, played(0, 9, "C", [100, 62]), "A-2", "Ani").json()["number"] == 3
        again = send(client, sheet, played(0, 10, "H", [108, 54]), "A-1", "Ani")
        assert again.status_code == 200 and again.json()["number"] == 1
        assert again.json()["entry"] == first.json()["entry"]
        whole = client.get(f"/api/scoresheets/{sheet}").json()
        assert [(d["number"], d["client_id"]) for d in whole["deals"]] == [(1, "A-1"), (2, "B-1"), (3, "A-2")]
        assert [h["action"] for h in whole["history"]] == ["add", "add", "add"]
        assert whole["version"] == 3
        # the read-only share shows the same deals
        shared = client.get(f"/api/scoresheets/shared/{whole['share']}").json()
        assert [d["client_id"] for d in shared["deals"]] == ["A-1", "B-1", "A-2"]


def test_two_offline_edits_of_one_deal_the_last_stands_the_other_in_history(database: Path | str) -> None:
    with make_client(database) as client:
        sheet = new_sheet(client)
        send(client, sheet, played(0, 10, "H", [108, 54]), "A-1", "Ani")
        a = client.put(
            f"/api/scoresheets/{sheet}/deals/1", json={**played(0, 10, "H", [90, 72]), "by": "Ani"}
        )
        b = client.put(
            f"/api/scoresheets/{sheet}/deals/1", json={**played(0, 10, "H", [60, 102]), "by": "Bagrat"}
        )
        assert a.status_code == b.status_code == 200
        whole = client.get(f"/api/scoresheets/{sheet}").json()
        assert whole["deals"][0]["entry"]["card_points"] == [60, 102]
        replaced = [
            (h["who"], h["after"]["card_points"]) for h in whole["history"] if h["action"] == "replace"
        ]
        assert replaced == [("Ani", [90, 72]), ("Bagrat", [60, 102])]
        assert whole["deals"][0]["client_id"] == "A-1"  # an edit keeps the deal's id


def test_a_bad_client_id_is_refused_and_changes_nothing(database: Path | str) -> None:
    with make_client(database) as client:
        sheet = new_sheet(client)
        for bad in (5, "", "x" * 41, "a\nb"):
            answer = client.post(
                f"/api/scoresheets/{sheet}/deals", json={**played(0, 10, "H", [108, 54]), "client_id": bad}
            )
            assert answer.status_code == 422 and answer.json()["field"] == "client_id", bad
        assert client.get(f"/api/scoresheets/{sheet}").json()["deals"] == []
