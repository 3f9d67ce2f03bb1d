"""Issue 38 item 1 on the pages: a player of a duplicate round's slower table who opens the faster
table's page reads, in her language, that its deals are secret until every table has played
them — no card, no reconnecting — and the event page offers her no Watch there, saying why; the
organizer, at no table, watches it. Each page at 390x844 and 1366x768, checked with axe, saved
under ``.artifacts/screens``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from .conftest import LiveServer
from .test_analysis import axe_clean
from .test_events import account, fits, post, shot, signed_in


def test_l1_the_faster_tables_page_is_secret_to_a_player_of_the_slower_one(
    browser: Any, tmp_path: Path
) -> None:
    server = LiveServer(tmp_path / "blot.sqlite3", deal_pause=0.0)
    try:
        organizer, ani = account(server, "organizer"), account(server, "ani")
        account(server, "gohar")
        body = {"name": "Duplicate night", "format": "duplicate", "rounds": 1, "deals": 2}
        event = post(server, organizer, "/api/events", body)["id"]
        post(server, organizer, f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]})
        for _ in range(3):
            post(server, organizer, f"/api/events/{event}/entries", {"bot": "basic"})
        data = post(server, organizer, f"/api/events/{event}/rounds", {"start": True})
        persons = next(e["id"] for e in data["entries"] if e["bot"] is None)
        fast = next(t for t in data["rounds"][0]["tables"] if persons not in t["entries"])
        deadline = time.monotonic() + 60
        while httpx.get(f"{server.url}/api/tables/{fast['table']}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bots' table did not finish"
            time.sleep(0.1)

        for width, height, locale, sentence in (
            (390, 844, "hy-AM", "գաղտնի են"),
            (1366, 768, "en-US", "secret until every table of the round has played them"),
        ):
            page = signed_in(browser, server, ani, width, height, locale=locale)
            page.goto(f"{server.url}/table/{fast['table']}")
            page.wait_for_selector("[data-testid=deals-secret]")
            seen = page.inner_text("main")
            assert sentence in seen, seen
            assert page.locator(".card").count() == 0  # not one card drawn
            assert fits(page), "the refusal is wider than the screen"
            axe_clean(page, "secret table")
            shot(page, "deals-secret")
            page.wait_for_timeout(1500)  # no reconnecting: the refusal stays, the banner hidden
            assert page.locator("[data-testid=deals-secret]").count() == 1
            assert page.locator("#banner").is_hidden()

            page.goto(f"{server.url}/event/{event}")
            page.wait_for_selector(f"[data-testid=secret-{fast['id']}]")
            row = page.locator(f"[data-testid=table-1-{fast['number']}]")
            assert row.locator(f"a[href='/table/{fast['table']}']").count() == 0  # no Watch
            assert fits(page), "the event page is wider than the screen"
            axe_clean(page, "event page, a secret table")
            shot(page, "event-deals-secret")
            assert not page.errors, page.errors

        page = signed_in(browser, server, organizer, 1366, 768)
        page.goto(f"{server.url}/table/{fast['table']}")
        page.wait_for_selector(".table-page")
        assert page.locator("[data-testid=deals-secret]").count() == 0
        shot(page, "deals-secret-organizer")
    finally:
        server.stop()
