"""Which build of Frontlines is installed: pure Python, or the compiled build.

The compiled build (docs/performance.md) compiles the modules of :data:`COMPILED` with
mypyc into C extensions that lie beside their sources; Python imports an extension in
preference to the source of the same name. Pure Python is the reference and the
fallback: both builds play identical games from the same seeds (tests/test_compiled.py).

This file is also read by the build hook (``hatch_build.py``), so it imports no project
module, and it looks at files only: it tells which build an import will load without
importing the engine.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

# The hot paths of search and random play: the Battle Line engine (moves, claims and
# proofs, formations, the table, views and their samples), the War Machine rules, the
# engines' shuffle, the Battle Line heuristic (the search's cut-off evaluation and rollout
# policy: most of an ISMCTS iteration), the search's own loop (``bots.ismcts``), and the
# learning interfaces' tensors (an observation at every step is most of their cost). The modules that only speak to people
# (notation, text, explanations) stay interpreted.
COMPILED: tuple[str, ...] = (
    "frontlines.games.chance",
    "frontlines.games.battleline.cards",
    "frontlines.games.battleline.codes",
    "frontlines.games.battleline.formations",
    "frontlines.games.battleline.proof",
    "frontlines.games.battleline.claims",
    "frontlines.games.battleline.table",
    "frontlines.games.battleline.moves",
    "frontlines.games.battleline.view",
    "frontlines.games.battleline.state",
    "frontlines.games.warmachine.rules",
    "frontlines.games.warmachine.engine",
    "frontlines.bots.heuristic_battleline",
    "frontlines.bots.ismcts",
    "frontlines.core.encoding",
    "frontlines.games.battleline.tensors",
    "frontlines.games.warmachine.tensors",
)

# The extension that holds the compiled code of all of them (mypyc's shared library).
GROUP = "frontlines._compiled"

_PACKAGES = Path(__file__).resolve().parent.parent.parent  # the folder holding ``frontlines``


def _extension(name: str) -> Path | None:
    """The compiled extension that an import of ``name`` loads, if there is one."""
    base = _PACKAGES.joinpath(*name.split("."))
    for suffix in EXTENSION_SUFFIXES:
        path = base.with_name(base.name + suffix)
        if path.is_file():
            return path
    return None


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED` that load compiled."""
    return [name for name in COMPILED if _extension(name) is not None]


def stale_modules() -> list[str]:
    """Compiled modules whose source changed after they were compiled (an editable
    install edited since its build): the old code still runs until a new build."""
    out = []
    for name in COMPILED:
        ext = _extension(name)
        source = _PACKAGES.joinpath(*name.split(".")).with_suffix(".py")
        if ext is not None and source.is_file() and source.stat().st_mtime > ext.stat().st_mtime:
            out.append(name)
    return out


def build() -> str:
    """``"compiled"`` when every module of :data:`COMPILED` loads compiled, ``"pure"``
    when none does, ``"partial"`` otherwise (a broken build)."""
    done = len(compiled_modules())
    return "pure" if done == 0 else "compiled" if done == len(COMPILED) else "partial"


def describe() -> str:
    """One line for speed reports: the build, with a warning when it is stale."""
    stale = stale_modules()
    return build() + (f" (stale: {', '.join(stale)} changed since the build)" if stale else "")
