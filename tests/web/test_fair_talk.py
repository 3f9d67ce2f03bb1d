"""Talk marks guests on the page (issue 38 item 2): a guest's message carries a guest mark in the
chat sheet and in the table's log, an account's does not; screenshots at both sizes."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import LiveServer, sit_as
from .test_cardroom import axe_clean
from .test_table import SIZES, close, open_page, screen


@pytest.mark.parametrize("size", list(SIZES))
def test_l9_a_guests_message_carries_a_guest_mark(browser: Any, server: LiveServer, size: str) -> None:
    vera, boris = open_page(browser, size), open_page(browser, size)
    try:
        made = httpx.post(
            server.url + "/api/accounts", json={"username": "Vera", "password": "correct horse battery"}
        )
        token = made.json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        table = httpx.post(server.url + "/api/tables", json={"game": "3-5-8"}, headers=headers).json()["id"]
        vera.goto(server.url + "/")
        vera.wait_for_selector("[data-testid=play-bots]:not([disabled])")  # the page made its guest
        vera.evaluate("t => localStorage.setItem('blot.token', t)", token)
        vera.goto(f"{server.url}/table/{table}")
        boris.goto(f"{server.url}/table/{table}")
        sit_as(boris, 1)
        boris.wait_for_selector("[data-testid=leave-seat]")
        vera.click("[data-testid=chat]")
        vera.wait_for_selector("[data-phrase=hello]")
        vera.click("[data-phrase=hello]")
        boris.click("[data-testid=chat]")
        boris.wait_for_selector("[data-phrase=gg]:not([disabled])")
        boris.click("[data-phrase=gg]")
        vera.wait_for_selector("[data-testid=chat-messages] li:has-text('Good game')")
        lines = vera.locator("[data-testid=chat-messages] li")
        assert lines.count() == 2
        assert lines.nth(0).locator("[data-testid=chat-guest]").count() == 0  # Vera has an account
        assert lines.nth(1).locator("[data-testid=chat-guest]").inner_text() == "guest"
        log = vera.inner_text("[data-testid=log]")
        assert "(guest): Good game" in log and "Vera (guest)" not in log
        screen(vera, "chat-guest-mark")
        axe_clean(vera, "the chat with a guest's message")
    finally:
        for page in (vera, boris):
            close(page)
