"""The package's imports: no circle between modules, and data flows one way through the layers.

Every ``import`` and ``from ... import`` of every module under ``src/frontlines`` counts,
wherever it stands: at the top, or inside a function (a lazy import is still a dependency,
only a later one; hiding a circle that way is what this test is against). Imports under
``if TYPE_CHECKING:`` count for the layers (a type from above is a dependency on what is
above) but not for circles: they never run, and they are Python's way for two interfaces
to name each other in type hints (``GameModule.encoding`` returns an ``Encoding``, which
reads states). ``from pkg import name`` counts as an import of the submodule
``pkg.name`` when that module exists, else of ``pkg``. Importing a submodule also runs
its package's ``__init__``; that implicit step is not an edge here (every package would
otherwise form a circle with its own modules).

The layers, lowest first (a module may import its own layer and the ones listed)::

    core      the game interface, errors, records, the referee   <- nothing else
    games     the rules engines                                  <- core
    bots      players behind the Bot interface                   <- core, games
    rl        learning environments (optional extras)            <- core, games, bots
    arena     matches, ratings                                   <- core, games, bots
    cluster   arena games on a cluster (the optional Ray extra)  <- core, games, bots, arena
    tui, web  the user interfaces; neither imports the other     <- core, games, bots
    commands  one module per ``frontlines`` subcommand; they      <- all of the above
              start the arena and the user interfaces
    cli       ``frontlines.cli`` and ``__main__``: pick a command <- commands (by module path)

Every module may import the package itself (``frontlines.__version__``). Nothing imports
``commands`` or ``cli`` except ``cli``; nothing below ``commands`` imports ``rl``, ``arena``,
``tui`` or ``web``. The layers up to ``arena`` import only the standard library (the core
has no runtime dependency); ``tui``, ``web``, ``rl`` and ``cluster`` are the optional extras,
which a command imports only when it starts them (``serve`` imports uvicorn, ``arena
--backend ray`` the cluster layer, which imports Ray).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src"
LOWER = {
    "core": set(),
    "games": {"core"},
    "bots": {"core", "games"},
    "rl": {"core", "games", "bots"},
    "arena": {"core", "games", "bots"},
    "cluster": {"core", "games", "bots", "arena"},
    "tui": {"core", "games", "bots"},
    "web": {"core", "games", "bots"},
    "commands": {"core", "games", "bots", "rl", "arena", "cluster", "tui", "web"},
    "cli": {"commands"},
    "frontlines": set(),  # the package's own __init__: the version, nothing else
}
STANDARD_LIBRARY_ONLY = {"core", "games", "bots", "arena", "cli", "frontlines"}
# The one optional extra below the user interfaces: the flag network's numpy
# (``frontlines[ai]``). Only these modules import it; the bots reach them inside functions
# (``netply``, ``ismcts:value=``, ``learned``), so that without numpy they fall back to the
# heuristic (tests/bots/test_net.py runs them with numpy made unimportable).
OPTIONAL_IMPORTS = {
    f"frontlines.bots.net.{name}": {"numpy"} for name in ("model", "value", "train", "pipeline")
}

# Circles still being taken apart, each by name of the work removing it. Nothing else may
# be added here: a new circle is fixed where it appears.
ALLOWED_CIRCLES: set[frozenset[str]] = set()


def module_names(root: Path) -> dict[str, Path]:
    """Dotted name -> file of every module of the packages under ``root``."""
    out: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST, typing_only: bool = False) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement below ``node``, and whether it sits under ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, typing_only
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for branch in child.body:
                yield from _imports(ast.Module(body=[branch], type_ignores=[]), True)
            for branch in child.orelse:
                yield from _imports(ast.Module(body=[branch], type_ignores=[]), typing_only)
        else:
            yield from _imports(child, typing_only)


def _imported(module: str, is_package: bool, tree: ast.AST, known: Mapping[str, Path]) -> Iterator[tuple[str, int, bool]]:
    """(imported name, line, under TYPE_CHECKING) of every import statement anywhere in ``tree``."""
    package = module if is_package else module.rpartition(".")[0]
    for node, typing_only in _imports(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno, typing_only
        else:
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield (sub if sub in known else target), node.lineno, typing_only


Graph = tuple[dict[str, set[str]], dict[str, set[str]], dict[tuple[str, str], int], dict[str, set[str]]]


def import_graph(root: Path, top: str) -> Graph:
    """Edges between modules of package ``top``: the ones that run, all of them (type hints
    too), the line of each, and each module's imports from outside the package."""
    known = module_names(root)
    running: dict[str, set[str]] = {name: set() for name in known if name.split(".")[0] == top}
    edges: dict[str, set[str]] = {name: set() for name in running}
    lines: dict[tuple[str, str], int] = {}
    outside: dict[str, set[str]] = {name: set() for name in edges}
    for name in edges:
        path = known[name]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for target, line, typing_only in _imported(name, path.name == "__init__.py", tree, known):
            if target.split(".")[0] != top:
                if not typing_only:
                    outside[name].add(target.split(".")[0])
                continue
            # An import of a name the package does not have (a typo) resolves to its
            # nearest existing parent, which is what Python would run first anyway.
            while target not in known:
                target = target.rpartition(".")[0]
            if target != name:
                edges[name].add(target)
                if not typing_only:
                    running[name].add(target)
                lines.setdefault((name, target), line)
    return running, edges, lines, outside


