"""Whole deals through the page against bots, two players at one table, every websocket frame
of a seat checked for hidden cards, refused messages, reconnection, a restart mid-game, and the
pages of things that do not exist."""

from __future__ import annotations

import json
from typing import Any

import pytest

from blot.store import Store
from server.frames import check_no_leak, check_shape

from .conftest import LiveServer, lobby_click, sit_as

DECISION = "[data-declare=best], [data-call], [data-card][data-legal='true'], [data-testid=discard-confirm]"


def new_table(page: Any, server: LiveServer, game: str, bots: bool = True) -> str:
    page.goto(server.url + "/")
    page.select_option("[data-testid=game]", game)
    lobby_click(page, "new-table")
    page.wait_for_url("**/table/*")
    if bots:
        page.click("[data-testid=fill-bots]")
        page.click("[data-testid=start]")
        page.wait_for_selector("[data-card]")
    return str(page.url.rsplit("/", 1)[1])


def event_number(page: Any) -> int:
    return int(page.get_attribute("#main", "data-n") or 0)


def discard(page: Any) -> int:
    """3-5-8 (T-22): cards picked until the confirmation may be pressed, then confirmed; how many
    events that sends (one a card: wait for all of them, the page waits too)."""
    left: int = page.evaluate("blotPage.view.legal.left")
    while page.locator("[data-testid=discard-confirm][disabled]").count():
        page.locator("[data-card][data-legal='true']:not(.picked)").first.click()
    page.click("[data-testid=discard-confirm]")
    return left


def act_once(page: Any, game: str, bid: bool) -> None:
    """Make one decision: the best declarations, a first bid (or trump call) then passes, or
    the first legal card; then wait until the page shows the event it caused."""
    n = event_number(page)
    if page.locator("[data-declare=best]").count():
        page.click("[data-declare=best]")
    elif page.locator("[data-testid=discard-confirm]").count():  # 3-5-8: four cards, then confirm
        n += discard(page) - 1
    elif page.locator("[data-call]").count():
        calls = page.eval_on_selector_all("[data-call]", "els => els.map(e => e.dataset.call)")
        if game == "3-5-8":
            call = next(c for c in calls if c != "pass")
        elif bid:
            call = next(c for c in calls if c[0].isdigit())
        else:
            call = "pass" if "pass" in calls else calls[0]
        page.click(f"[data-call='{call}']")
    else:
        page.locator("[data-card][data-legal='true']").first.click()
    page.wait_for_function("n => Number(document.getElementById('main').dataset.n) > n", arg=n)


def play_deal(page: Any, game: str, stop_after: int | None = None) -> int:
    """Play until the deal's result shows (or ``stop_after`` decisions); returns the count."""
    done = 0
    while stop_after is None or done < stop_after:
        page.wait_for_selector(f"[data-testid=deal-result], {DECISION}")
        if page.locator("[data-testid=deal-result]").count():
            break
        act_once(page, game, bid=done == 0)
        done += 1
    return done


def test_a_bazar_blot_deal_against_bots(page: Any, server: LiveServer) -> None:
    new_table(page, server, "bazar-blot")
    assert page.locator("[data-card]").count() == 8
    page.wait_for_selector("[data-testid=bidding] [data-call='pass']")
    assert page.locator("[data-call='contra']").count() == 0  # only legal calls are offered
    decisions = play_deal(page, "bazar-blot")
    assert decisions >= 9  # a bid and eight cards at least
    result = page.locator("[data-testid=deal-result]")
    assert result.locator("[data-testid=made]").inner_text() in ("made", "failed")
    for row in ("Card points", "Declarations", "Belote", "Points"):
        assert row in result.inner_text()
    totals = page.locator("[data-testid=score-total]").inner_text()
    assert "Total" in totals and any(ch.isdigit() for ch in totals)


def test_a_3_5_8_deal_against_bots(page: Any, server: LiveServer) -> None:
    new_table(page, server, "3-5-8")
    assert page.locator("[data-card]").count() == 16
    assert "0 of 8" in page.locator("[data-testid=seat-0]").inner_text()  # tricks vs target
    act_once(page, "3-5-8", bid=True)  # name the trump
    page.wait_for_selector("[data-testid=talon] .card")
    assert page.locator("[data-card]").count() == 20  # the talon taken
    assert "Choose 4 cards to put back" in page.locator(".prompt").inner_text()
    act_once(page, "3-5-8", bid=False)  # four cards chosen, then one confirmation
    page.wait_for_function("() => document.querySelectorAll('[data-card]').length === 16")
    play_deal(page, "3-5-8")
    result = page.locator("[data-testid=deal-result]").inner_text()
    assert "Target" in result and "Tricks" in result
    assert page.locator("[data-testid=score-total]").count() == 1


