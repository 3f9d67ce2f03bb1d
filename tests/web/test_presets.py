"""Issue 39 item 4 on the page: a ruleset added as one preset (its label in each language in the
preset) is offered by the lobby and the score sheet page under its label, in the reader's
language, with no word of the page's added for it; screenshots at 390x844 and 1366x768."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from blot.bazar.rules import PRESETS

from .conftest import LiveServer
from .test_table import close, open_page, screen

LABELS = {"hy": "Ընտանեկան", "ru": "Семейные", "bg": "Семейни", "en": "Family"}


@pytest.fixture
def family_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    preset = dataclasses.replace(PRESETS["league"], four_sevens_void=False, labels=MappingProxyType(LABELS))
    monkeypatch.setitem(PRESETS, "family", preset)
    live = LiveServer(tmp_path / "blot.sqlite3")
    yield live
    live.stop()


@pytest.mark.parametrize(("size", "locale", "lang"), [("phone", "hy-AM", "hy"), ("laptop", "en-US", "en")])
def test_the_lobby_and_the_score_sheet_offer_a_new_preset_by_its_label(
    browser: Any, family_server: LiveServer, size: str, locale: str, lang: str
) -> None:
    page = open_page(browser, size, locale)
    try:
        page.goto(family_server.url + "/")
        page.select_option("[data-testid=game]", "bazar-blot")
        option = page.locator("[data-testid=ruleset] option[value=family]")
        assert option.inner_text() == LABELS[lang]
        page.select_option("[data-testid=ruleset]", "family")
        screen(page, f"preset-lobby-{lang}")
        page.goto(family_server.url + "/scoresheet")
        page.wait_for_selector("[data-testid=sheet-ruleset] option[value=family]", state="attached")
        labels = page.locator("[data-testid=sheet-ruleset] option").all_inner_texts()
        assert labels[-1] == LABELS[lang] and len(labels) == 3
        page.select_option("[data-testid=sheet-ruleset]", "family")
        page.click("[data-testid=create-sheet]")
        page.wait_for_selector("[data-testid=sheet-live]")
        assert LABELS[lang] in page.locator("main").inner_text()
        screen(page, f"preset-sheet-{lang}")
    finally:
        close(page)