def circles(edges: Mapping[str, set[str]]) -> list[frozenset[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(edges.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(frozenset(group))
    return found


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "frontlines"
    return "cli" if parts[1] in ("cli", "__main__") else parts[1]


def layer_breaches(edges: Mapping[str, set[str]], lines: Mapping[tuple[str, str], int]) -> list[str]:
    out = []
    for source, targets in sorted(edges.items()):
        mine = layer(source)
        if mine not in LOWER:
            out.append(f"{source}: layer {mine!r} is not in LOWER (decide what it may import)")
            continue
        for target in sorted(targets):
            theirs = layer(target)
            if theirs not in (mine, "frontlines") and theirs not in LOWER[mine]:
                out.append(f"{source}:{lines[(source, target)]} imports {target} ({mine} may not import {theirs})")
    return out


def _describe(group: frozenset[str], edges: Mapping[str, set[str]]) -> str:
    inside = sorted(f"{a} -> {b}" for a in group for b in edges[a] if b in group)
    return "; ".join(inside)


@pytest.fixture(scope="module")
def graph() -> Graph:
    return import_graph(SOURCE, "frontlines")


def test_no_import_circles(graph: Graph) -> None:
    running = graph[0]
    assert len(running) > 50  # the walk found the package
    bad = [_describe(g, running) for g in circles(running) if g not in ALLOWED_CIRCLES]
    assert not bad, "import circles:\n" + "\n".join(bad)


def test_allowed_circles_still_exist(graph: Graph) -> None:
    """A circle that is gone leaves the allow-list, so that it cannot come back unnoticed."""
    gone = ALLOWED_CIRCLES - set(circles(graph[0]))
    assert not gone, f"remove from ALLOWED_CIRCLES: {[sorted(g) for g in gone]}"


def test_imports_follow_the_layers(graph: Graph) -> None:
    breaches = layer_breaches(graph[1], graph[2])
    assert not breaches, "imports against the layers:\n" + "\n".join(breaches)


def test_the_core_layers_need_only_the_standard_library(graph: Graph) -> None:
    foreign = {
        module: sorted(names - set(sys.stdlib_module_names) - {"__future__"} - OPTIONAL_IMPORTS.get(module, set()))
        for module, names in graph[3].items()
        if layer(module) in STANDARD_LIBRARY_ONLY
    }
    foreign = {m: n for m, n in foreign.items() if n}
    assert not foreign, f"third-party imports below the user interfaces: {foreign}"


def test_ray_is_imported_by_the_ray_backend_only(graph: Graph) -> None:
    """Ray stays behind one module, which commands import only for ``--backend ray``."""
    users = sorted(module for module, names in graph[3].items() if "ray" in names)
    assert users == ["frontlines.cluster.ray_backend"]


def _package(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_walk_sees_lazy_relative_and_type_checking_imports(tmp_path: Path) -> None:
    """The checks above can fail: a tiny package with a hidden circle and a reach upwards."""
    _package(tmp_path, {
        "frontlines/__init__.py": "",
        "frontlines/core/__init__.py": "",
        "frontlines/core/a.py": "def f():\n    from frontlines.games import b\n",
        "frontlines/games/__init__.py": "",
        "frontlines/games/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import c\n",
        "frontlines/games/c.py": "from .b import thing\nfrom ..core import a\n",
    })
    running, edges, lines, _ = import_graph(tmp_path, "frontlines")
    assert edges["frontlines.core.a"] == running["frontlines.core.a"] == {"frontlines.games.b"}
    assert edges["frontlines.games.b"] == {"frontlines.games.c"} and not running["frontlines.games.b"]
    assert edges["frontlines.games.c"] == {"frontlines.games.b", "frontlines.core.a"}
    assert circles(edges) == [frozenset({"frontlines.core.a", "frontlines.games.b", "frontlines.games.c"})]
    assert circles(running) == []  # the circle closes only through a type hint
    assert layer_breaches(edges, lines) == ["frontlines.core.a:2 imports frontlines.games.b (core may not import games)"]
    _package(tmp_path, {"frontlines/games/b.py": "import frontlines.games.c\n"})
    assert circles(import_graph(tmp_path, "frontlines")[0]) == circles(edges)
