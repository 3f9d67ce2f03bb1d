"""The organizer's desk in the page (issue 42 items 1, 2 and 7): an event made and changed with
all its settings, pairs and a bot entered by the organizer, a round's pairings published,
corrected (a swap, listed with who made it) and started; a player of an over-the-board table sees
its referee's name and follows the link to its live read-only Davtar. Each page at 390x844 and
1366x768, in English and Armenian, saved under ``.artifacts/screens``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx

from .conftest import LiveServer
from .test_events import SCREENS, account, fits, post, shot, signed_in
from .test_scoresheet import click

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "players.md"
#: Everything a page shows in words: its text, and what its empty fields say.
SHOWN = """() => document.body.innerText + " " +
  [...document.querySelectorAll("[placeholder]")].map((e) => e.placeholder).join(" ")"""


def walkthrough_words() -> set[str]:
    """The page's words that docs/players.md's organizer's night names: its **bold** words and
    its screenshots' captions' "quoted" ones."""
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index("### An organizer's night")
    part = text[start : text.index("\n#", start + 1)]  # up to the next heading
    return set(re.findall(r"\*\*([^*]+)\*\*", part)) | set(re.findall(r'"([^"]+)"', part))


def event_json(server: LiveServer, who: dict[str, Any], event: str) -> Any:
    headers = {"Authorization": f"Bearer {who['token']}"}
    answer = httpx.get(f"{server.url}/api/events/{event}", headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_an_organizer_makes_edits_enters_pairs_and_runs_a_published_round(
    browser: Any, server: LiveServer
) -> None:
    """Item 1: the form sends every setting (ruleset, an option, turn timer and forfeit time, a
    round's own timer, public) and changes one later; pairs entered by username and an expert
    bot. Item 2: "Pair round 1" publishes the pairings without opening a table; a swap moves the
    bye and is listed; "Start" opens the table."""
    organizer = account(server, "organizer")
    players = {name: account(server, name) for name in ("ani", "gohar", "davit", "emma")}
    page = signed_in(browser, server, organizer, 390, 844)
    page.goto(f"{server.url}/events")
    page.wait_for_selector("[data-testid=create-event]")
    page.fill("[data-testid=event-name]", "Friday Swiss")
    page.fill("[data-testid=event-rounds]", "3")
    page.select_option("[data-testid=event-ruleset]", "classic")
    page.fill("[data-testid=event-opt-target]", "151")
    page.select_option("[data-testid=event-timer]", "30")
    page.select_option("[data-testid=event-forfeit]", "600")
    page.uncheck("[data-testid=event-public]")
    click(page, "event-each-round")
    page.select_option("[data-testid=event-timer-2]", "60")
    seen = [page.evaluate(SHOWN)]
    form = page.locator("section.panel:has([data-testid=create-event])")
    form.screenshot(path=str(SCREENS / "doc-new-event.png"))  # docs/images/desk-new-event.png
    click(page, "create-event")
    page.wait_for_selector("[data-testid=organizer-desk]")
    event = page.url.rsplit("/", 1)[1]
    data = event_json(server, organizer, event)
    settings = data["settings"]
    assert (settings["ruleset"], settings["options"]["target"], settings["rounds"]) == ("classic", 151, 3)
    assert (settings["timer"], settings["forfeit_seconds"], data["public"]) == (30, 600, False)
    assert settings["rounds_settings"] == {"2": {"timer": 60}}

    # an edit: the forfeit time, saved alone
    page.click("[data-testid=edit-settings] summary")
    seen.append(page.evaluate(SHOWN))
    page.select_option("[data-testid=edit-forfeit]", "300")
    click(page, "save-settings")
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=edit-settings]').open", timeout=10_000
    )
    assert event_json(server, organizer, event)["settings"]["forfeit_seconds"] == 300

    # two pairs by username and a bot of the strongest level
    for a, b in (("ani", "gohar"), ("davit", "emma")):
        page.fill("[data-testid=entrant-1]", a)
        page.fill("[data-testid=entrant-2]", b)
        click(page, "enter-others")
        page.wait_for_selector(f'[data-testid=entries] li:has-text("{a} & {b}")')
    page.select_option("[data-testid=bot-level]", "expert")
    click(page, "add-bot")
    page.wait_for_selector("[data-testid=entries] li:nth-child(3)")
    for entry in event_json(server, organizer, event)["entries"]:  # each player confirms his entry
        for m in entry["members"]:
            if not m["confirmed"]:
                name = next(n for n, p in players.items() if p["id"] == m["player"])
                post(server, players[name], f"/api/events/{event}/entries/{entry['id']}/confirm")

    # the round is published: no table opens until "Start"
    click(page, "pair-round")
    page.wait_for_selector("[data-testid=desk-1]")
    assert "pairings published" in page.inner_text("[data-testid=round-status-1]")
    first = event_json(server, organizer, event)["rounds"][0]
    assert [t["table"] for t in first["tables"]] == [None]
    bye, seated = first["byes"][0], first["tables"][0]["entries"][0]
    page.select_option("[data-testid=swap-a-1]", str(bye))
    page.select_option("[data-testid=swap-b-1]", str(seated))
    click(page, "swap-1")
    page.wait_for_selector("[data-testid=changes-1] li")
    seen.append(page.evaluate(SHOWN))
    page.locator("[data-testid=round-1]").screenshot(path=str(SCREENS / "doc-published.png"))
    assert "organizer" in page.inner_text("[data-testid=changes-1]")
    assert event_json(server, organizer, event)["rounds"][0]["byes"] == [seated]
    assert fits(page), "the desk is wider than a phone"
    shot(page, "desk-published")
    click(page, "start-1")
    page.wait_for_selector('[data-testid=round-status-1]:has-text("being played")')
    assert event_json(server, organizer, event)["rounds"][0]["tables"][0]["table"]
    seen.append(page.evaluate(SHOWN))  # the late entry's form
    shown = " ".join(" ".join(seen).split())
    missing = sorted(w for w in walkthrough_words() if " ".join(w.split()) not in shown)
    assert not missing, f"docs/players.md names words the page does not show: {missing}"
    page.set_viewport_size({"width": 1366, "height": 768})
    shot(page, "desk-started")
    assert not page.errors


def test_a_player_sees_his_referee_and_the_live_davtar_of_his_table(browser: Any, server: LiveServer) -> None:
    """Item 7: an over-the-board table names its referee on the event page, and its players get
    a link to the table's live read-only Davtar (in Armenian too)."""
    organizer, arbiter = account(server, "organizer"), account(server, "arbiter")
    ani = account(server, "ani")
    for name in ("gohar", "davit", "emma"):
        account(server, name)
    event = post(server, organizer, "/api/events", {"name": "Club night", "online": False, "rounds": 1})["id"]
    post(server, organizer, f"/api/events/{event}/entries", {"usernames": ["ani", "gohar"]})
    post(server, organizer, f"/api/events/{event}/entries", {"usernames": ["davit", "emma"]})
    post(server, organizer, f"/api/events/{event}/referees", {"username": "arbiter"})
    post(server, organizer, f"/api/events/{event}/rounds")
    table = post(server, organizer, f"/api/events/{event}/rounds/1/start")["rounds"][0]["tables"][0]
    assert table["referee"] == arbiter["id"]
    for width, height, locale in ((390, 844, "hy-AM"), (1366, 768, "en-US")):
        mine = signed_in(browser, server, ani, width, height, locale)
        mine.goto(f"{server.url}/event/{event}")
        mine.wait_for_selector(f"[data-testid=davtar-{table['id']}]")
        assert "arbiter" in mine.inner_text(f"[data-testid=referee-of-{table['id']}]")
        assert fits(mine), f"the event page is wider than {width} px"
        shot(mine, f"desk-player-{locale[:2]}")
    click(mine, f"davtar-{table['id']}")
    mine.wait_for_selector("[data-testid=sheet-table]")
    assert "/scoresheet/shared/" in mine.url
    assert mine.locator("[data-testid=submit-deal]").count() == 0  # read only
    assert not mine.errors


def test_the_desk_keeps_two_pairs_apart_grants_a_requested_bye_and_takes_a_late_entry(
    browser: Any, server: LiveServer
) -> None:
    """Items 1 and 2 from the page (Russian, a phone): a referee and an organizer added by
    username, two pairs kept apart, a pair's requested bye for round 1; the published round
    honours both; a late pair entered with its starting score once round 1 has started."""
    organizer = account(server, "organizer")
    people = ("arbiter", "helper", "ani", "gohar", "davit", "emma", "lilit", "aram")
    for name in (*people, "nare", "tigran", "anna", "hayk"):
        account(server, name)
    event = post(server, organizer, "/api/events", {"name": "Club Swiss", "rounds": 3})["id"]
    entries = [
        post(server, organizer, f"/api/events/{event}/entries", {"usernames": pair})["entries"][-1]["id"]
        for pair in (["ani", "gohar"], ["davit", "emma"], ["lilit", "aram"], ["nare", "tigran"])
    ]
    page = signed_in(browser, server, organizer, 390, 844, locale="ru-RU")
    page.goto(f"{server.url}/event/{event}")
    page.wait_for_selector("[data-testid=organizer-desk]")
    page.fill("[data-testid=add-referee-name]", "arbiter")
    click(page, "add-referee")
    page.wait_for_selector('[data-testid=referees-list]:has-text("arbiter")')
    page.fill("[data-testid=add-organizer-name]", "helper")
    click(page, "add-organizer")
    page.wait_for_selector('[data-testid=organizers-list]:has-text("organizer, helper")')
    page.select_option("[data-testid=forbid-a]", str(entries[0]))
    page.select_option("[data-testid=forbid-b]", str(entries[1]))
    click(page, "forbid")
    page.wait_for_selector("[data-testid=forbidden] li")
    page.select_option("[data-testid=bye-entry]", str(entries[2]))
    page.fill("[data-testid=bye-round]", "1")
    click(page, "request-bye")
    page.wait_for_selector("[data-testid=requested-byes] li")
    assert fits(page), "the organizer's desk is wider than a phone"
    shot(page, "desk-constraints-ru")
    data = event_json(server, organizer, event)
    assert len(data["organizers"]) == 2 and data["forbidden"] == [[entries[0], entries[1]]]

    click(page, "pair-round")
    page.wait_for_selector("[data-testid=desk-1]")
    first = event_json(server, organizer, event)["rounds"][0]
    assert first["absent"] == [entries[2]]
    assert sorted(first["tables"][0]["entries"]) != sorted(entries[:2])
    assert "lilit & aram" in page.inner_text("[data-testid=absent-1]")
    click(page, "start-1")
    # the late-entry fields are there since round 1 was paired: wait for the start's own redraw,
    # which replaces them, before typing (else the names typed are lost with the old fields)
    page.wait_for_selector("[data-testid=round-status-1].playing")
    page.fill("[data-testid=entrant-1]", "anna")
    page.fill("[data-testid=entrant-2]", "hayk")
    page.fill("[data-testid=late-score]", "1")
    click(page, "enter-others")
    page.wait_for_selector('[data-testid=entries] li:has-text("anna & hayk")')
    late = event_json(server, organizer, event)["entries"][-1]
    assert (late["late"], late["late_score"]) == (True, 1)
    assert not page.errors
