"""The test tiers (issue 39 item 5): what tests/conftest.py marks slow is what it says, and each
folder and module it names exists (a renamed module would otherwise fall into the fast tier)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from conftest import SLOW_FOLDERS, SLOW_MODULES, TESTS, is_slow

ROOT = TESTS.parent


def item(path: Path, **params: Any) -> Any:
    """A stand-in for a collected test: its file and, when parametrized, its parameters."""
    return SimpleNamespace(path=path, callspec=SimpleNamespace(params=params) if params else None)


def test_every_slow_folder_and_module_named_exists() -> None:
    assert all((TESTS / folder).is_dir() for folder in SLOW_FOLDERS)
    assert [m for m in SLOW_MODULES if not (TESTS / m).is_file()] == []


@pytest.mark.parametrize(
    ("path", "params", "slow"),
    [
        ("tests/web/test_table.py", {}, True),  # a browser
        ("tests/cli/test_cli_bazar.py", {}, True),  # python -m blot in a process
        ("tests/server/test_cluster.py", {}, True),  # processes, redis-servers, PostgreSQL
        ("tests/server/test_fair_bars.py", {"db_url": "postgresql"}, True),  # PostgreSQL
        ("tests/server/test_fair_bars.py", {"db_url": "sqlite"}, False),
        ("tests/server/test_chat.py", {}, False),
        ("tests/bazar/test_rules.py", {}, False),
        ("src/blot/cards.py", {}, False),  # the docstring examples
    ],
)
def test_the_slow_tier_is_browsers_processes_and_postgresql(
    path: str, params: dict[str, Any], slow: bool
) -> None:
    assert is_slow(item(ROOT / path, **params)) is slow


def test_the_slow_marker_is_registered(pytestconfig: pytest.Config) -> None:
    assert any(line.startswith("slow:") for line in pytestconfig.getini("markers"))
