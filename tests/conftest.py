"""The test tiers (issue 39 item 5): ``python -m pytest -m "not slow"`` is the fast tier a
contributor runs after each change; ``python -m pytest`` (and ``.ci/run``) runs everything.

A test is ``slow`` when it needs something outside this Python process: a browser (tests/web),
node (tests/js), other processes (the cluster's ``blot serve`` processes and redis-servers, the
CLI run as ``python -m blot``, bot programs, analyses, the README's and benchmarks' commands), or
a PostgreSQL server (tests/server/test_postgres.py and every test parametrized ``postgresql``).
Marking here, by folder and module, keeps the list in one place: a new test in one of these
places is slow without being told."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

#: Folders whose every test is slow.
SLOW_FOLDERS = ("web", "js", "cli", "protocol")
#: Modules whose every test is slow.
SLOW_MODULES = (
    "server/test_cluster.py",
    "server/test_postgres.py",
    "server/test_rolling_restart.py",
    "server/test_bot_programs.py",
    "server/test_analysis.py",  # each analysis runs in a process of its own
    "arena/test_arena.py",
    "analysis/test_analysis.py",
    "fuzz/test_cli.py",
    "scoresheet/test_terminal.py",
    "test_readme.py",
    "test_benchmark_scripts.py",
    "test_spec_docs.py",
)


def is_slow(item: pytest.Item) -> bool:
    """Whether ``item`` belongs to the slow tier (see the module's docstring)."""
    try:
        where = Path(str(item.path)).resolve().relative_to(TESTS).as_posix()
    except ValueError:  # the docstring examples of src/blot: fast
        return False
    if where.split("/", 1)[0] in SLOW_FOLDERS or where in SLOW_MODULES:
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and "postgresql" in callspec.params.values()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow = pytest.mark.slow
    for item in items:
        if is_slow(item):
            item.add_marker(slow)
