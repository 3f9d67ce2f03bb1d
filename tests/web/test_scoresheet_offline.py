"""The score sheet with no network (issue 41 item 9; docs/players.md, *The score sheet offline*):
the page opens from the service worker's copy, a deal is recorded and waits on the device, and it
is sent when the network returns — after a deal another device sent meanwhile, none lost."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from .conftest import LiveServer
from .conftest import post_json as post
from .test_scoresheet import click


def played(team: int, level: int, strain: str, cards: int) -> dict[str, Any]:
    return {
        "void": False,
        "contract": {"team": team, "level": level, "strain": strain, "multiplier": 1},
        "card_points": [cards, None] if team == 0 else [None, cards],
        "kapoot": None,
        "declaration_points": [0, 0],
        "belote": [0, 0],
    }


def test_a_deal_recorded_offline_is_sent_when_the_network_returns(browser: Any, server: LiveServer) -> None:
    sheet = post(server, "/api/scoresheets", {"ruleset": "league", "teams": ["Ani", "Bagrat"]})
    context = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{server.url}/scoresheet/{sheet['id']}")
        page.wait_for_selector("[data-testid=deal-form]")
        page.wait_for_function("async () => !!(await navigator.serviceWorker.ready).active")
        page.reload()  # the worker controls the page from now on, and keeps it
        page.wait_for_function("() => !!navigator.serviceWorker.controller")
        page.wait_for_selector("[data-testid=deal-form]")
        context.set_offline(True)
        page.reload()  # no network: the page and the sheet open from this device
        page.wait_for_selector("[data-testid=sheet-live][data-offline=true]")
        click(page, "contract-team-0")
        click(page, "level-10")
        click(page, "strain-H")
        for digit in "108":
            click(page, f"key-{digit}")
        click(page, "submit-deal")
        page.wait_for_selector("[data-testid=waiting-row-1]")
        assert "1 to send" in page.inner_text("[data-testid=sheet-live]")
        assert page.inner_text("[data-testid=form-title]") == "Deal 2"
        # meanwhile another device records a deal of its own
        post(server, f"/api/scoresheets/{sheet['id']}/deals", {**played(1, 8, "S", 100), "client_id": "B-1"})
        context.set_offline(False)
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
        page.wait_for_selector("[data-testid=deal-row-2]")
        assert page.locator("[data-testid^=waiting-row]").count() == 0
        assert page.inner_text("[data-testid=deal-row-2] [data-testid=bid]").startswith("10")
        with urllib.request.urlopen(f"{server.url}/api/scoresheets/{sheet['id']}", timeout=10) as answer:
            deals = json.loads(answer.read())["deals"]
        assert [d["client_id"] == "B-1" for d in deals] == [True, False]
        assert deals[1]["entry"]["card_points"] == [108, 54]
    finally:
        context.close()
