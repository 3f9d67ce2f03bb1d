"""The day's deals in the page (issue 45 item 5), in Debian's chromium on a phone's 390x844: from the
lobby a player plays the day's set (one deal of Bazar Blot against random bots, the test
server's small size) to its end, opens the results from the game's end, and sees their percent,
rank, the ranking with the par line and each deal's traveller; a second player sees neither the
first's name nor a traveller before finishing (then plays from the terminal, ``blot daily``), then
both in the ranking; the lobby then says the set is played, with the percent."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from blot.cli.daily import run

from .conftest import LiveServer
from .test_browser import discard, event_number

#: Whatever the player may do next at the table, or the game's end.
NEXT = (
    "[data-testid=game-over], [data-declare=best], [data-call], [data-card][data-legal='true'],"
    " [data-testid=discard-confirm]"
)
DEALS = 1


@pytest.fixture
def daily_server(tmp_path: Path) -> Iterator[LiveServer]:
    """Bazar Blot's day of one deal against random bots, no pause between deals."""
    live = LiveServer(
        tmp_path / "blot.sqlite3",
        deal_pause=0.0,
        daily_games=("bazar-blot",),
        daily_deals={"bazar-blot": DEALS},
        daily_bots="random",
    )
    yield live
    live.stop()


def play_to_the_end(page: Any) -> None:
    """Pass every call (3-5-8: name the first trump offered), declare the best, put back the first
    cards (3-5-8), play the first legal card, until the game's end."""
    while True:
        page.wait_for_selector(NEXT)
        if page.locator("[data-testid=game-over]").count():
            return
        n = event_number(page)
        if page.locator("[data-declare=best]").count():
            page.click("[data-declare=best]")
        elif page.locator("[data-testid=discard-confirm]").count():
            n += discard(page) - 1
        elif page.locator("[data-call='pass']").count():
            page.click("[data-call='pass']")
        elif page.locator("[data-call]").count():
            page.locator("[data-call]").first.click()
        else:
            page.locator("[data-card][data-legal='true']").first.click()
        page.wait_for_function(
            "n => Number(document.getElementById('main').dataset.n) > n"
            " || document.querySelector('[data-testid=game-over]')",
            arg=n,
        )


def start_from_the_lobby(page: Any, server: LiveServer) -> str:
    """The lobby's day's deals: the set is new; "Play" asks a name of a browser with no player yet
    (issue 41 item 1) and opens its table. Returns the player's name."""
    page.goto(server.url + "/")
    row = page.locator("[data-testid=daily-set-bazar-blot]")
    row.wait_for()
    assert row.get_attribute("data-status") == "new"
    assert f"{DEALS} deals" in row.inner_text() and "bots: random" in row.inner_text()
    name = "Ani"
    row.locator("[data-testid=daily-play]").click()
    page.fill("[data-testid=arrival-name]", name)
    page.click("[data-testid=arrival-sit]")
    page.wait_for_url("**/table/*")
    page.wait_for_selector("[data-card]")
    return name


def test_item5_play_the_days_deals_from_the_lobby_then_the_results_and_the_traveller(
    browser: Any, daily_server: LiveServer
) -> None:
    contexts = [browser.new_context(locale="en-US", viewport={"width": 390, "height": 844}) for _ in range(2)]
    errors: list[str] = []
    try:
        first, second = (c.new_page() for c in contexts)
        for p in (first, second):
            p.set_default_timeout(45_000)
            p.on("pageerror", lambda e: errors.append(str(e)))
        ani = start_from_the_lobby(first, daily_server)
        play_to_the_end(first)
        first.click("[data-testid=daily-results-link]")
        first.wait_for_selector("[data-testid=daily-ranking]")
        assert "/daily/bazar-blot?ruleset=league" in first.url
        assert "rank 1 of 1" in first.inner_text("[data-testid=daily-you]")
        rows = first.locator("[data-testid=daily-rank-row]").all_inner_texts()
        assert len(rows) == 1 and ani in rows[0] and "%" in rows[0]
        assert "Par (the bots)" in first.inner_text("[data-testid=daily-par]")
        for k in range(1, DEALS + 1):
            deal = first.locator(f"[data-testid=daily-deal-{k}]")
            assert deal.locator("[data-testid=traveller-row]").count() == 1
            assert ani in deal.locator("tr.mine").inner_text()
            # the line is the game's presenter's (issue 39 item 2): the contract, who bid it, how it went
            line = deal.locator("tr.mine .res").inner_text()
            made = re.fullmatch(r".+ \((You|Partner|Left|Right)\) · (made|failed)", line)
            assert made or line.startswith("Void deal"), line
            assert deal.locator("tr.par").count() == 1  # the bots' own result from the seat
            assert deal.locator("[data-testid=daily-replay]").get_attribute("href").endswith(f"?deal={k}")
            assert deal.locator("[data-testid=daily-analysis]").count() == 0  # analysed after the day
        first.click("[data-testid=daily-deal-1] [data-testid=daily-replay]")  # the player's own table, deal 1
        first.wait_for_selector("[data-testid=replay-step]")
        assert first.locator("[data-testid=replay-secret]").count() == 0

        # the second player, before playing: no ranking, no traveller, not the first one's name
        second.goto(daily_server.url + "/")
        second.locator("[data-testid=daily-set-bazar-blot][data-status=new]").wait_for()
        boris = "Boris"  # a name typed in the header makes the player (the lobby makes nobody)
        second.fill("#name", boris)
        second.press("#name", "Enter")
        second.wait_for_function("() => localStorage.getItem('blot.token')")
        second.goto(daily_server.url + "/daily/bazar-blot?ruleset=league")
        second.wait_for_selector("[data-testid=daily-closed]")
        assert second.locator("[data-testid=daily-ranking], [data-testid=traveller]").count() == 0
        assert ani not in second.inner_text("#main")
        # they play it from the terminal (blot daily, the first choice each turn: quicker than a
        # second browser game), then the page they had open shows both of them
        token = second.evaluate("localStorage.getItem('blot.token')")
        run(daily_server.url, "bazar-blot", None, boris, token, ask=lambda prompt: "1", say=lambda line: None)
        second.reload()
        second.wait_for_selector("[data-testid=daily-ranking]")
        names = " ".join(second.locator("[data-testid=daily-rank-row]").all_inner_texts())
        assert ani in names and boris in names
        assert "of 2" in second.inner_text("[data-testid=daily-you]")
        assert second.locator("[data-testid=daily-deal-1] [data-testid=traveller-row]").count() == 2

        # the first player's lobby: played, with the percent and the rank among two
        first.goto(daily_server.url + "/")
        row = first.locator("[data-testid=daily-set-bazar-blot]")
        row.locator("[data-testid=daily-mine]").wait_for()
        assert "Played" in row.inner_text() and "of 2" in row.inner_text()
        assert row.locator("[data-testid=daily-results]").count() == 1  # no "Play" any more
    finally:
        for c in contexts:
            c.close()
    assert not errors, errors
