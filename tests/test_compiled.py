"""The compiled build plays exactly the games of pure Python (docs/performance.md).

Builds a compiled copy of the package in a temporary folder with the build hook's own
function (``hatch_build.compile_modules``), then plays the same seeded games in two fresh
processes, one on a pure copy and one on the compiled copy, and compares a digest of
everything they saw: every legal-action list, action masks, observation and
information-state tensors, returns, samples of views, views, pickled views,
push/pop, final positions and outcomes of every ruleset, and one seeded search decision
per ruleset; and both builds answer every ``isinstance`` of states, views, encodings and
bots against the interfaces' classes exactly (:func:`wrong_isinstance`). Skipped, with the reason, where mypyc, setuptools or a C compiler is
missing. The C code is built without optimisation (``-O0``: the same code, built in a
fraction of the time); ``FRONTLINES_SLOW=1`` builds it as a release does (``-O3``).

Run as a script (``python tests/test_compiled.py``), it prints the build and the digest
of whatever ``frontlines`` its ``sys.path`` finds first.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pickle
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# One xdist worker runs this module (`./run test` uses --dist loadgroup): the module-scoped
# build below is then made once per run, not once per worker (about 40 s of a core each).
pytestmark = pytest.mark.xdist_group("compiled")
GAMES = 12  # random games per ruleset


def digest(games: int = GAMES) -> str:
    from frontlines.bots.registry import make_bot
    from frontlines.games import all_rulesets, encoding, new_state

    h = hashlib.sha256()
    for ruleset in sorted(r.name for r in all_rulesets()):
        code = encoding(ruleset)
        for seed in range(games):
            state = new_state(ruleset, seed=seed)
            rng = random.Random(seed)
            # the tensors' modules are compiled too: a live observation of each player, kept
            # up to date every move, and the tensors built afresh at some positions
            live = [code.live_observation(player) for player in (0, 1)]
            while not state.is_terminal():
                legal = state.legal_actions()
                h.update(repr(legal).encode())
                h.update(repr(code.legal_mask(state)).encode())
                for observation in live:
                    h.update(observation.update(state).tobytes())
                if len(state.history) % 5 == 2:
                    view = state.view(state.current_player())
                    h.update(code.observation_tensor(view).tobytes())
                    h.update(code.information_state_tensor(view).tobytes())
                    h.update(view.to_notation().encode())
                    h.update(view.sample(rng).to_notation().encode())
                    again = pickle.loads(pickle.dumps(view))
                    assert again == view and hash(again) == hash(view) and again != state
                    h.update(again.to_notation().encode())
                    clone = state.clone()
                    assert clone == state and (clone != state) is False
                    h.update(_hashable(state).encode())
                    state.push(rng.choice(legal))
                    h.update(state.to_notation().encode())
                    state.pop()
                state.apply(rng.choice(legal))
            h.update(f"{state.to_notation()} {state.outcome()} {code.returns(state)}".encode())
        state = new_state(ruleset, seed=7)
        player = state.current_player()
        assert player is not None
        # the search itself is compiled too; two root-parallel workers pickle its params,
        # the view and the workers' results across processes
        for spec in ("ismcts:iterations=120", "ismcts:iterations=60,workers=2") if ruleset == "battleline" else ("ismcts:iterations=120",):
            bot = make_bot(spec, 7)
            try:
                bot.new_game(ruleset, player, 7)
                h.update(repr(bot.choose(state.view(player))).encode())
                h.update(repr(bot.info()["top"]).encode())
            finally:
                bot.close()
    return h.hexdigest()


def wrong_isinstance() -> list[str]:
    """``isinstance`` of states, views, encodings and bots of both games against the
    interfaces' classes, asked in an order that fills ABCMeta's caches both ways (each base
    before its subclasses, then the other way round): the answers that differ from the
    object's class's bases (its MRO). Empty in both builds: a compiled subclass of an ABC had
    its base's caches, so a War Machine state once checked against ``State`` was then a
    ``BattleLineState``, and one found not to be a ``BattleLineState`` was then no ``State``."""
    from frontlines.bots.base import Bot
    from frontlines.bots.ismcts import ISMCTSBot
    from frontlines.bots.registry import make_bot
    from frontlines.core.encoding import Encoding
    from frontlines.core.game import State, View
    from frontlines.games import encoding, new_state
    from frontlines.games.battleline.state import BattleLineState, BattleLineView
    from frontlines.games.battleline.tensors import BattleLineEncoding
    from frontlines.games.warmachine.engine import WarMachineState, WarMachineView
    from frontlines.games.warmachine.tensors import WarMachineEncoding

    states = [new_state("warmachine", seed=1), new_state("battleline", seed=1)]
    objects: list[object] = [*states, *(state.view(0) for state in states),
                             encoding("warmachine"), encoding("battleline"),
                             make_bot("heuristic", 1), make_bot("ismcts:iterations=10", 1), make_bot("pimc", 1)]
    classes: list[type] = [State, BattleLineState, WarMachineState, View, BattleLineView, WarMachineView,
                           Encoding, BattleLineEncoding, WarMachineEncoding, Bot, ISMCTSBot]
    wrong = []
    for order in (classes, classes[::-1], classes):
        for cls in order:
            for obj in objects:
                if isinstance(obj, cls) != (cls in type(obj).__mro__):
                    wrong.append(f"isinstance({type(obj).__name__}, {cls.__name__}) is {isinstance(obj, cls)}")
    return wrong


def copies() -> list[str]:
    """What pickles or deep-copies differently from pure Python (empty in both builds): the
    learning interfaces' encodings, layouts and live tensors (environments hold them, and
    libraries copy or pickle environments), a position whose claim memo holds proofs, and
    the error for a bad action id. Compiled, a class is made only through its ``__init__``
    and a frozen dataclass refuses pickle's setting of its attributes, so these need their
    ``__reduce__``; and an ``int`` parameter is checked before the body (a ``TypeError``)."""
    import copy

    from frontlines.games import encoding, new_state
    from frontlines.games.battleline.claims import claim_result

    wrong: list[str] = []
    for ruleset in ("battleline", "warmachine"):
        code = encoding(ruleset)
        state = new_state(ruleset, seed=5)
        rng = random.Random(5)
        live = [code.live_observation(0), code.live_information_state(1)]
        for _ in range(45 if ruleset == "battleline" else 20):
            state.apply(rng.choice(state.legal_actions()))
            for tensor in live:
                tensor.update(state)
        if ruleset == "battleline":
            for f in range(9):
                for p in (0, 1):
                    claim_result(state, f, p)  # the memo keeps the sides' last proofs
        for name, obj in [("encoding", code), ("layout", code.observation_layout), ("state", state),
                          ("live observation", live[0]), ("live information state", live[1])]:
            for how, again in (("pickle", lambda o: pickle.loads(pickle.dumps(o))), ("deepcopy", copy.deepcopy)):
                try:
                    other = again(obj)
                except Exception as exc:
                    wrong.append(f"{ruleset} {name} {how}: {type(exc).__name__}")
                    continue
                if name.startswith("live"):  # the copy carries on as the original does
                    after = state.clone()
                    if not after.is_terminal():
                        after.apply(rng.choice(after.legal_actions()))
                    if list(other.update(after)) != list(obj.update(after)):  # type: ignore[attr-defined]
                        wrong.append(f"{ruleset} {name} {how}: a different tensor")
                elif name == "encoding" and other.num_actions != code.num_actions:  # type: ignore[attr-defined]
                    wrong.append(f"{ruleset} {name} {how}: a different encoding")
        for bad in ("R7@3", None, 1.0, -1):
            try:
                code.action(bad)
                wrong.append(f"{ruleset} action({bad!r}) answered")
            except ValueError:
                pass
            except Exception as exc:
                wrong.append(f"{ruleset} action({bad!r}): {type(exc).__name__}")
    return wrong


def _hashable(value: object) -> str:
    try:
        hash(value)
    except TypeError:
        return "unhashable"
    return "hashable"


def _missing_tools() -> str | None:
    """Why a compiled build cannot be made here, or None."""
    for module in ("mypyc", "setuptools"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc})"
    include = sysconfig.get_paths()["include"]
    if not Path(include, "Python.h").is_file():
        return f"no Python headers (Python.h in {include})"
    return None


def _copy_package(target: Path) -> None:
    shutil.copytree(ROOT / "src" / "frontlines", target / "frontlines",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "static", "templates", "locale"))


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A pure copy and a compiled copy of the package (folders to put on sys.path)."""
    why = _missing_tools()
    if why is not None:
        pytest.skip(f"cannot build the compiled build: {why}")
    base = tmp_path_factory.mktemp("compiled")
    pure, compiled, work = base / "pure", base / "compiled", base / "work"
    for folder in (pure, compiled, work):
        folder.mkdir()
    _copy_package(pure)
    _copy_package(compiled)
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    level = "3" if os.environ.get("FRONTLINES_SLOW") == "1" else "0"
    for path, relative in hook.compile_modules(compiled, work, opt_level=level):
        shutil.copy2(path, compiled / relative)
    return pure, compiled


