"""A court member's page (issue 38 item 3, L-5): the Court of Conduct's open case — its question,
with no event, table or name — answered through the page, then listed as answered; the event page
shows that a question went to the court, and its answer once applied, beside no table. Each page
at 390x844 and 1366x768 (Armenian on the phone), checked with axe, saved under
``.artifacts/screens``."""

from __future__ import annotations

from typing import Any

from .conftest import LiveServer
from .test_analysis import axe_clean
from .test_events import account, fits, post, shot, signed_in
from .test_scoresheet import click


def test_l5_a_court_member_answers_a_case_that_names_nobody(browser: Any, server: LiveServer) -> None:
    organizer, referee, sage = (
        account(server, "organizer"),
        account(server, "arbiter"),
        account(server, "sage"),
    )
    for name in ("ani", "gohar", "davit", "emma"):
        account(server, name)
    event = post(
        server,
        organizer,
        "/api/events",
        {"name": "League day", "online": False, "rounds": 1, "options": {"target": 51}},
    )["id"]
    post(server, organizer, f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]})
    post(server, organizer, f"/api/events/{event}/entries", {"usernames": ["davit", "emma"]})
    table = post(server, organizer, f"/api/events/{event}/rounds", {"start": True})["rounds"][0]["tables"][0][
        "id"
    ]
    path = f"/api/events/{event}/tables/{table}"
    post(server, organizer, f"{path}/referee", {"username": "arbiter"})
    question = "A player tapped the table twice before each lead. Is that a signal to his partner (L-9)?"
    case = post(server, referee, f"{path}/cases", {"court": "conduct", "question": question})["cases"][0]

    from blot.store.courts import add_court_member

    server.app.state.hub.store.write(lambda c: add_court_member(c, sage["id"], "conduct"))

    # the court member's page, on a phone in Armenian: the open case, its question only
    phone = signed_in(browser, server, sage, 390, 844, locale="hy-AM")
    phone.goto(f"{server.url}/courts")
    phone.wait_for_selector(f"[data-testid=answer-{case['id']}]")
    seen = phone.inner_text("main")
    assert question in seen
    assert not any(
        word in seen.lower() for word in ("ani", "gohar", "davit", "emma", "league day", event.lower())
    )
    assert "Բաց գործեր" in seen  # "open cases"
    assert fits(phone), "the court page is wider than a phone"
    axe_clean(phone, "court page")
    shot(phone, "court-open")

    # answered on a laptop: the case moves to the answered ones
    laptop = signed_in(browser, server, sage, 1366, 768)
    laptop.goto(f"{server.url}/courts")
    laptop.wait_for_selector(f"[data-testid=answer-text-{case['id']}]")
    laptop.fill(f"[data-testid=answer-text-{case['id']}]", "Tapping before each lead is a signal: a warning.")
    click(laptop, f"answer-{case['id']}")
    laptop.wait_for_selector("[data-testid=answered-cases]")
    assert "a warning" in laptop.inner_text("[data-testid=answered-cases]")
    assert laptop.query_selector("[data-testid=open-cases]") is None
    axe_clean(laptop, "court page answered")
    shot(laptop, "court-answered")
    phone.reload()
    phone.wait_for_selector("[data-testid=answered-cases]")
    shot(phone, "court-answered")

    # the referee applies it; the event page says the court answered, beside no table
    post(server, referee, f"{path}/cases/{case['id']}/apply", {"applied": "announced to the table"})
    anybody = signed_in(browser, server, account(server, "visitor"), 1366, 768)
    anybody.goto(f"{server.url}/event/{event}")
    anybody.wait_for_selector("[data-testid=court-questions]")
    said = anybody.inner_text("[data-testid=court-questions]")
    assert said == "Court of Conduct: Tapping before each lead is a signal: a warning."
    assert question not in anybody.inner_text("main")
    shot(anybody, "event-court-questions")

    # someone on no court: the page says so
    nobody = signed_in(browser, server, organizer, 390, 844)
    nobody.goto(f"{server.url}/courts")
    nobody.wait_for_selector("[data-testid=no-court]")
    for p in (phone, laptop, anybody, nobody):
        assert not p.errors, p.errors


