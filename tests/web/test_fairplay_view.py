"""The Court of Conduct's fair-play view on the courts page (issue 43 item 4, L-9): a member
chooses a pair and its last deals, sees the figures (deals, accuracies, score, p-value) with the
warning of docs/fairplay.md and the weighty deals' replay links, and opens a case from them; a
player who is no member sees no trace of it. At 390x844 (Armenian) and 1366x768, saved under
``.artifacts/screens``."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from server.test_fairplay_view import seed_game

from .conftest import LiveServer
from .test_events import account, fits, shot, signed_in


def test_issue43_a_member_sees_a_pairs_figures_and_opens_a_case(browser: Any, tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "blot.sqlite3", learn=True)  # a game without analysis is queued
    try:
        member_view(browser, server)
    finally:
        server.stop()


def member_view(browser: Any, server: LiveServer) -> None:
    sage, ani, gohar = account(server, "sage"), account(server, "ani"), account(server, "gohar")
    from blot.store.courts import add_court_member

    server.app.state.hub.store.write(lambda c: add_court_member(c, sage["id"], "conduct"))
    seated = {s: SimpleNamespace(id=a["id"], username=a["username"]) for s, a in ((0, ani), (2, gohar))}
    seed_game(server, "bazar-blot", seated, 1)

    laptop = signed_in(browser, server, sage, 1366, 768)
    laptop.goto(f"{server.url}/courts")
    laptop.fill("[data-testid=fp-accounts]", "ani, gohar")
    laptop.click("[data-testid=fp-compute]")
    laptop.wait_for_selector("[data-testid=fp-table]")
    seen = laptop.inner_text("[data-testid=fairplay]")
    assert "ani & gohar" in seen and "p-value" in seen and "does not prove" in seen
    assert "1 of these games had no analysis" in laptop.inner_text("[data-testid=fp-queued]")
    link = laptop.get_attribute("[data-testid=fp-weighty] a", "href")
    assert link is not None and link.startswith("/replay/fp00000001?deal=") and link.endswith("&analysis=1")
    shot(laptop, "fairplay")
    laptop.click("[data-testid=fp-open-case]")
    laptop.wait_for_selector("[data-testid=fp-case-opened]")
    laptop.wait_for_selector("[data-testid=open-cases] >> text=ani & gohar")
    assert not laptop.errors, laptop.errors

    phone = signed_in(browser, server, sage, 390, 844, locale="hy-AM")
    phone.goto(f"{server.url}/courts")
    phone.fill("[data-testid=fp-accounts]", "ani, gohar")
    phone.click("[data-testid=fp-compute]")
    phone.wait_for_selector("[data-testid=fp-table]")
    assert fits(phone), "the fair-play view is wider than a phone"
    shot(phone, "fairplay")

    player = signed_in(browser, server, ani, 390, 844)
    player.goto(f"{server.url}/courts")
    player.wait_for_selector("[data-testid=no-court]")
    assert player.query_selector("[data-testid=fairplay]") is None
