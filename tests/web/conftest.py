"""Browser tests: a real server (uvicorn in a thread, its own SQLite file) and Debian's chromium
driven by Playwright (no browser download: ``/usr/bin/chromium``, installed by ``.ci/run``)."""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.live import LiveServer

__all__ = ["LiveServer"]  # the web tests' server, from tests/server/live.py

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

if not CHROMIUM.exists():
    if os.environ.get("BLOT_REQUIRE_BROWSER"):  # set by .ci/run: there, a missing browser is a failure
        raise RuntimeError("Debian's chromium is not installed at /usr/bin/chromium")
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)


#: The trick pause the lobby's form sends unless a player chooses another (web/app.js).
PAGE_TRICK_PAUSE = 1


def quick_tricks(context: Any) -> None:
    """Tables made through this context's lobby keep a complete trick on the table for 0 s (as
    the tables :class:`LiveServer` makes by itself do) unless the test chose a pause in the
    lobby: the page's default second per trick cost every 3-5-8 deal of a test 16 s of bots
    waiting. The tests of what a held trick looks like choose one (test_cardroom.py)."""

    def rewrite(route: Any) -> None:
        request = route.request
        body = request.post_data_json if request.method == "POST" else None
        if isinstance(body, dict) and body.get("trick_pause") == PAGE_TRICK_PAUSE:
            route.continue_(post_data=json.dumps({**body, "trick_pause": 0}))
        else:
            route.continue_()

    context.route("**/api/tables", rewrite)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "blot.sqlite3")
    yield live
    live.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One chromium for every browser test of a process (each test opens a context of its own,
    as fresh as a new browser): a launch costs seconds on a busy machine."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    quick_tricks(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(45_000)  # a busy 2-core machine can be slow; passing tests do not wait
    yield page
    context.close()
    assert not errors, errors


def post_json(
    server: LiveServer, path: str, body: dict[str, Any], token: str | None = None
) -> dict[str, Any]:
    """A JSON POST to the live server (as ``token``, when given): its answer; an error raises."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(server.url + path, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


def sit_as(page: Any, seat: int, name: str = "Boris") -> None:
    """Take ``seat`` at the table on the page; a browser with no player yet is asked for a name
    first (issue 41 item 1: no more "Player 304"), which this types."""
    page.click(f"[data-testid=sit-{seat}]")
    if page.locator("[data-testid=arrival-name]").count():
        page.fill("[data-testid=arrival-name]", name)
        page.click("[data-testid=arrival-sit]")


def lobby_click(page: Any, testid: str, name: str = "Ani") -> None:
    """Click a lobby button that makes, finds or opens a table (``play-bots``, ``new-table``,
    ``find-game``, ``daily-play``); a browser with no player yet is asked for a name first (issue
    41 item 1: the lobby makes no "Player N" either), which this types."""
    page.click(f"[data-testid={testid}]")
    if page.locator("[data-testid=arrival-name]").count():
        page.fill("[data-testid=arrival-name]", name)
        page.click("[data-testid=arrival-sit]")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed browser test says where its server's thread was stuck, if it was (a page that
    waited in vain: was it the server, or the browser?)."""
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    for name, live in getattr(item, "funcargs", {}).items():  # ``server``, ``slow_server``, …
        if isinstance(live, LiveServer):
            stalls = "\n".join(live.stalls) or "the server's event loop never stopped for 3 s or more"
            report.sections.append((f"the live server's stalls ({name})", stalls))
            report.sections.append((f"the live server's tables ({name})", live.tables()))