def test_two_players_at_one_table(browser: Any, server: LiveServer) -> None:
    ctx_a = browser.new_context(locale="en-US")
    ctx_b = browser.new_context(locale="ru-RU")
    try:
        a, b = ctx_a.new_page(), ctx_b.new_page()
        table = new_table(a, server, "bazar-blot", bots=False)
        b.goto(f"{server.url}/table/{table}")
        sit_as(b, 2)
        a.click("[data-testid=fill-bots]")
        a.click("[data-testid=start]")
        a.wait_for_selector("[data-card]")
        b.wait_for_selector("[data-card]")
        hand_a = set(a.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
        hand_b = set(b.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
        assert len(hand_a) == len(hand_b) == 8 and not hand_a & hand_b
        assert b.locator("[data-testid=log]").inner_text().startswith("Журнал")  # Russian from the browser
        # seat 0 bids, seat 2 (the partner, in the other browser) then has its own choice
        act_once(a, "bazar-blot", bid=True)
        b.wait_for_selector("[data-call]")
        assert a.locator("[data-call]").count() == 0  # not seat 0's turn
        act_once(b, "bazar-blot", bid=False)
        for page in (a, b):
            page.wait_for_function("() => document.querySelectorAll('[data-testid=log] li').length >= 6")
        assert b.locator("#name").input_value() in a.locator("[data-testid=seat-2]").inner_text()
    finally:
        ctx_a.close()
        ctx_b.close()


def test_every_frame_seat_0_receives_hides_the_other_hands(page: Any, server: LiveServer) -> None:
    frames: list[dict[str, Any]] = []
    page.on(
        "websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))
    )
    table = new_table(page, server, "bazar-blot")
    play_deal(page, "bazar-blot")
    for message in frames:
        check_shape(message)
    entries = Store.open(f"sqlite:///{server.db}").log(table)
    assert check_no_leak("bazar-blot", entries, frames, seat=0) > 50
    assert any(m["type"] == "event" and m["event"]["kind"] == "card" for m in frames)


def test_illegal_and_malformed_messages_get_an_error_and_change_nothing(
    page: Any, server: LiveServer
) -> None:
    table = new_table(page, server, "bazar-blot")
    page.wait_for_selector("[data-call]")
    n = event_number(page)
    replies = page.evaluate(
        """async (table) => {
            const ws = new WebSocket(`ws://${location.host}/ws/tables/${table}`);
            const got = [];
            ws.onmessage = (e) => got.push(JSON.parse(e.data));
            await new Promise((ok) => (ws.onopen = ok));
            ws.send(JSON.stringify({type: "hello", token: localStorage.getItem("blot.token"), since: null}));
            for (const raw of ["{oops", "[]", '{"type":"action"}', '{"type":"action","action":"AS"}',
                               '{"type":"action","action":"7NT"}', '{"type":"ping"}'])
                ws.send(raw);
            while (!got.some((m) => m.type === "pong")) await new Promise((r) => setTimeout(r, 20));
            ws.close();
            return got.filter((m) => m.type === "error" || m.type === "pong");
        }""",
        table,
    )
    codes = [m.get("code", m["type"]) for m in replies]
    assert codes == ["malformed", "malformed", "malformed", "illegal", "illegal", "pong"]
    assert replies[-1]["n"] == n and event_number(page) == n
    page.locator("[data-call='pass']").wait_for()
    page.click("[data-call='pass']")
    page.wait_for_function("n => Number(document.getElementById('main').dataset.n) > n", arg=n)


def test_the_page_reconnects_and_plays_on(page: Any, server: LiveServer) -> None:
    new_table(page, server, "bazar-blot")
    play_deal(page, "bazar-blot", stop_after=3)
    page.evaluate("blotPage.ws.close()")
    page.wait_for_selector("[data-testid=connection]", state="visible")
    page.wait_for_selector("[data-testid=connection]", state="hidden")
    play_deal(page, "bazar-blot")
    assert page.locator("[data-testid=deal-result]").count() == 1


def test_a_server_restart_mid_game_loses_nothing(page: Any, server: LiveServer) -> None:
    new_table(page, server, "3-5-8")
    play_deal(page, "3-5-8", stop_after=8)
    hand = page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
    server.restart()
    page.wait_for_selector("[data-testid=connection]", state="visible")
    page.wait_for_selector("[data-testid=connection]", state="hidden", timeout=30_000)
    page.wait_for_selector(DECISION)
    assert page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)") == hand
    play_deal(page, "3-5-8")
    assert page.locator("[data-testid=deal-result]").count() == 1


def test_languages_switch_and_default_from_the_browser(browser: Any, server: LiveServer) -> None:
    """The page downloads the words of its own language only; switching loads the other (issue
    39 item 2)."""
    from playwright.sync_api import expect

    context = browser.new_context(locale="hy-AM", service_workers="block")
    try:
        page = context.new_page()
        words: list[str] = []
        page.on("request", lambda r: words.append(r.url.split("/static/")[1]) if "/i18n/" in r.url else None)
        page.goto(server.url + "/")
        assert page.locator("[data-testid=new-table]").inner_text() == "Նոր սեղան"
        assert words == ["i18n/hy.js"]
        page.select_option("[data-testid=lang]", "bg")
        expect(page.locator("[data-testid=new-table]")).to_have_text("Нова маса")
        assert words == ["i18n/hy.js", "i18n/bg.js"]
        page.reload()
        assert page.locator("[data-testid=new-table]").inner_text() == "Нова маса"  # remembered
    finally:
        context.close()


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("/replay/nosuchgame", "This game is not finished, or does not exist."),
        ("/players/nosuchplayer", "There is no such player."),
        ("/scoresheet/shared/nosuchsheet", "There is no such score sheet."),
    ],
)
def test_a_missing_game_player_or_sheet_says_so(page: Any, server: LiveServer, path: str, text: str) -> None:
    page.goto(server.url + path)
    shown = page.locator("#main .panel p")
    shown.wait_for()
    assert shown.inner_text() == text
