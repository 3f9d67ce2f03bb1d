"""Bot programs write their standard error to a log of the test's own (never the user's)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def bot_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "bots.log"
    monkeypatch.setenv("BLOT_BOT_LOG", str(path))
    monkeypatch.delenv("BLOT_BOT_TIME_MS", raising=False)
    yield path