def _run(folder: Path, expression: str = "test_compiled.digest()") -> tuple[str, str]:
    """(build, ``repr`` of ``expression``) from a fresh process that imports ``frontlines``
    from ``folder`` (``expression`` may use this module as ``test_compiled``)."""
    env = {**os.environ, "PYTHONPATH": str(folder), "PYTHONHASHSEED": "0"}
    code = (
        "import sys, frontlines; from frontlines.core.build import build; "
        f"assert frontlines.__file__.startswith({str(folder)!r}), frontlines.__file__; "
        f"sys.path.insert(0, {str(ROOT / 'tests')!r}); import test_compiled; print(build(), repr({expression}))"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    build, value = done.stdout.rstrip("\n").split(" ", 1)
    return build, value


@pytest.mark.timeout(1800)  # the build in its fixture: minutes of C compiling, many more on a loaded machine
def test_compiled_build_plays_the_games_of_pure_python(builds: tuple[Path, Path]) -> None:
    pure, compiled = builds
    pure_build, pure_digest = _run(pure)
    compiled_build, compiled_digest = _run(compiled)
    assert (pure_build, compiled_build) == ("pure", "compiled")
    assert compiled_digest == pure_digest


@pytest.mark.timeout(1800)
def test_isinstance_is_exact_in_both_builds(builds: tuple[Path, Path]) -> None:
    """Bots and the learning interfaces pick a game's code by ``isinstance``: in the compiled
    build it answered from caches shared with the interface's base class (see
    :func:`wrong_isinstance`)."""
    for folder, expected in zip(builds, ("pure", "compiled"), strict=True):
        assert _run(folder, "test_compiled.wrong_isinstance()") == (expected, "[]")


@pytest.mark.timeout(1800)
def test_copies_and_errors_are_the_same_in_both_builds(builds: tuple[Path, Path]) -> None:
    """Environments (their encodings and live tensors), positions with proofs and bad action
    ids pickle, deep-copy and fail alike in both builds (:func:`copies`): compiled, none of
    the encodings could be pickled or copied, nor a position whose claim memo held a proof."""
    for folder, expected in zip(builds, ("pure", "compiled"), strict=True):
        assert _run(folder, "test_compiled.copies()") == (expected, "[]")


# The engine's property tests (hypothesis against brute force, caches against uncached copies,
# notation and undo round trips, what a view may say) and the golden positions beside them.
PROPERTY_TESTS = ("tests/battleline/test_claim_caches.py", "tests/battleline/test_formations.py",
                  "tests/battleline/test_notation.py", "tests/battleline/test_proof.py",
                  "tests/battleline/test_state_undo.py", "tests/test_chance.py",
                  "tests/test_hidden_information.py", "tests/warmachine/test_properties.py")


@pytest.mark.timeout(1800)
def test_the_engine_property_tests_pass_in_the_compiled_build(builds: tuple[Path, Path]) -> None:
    """The digest replays fixed games; the property tests search for the positions where the
    compiled code's caches, proofs and copies differ from the rules (a claim memo holding a
    proof that did not survive pickling was found by hand, not by the digest)."""
    _, compiled = builds
    env = {**os.environ, "PYTHONPATH": str(compiled)}
    code = (
        "import sys, frontlines, pytest; from frontlines.core.build import build; "
        f"assert frontlines.__file__.startswith({str(compiled)!r}) and build() == 'compiled', frontlines.__file__; "
        f"sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', '-p', 'no:randomly', '-n', '0', *{list(PROPERTY_TESTS)!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=1500, check=False)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    assert " passed" in done.stdout and " failed" not in done.stdout


def test_copies_are_the_same_here() -> None:
    assert copies() == []


def test_isinstance_is_exact_here() -> None:
    assert wrong_isinstance() == []


def test_the_digest_sees_a_different_game() -> None:
    """The digest is not blind: one game fewer per ruleset changes it."""
    assert digest(1) != digest(2)


if __name__ == "__main__":
    from frontlines.core.build import build

    print(build(), digest())
