"""Issue 41 items 4 and 5 in a real browser: *Notify me* after a game subscribes this browser
through the page's own call, and a Web Push message of the server then reaches the page's
service worker and is shown as a notification with the page closed; the table's sounds are made
in the page (Web Audio) unless muted, and the mute is one tap, remembered."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.push_service import CARD, PushService

from .conftest import LiveServer
from .test_table import close, open_page, play_bots


@pytest.fixture
def service() -> Iterator[PushService]:
    found = PushService()
    yield found
    found.close()


#: The page's push service in headless Chromium is none: ``PushManager``'s two calls the page makes
#: answer a subscription of the test's push service instead (its endpoint and the browser keys the
#: test holds), as a real ``PushSubscription`` would; the key the page subscribed with is kept.
FAKE_PUSH_MANAGER = """
(() => {
  const json = %s;
  let current = null;
  const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf)))
    .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  PushManager.prototype.getSubscription = async function () { return current; };
  PushManager.prototype.subscribe = async function (options) {
    self.__pushAsked = { userVisibleOnly: options.userVisibleOnly, key: b64(options.applicationServerKey) };
    current = {
      endpoint: json.endpoint, expirationTime: null, options,
      toJSON: () => ({ endpoint: json.endpoint, expirationTime: null, keys: json.keys }),
      unsubscribe: async () => { current = null; return true; },
    };
    return current;
  };
})();
"""


def shown_with_no_tab_open(
    page: Any, cdp: Any, registration: str, origin: str, data: str
) -> list[dict[str, Any]]:
    """Hand ``data`` to the service worker as its push service would (Chromium's DevTools
    protocol stands in for the push service's connection, which headless Chromium has none of)
    while no tab of blot is open; answers the notifications it shows, read from a page of blot."""
    page.goto("about:blank")  # no tab of blot open: the worker alone shows it
    cdp.send(
        "ServiceWorker.deliverPushMessage", {"origin": origin, "registrationId": registration, "data": data}
    )
    page.goto(origin + "/static/offline.html")
    shown: list[dict[str, Any]] = []
    deadline = time.monotonic() + 10
    while not shown and time.monotonic() < deadline:
        shown = page.evaluate(
            """async () => (await (await navigator.serviceWorker.ready).getNotifications())
                .map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}))"""
        )
    return shown


def test_notify_me_after_a_game_subscribes_through_the_page(
    browser: Any, tmp_path: Path, service: PushService
) -> None:
    """Issue 41 item 4, the page's own path: Ani plays against bots, ends the game (the only
    person seated, so it ends once she confirms), and taps *Notify me* on the game-over screen.
    The page subscribes with the server's VAPID key and hands the subscription to the server;
    when her turn comes at a table she is not at, the server's message reaches her push service
    (the test's own: it checks the signature and decrypts the message as the browser would, and
    finds no card in it), which delivers it to her service worker: it shows it with every tab of
    blot closed. (A tap on it: tests/js/sw_click.test.mjs.)"""
    server = LiveServer(tmp_path / "blot.sqlite3", push_services=(service.origin,), grace=600.0)
    subscription = service.subscription("ani")
    page = open_page(browser, "phone")
    context = page.context
    try:
        context.grant_permissions(["notifications"], origin=server.url)
        context.add_init_script(FAKE_PUSH_MANAGER % json.dumps(subscription))
        cdp = context.new_cdp_session(page)
        registrations: list[str] = []
        cdp.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda e: registrations.extend(
                r["registrationId"] for r in e["registrations"] if not r["isDeleted"]
            ),
        )
        cdp.send("ServiceWorker.enable")
        play_bots(page, server, "bazar-blot")
        page.click("[data-testid=table-menu] summary")
        page.click("[data-testid=propose-end]")
        page.click("[data-testid=confirm-end]")
        page.click("[data-testid=push-yes]")
        page.wait_for_selector("[data-testid=push-offer]", state="detached")
        http = httpx.Client(base_url=server.url)
        key = http.get("/api/push/key").json()["key"]
        assert page.evaluate("self.__pushAsked") == {"userVisibleOnly": True, "key": key}
        token = page.evaluate("localStorage.getItem('blot.token')")
        headers = {"Authorization": f"Bearer {token}"}
        assert http.get("/api/push/settings", headers=headers).json()["subscriptions"] == 1
        assert service.received == []
        table = http.post("/api/tables", json={"game": "bazar-blot"}, headers=headers).json()["id"]
        http.post(f"/api/tables/{table}/fill-bots", json={"level": "basic"}, headers=headers)
        http.post(f"/api/tables/{table}/start", json={}, headers=headers)
        [got] = service.wait(1)  # her turn at a table she has no socket at
        assert got.path == "/push/ani" and got.key == key
        assert set(got.message) == {"kind", "title", "body", "url", "tag"}
        assert not CARD.search(got.plaintext.decode())
        shown = shown_with_no_tab_open(page, cdp, registrations[-1], server.url, got.plaintext.decode())
        assert shown == [
            {
                "title": "Your turn",
                "body": "A table you left is waiting for your move.",
                "tag": f"turn-{table}",
                "url": f"/table/{table}",
            }
        ]
    finally:
        close(page)
        server.stop()


def sound_stats(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("import('/static/sound.js').then(m => m.stats())")
    return result


@pytest.mark.parametrize("muted", [False, True])
def test_the_table_sounds_unless_muted(browser: Any, tmp_path: Path, muted: bool) -> None:
    """Unmuted (the default) a deal's shuffle makes sounds in an AudioContext that runs (the
    click on *Play against bots* was the player's touch); muted, the page makes no AudioContext
    at all. The speaker in the table's bar mutes in one tap, and the choice outlives a reload."""
    server = LiveServer(tmp_path / "blot.sqlite3")
    page = open_page(browser, "phone")
    try:
        if muted:
            page.add_init_script("localStorage.setItem('blot.sound.muted', '1')")
        play_bots(page, server, "bazar-blot")  # the deal is on the table: its shuffle was heard
        page.wait_for_selector("[data-testid=sound-toggle]")
        if muted:
            assert sound_stats(page) == {"played": 0, "state": "none"}
            assert page.get_attribute("[data-testid=sound-toggle]", "aria-pressed") == "true"
            return
        deadline = time.monotonic() + 10
        while (stats := sound_stats(page))["state"] != "running" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert stats["played"] >= 1 and stats["state"] == "running", stats
        page.click("[data-testid=sound-toggle]")
        assert page.get_attribute("[data-testid=sound-toggle]", "aria-pressed") == "true"
        page.reload()
        page.wait_for_selector("[data-testid=sound-toggle]")
        assert page.get_attribute("[data-testid=sound-toggle]", "aria-pressed") == "true"
        assert page.evaluate("localStorage.getItem('blot.sound.muted')") == "1"
    finally:
        close(page)
        server.stop()
