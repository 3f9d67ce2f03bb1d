"""Issue 41 item 8 on a phone (390x844) and a laptop (1366x768): the seats name their players (no
initials nor "guest" in place of a name, no bot cut to "B…"), a call's bubble covers no name, the
top seat's cards-left count is in view; the score bar keeps the deal's old totals while its last
trick is still on the felt. Screenshots go to ``.artifacts/screens`` (test_table.screen)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import LiveServer
from .test_table import close, open_page, screen

#: Each seat's name box, its text, and whether the text is cut (wider or taller than its box);
#: each bubble's box; each seat's box and its cards-left count's box.
GEOMETRY = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    names: [...document.querySelectorAll("[data-testid=seat-name]")].map((e) => ({
      seat: Number(e.closest("[data-seat]").dataset.seat), box: box(e),
      text: e.textContent.replace(/^▶\\s*/, ""),
      cut: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1 })),
    bubbles: [...document.querySelectorAll("[data-testid=bubble]")].map(box),
    seats: [...document.querySelectorAll("[data-seat]")].map((e) => ({
      seat: Number(e.dataset.seat), box: box(e),
      backs: e.querySelector(".backs") ? box(e.querySelector(".backs")) : null })),
  };
}"""


#: The score bar's numbers.
BAR = "[data-testid=score] .side b"


