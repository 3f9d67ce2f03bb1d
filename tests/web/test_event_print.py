"""Issue 42 items 3 and 5 in the browser: an event's printed sheets (pairings, standings with the
cross table, a table card per table, a blank Davtar per table) and a duplicate round's boards
(hand records and travellers) print on A4 without the site's header, the page's bar or any
button, one table card or Davtar a page; the event page's Print menu links them. Screens (print
media) are checked and their A4 PDFs saved under ``.artifacts/screens``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from .conftest import LiveServer
from .test_events import SCREENS, account, post, signed_in


def played(server: LiveServer, organizer: dict[str, Any], body: dict[str, Any], bots: int) -> dict[str, Any]:
    """A bot event played to its end through the API, each round paired and started at once."""
    event = post(server, organizer, "/api/events", body)["id"]
    for _ in range(bots):
        post(server, organizer, f"/api/events/{event}/entries", {"bot": "basic"})
    data: dict[str, Any] = httpx.get(f"{server.url}/api/events/{event}").json()
    deadline = time.monotonic() + 120
    while data["status"] != "finished":
        if not data["rounds"] or data["rounds"][-1]["status"] == "finished":
            post(server, organizer, f"/api/events/{event}/rounds", {"start": True})
        assert time.monotonic() < deadline, data["rounds"][-1]
        time.sleep(0.1)
        data = httpx.get(f"{server.url}/api/events/{event}").json()
    return data


def pages_of(pdf: bytes) -> int:
    return pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")


def printed(page: Any, path: str, name: str) -> tuple[int, Any]:
    """The sheet at ``path`` as print media shows it: nothing of the screen's chrome visible; its
    A4 PDF's page count (the PDF saved)."""
    page.emulate_media(media="screen")
    page.goto(path)
    page.wait_for_selector(".print-sheet")
    page.emulate_media(media="print")
    for hidden in ("header.top", ".print-bar", "button"):
        assert all(not x.is_visible() for x in page.query_selector_all(hidden)), (name, hidden)
    SCREENS.mkdir(parents=True, exist_ok=True)
    pdf = page.pdf(format="A4", print_background=True)
    (SCREENS / f"print-{name}.pdf").write_bytes(pdf)
    return pages_of(pdf), page


def test_issue42_the_printed_sheets_and_travellers_print_on_a4_without_the_screens_chrome(
    browser: Any, tmp_path: Path
) -> None:
    server = LiveServer(tmp_path / "blot.sqlite3", deal_pause=0.0)
    try:
        organizer = account(server, "organizer")
        account(server, "arbiter")
        people = [
            account(server, name)["username"]
            for name in ("ani", "gohar", "davit", "emma", "hayk", "lilit", "vardan", "nune")
        ]
        body = {"name": "Autumn Swiss", "format": "swiss", "rounds": 2, "online": False, "referees": False}
        event = post(server, organizer, "/api/events", body)["id"]
        for i in range(0, 8, 2):  # the organizer enters the pairs (no confirmation asked)
            post(server, organizer, f"/api/events/{event}/entries", {"usernames": people[i : i + 2]})
        swiss = post(server, organizer, f"/api/events/{event}/rounds", {"start": True})
        tables = swiss["rounds"][0]["tables"]
        post(
            server,
            organizer,
            f"/api/events/{event}/tables/{tables[0]['id']}/referee",
            {"username": "arbiter"},
        )
        dup = played(
            server, organizer, {"name": "Duplicate night", "format": "duplicate", "rounds": 1, "deals": 2}, 4
        )
        page = signed_in(browser, server, organizer, 794, 1123)
        base = f"{server.url}/event/{swiss['id']}"
        page.goto(base)
        page.get_by_test_id("print-menu").locator("summary").click()
        assert (
            page.get_by_test_id("print-cards-link").get_attribute("href")
            == f"/event/{swiss['id']}/print/cards?round=1"
        )
        assert page.get_by_test_id("trf-link").is_visible()
        assert page.get_by_test_id("print-boards-link").count() == 0  # a duplicate event's only
        count, page = printed(page, f"{base}/print/pairings?round=1", "pairings")
        assert count == 1
        rows = page.get_by_test_id("print-pairings-table").locator("tbody tr")
        assert rows.count() == len(tables) and "arbiter" in rows.nth(0).inner_text()
        count, page = printed(page, f"{base}/print/standings", "standings")
        assert count == 1 and page.get_by_test_id("print-cross-table").locator("tbody tr").count() == 4
        count, page = printed(page, f"{base}/print/cards?round=1", "cards")
        assert count == len(tables) == page.get_by_test_id("table-card").count()  # one card a page
        card = page.get_by_test_id("table-card").nth(0).inner_text()
        first = next(e for e in swiss["entries"] if e["id"] == tables[0]["entries"][0])
        seated = [m["name"] for m in sorted(first["members"], key=lambda m: m["position"])]
        assert "Table 1" in card and "Referee: arbiter" in card
        assert f"Seat 1: {seated[0]}" in card and f"Seat 3: {seated[1]}" in card
        count, page = printed(page, f"{base}/print/davtar?round=1", "davtar")
        assert (
            count == len(tables)
            and page.get_by_test_id("davtar-blank").nth(0).locator("tbody tr").count() == 24
        )
        page.emulate_media(media="screen")
        page.goto(f"{server.url}/event/{dup['id']}")
        # a duplicate table's result is the pairs' score on the boards, not match points
        scores = sorted(" : ".join(map(str, t["score"])) for t in dup["rounds"][0]["tables"])
        page.get_by_test_id("boards-1").wait_for()
        assert sorted(page.get_by_test_id("result").all_inner_texts()) == scores
        page.get_by_test_id("boards-1").click()  # each duplicate round links its boards
        page.get_by_test_id("print-boards").wait_for()
        count, page = printed(page, f"{server.url}/event/{dup['id']}/boards/1", "boards")
        boards = page.get_by_test_id("board")
        assert boards.count() == 2 and count >= 1
        for i in range(2):
            assert boards.nth(i).get_by_test_id("traveller").locator("tbody tr").count() == 2
            assert boards.nth(i).get_by_test_id("hand-record").locator(".seat-hand").count() == 4
        assert not page.errors
    finally:
        server.stop()
