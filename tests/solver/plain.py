"""Run a script in a fresh interpreter, compiled or as plain Python (``BLOT_NO_JIT``), and read
the JSON it prints: the play-out tests compare a seeded run both ways."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def run_script(script: str, no_jit: bool) -> list[object]:
    """``script`` (``{tests}`` stands for the tests folder, for its imports) run once; its JSON."""
    env = dict(os.environ)
    env.pop("BLOT_NO_JIT", None)
    if no_jit:
        env["BLOT_NO_JIT"] = "1"
    tests = os.path.dirname(os.path.dirname(__file__))
    out = subprocess.run(
        [sys.executable, "-c", script.format(tests=tests)], env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)  # type: ignore[no-any-return]