@pytest.fixture
def paced_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A seat left by its person is played by a bot at once; deals follow each other quickly."""
    live = LiveServer(tmp_path / "blot.sqlite3", grace=0.2, deal_pause=0.3)
    yield live
    live.stop()


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def guest(client: httpx.Client, name: str) -> tuple[str, dict[str, str]]:
    made = client.post("/api/players", json={"name": name}).json()
    return made["token"], {"Authorization": f"Bearer {made['token']}"}


def test_the_seats_name_their_players_and_no_bubble_covers_a_name(
    browser: Any, paced_server: LiveServer
) -> None:
    """A guest with a long name at a side seat (a bot plays for him: two badges), bots at the top
    and the other side; the player at the bottom, Armenian (the longest words) and Russian."""
    client = httpx.Client(base_url=paced_server.url)
    token, ani = guest(client, "Ani Petrosyan")
    _, gohar = guest(client, "Gohar Sargsyan")
    for size, lang in (("phone", "hy"), ("laptop", "ru")):
        table = client.post("/api/tables", json={"game": "bazar-blot"}, headers=ani).json()["id"]
        client.post(f"/api/tables/{table}/sit", json={"seat": 1}, headers=gohar)
        client.post(f"/api/tables/{table}/bot", json={"seat": 2, "level": "heuristic"}, headers=ani)
        client.post(f"/api/tables/{table}/bot", json={"seat": 3, "level": "basic"}, headers=ani)
        page = open_page(browser, size)
        try:
            page.add_init_script(
                f"localStorage.setItem('blot.token', '{token}'); localStorage.setItem('blot.lang', '{lang}');"
            )
            page.goto(f"{paced_server.url}/table/{table}")
            page.wait_for_function("() => window.blotPage?.table?.seats[0].connected")
            client.post(f"/api/tables/{table}/start", headers=ani)  # Ani is there: the bidding waits for her
            page.wait_for_selector("[data-testid=seat-1] .badges .chip")  # "a bot plays" for Gohar
            page.wait_for_selector("[data-testid=bubble], [data-call=pass]")
            if not page.locator("[data-testid=bubble]").count():  # Ani calls first: she passes
                page.click("[data-call=pass]")
                page.wait_for_selector("[data-testid=bubble]")
            found = page.evaluate(GEOMETRY)
            screen(page, f"seats-{lang}")
            names = {n["seat"]: n for n in found["names"]}
            bot = "Բոտ" if lang == "hy" else "Бот"
            assert [names[s]["text"] for s in range(4)] == [
                "Ani Petrosyan",
                "Gohar Sargsyan",
                f"{bot} 3",
                f"{bot} 4",
            ]
            assert not [n for n in found["names"] if n["cut"]], found["names"]
            for bubble in found["bubbles"]:
                assert not [n for n in found["names"] if overlap(bubble, n["box"])], (bubble, found["names"])
            for seat in found["seats"]:  # each cards-left count wholly inside its seat's box
                b, s = seat["backs"], seat["box"]
                if b is not None:
                    assert s[0] <= b[0] and b[2] <= s[2] + 0.5 and s[1] <= b[1] and b[3] <= s[3] + 0.5, seat
        finally:
            close(page)


def test_the_score_bar_keeps_the_old_totals_while_the_last_trick_is_on_the_felt(
    browser: Any, paced_server: LiveServer
) -> None:
    """Four bots, watched: when a deal's last trick lands its result (and the new totals) are
    known, but the bar (and the score sheet) say the old totals until the trick is gathered (its
    0.8 s pause)."""
    client = httpx.Client(base_url=paced_server.url)
    _, host = guest(client, "Host")
    table = client.post("/api/tables", json={"game": "bazar-blot", "trick_pause": 0.8}, headers=host).json()
    client.post(f"/api/tables/{table['id']}/leave", headers=host)
    client.post(f"/api/tables/{table['id']}/fill-bots", json={"level": "random"}, headers=host)
    client.post(f"/api/tables/{table['id']}/start", headers=host)
    page = open_page(browser, "phone")
    try:
        page.goto(f"{paced_server.url}/table/{table['id']}")
        # the first deal whose last trick changes the totals, caught while that trick is held
        held = page.wait_for_function(
            """() => {
              const BAR = "[data-testid=score] .side b";
              const p = window.blotPage, v = p && p.view;
              if (!v || !v.result || !p.heldTrick() || !p.heldTotals) return null;
              if (p.heldTotals.join() === v.totals.join()) return null;
              const bar = [...document.querySelectorAll(BAR)].map((b) => b.textContent);
              const sheet = [...document.querySelectorAll("[data-testid=score-total] td")].slice(2);
              return { bar, sheet: sheet.map((td) => td.textContent), before: p.heldTotals.map(String),
                       after: v.totals.map(String) };
            }""",
            timeout=30_000,
        ).json_value()
        assert held["bar"] == held["before"] != held["after"], held
        assert held["sheet"] == [str(t) for t in held["before"]], held  # the sheet's total too
        screen(page, "last-trick-held")
        page.wait_for_function(
            f"a => [...document.querySelectorAll('{BAR}')].map((b) => b.textContent).join() === a.join()",
            arg=held["after"],
        )
    finally:
        close(page)


#: A waiting table's seat rows: each name's box, whether its text is cut or wraps, its buttons' boxes.
SEAT_ROWS = """() => [...document.querySelectorAll("ul.seats li")].map((li) => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const name = li.querySelector(".seat-name");
  const line = parseFloat(getComputedStyle(name).lineHeight) || 20;
  return { name: box(name), text: name.textContent, lines: name.getBoundingClientRect().height / line,
           cut: name.scrollWidth > name.clientWidth + 1,
           buttons: [...li.querySelectorAll("button")].map(box) };
})"""

#: The bidding's longest calls in Armenian ("10 անկոզր", "Քուանշ", "Չորս յոթնոց"), shown in the
#: page's calls grid as the server's view would list them.
LONG_CALLS = """() => {
  const p = window.blotPage, d = p.view.dealer;
  const calls = ["pass", "8S", "9H", "10NT", "contra", "redouble", "pass", "11NT", "sevens", "16NT", "pass"];
  p.view.calls = calls.map((c, i) => ({ seat: (d + 1 + i) % 4, call: c }));
  p.render();
  const grid = document.querySelector("[data-testid=calls]").getBoundingClientRect();
  const side = [...document.querySelectorAll(".pos-left, .pos-right")].map((e) => e.getBoundingClientRect());
  return { cut: [...document.querySelectorAll("[data-testid=calls] td, [data-testid=calls] th")]
             .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent),
           grid: [grid.left, grid.right], sides: side.map((r) => [r.left, r.right]) };
}"""


def test_issue41_armenian_on_a_phone_seat_rows_and_calls_grid_fit(browser: Any, server: LiveServer) -> None:
    """Issue 41 (the page as a player meets it): at 390x844 in Armenian a waiting table's "empty ·
    team n" stays on one line beside or above its "Sit here" and "Bot" buttons (it was crushed
    to three), and the calls grid between the side seats cuts no call of its last column."""
    client = httpx.Client(base_url=server.url)
    token, ani = guest(client, "Ani")
    table = client.post("/api/tables", json={"game": "bazar-blot"}, headers=ani).json()["id"]
    page = open_page(browser, "phone")
    try:
        page.add_init_script(
            f"localStorage.setItem('blot.token', '{token}'); localStorage.setItem('blot.lang', 'hy');"
        )
        page.goto(f"{server.url}/table/{table}")
        page.wait_for_selector("[data-testid=sit-1]")
        rows = page.evaluate(SEAT_ROWS)
        screen(page, "waiting-hy")
        assert [r["text"] for r in rows][1:] == ["դատարկ · թիմ 2", "դատարկ · թիմ 1", "դատարկ · թիմ 2"]
        for row in rows:
            assert not row["cut"] and row["lines"] < 1.6, row
            assert not [b for b in row["buttons"] if overlap(b, row["name"])], row
        client.post(f"/api/tables/{table}/fill-bots", json={"level": "basic"}, headers=ani)
        client.post(f"/api/tables/{table}/start", headers=ani)
        page.wait_for_selector(".action-bar.mine")  # the bidding waits for Ani
        found = page.evaluate(LONG_CALLS)
        screen(page, "calls-hy")
        assert found["cut"] == [], found
        left, right = sorted(found["sides"])
        assert left[1] <= found["grid"][0] and found["grid"][1] <= right[0], found
    finally:
        close(page)
