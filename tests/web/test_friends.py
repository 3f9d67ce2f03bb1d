"""People who find each other through the page (issue 41 items 1 and 2): a name asked on arrival
from a table's link (no more "Player 304"), and two accounts who become friends, one inviting
the other, who sees the invitation and sits at the table."""

from __future__ import annotations

from typing import Any

import httpx

from .conftest import LiveServer

PASSWORD = "correct horse battery"


def _post(server: LiveServer, path: str, token: str | None, body: dict[str, Any]) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = httpx.post(server.url + path, json=body, headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _seats(server: LiveServer, table: str) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = httpx.get(f"{server.url}/api/tables/{table}").json()["seats"]
    return seats


def _context(browser: Any, token: str | None = None, width: int = 390, height: int = 844) -> Any:
    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    if token:
        context.add_init_script(f"localStorage.setItem('blot.token', '{token}')")
    return context


def test_issue41_a_table_link_asks_a_name_before_a_seat_on_the_phone(
    browser: Any, server: LiveServer
) -> None:
    """Item 1: a fresh browser opening a table's link is asked for a name (or to log in); the
    name it types is the name it sits under, and no "Player N" guest is made."""
    ani = _post(server, "/api/accounts", None, {"username": "Ani", "password": PASSWORD})
    table = _post(server, "/api/tables", ani["token"], {"game": "bazar-blot"})["id"]
    context = _context(browser)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/table/{table}")
        page.wait_for_selector("[data-testid=arrival-name]")
        assert (
            page.locator("[data-testid=arrival-login]").get_attribute("href")
            == f"/login?next=%2Ftable%2F{table}"
        )
        assert page.evaluate("localStorage.getItem('blot.token')") is None  # nobody made yet
        page.click("[data-testid=sit-2]")  # a seat before a name: the name is asked first
        assert [s["name"] for s in _seats(server, table)] == ["Ani", None, None, None]
        page.fill("[data-testid=arrival-name]", "Gohar")
        page.click("[data-testid=arrival-sit]")
        page.wait_for_selector(".setup li.mine:has-text('Gohar')")
        assert page.locator("[data-testid=arrival]").count() == 0
        assert [s["name"] for s in _seats(server, table)] == ["Ani", None, "Gohar", None]
    finally:
        context.close()


def test_issue41_the_lobby_asks_a_name_before_the_first_table(browser: Any, server: LiveServer) -> None:
    """Item 1, through the lobby: a fresh browser is not made "Player N" on opening it; its first
    "Play against bots" asks a name, and the table it opens seats that name."""
    context = _context(browser)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("[data-testid=play-bots]:not([disabled])")
        assert page.evaluate("localStorage.getItem('blot.token')") is None  # nobody made yet
        page.click("[data-testid=play-bots]")
        page.wait_for_selector("[data-testid=arrival-name]:focus")
        assert page.locator("[data-testid=arrival-sit]").inner_text() == "Play against bots"
        assert page.evaluate("localStorage.getItem('blot.token')") is None and "/table/" not in page.url
        page.fill("[data-testid=arrival-name]", "Gohar")
        page.click("[data-testid=arrival-sit]")
        page.wait_for_url("**/table/*")
        table = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("[data-testid=hand]")
        assert _seats(server, table)[0]["name"] == "Gohar"
    finally:
        context.close()


def test_issue41_friends_follow_accept_invite_and_join(browser: Any, server: LiveServer) -> None:
    """Item 2: Ani asks Boris by username, Boris accepts on his Friends page, Ani invites him from
    her table, and Boris sees the invitation, joins and sits."""
    ani = _post(server, "/api/accounts", None, {"username": "Ani", "password": PASSWORD})
    boris = _post(server, "/api/accounts", None, {"username": "Boris", "password": PASSWORD})
    hers, his = _context(browser, ani["token"], 1366, 768), _context(browser, boris["token"])
    try:
        # her device has a share sheet (Web Share): the page hands it the table's link
        share = "(d) => { window.shared = d; return Promise.resolve(); }"
        hers.add_init_script(f"Object.defineProperty(navigator, 'share', {{value: {share}}})")
        a, b = hers.new_page(), his.new_page()
        a.goto(server.url + "/friends")
        a.fill("[data-testid=friend-username]", "boris")
        a.press("[data-testid=friend-username]", "Enter")
        a.wait_for_selector("[data-testid=friends-asked] >> text=Boris")
        b.goto(server.url + "/friends")
        b.click("[data-testid=friend_accept-Ani]")
        b.wait_for_selector("[data-testid=friends-list] >> text=Ani")
        table = _post(server, "/api/tables", ani["token"], {"game": "bazar-blot"})["id"]
        a.goto(f"{server.url}/table/{table}")
        a.wait_for_selector("[data-testid=invite-friend]")
        assert a.locator("[data-testid=invite-friend] option").all_inner_texts() == ["● Boris"]  # online
        a.click("[data-testid=share-link]")
        assert a.evaluate("window.shared.url") == f"{server.url}/table/{table}"
        a.click("[data-testid=invite-send]")
        a.wait_for_selector("[data-testid=error] >> text=Invitation sent to Boris.")
        b.click("#site-nav a[href='/']")  # the next page he opens shows it
        b.wait_for_selector(
            "[data-testid=invitation-banner] >> text=Ani invites you to a table of Bazar Blot"
        )
        b.click("[data-testid=invitation-join]")
        b.wait_for_url(f"**/table/{table}")
        b.click("[data-testid=sit-1]")
        b.wait_for_selector(".setup li.mine:has-text('Boris')")
        assert [s["name"] for s in _seats(server, table)] == ["Ani", "Boris", None, None]
    finally:
        hers.close()
        his.close()
