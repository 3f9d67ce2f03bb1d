"""Issue 41 item 6 ("play for me"), as the player meets it: while a bot plays her seat the page
shows "A bot plays for you — Take my seat back" instead of her live cards and calls (the server
refuses her own action then: seat_handed, tests/server/test_pace.py), and taking the seat back
gives her the table again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import LiveServer, post_json


@pytest.fixture
def slow_bots(tmp_path: Path) -> Iterator[LiveServer]:
    """Bots that think 3 s: long enough to look at the page while the bot holds her turn."""
    live = LiveServer(tmp_path / "blot.sqlite3", bot_delay=3.0)
    yield live
    live.stop()


def test_issue41_a_handed_seat_shows_the_bot_playing_and_no_live_cards(
    browser: Any, slow_bots: LiveServer
) -> None:
    server = slow_bots
    ani = post_json(server, "/api/accounts", {"username": "Ani", "password": "correct horse battery"})
    table = post_json(server, "/api/tables", {"game": "3-5-8"}, ani["token"])["id"]
    post_json(server, f"/api/tables/{table}/fill-bots", {"level": "random"}, ani["token"])
    post_json(server, f"/api/tables/{table}/start", {}, ani["token"])
    context = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    context.add_init_script(f"localStorage.setItem('blot.token', '{ani['token']}')")
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{server.url}/table/{table}")
        page.wait_for_selector(".action-bar.mine")  # her turn: her calls or cards are live
        page.click("[data-testid=table-menu] summary")
        page.click("[data-testid=play-for-me]")
        page.wait_for_selector("[data-testid=handed] >> text=A bot (basic) plays for you")
        assert page.locator("[data-testid=take-back]").inner_text() == "Take my seat back"
        assert page.locator(".action-bar.mine, [data-legal=true], [data-call]").count() == 0
        assert page.locator("[data-testid=hand] [data-card]").count() > 0  # she still sees her hand
        live = server.app.state.hub.tables[table]
        assert live.game.to_act == 0 and live.seats[0].handed == "basic"  # still her turn, the bot's
        page.click("[data-testid=take-back]")
        page.wait_for_selector("[data-testid=handed]", state="detached")
        assert live.seats[0].handed is None
    finally:
        context.close()
