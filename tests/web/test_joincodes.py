"""A join code signs a person in from its link (issue 41 item 10; docs/players.md, *Club nights*):
the page shows the code's places and end, takes a name, and lands on the table as that person."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from .conftest import LiveServer
from .conftest import post_json as post


def test_a_join_codes_link_signs_a_person_in_and_opens_the_table(page: Any, server: LiveServer) -> None:
    host = post(server, "/api/players", {"name": "Host"})
    table = post(server, "/api/tables", {"game": "bazar-blot"}, host["token"])["id"]
    code = post(server, "/api/joincodes", {"table": table, "uses": 30}, host["token"])["code"]
    page.goto(f"{server.url}/join/{code}")
    page.wait_for_selector("[data-testid=join-name]")
    assert page.inner_text("[data-testid=join-left]").startswith("30 places left")
    assert page.evaluate("() => localStorage.getItem('blot.token')") is None  # nobody made yet
    page.fill("[data-testid=join-name]", "Anahit")
    page.click("[data-testid=join-submit]")
    page.wait_for_url(f"{server.url}/table/{table}")
    token = page.evaluate("() => localStorage.getItem('blot.token')")
    with urllib.request.urlopen(
        urllib.request.Request(server.url + "/api/me", headers={"Authorization": f"Bearer {token}"}),
        timeout=10,
    ) as answer:
        assert json.loads(answer.read())["name"] == "Anahit"
    # a wrong code says so in one sentence
    page.goto(f"{server.url}/join/ZZZZZZZZ")
    page.wait_for_selector("[data-testid=join-error]:not([hidden])")
    assert "No such join code" in page.inner_text("[data-testid=join-error]")