def test_l6_l8_the_page_names_tables_without_a_referee_and_a_referee_steps_down(
    browser: Any, server: LiveServer
) -> None:
    """L-6: the event page says which tables still lack a referee (play waits for them); L-8: the
    referee steps down from his console and is not assigned there again; L-7: an online table's
    referee pauses it from the console and its players' page says so."""
    organizer, referee = account(server, "organizer"), account(server, "arbiter")
    account(server, "second")
    names = ["ani", "gohar", "davit", "emma", "aram", "lilit", "narek", "sona"]
    players = {n: account(server, n) for n in names}
    body = {"name": "League day", "online": False, "rounds": 1, "options": {"target": 51}}
    event = post(server, organizer, "/api/events", body)["id"]
    for i in range(0, 8, 2):
        post(server, organizer, f"/api/events/{event}/entries", {"usernames": names[i : i + 2]})
    tables = post(server, organizer, f"/api/events/{event}/rounds", {"start": True})["rounds"][0]["tables"]
    page = signed_in(browser, server, organizer, 390, 844)
    page.goto(f"{server.url}/event/{event}")
    page.wait_for_selector("[data-testid=without-referee-1]")
    assert "tables 1, 2" in page.inner_text("[data-testid=without-referee-1]")
    assert fits(page)
    axe_clean(page, "event awaiting referees")
    shot(page, "event-awaiting-referees")
    page.set_viewport_size({"width": 1366, "height": 768})
    shot(page, "event-awaiting-referees")
    page.set_viewport_size({"width": 390, "height": 844})
    first = f"/api/events/{event}/tables/{tables[0]['id']}"
    post(server, organizer, f"{first}/referee", {"username": "arbiter"})
    post(server, organizer, f"/api/events/{event}/tables/{tables[1]['id']}/referee", {"username": "second"})

    console = signed_in(browser, server, referee, 1366, 768)
    console.goto(f"{server.url}/event/{event}/table/{tables[0]['id']}")
    console.wait_for_selector("[data-testid=step-down]")
    assert console.query_selector("[data-testid=pause-table]") is None  # over the board: no pause
    axe_clean(console, "console with step down")
    shot(console, "console-step-down")
    console.set_viewport_size({"width": 390, "height": 844})
    assert fits(console)
    shot(console, "console-step-down")
    console.set_viewport_size({"width": 1366, "height": 768})
    click(console, "step-down")
    console.wait_for_selector("[data-testid=event-title]")
    assert console.query_selector(f"[data-testid=console-{tables[0]['id']}]") is None
    page.reload()
    page.fill(f"[data-testid=referee-{tables[0]['id']}]", "arbiter")
    click(page, f"assign-{tables[0]['id']}")
    page.wait_for_selector("[data-testid=error]:not([hidden])")
    assert "stepped down from this table" in page.inner_text("[data-testid=error]")

    # online: the referee pauses the table; its players' page says so
    online = post(server, organizer, "/api/events", {"name": "Online day", "rounds": 1, "referees": True})[
        "id"
    ]
    post(server, organizer, f"/api/events/{online}/entries", {"usernames": ["aram", "lilit"]})
    post(server, organizer, f"/api/events/{online}/entries", {"bot": "basic"})
    row = post(server, organizer, f"/api/events/{online}/rounds", {"start": True})["rounds"][0]["tables"][0][
        "id"
    ]
    table = post(server, organizer, f"/api/events/{online}/tables/{row}/referee", {"username": "arbiter"})
    played = table["rounds"][0]["tables"][0]["table"]
    phone = signed_in(browser, server, players["aram"], 390, 844)
    phone.goto(f"{server.url}/table/{played}")
    phone.wait_for_selector(".action-bar")
    console.goto(f"{server.url}/event/{online}/table/{row}")
    console.wait_for_selector("[data-testid=pause-table]")
    shot(console, "console-online")
    click(console, "pause-table")
    phone.wait_for_selector("[data-testid=paused]")
    shot(phone, "table-paused")
    phone.set_viewport_size({"width": 1366, "height": 768})
    shot(phone, "table-paused")
    click(console, "resume-table")
    phone.wait_for_selector("[data-testid=paused]", state="detached")
    for p in (page, console, phone):
        assert not p.errors, p.errors


def test_l6_an_event_made_on_the_page_requires_a_referee_over_the_board(
    browser: Any, server: LiveServer
) -> None:
    """The new event form: over the board under the League's rules a referee at every table is
    asked for by default (L-6); online it is not, and either may be changed."""
    organizer = account(server, "organizer")
    page = signed_in(browser, server, organizer, 390, 844)
    page.goto(f"{server.url}/events")
    page.wait_for_selector("[data-testid=event-referees]")
    assert not page.is_checked("[data-testid=event-referees]")  # online: the server keeps the rules
    page.fill("[data-testid=event-name]", "League day")
    page.uncheck("[data-testid=event-online]")
    assert page.is_checked("[data-testid=event-referees]")
    axe_clean(page, "new event form")
    shot(page, "events-form-referees")
    page.set_viewport_size({"width": 1366, "height": 768})
    shot(page, "events-form-referees")
    click(page, "create-event")
    page.wait_for_selector("[data-testid=event-title]")
    event = page.url.rsplit("/", 1)[1]
    import httpx

    data = httpx.get(f"{server.url}/api/events/{event}").json()
    assert data["settings"]["online"] is False and data["settings"]["referees"] is True
    assert not page.errors, page.errors
