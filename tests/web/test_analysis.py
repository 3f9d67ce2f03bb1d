"""Issue 14 item 2 in the browser: a finished game's replay has an Analysis switch; turned on, the
page asks the server for the analysis, shows its progress, then marks every card played by its
cost, shows the best card(s), each player's loss per deal and in the game and (Bazar Blot) the
deal's double-dummy table, all as the server's analysis says; a game that is not over shows none.
Screenshots at 390x844 and 1366x768 go to ``.artifacts/screens`` (test_table.screen)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.conftest import Player
from server.test_analysis import finished_table

from .conftest import LiveServer
from .test_table import close, no_overflow, open_page, screen

SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[LiveServer]:
    """Deals follow one another at once: random bots finish a game in a moment."""
    live = LiveServer(tmp_path / "blot.sqlite3", deal_pause=0.0)
    yield live
    live.stop()


def label(card: str) -> str:
    """A card as the page writes it: "10♠"."""
    return card[:-1] + SUIT[card[-1]]


def analysis_of(server: LiveServer, table: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.url}/api/tables/{table}/analysis").json()
    assert answer["status"] == "done", answer
    return answer["analysis"]  # type: ignore[no-any-return]


def axe_clean(page: Any, where: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    bad = [
        (v["id"], [n["target"] for n in v["nodes"]]) for v in found if v["impact"] in ("serious", "critical")
    ]
    assert bad == [], (where, bad)


def turn_on(page: Any, server: LiveServer, table: str) -> None:
    """Open the replay and turn the analysis on: a progress bar until it is done."""
    page.goto(f"{server.url}/replay/{table}")
    page.click("[data-testid=analysis-toggle]")
    assert page.get_attribute("[data-testid=analysis-toggle]", "aria-pressed") == "true"
    page.wait_for_selector("[data-testid=analysis-progress], [data-testid=analysis]")
    page.wait_for_selector("[data-testid=analysis]", timeout=120_000)


def marks_match(page: Any, deal: dict[str, Any]) -> None:
    """Every card of the deal in the page's list carries the server's cost and loss."""
    shown = page.eval_on_selector_all(
        "[data-testid=analysis-cards] [data-card]",
        """els => els.map(e => { const m = e.querySelector('[data-testid=cost-mark]');
            return [e.dataset.card, m.dataset.cost, Number(m.dataset.loss), m.getAttribute('title')]; })""",
    )
    assert [s[:3] for s in shown] == [[c["card"], c["cost"], c["loss"]] for c in deal["cards"]]
    assert all(title for *_, title in shown)  # what the mark means, in words
    # who played which card (issue 41 item 8): the columns are the seats, named at the head, and
    # each card stands in its player's column
    heads = page.locator("[data-testid=analysis-cards] .an-seat")
    columns = heads.evaluate_all("els => els.map(e => Math.round(e.getBoundingClientRect().left))")
    names = page.locator("[data-testid=analysis-summary] th.name").all_inner_texts()
    assert heads.all_inner_texts() == names and len(set(columns)) == len(names)
    placed = page.eval_on_selector_all(
        "[data-testid=analysis-cards] [data-card]",
        """els => els.map(e =>
            [e.dataset.card, Number(e.dataset.seat), Math.round(e.getBoundingClientRect().left)])""",
    )
    seat_of = {c["card"]: c["seat"] for c in deal["cards"]}
    assert all(seat == seat_of[card] and left == columns[seat] for card, seat, left in placed), placed


def summary_matches(page: Any, doc: dict[str, Any]) -> None:
    for seat, total in enumerate(doc["loss_by_seat"]):
        assert page.inner_text(f"[data-testid=loss-total-{seat}]") == str(total)
        for deal in doc["deals"]:
            cell = page.inner_text(
                f"[data-testid=analysis-summary] tr[data-seat='{seat}'] td[data-deal='{deal['number']}']"
            )
            assert cell == ("—" if deal["void"] else str(deal["loss_by_seat"][seat]))


def test_a_bazar_blot_game_analysed_on_its_replay(browser: Any, quick_server: LiveServer) -> None:
    client = httpx.Client(base_url=quick_server.url)
    table = finished_table(Player(client, "Ani"), "bazar-blot", target=1)
    replay = client.get(f"/api/tables/{table}/replay").json()
    page = open_page(browser, "phone")
    try:
        turn_on(page, quick_server, table)
        doc = analysis_of(quick_server, table)
        assert doc["game"] == "bazar-blot" and doc["large"] == 10
        first = doc["deals"][0]
        shown = next(i for i, d in enumerate(replay["deals"]) if d["number"] == first["number"])
        page.select_option("[data-testid=replay-deal]", str(shown))
        marks_match(page, first)
        summary_matches(page, doc)
        # the dd table of the deal on show: each strain's card points for each team
        for strain, row in first["dd_table"].items():
            cells = page.eval_on_selector_all(
                f"[data-testid=dd-table] tr[data-strain='{strain}'] td", "els => els.map(e => e.textContent)"
            )
            assert [cells[0], cells[2]] == [str(p) for p in row["card_points"]], strain
        # the first card that lost points: its step shows its mark and the best card(s)
        worst = max(first["cards"], key=lambda c: c["loss"])
        assert worst["cost"] != "none", "random bots lose points somewhere"
        best = sorted(k for k, v in worst["values"].items() if v == worst["best"])
        page.click(f"[data-testid=an-card-{worst['card']}]")
        played = page.locator("[data-testid=analysis-played]")
        mark = played.locator("[data-testid=cost-mark]")
        assert (mark.get_attribute("data-cost"), mark.get_attribute("data-loss")) == (
            worst["cost"],
            str(worst["loss"]),
        )
        assert str(worst["loss"]) in mark.inner_text() and "lost" in (mark.get_attribute("title") or "")
        assert sorted(played.locator("[data-testid=analysis-best] .ctext").all_inner_texts()) == sorted(
            map(label, best)
        )
        # a step before: the card is about to be played and the best ones are shown in that hand
        page.click("[data-testid=replay-prev]")
        hand = page.locator(f"[data-testid=replay-hand-{worst['seat']}] [data-best=true]")
        assert sorted(hand.evaluate_all("els => els.map(e => e.dataset.handCard)")) == best
        assert sorted(page.locator("[data-testid=analysis-next] .ctext").all_inner_texts()) == sorted(
            map(label, best)
        )
        # the cards of the trick on show carry their marks
        by_card = {c["card"]: c for c in first["cards"]}
        for slot in page.locator("[data-trick-slot]").all():
            c = by_card[slot.get_attribute("data-trick-slot") or ""]
            assert slot.locator("[data-testid=cost-mark]").get_attribute("data-cost") == c["cost"]
        no_overflow(page)
        screen(page, "analysis-bazar")
        axe_clean(page, "analysis on")
        # off and on again: the stored analysis comes back at once
        page.click("[data-testid=analysis-toggle]")
        assert page.locator("[data-testid=analysis], [data-testid=cost-mark]").count() == 0
        page.click("[data-testid=analysis-toggle]")
        page.wait_for_selector("[data-testid=analysis]")
        summary_matches(page, doc)
        page.set_viewport_size({"width": 1366, "height": 768})
        screen(page, "analysis-bazar")
    finally:
        close(page)


def test_a_3_5_8_game_analysed_on_its_replay(browser: Any, quick_server: LiveServer) -> None:
    client = httpx.Client(base_url=quick_server.url)
    table = finished_table(Player(client, "Ani"), "3-5-8")
    page = open_page(browser, "laptop", locale="ru-RU")
    try:
        turn_on(page, quick_server, table)
        doc = analysis_of(quick_server, table)
        assert page.inner_text("[data-testid=analysis] h2") == "Анализ"
        for index, deal in enumerate(doc["deals"]):
            page.select_option("[data-testid=replay-deal]", str(index))
            marks_match(page, deal)
        assert {c["cost"] for d in doc["deals"] for c in d["cards"]} <= {"none", "large"}  # a trick is large
        summary_matches(page, doc)
        assert page.locator("[data-testid=dd-table]").count() == 0  # no dd table in 3-5-8
        screen(page, "analysis-358")
        axe_clean(page, "3-5-8 analysis")
    finally:
        close(page)


def answering(status: int, body: dict[str, Any]) -> Any:
    """A route handler that answers every request with ``body``."""

    def handle(route: Any) -> None:
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    return handle


def test_no_analysis_for_a_game_not_over_and_the_servers_refusals_in_words(
    browser: Any, quick_server: LiveServer
) -> None:
    from playwright.sync_api import expect

    client = httpx.Client(base_url=quick_server.url)
    ani = Player(client, "Ani")
    waiting = ani.table("bazar-blot")
    page = open_page(browser, "phone")
    try:
        page.goto(f"{quick_server.url}/replay/{waiting}")
        page.wait_for_selector("text=This game is not finished, or does not exist.")
        assert page.locator("[data-testid=analysis-toggle]").count() == 0
        assert client.post(f"/api/tables/{waiting}/analysis").status_code == 404
        # what the page says when the server refuses or the analysis fails (answers stood in for)
        finished = finished_table(ani, "bazar-blot", target=1)
        refusals = [
            (
                404,
                {"error": "not_found", "message": "no finished game at this table"},
                "Only a finished game can be analysed.",
            ),
            (
                200,
                {"status": "failed", "message": "it took too long"},
                "The analysis failed: it took too long",
            ),
        ]
        toggle = page.locator("[data-testid=analysis-toggle]")
        for i, (status, body, words) in enumerate(refusals):
            page.route(f"**/api/tables/{finished}/analysis", answering(status, body))
            page.goto(f"{quick_server.url}/replay/{finished}")
            if i == 0:
                toggle.click()
            # from the second replay on the switch is already on: this browser remembers it
            expect(toggle).to_have_attribute("aria-pressed", "true")
            expect(page.locator("[data-testid=analysis-status], [data-testid=analysis-failed]")).to_have_text(
                words
            )
            assert page.locator("[data-testid=analysis], [data-testid=cost-mark]").count() == 0
            page.unroute(f"**/api/tables/{finished}/analysis")
    finally:
        close(page)
