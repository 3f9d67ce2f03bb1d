"""Issue 41 item 3 in the page, Debian's chromium on a phone's 390x844: "Find a game" waits,
counting; cancelled, or the lobby left, the wait is gone from the server; asked again and past
the wait (the server's clock moved), the page offers bots, and filling the seats opens the
started table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from blot.server.clock import ManualClock
from blot.server.quick import BOTS_AFTER

from .conftest import LiveServer, lobby_click


@pytest.fixture
def clocked(tmp_path: Path) -> Iterator[tuple[LiveServer, ManualClock]]:
    clock = ManualClock()
    live = LiveServer(tmp_path / "blot.sqlite3", clock=clock)
    yield live, clock
    live.stop()


def test_a_player_finds_a_game_waits_fills_it_with_bots_and_the_table_opens(
    page: Any, clocked: tuple[LiveServer, ManualClock]
) -> None:
    live, clock = clocked
    page.goto(live.url)
    page.select_option("[data-testid=game]", "3-5-8")
    lobby_click(page, "find-game")
    panel = page.locator("[data-testid=quick-panel]")
    panel.wait_for()
    assert page.locator("[data-testid=quick-people]").inner_text() == "1 of 3 players"
    assert page.locator("[data-testid=quick-offer]").is_hidden()
    page.click("[data-testid=quick-cancel]")
    panel.wait_for(state="detached")
    token = page.evaluate("localStorage.getItem('blot.token')")

    def status() -> Any:
        return page.request.get(f"{live.url}/api/quick", headers={"Authorization": f"Bearer {token}"}).json()

    assert status() == {"status": "none"}
    lobby_click(page, "find-game")
    panel.wait_for()
    assert status()["status"] == "waiting"
    page.click("a[href='/replays']")  # leaving the lobby stops the wait
    page.wait_for_url("**/replays")
    deadline = 50
    while status()["status"] != "none" and deadline:
        page.wait_for_timeout(100)
        deadline -= 1
    assert status() == {"status": "none"}
    page.click("nav a[href='/']")
    page.select_option("[data-testid=game]", "3-5-8")  # a new lobby: its first game again

    lobby_click(page, "find-game")
    panel.wait_for()
    clock.move(BOTS_AFTER + 1)  # the server's clock: the next answer says 11 s
    page.locator("[data-testid=quick-offer]").wait_for(state="visible")
    assert page.locator("[data-testid=quick-waited]").inner_text().startswith("waiting 0:1")
    page.select_option("[data-testid=quick-level]", "random")
    page.click("[data-testid=quick-fill]")
    page.wait_for_url("**/table/*")
    page.locator("[data-testid=score]").wait_for()
    table = page.url.rsplit("/", 1)[1]
    summary = page.request.get(f"{live.url}/api/tables/{table}").json()
    assert summary["status"] == "playing" and summary["settings"]["quick"] is True
    assert [s["bot"] for s in summary["seats"]] == [None, "random", "random"]
