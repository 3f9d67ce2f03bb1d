"""Issue 11, item 7 in the browser: the pages are sent with a strict Content-Security-Policy (no
inline script or style) and still work: the lobby and a table at a phone's and a laptop's size,
with no policy violation reported by the browser. ``BLOT_SCREENSHOTS=DIR`` keeps the screenshots
for a person to look at."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from .conftest import LiveServer
from .test_browser import new_table

SIZES = [(390, 844), (1366, 768)]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_item7_lobby_and_table_work_under_the_strict_csp(
    browser: Any, server: LiveServer, tmp_path: Path, width: int, height: int
) -> None:
    shots = Path(os.environ.get("BLOT_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(45_000)  # a busy 2-core machine can be slow; passing tests do not wait
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type in ("error", "warning") else None)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        response = page.goto(server.url + "/")
        assert response is not None
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_selector("[data-testid=new-table]:not([disabled])")
        page.screenshot(path=str(shots / f"lobby-{width}x{height}.png"), full_page=True)
        new_table(page, server, "bazar-blot")
        page.wait_for_selector("[data-card]")
        page.screenshot(path=str(shots / f"table-{width}x{height}.png"), full_page=True)
        # the page's own script ran (it drew the cards) and its stylesheet applied
        assert page.eval_on_selector("header.top", "e => getComputedStyle(e).display") != "inline"
    finally:
        context.close()
    violations = [m for m in console if "Content Security Policy" in m or "Refused to" in m]
    assert not violations, violations
    assert not errors, errors
