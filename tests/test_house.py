"""The house's size limits (issue 39 item 3): no module of ``src/blot`` over 600 lines and no
function over 80, so that each module keeps one job and each function can be read at once. The
numba kernels (``src/blot/solver/*kernel*``) are exempt: a kernel is one flat loop on purpose."""

from __future__ import annotations

import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src" / "blot"
MODULE_LINES = 600
FUNCTION_LINES = 80


def _modules() -> list[Path]:
    """Every Python module of the package, but the numba kernels."""
    return [p for p in sorted(SOURCE.rglob("*.py")) if not (p.parent.name == "solver" and "kernel" in p.name)]


def test_no_module_is_longer_than_600_lines() -> None:
    long = {
        str(p.relative_to(SOURCE)): n
        for p in _modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    }
    assert not long, f"split these modules along their jobs: {long}"


def test_no_function_is_longer_than_80_lines() -> None:
    long = {}
    for p in _modules():
        tree = ast.parse(p.read_text(encoding="utf-8"), filename=str(p))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                length = (node.end_lineno or node.lineno) - start + 1
                if length > FUNCTION_LINES:
                    long[f"{p.relative_to(SOURCE)}:{node.lineno} {node.name}"] = length
    assert not long, f"split these functions: {long}"


def test_the_limits_see_a_long_module_and_a_long_function(tmp_path: Path) -> None:
    """The walk itself finds what it must (a test that could never fail would prove nothing)."""
    body = "\n".join(f"    x{i} = {i}" for i in range(FUNCTION_LINES))
    tree = ast.parse(f"def f() -> None:\n{body}\n")
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef)
    assert (node.end_lineno or 0) - node.lineno + 1 == FUNCTION_LINES + 1
    assert any("kernel" in p.name for p in SOURCE.joinpath("solver").glob("*.py"))
    assert all("kernel" not in p.name for p in _modules() if p.parent.name == "solver")
