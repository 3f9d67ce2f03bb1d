"""The contract suite runs on every game of the registry and on the tests' toy game
(tests/toygame), which is in the registry while this folder's tests run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from blot.games import SPECS
from toygame import registered


@pytest.fixture(autouse=True, scope="module")
def toy_game() -> Iterator[None]:
    """Toy Duel registered for each module of the suite (and taken out again after it)."""
    if "toy-duel" in SPECS:
        yield
        return
    with registered():
        yield
