"""Issue 39 item 4 on the page: Toy Duel (tests/toygame), a game registered only by this test,
is offered by the lobby under its spec's title, played against a bot with its presenter (served
from the test's own files, nothing of the page edited for it) to its end, at a phone's 390x844 and
a laptop's 1366x768, and its replay watched (screenshots under ``.artifacts/screens``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from toygame import registered

from .conftest import LiveServer, lobby_click
from .test_table import close, open_page, screen


@pytest.fixture
def toy_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server made while Toy Duel is in the registry; each deal's result stays 1 s."""
    with registered():
        live = LiveServer(tmp_path / "blot.sqlite3", deal_pause=1.0)
        yield live
        live.stop()


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_toy_game_is_played_on_the_page_with_its_own_presenter(
    browser: Any, toy_server: LiveServer, size: str
) -> None:
    page = open_page(browser, size)
    try:
        page.goto(toy_server.url + "/")
        page.wait_for_selector("[data-testid=game] option[value=toy-duel]", state="attached")
        assert page.locator("[data-testid=game] option[value=toy-duel]").inner_text() == "Toy Duel"
        page.select_option("[data-testid=game]", "toy-duel")
        lobby_click(page, "play-bots")
        page.wait_for_selector("[data-card][data-legal='true']")
        assert page.locator("[data-testid=toy-tricks-0]").count() == 1  # drawn by toy.js
        screen(page, "toy-play")
        while not page.locator("[data-testid=game-over]").count():
            legal = page.locator("[data-card][data-legal='true']")
            if legal.count():
                n = int(page.locator("#main").get_attribute("data-n") or 0)
                legal.first.click()
                page.wait_for_function("n => Number(document.getElementById('main').dataset.n) > n", arg=n)
            else:
                page.wait_for_selector("[data-card][data-legal='true'], [data-testid=game-over]")
        totals = page.locator("[data-testid=final-totals] b").all_inner_texts()
        assert sorted(int(x) for x in totals) != [] and sum(int(x) for x in totals) == 9
        screen(page, "toy-over")
        # its replay, deal by deal, drawn by the same presenter (the page's defaults for the rest)
        page.click("text=" + ("Watch the replay"))
        page.wait_for_selector("[data-testid=replay-step]")
        for _ in range(6):
            page.click("[data-testid=replay-next]")
        page.wait_for_selector("[data-testid=replay-result]")
        assert "–" in page.locator("[data-testid=replay-result]").inner_text()
        screen(page, "toy-replay")
    finally:
        close(page)
