"""docs/rules.md and docs/format.md are the project's own copies of the shared specification,
RULES.md and FORMAT.md in ``../shared`` next to the repository, and must stay identical to them,
but for the interpretations blot itself makes: each is an indented paragraph under its rule that
starts ``**Interpretation** (blot, …``, and the copy without those paragraphs is the source.

The repository's checkout is this one or, in a git worktree, the main checkout the worktree
belongs to. The test is skipped only when no ``shared`` folder is beside it, which is the case
in CI's clean clone: there the copies in docs/ are all there is.
"""

from __future__ import annotations

import re
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
#: The first line of an interpretation blot added under a rule (the source's own say "(League …").
OURS = re.compile(r"^  \*\*Interpretation\*\* \(blot\b")


def without_our_interpretations(text: str) -> str:
    """``text`` without the paragraphs blot added under the rules: each runs from its marked first
    line to the next line that is not indented (the next rule or heading) or starts another one.

    >>> without_our_interpretations("- A rule.\\n  **Interpretation** (blot): x\\n  y\\n- B.\\n")
    '- A rule.\\n- B.\\n'
    """
    kept: list[str] = []
    ours = False
    for line in text.splitlines(keepends=True):
        if OURS.match(line):
            ours = True
        elif ours and (not line.startswith("  ") or not line.strip() or "**Interpretation**" in line):
            ours = False
        if not ours:
            kept.append(line)
    return "".join(kept)


@pytest.mark.skipif(SHARED is None, reason="no ../shared beside the repository (a clean clone)")
@pytest.mark.parametrize(("copy", "source"), [("rules.md", "RULES.md"), ("format.md", "FORMAT.md")])
def test_docs_copy_is_identical_to_the_shared_specification(copy: str, source: str) -> None:
    assert SHARED is not None
    theirs = (SHARED / source).read_text(encoding="utf-8")
    ours = without_our_interpretations((ROOT / "docs" / copy).read_text(encoding="utf-8"))
    assert ours == theirs, f"docs/{copy} differs from {SHARED / source}: copy it again"


def test_only_blots_marked_interpretations_are_left_out() -> None:
    """A changed rule, or an interpretation not marked as blot's, still differs from the source."""
    source = "- **L-1** A rule.\n  **Interpretation** (League 7): theirs.\n- **L-2** B.\n"
    marked = source.replace("- **L-2**", "  **Interpretation** (blot, issue 38): ours\n  more.\n- **L-2**")
    assert without_our_interpretations(marked) == source
    assert without_our_interpretations(source.replace("A rule", "A new rule")) != source
    assert without_our_interpretations(marked.replace("(blot, issue 38)", "(issue 38)")) != source
