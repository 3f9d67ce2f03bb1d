"""The page's JavaScript unit tests (tests/js/*.test.mjs, issue 39 item 2): ``node --test`` of the
pure functions of each game's presenter and of the shared modules, run here so that the README's
test command covers them. Without node they are skipped, unless ``BLOT_REQUIRE_NODE`` is set (as
``.ci/run`` does): there a missing node is a failure."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: What .ci/run runs too, from the repository root.
COMMAND = ["node", "--import", "./tests/js/setup.mjs", "--test", "tests/js/"]


def test_the_pages_javascript_unit_tests_pass() -> None:
    if shutil.which("node") is None:
        if os.environ.get("BLOT_REQUIRE_NODE"):
            pytest.fail("node is not installed, and BLOT_REQUIRE_NODE is set")
        pytest.skip("node is not installed: the page's JavaScript unit tests cannot run")
    proc = subprocess.run(COMMAND, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    assert "# fail 0" in proc.stdout
    passed = int(proc.stdout.rsplit("# pass ", 1)[1].split()[0])
    assert passed >= 20, proc.stdout[-2000:]  # every file of tests/js ran, none was left out
