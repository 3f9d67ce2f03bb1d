"""The League's register page (issue 38 item 6; L-3, L-9, L-10): a member of the Court of Conduct
records a dishonour with the page's form and forgives it with its button; the register shows
each dishonour's kind, penance and the names the Court publishes, forgiven ones marked, beside
the tars kapoot bans; a visitor sees the register and no form. At 390x844 and 1366x768, checked
with axe, saved under ``.artifacts/screens``."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from .conftest import LiveServer
from .test_analysis import axe_clean
from .test_events import account, post, shot, signed_in


def test_a_court_member_records_and_forgives_a_dishonour_on_the_register_page(
    browser: Any, server: LiveServer
) -> None:
    judge, ani, gohar = account(server, "judge"), account(server, "ani"), account(server, "gohar")
    account(server, "davit")
    from blot.store.courts import add_court_member
    from blot.store.ratings import insert_tars_kapoot

    store = server.app.state.hub.store
    table = post(server, ani, "/api/tables", {"game": "bazar-blot"})["id"]
    store.write(lambda c: add_court_member(c, judge["id"], "conduct"))  # blot admin court judge conduct
    store.write(lambda c: insert_tars_kapoot(c, ani["id"], gohar["id"], table, datetime.now(UTC)))
    post(server, judge, "/api/conduct/decisions", {
        "kind": "stakes", "usernames": ["davit"], "penance": "warning", "publish_names": False,
        "explanation": "Money changed hands over the games; a warning.", "concerns": "Club night, 3 May",
    })  # fmt: skip

    page = signed_in(browser, server, judge, 390, 844)
    page.goto(server.url + "/register")
    page.wait_for_selector("[data-testid=dishonour-form]")
    page.select_option("[data-testid=dishonour-kind]", "signals")
    page.fill("[data-testid=dishonour-usernames]", "ani, gohar")
    page.select_option("[data-testid=dishonour-penance]", "bar")
    page.fill("[data-testid=dishonour-until]", "2099-06-01")
    page.fill("[data-testid=dishonour-concerns]", "Spring cup, round 2")
    page.fill("[data-testid=dishonour-explanation]", "Signals by the way the cards were held.")
    page.click("[data-testid=dishonour-record]")
    page.wait_for_selector("[data-testid=decision-2]")
    item = page.locator("[data-testid=decision-2]")
    assert item.locator("[data-testid=decision-kind]").inner_text() == "Hints and signals"
    assert item.locator("[data-testid=decision-penance]").inner_text().startswith("Barred until")
    assert item.locator("[data-testid=decision-names]").inner_text() == "Named: ani, gohar"
    withheld = page.locator("[data-testid=decision-1] [data-testid=decision-names]").inner_text()
    assert withheld == "The Court does not publish the names."
    page.click("[data-testid=forgive-1]")
    page.wait_for_selector("[data-testid=decision-1] [data-testid=decision-forgiven]")
    assert page.locator("[data-testid=forgive-1]").count() == 0
    assert page.locator("[data-testid=bans] tbody tr").count() == 1
    axe_clean(page, "register with the dishonour form")
    shot(page, "register-court")
    page.set_viewport_size({"width": 1366, "height": 768})
    shot(page, "register-court")
    assert not page.errors

    visitor = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844}).new_page()
    visitor.goto(server.url + "/register")
    visitor.wait_for_selector("[data-testid=decisions]")
    assert visitor.locator("[data-testid=dishonour-form]").count() == 0
    assert visitor.locator("[data-testid=forgive-2]").count() == 0
    assert visitor.locator("[data-testid=decision-1] [data-testid=decision-forgiven]").count() == 1
    shot(visitor, "register")
    visitor.set_viewport_size({"width": 1366, "height": 768})
    shot(visitor, "register")


def test_the_event_page_says_a_pair_was_barred_by_tars_kapoot(browser: Any, tmp_path: Any) -> None:
    """L-3 (issue 38 item 5): a tars kapoot the referee enters on the event's Davtar withdraws the
    pair at once; the event page's entries and standings say "barred by tars kapoot in round 1",
    in the reader's language (here Armenian too)."""
    server = LiveServer(tmp_path / "blot.sqlite3", league=True)
    try:
        organizer, referee = account(server, "organizer"), account(server, "arbiter")
        for name in ("ani", "gohar", "davit", "emma"):
            account(server, name)
        body = {"name": "League day", "online": False, "rounds": 2, "options": {"target": 51}}
        event = post(server, organizer, "/api/events", body)["id"]
        post(server, organizer, f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]})
        post(server, organizer, f"/api/events/{event}/entries", {"usernames": ["davit", "emma"]})
        table = post(server, organizer, f"/api/events/{event}/rounds", {"start": True})["rounds"][0][
            "tables"
        ][0]
        path = f"/api/events/{event}/tables/{table['id']}"
        post(server, organizer, f"{path}/referee", {"username": "arbiter"})
        import httpx

        headers = {"Authorization": f"Bearer {referee['token']}"}
        sheet = httpx.get(f"{server.url}{path}/console", headers=headers).json()["sheet"]
        team = table["entries"].index(1)  # ani & gohar's seat side at the table
        tars = {"contract": {"team": team, "level": 25, "strain": "S", "multiplier": 1}, "card_points": None,
                "kapoot": 1 - team}  # fmt: skip
        assert post(server, referee, f"/api/scoresheets/{sheet}/deals", tars)["tars_kapoot"]
        page = signed_in(browser, server, organizer, 390, 844)
        page.goto(f"{server.url}/event/{event}")
        badge = page.wait_for_selector("[data-testid=barred-1]")
        assert badge.inner_text() == "barred by tars kapoot in round 1"
        row = page.locator("[data-testid=standings] tbody tr").last
        assert "barred by tars kapoot in round 1" in row.inner_text()
        axe_clean(page, "event with a barred pair")
        shot(page, "event-barred")
        page.set_viewport_size({"width": 1366, "height": 768})
        shot(page, "event-barred")
        armenian = signed_in(browser, server, organizer, 390, 844, locale="hy-AM")
        armenian.evaluate("() => localStorage.setItem('blot.lang', 'hy')")
        armenian.goto(f"{server.url}/event/{event}")
        text = armenian.wait_for_selector("[data-testid=barred-1]").inner_text()
        assert text == "արգելված է թարս կապուտով, փուլ 1"
        assert not page.errors and not armenian.errors
    finally:
        server.stop()
