"""docs/rules.md and docs/format.md are the project's own copies of the shared specification,
RULES.md and FORMAT.md in ``../shared`` next to the repository, and must stay identical to them.

The repository's checkout is this one or, in a git worktree, the main checkout the worktree
belongs to. The test is skipped only when no ``shared`` folder is beside it, which is the case
in CI's clean clone: there the copies in docs/ are all there is.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _shared() -> Path | None:
    """``../shared`` beside this checkout or beside the main checkout of its repository."""
    checkouts = [ROOT]
    try:
        common = subprocess.run(
            ["git", "rev-parse", "--path-format=absolute", "--git-common-dir"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        checkouts.append(Path(common).parent)
    except (OSError, subprocess.CalledProcessError):
        pass  # no git, or not a git checkout: only the folder beside this one counts
    for checkout in checkouts:
        if (checkout.parent / "shared").is_dir():
            return checkout.parent / "shared"
    return None


SHARED = _shared()


@pytest.mark.skipif(SHARED is None, reason="no ../shared beside the repository (a clean clone)")
@pytest.mark.parametrize(("copy", "source"), [("rules.md", "RULES.md"), ("format.md", "FORMAT.md")])
def test_docs_copy_is_identical_to_the_shared_specification(copy: str, source: str) -> None:
    assert SHARED is not None
    theirs = (SHARED / source).read_text(encoding="utf-8")
    ours = (ROOT / "docs" / copy).read_text(encoding="utf-8")
    assert ours == theirs, f"docs/{copy} differs from {SHARED / source}: copy it again"
