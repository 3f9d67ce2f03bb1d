"""The browser client as a player meets it: page weight, first load, and the time from a click
on a card to that card on the table.

A real server (uvicorn in a thread, SQLite in a temporary folder) and Debian's chromium
(``/usr/bin/chromium``, driven by Playwright, as in tests/web). It prints

- the bytes of every response the lobby and a table load (HTML, scripts, styles, the API's
  JSON; websocket frames not counted), as the page reads them and as they travel (compressed),
  and the largest asset;
- first load: the navigation's DOMContentLoaded and load times, and when the lobby's "New table"
  button (or a table's hand) is on the screen, over ``--loads`` cold loads (median);
- click to card-on-table: for ``--cards`` of the player's cards (two Bazar Blot deals by default)
  against bots, the time from the click (``performance.now()`` in the page just before it) to the moment
  the played card is in the trick on the table (a MutationObserver), median and max; every other
  card is timed from outside instead, as a test driver sees it (Playwright's click until the card
  is on the table), which adds the driver's own round trips.

    python benchmarks/web_client.py --cards 16 --loads 5
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]

CLICK = """async (card) => {
    const t0 = performance.now();
    const seen = () => document.querySelector(`[data-trick-card="${card}"]`);
    const done = new Promise((ok) => {
        const obs = new MutationObserver(() => {
            if (seen()) { obs.disconnect(); ok(performance.now() - t0); }
        });
        obs.observe(document.getElementById("main"), {childList: true, subtree: true, attributes: true});
    });
    document.querySelector(`[data-card="${card}"]`).click();
    return await done;
}"""


class Server:
    def __init__(self, db: Path, **settings: Any) -> None:
        import uvicorn

        from blot.server.app import create_app, uvicorn_config
        from blot.server.config import ServerConfig

        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        config = ServerConfig(db_url=f"sqlite:///{db}", seed=5, **settings)
        self.server = uvicorn.Server(
            uvicorn_config(create_app(config), config, host="127.0.0.1", port=self.port)
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.02)
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


def weigh(
    browser: Any, url: str, ready: str, state: Any
) -> tuple[int, dict[str, int], dict[str, float], int]:
    """Load ``url`` in a fresh context (empty cache, the player's token); bytes of every
    response, and the load times."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", storage_state=state)
    page = context.new_page()
    sizes: dict[str, int] = {}
    wire: dict[str, int] = {}

    def on_response(response: Any) -> None:
        with contextlib.suppress(Exception):  # a response without a body (a redirect)
            sizes[response.url.split("?")[0]] = len(response.body())
            wire[response.url.split("?")[0]] = response.request.sizes()["responseBodySize"]

    page.on("response", on_response)
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(ready, state="visible")
    shown = (time.perf_counter() - start) * 1000
    page.wait_for_load_state("networkidle")
    nav = page.evaluate(
        "() => { const n = performance.getEntriesByType('navigation')[0];"
        " return {dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd}; }"
    )
    context.close()
    times = {"dcl": nav["dcl"], "load": nav["load"], "shown": shown}
    return sum(sizes.values()), sizes, times, sum(wire.values())


def table_url(browser: Any, base: str) -> tuple[Any, Any, str]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    page = context.new_page()
    page.goto(base + "/")
    page.click("[data-testid=new-table]")
    page.wait_for_url("**/table/*")
    page.click("[data-testid=fill-bots]")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-card]")
    return context, page, page.url


def play(page: Any, cards: int) -> tuple[list[float], list[float]]:
    """Play until ``cards`` of the player's cards were timed: pass in the bidding, the best
    declarations, the first legal card."""
    times: list[float] = []
    outside: list[float] = []
    while len(times) < cards:
        page.wait_for_selector(
            "[data-call], [data-declare=best], [data-card][data-legal='true']", timeout=60_000
        )
        n = int(page.get_attribute("#main", "data-n") or 0)
        if page.locator("[data-declare=best]").count():
            page.click("[data-declare=best]")
        elif page.locator("[data-call]").count():
            calls = page.eval_on_selector_all("[data-call]", "els => els.map(e => e.dataset.call)")
            page.click(f"[data-call='{'pass' if 'pass' in calls else calls[0]}']")
        else:
            card = page.get_attribute("[data-card][data-legal='true']", "data-card")
            if len(times) % 2 == 0:
                times.append(page.evaluate(CLICK, card))
            else:  # as a test driver sees it: Playwright's click, then the card on the table
                start = time.perf_counter()
                page.click(f"[data-card='{card}']")
                page.wait_for_selector(f"[data-trick-card='{card}']", state="attached")
                outside.append((time.perf_counter() - start) * 1000)
                times.append(-1)
        page.wait_for_function("n => Number(document.getElementById('main').dataset.n) > n", arg=n)
    return [t for t in times if t >= 0], outside


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=16)
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        server = Server(Path(tmp) / "blot.sqlite3", bot_delay=0.3, trick_pause=0.3, deal_pause=1.0)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context, page, url = table_url(browser, server.url)
            for name, target, ready in (
                ("lobby", server.url + "/", "[data-testid=new-table]"),
                ("table", url, "[data-card]"),
            ):
                runs = [weigh(browser, target, ready, context.storage_state()) for _ in range(args.loads)]
                total, sizes, _, sent = runs[-1]
                big, size = max(sizes.items(), key=lambda kv: kv[1])
                largest = f"largest {big.rsplit('/', 1)[-1]} {size / 1024:.1f} KiB"
                print(
                    f"{name}: {total / 1024:.1f} KiB in {len(sizes)} responses, "
                    f"{sent / 1024:.1f} KiB over the wire ({largest})"
                )
                for key in ("dcl", "load", "shown"):
                    print(f"  {key}: median {statistics.median(r[2][key] for r in runs):.0f} ms")
            inside, outside = play(page, args.cards)
            for label, times in (("in the page", inside), ("from Playwright", outside)):
                times.sort()
                print(
                    f"click to card on the table ({label}): {len(times)} cards, "
                    f"median {statistics.median(times):.1f} ms, max {times[-1]:.1f} ms"
                )
            context.close()
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
