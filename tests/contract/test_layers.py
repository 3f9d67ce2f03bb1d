"""The architecture (issue 23 items 3 and 6): every game's module of every layer implements its
protocol (:mod:`blot.layers`), found through the registry's one typed function; and no import
cycle anywhere in ``src/blot``, counting imports inside functions and those made only for type
checking."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from blot.games import names, spec
from blot.layers import LAYERS

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.mark.parametrize("game", names())
@pytest.mark.parametrize("protocol", LAYERS, ids=lambda p: p.__name__)
def test_every_layer_of_every_game_implements_its_protocol(game: str, protocol: type) -> None:
    module = spec(game).layer(protocol)
    assert isinstance(module, protocol)
    for name in protocol.__annotations__:  # its data members too
        assert hasattr(module, name), f"{module!r} lacks {name}"


def _modules() -> dict[str, Path]:
    found = {}
    for path in (SRC / "blot").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Each module of blot and the modules of blot it imports, wherever the import is written."""
    modules = _modules()

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            for target in targets:
                found = resolve(target) if target.startswith("blot") else None
                if found is not None and found != module:
                    graph[module].add(found)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_in_src() -> None:
    graph = import_graph()
    assert graph["blot.games"] and "blot.layers" in graph["blot.games"]  # the graph sees imports
    assert cycles(graph) == []


def test_the_registry_imports_no_layer() -> None:
    layers = {"blot.wire", "blot.records", "blot.simulate", "blot.analysis", "blot.cli", "blot.env"}
    imported = import_graph()["blot.games"]
    assert not {m for m in imported if any(m == p or m.startswith(p + ".") for p in layers)} - {
        "blot.records.common"
    }


def test_the_store_imports_no_engine_and_no_server() -> None:
    graph = import_graph()
    for module in (m for m in graph if m.startswith("blot.store")):
        bad = {
            t
            for t in graph[module]
            if t.startswith(("blot.bazar", "blot.three_five_eight", "blot.server", "blot.scoresheet"))
        }
        assert not bad, (module, bad)
