"""The layout reads bottom-up (DESIGN §2; issue 13 item 7).

Inside each package, modules use only those below them: no import circles, imports inside
functions and under ``if TYPE_CHECKING`` counting too (the same graph as the before-stop
hook, plus ``from . import name``). ``engine/`` is pure: it imports nothing from ``net``,
``ui`` or ``wec_p2p`` and no module that talks to the outside world.
"""
from __future__ import annotations

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "net", "ui", "wec_p2p")

#: modules the pure engine must never import (sockets, TLS, windows, clocks, processes...)
ENGINE_FORBIDDEN = frozenset({
    "socket", "ssl", "pygame", "asyncio", "time", "os", "sys", "subprocess", "threading",
    "select", "selectors", "signal", "datetime", "sqlite3", "shutil", "tempfile", "urllib",
    "http", "zeroconf", "cryptography", "secrets", "uuid", "multiprocessing", "concurrent",
})


def _imports(path: pathlib.Path) -> list[tuple[str, int]]:
    """(absolute module name, line) of every import in a file, wherever it stands."""
    pkg = path.parent.name
    out = []
    for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(n, ast.Import):
            out.extend((a.name, n.lineno) for a in n.names)
        elif isinstance(n, ast.ImportFrom):
            if n.level == 0 and n.module in PACKAGES:   # from engine import rules
                out.extend((f"{n.module}.{a.name}", n.lineno) for a in n.names)
            elif n.level == 0:
                out.append((n.module or "", n.lineno))
            elif n.level == 1 and n.module:
                out.append((f"{pkg}.{n.module}", n.lineno))
            elif n.level == 1:            # from . import a, b
                out.extend((f"{pkg}.{a.name}", n.lineno) for a in n.names)
            else:                         # the packages are flat: nothing lies above them
                raise AssertionError(f"{path}:{n.lineno}: relative import beyond the package")
    return out


def _graph(pkg: str) -> dict[str, set[str]]:
    graph = {}
    for f in sorted((ROOT / pkg).glob("*.py")):
        deps = set()
        for name, _line in _imports(f):
            parts = name.split(".")
            if parts[0] == pkg and len(parts) > 1:
                deps.add(parts[1])
        graph[f.stem] = deps
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), as in the hook."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(u: str) -> None:
        index[u] = low[u] = counter[0]
        counter[0] += 1
        stack.append(u)
        on.add(u)
        for v in sorted(graph.get(u, ())):
            if v not in graph:
                continue
            if v not in index:
                strong(v)
                low[u] = min(low[u], low[v])
            elif v in on:
                low[u] = min(low[u], index[v])
        if low[u] == index[u]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == u:
                    break
            if len(comp) > 1 or u in graph.get(u, ()):
                out.append(sorted(comp))

    for u in sorted(graph):
        if u not in index:
            strong(u)
    return out


def test_circle_finder_finds_a_circle_through_a_late_import(tmp_path):
    """The checker itself can fail: a function-level import back up the chain is a circle."""
    pkg = tmp_path / "pkgx"
    pkg.mkdir()
    (pkg / "low.py").write_text("def f():\n    from .high import g\n    return g\n")
    (pkg / "high.py").write_text("from .low import f\n")
    (pkg / "leaf.py").write_text("from . import low\n")
    graph = {}
    for f in sorted(pkg.glob("*.py")):
        graph[f.stem] = {n.split(".")[1] for n, _ in _imports(f) if n.startswith("pkgx.")}
    assert graph == {"high": {"low"}, "leaf": {"low"}, "low": {"high"}}
    assert _circles(graph) == [["high", "low"]]


@pytest.mark.parametrize("pkg", PACKAGES)
def test_no_import_circle_inside_a_package(pkg):
    """DESIGN §2: each module uses only those below it, late imports included."""
    assert _circles(_graph(pkg)) == []


def test_engine_imports_no_outer_package_and_no_io():
    """DESIGN §2: engine/ is pure: no net, ui, wec_p2p; no sockets, TLS, pygame, clock, os."""
    bad = []
    for f in sorted((ROOT / "engine").glob("*.py")):
        for name, line in _imports(f):
            top = name.split(".")[0]
            if top in ("net", "ui", "wec_p2p") or top in ENGINE_FORBIDDEN:
                bad.append(f"engine/{f.name}:{line} imports {name}")
    assert bad == []


def test_engine_randomness_is_always_seeded():
    """Deterministic engine: ``random`` appears only as ``random.Random`` (a seeded generator
    handed in by the caller), never the module's shared, unseeded functions."""
    bad = []
    for f in sorted((ROOT / "engine").glob("*.py")):
        for n in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                    and n.value.id == "random" and n.attr != "Random"):
                bad.append(f"engine/{f.name}:{n.lineno} random.{n.attr}")
            if isinstance(n, ast.ImportFrom) and n.module == "random":
                bad.extend(f"engine/{f.name}:{n.lineno} from random import {a.name}"
                           for a in n.names if a.name != "Random")
    assert bad == []


def test_answerer_questions_are_a_leaf_module():
    """The hidden-information questions (engine.questions) depend on the state values only,
    so every rule module may ask them; the OmniscientAnswerer sits above the rules it uses."""
    graph = _graph("engine")
    assert graph["questions"] <= {"state"}
    for low in ("visibility", "board_ops", "effects", "projectiles", "fire", "movegen"):
        assert "answerer" not in graph[low], low
        assert "rules" not in graph[low], low


@pytest.mark.parametrize("module, below", [
    ("visibility", {"actions", "board", "pieces", "questions", "state"}),
    ("movegen", {"actions", "board", "descs", "moveplan", "movetypes", "pieces", "state",
                 "visibility"}),
    ("effects", {"actions", "board_ops", "descs", "pieces", "questions", "state", "visibility"}),
])
def test_lower_modules_import_only_lower_layers(module, below):
    """geometry -> state -> visibility -> movement -> fire and effects -> the turn -> api."""
    assert _graph("engine")[module] <= below


def _doc_layers() -> tuple[list[str], dict[str, int]]:
    """The layer rows of docs/engine.md's module table: (layer names bottom-up, module -> row)."""
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    table = text.split("\n## Modules\n", 1)[1].split("\n## ", 1)[0]
    names: list[str] = []
    row_of: dict[str, int] = {}
    for line in table.splitlines():
        if not line.startswith("| ") or line.startswith("| layer"):
            continue
        layer, modules = (c.strip() for c in line.strip("|").split("|")[:2])
        if layer:
            names.append(layer)
        for m in re.findall(r"`(\w+)\.py`", modules):
            row_of[m] = len(names) - 1
    return names, row_of


def test_docs_module_table_is_the_import_graph():
    """docs/engine.md "Modules": every engine module has a row, and each imports only modules
    of its own row or a lower one (issue 13 item 7: geometry -> state -> ... -> api). The
    package's ``__init__`` (it installs the default answerer) stands above the table."""
    names, row_of = _doc_layers()
    graph = _graph("engine")
    assert sorted(set(graph) - set(row_of) - {"__init__"}) == []
    assert sorted(set(row_of) - set(graph)) == []
    upward = sorted(f"{m} ({names[row_of[m]]}) imports {d} ({names[row_of[d]]})"
                    for m, deps in graph.items() if m in row_of
                    for d in deps if d in row_of and row_of[d] > row_of[m])
    assert upward == []
