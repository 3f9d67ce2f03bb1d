"""The architecture (issue 23 items 3 and 6): every game's module of every layer implements its
protocol (:mod:`blot.layers`), found through the registry's one typed function; and no import
cycle anywhere in ``src/blot``, counting imports inside functions and those made only for type
checking."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from blot.errors import SetupError
from blot.games import spec
from blot.layers import LAYERS

from .helpers import GAMES

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("protocol", LAYERS, ids=lambda p: p.__name__)
def test_every_layer_a_game_provides_implements_its_protocol(game: str, protocol: type) -> None:
    """Each required layer, and each optional one the spec says it provides; an optional layer
    it does not provide is refused in one sentence (and skipped here)."""
    s = spec(game)
    if not s.has(protocol):
        with pytest.raises(SetupError) as refused:
            s.layer(protocol)
        assert str(refused.value).startswith(f"{s.title} has no ")
        pytest.skip(f"{game} does not provide {protocol.__name__}")
    module: object = s.layer(protocol)
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


def below(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module of blot that ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph[todo.pop()] - seen:
            seen.add(target)
            todo.append(target)
    return seen


@pytest.mark.parametrize("module", ["blot.games", "blot.layers"])
def test_the_registry_and_the_layers_import_nothing_above_them(module: str) -> None:
    """Issue 39 item 4: the registry and the protocols stand on the game interface, the cards and
    the errors (with their catalogue of reasons) alone; every layer imports them, never the other
    way round (no arrow back up)."""
    ground = {"blot.game", "blot.cards", "blot.errors", "blot.reasons", "blot.layers"}
    assert below(import_graph(), module) - {module} <= ground


def diagram_rows() -> list[set[str]]:
    """The rows of the layer diagram in docs/developers.md ("The layers"), top first: the modules
    and packages of ``src/blot`` each row names (``store/`` -> ``store``, ``league.py`` ->
    ``league``); what stands in parentheses describes them."""
    text = (SRC.parent / "docs" / "developers.md").read_text(encoding="utf-8")
    block = text.split("### The layers", 1)[1].split("```", 2)[1]
    named = re.sub(r"\([^)]*\)", "", block, flags=re.S)
    rows = [set(re.findall(r"([a-z_]+)(?:/|\.py)", line)) for line in named.splitlines()]
    return [row for row in rows if row]


def test_the_layer_diagram_of_the_developers_guide_is_the_code_as_it_is() -> None:
    """Issue 39: the diagram is drawn from the code's imports and stays so — every package and
    top-level module of ``src/blot`` stands in one row, and each imports only what stands in the
    rows below its own (no arrow up, none sideways)."""
    rows = diagram_rows()
    row_of = {name: i for i, row in enumerate(rows) for name in row}
    assert sum(len(r) for r in rows) == len(row_of), "a name stands in two rows"

    def unit(module: str) -> str:
        return module.split(".")[1]

    graph = {m: t for m, t in import_graph().items() if m.count(".") and unit(m) != "__main__"}
    assert {unit(m) for m in graph} == set(row_of), "the diagram names what src/blot holds"
    up = sorted(
        f"{m} -> {t}"
        for m, targets in graph.items()
        for t in targets
        if t.count(".") and unit(t) != unit(m) and row_of[unit(t)] <= row_of[unit(m)]
    )
    assert not up, up


def test_the_store_imports_no_engine_and_no_server() -> None:
    graph = import_graph()
    for module in (m for m in graph if m.startswith("blot.store")):
        bad = {
            t
            for t in graph[module]
            if t.startswith(("blot.bazar", "blot.three_five_eight", "blot.server", "blot.scoresheet"))
        }
        assert not bad, (module, bad)


def test_the_toy_game_touches_no_file_outside_its_modules_and_the_tests() -> None:
    """Issue 39 item 4: Toy Duel (tests/toygame) is a third game that passes this suite, plays
    through the server and the page, and is named by nothing of ``src`` (nor the web client)."""
    names = ("toygame", "toy-duel", "toy_duel", "toy duel")
    for path in (SRC / "blot").rglob("*"):
        if path.suffix in (".py", ".js", ".json", ".html", ".css"):
            text = path.read_text(encoding="utf-8").lower()
            assert not any(name in text for name in names), path


def test_the_game_that_declares_a_score_sheet_is_the_one_the_score_sheet_keeps() -> None:
    """``score_sheet`` on a spec is what the page's /scoresheet and an event over the board ask:
    exactly the game whose Davtar :mod:`blot.scoresheet` scores declares it (issue 39 item 4)."""
    from blot.games import SPECS
    from blot.scoresheet.sheets import GAME_NAME

    assert [s.name for s in SPECS.values() if s.score_sheet] == [GAME_NAME]
