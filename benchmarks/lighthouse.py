"""Lighthouse on the page as a phone meets it (issue 26 item 6): the lobby, and a table in play
seen by its player (a hand, the bidding), each audited for performance, accessibility, best
practices and SEO with Lighthouse's mobile settings (a mid-range phone, a slow 4G network).

A real server (uvicorn in a thread, SQLite in a temporary folder) and Debian's chromium, started
with a debugging port so that the player's token is put in the browser's storage before
Lighthouse (npm ``lighthouse``, run by ``npx``; it is fetched from the npm registry the first time)
audits the page in that same browser. Prints each page's four scores and where a score is below
1, the audits that cost it.

    python benchmarks/lighthouse.py            # needs node and npx; CHROME_PATH=/usr/bin/chromium
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_client import Server

CHROMIUM = "/usr/bin/chromium"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
#: What issue 26 asks of both pages.
WANTED = {"performance": 0.9, "accessibility": 1.0, "best-practices": 1.0, "seo": 0.9}


def _free_port() -> int:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = int(probe.getsockname()[1])
    probe.close()
    return port


def _table_in_play(url: str, token: str) -> str:
    """A Bazar Blot table against bots, started, where the player is to bid."""
    import httpx

    headers = {"Authorization": f"Bearer {token}"}
    table = httpx.post(url + "/api/tables", json={"game": "bazar-blot"}, headers=headers).json()["id"]
    httpx.post(f"{url}/api/tables/{table}/fill-bots", json={"level": "basic"}, headers=headers)
    httpx.post(f"{url}/api/tables/{table}/start", headers=headers)
    return f"{url}/table/{table}"


def audit(page: str, port: int, out: Path) -> dict[str, Any]:
    """Lighthouse's JSON report of ``page`` in the browser listening on ``port``."""
    npx = shutil.which("npx")
    if npx is None:
        raise SystemExit("npx (node) is needed to run lighthouse")
    subprocess.run(
        [
            npx,
            "--yes",
            "lighthouse@12",
            page,
            f"--port={port}",
            "--disable-storage-reset",
            f"--only-categories={','.join(CATEGORIES)}",
            "--output=json",
            f"--output-path={out}",
            "--quiet",
        ],
        check=True,
        env={**os.environ, "CHROME_PATH": CHROMIUM},
        timeout=300,
    )
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def scores(report: dict[str, Any]) -> dict[str, float]:
    return {c: float(report["categories"][c]["score"]) for c in CATEGORIES}


def costly(report: dict[str, Any], category: str) -> list[str]:
    """The audits of a category that did not pass, as ``id (score)``."""
    audits = report["audits"]
    out = []
    for ref in report["categories"][category]["auditRefs"]:
        a = audits[ref["id"]]
        if ref["weight"] > 0 and a["score"] is not None and a["score"] < 1:
            out.append(f"{ref['id']} ({a['score']:.2f})")
    return out


def run() -> dict[str, dict[str, Any]]:
    """Both pages' reports."""
    import httpx
    from playwright.sync_api import sync_playwright

    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "blot.sqlite3", bot_delay=0.8, trick_pause=1.0, deal_pause=4.0)
        chrome = subprocess.Popen(
            [
                CHROMIUM,
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                f"--remote-debugging-port={port}",
                f"--user-data-dir={tmp}/profile",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            token = httpx.post(server.url + "/api/players", json={"name": "Ani"}).json()["token"]
            table = _table_in_play(server.url, token)
            time.sleep(1)
            with sync_playwright() as p:
                browser = p.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
                page = browser.contexts[0].new_page()
                page.goto(server.url + "/replays")  # the origin's storage: the player's token
                page.evaluate(
                    "t => { localStorage.setItem('blot.token', t); localStorage.setItem('blot.lang', 'en') }",
                    token,
                )
                page.close()
                browser.close()
            return {
                name: audit(url, port, Path(tmp) / f"{name}.json")
                for name, url in (("lobby", server.url + "/"), ("table", table))
            }
        finally:
            chrome.terminate()
            chrome.wait(10)
            server.stop()


def main() -> None:
    for name, report in run().items():
        got = scores(report)
        print(f"{name}: " + ", ".join(f"{c} {got[c]:.2f}" for c in CATEGORIES))
        for c in CATEGORIES:
            if got[c] < 1:
                print(f"  {c}: {', '.join(costly(report, c)) or '-'}")


if __name__ == "__main__":
    main()
