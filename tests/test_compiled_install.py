"""The compiled build installs on a clean machine with the documented command
(docs/performance.md and the README): ``HATCH_BUILD_HOOK_ENABLE_CUSTOM=true pip install .``,
run as it is written, in a copy of the repository's tracked files, with a fresh virtual
environment's ``pip`` first on ``PATH``. pip builds in an isolated environment of its own
(hatchling, then the hook's mypy and setuptools, no numpy), fetched as every install here
is, from the package index pip is configured with (no other network), into an empty pip
cache of the test's own. Then the installed package loads compiled, plays, and its bots
that use the optional numpy fall back without it.

Slow (a release build of the C code and a fresh environment from the package index): runs
with FRONTLINES_SLOW=1. Skipped where there is no C compiler or Python headers.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
import textwrap
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMMAND = "HATCH_BUILD_HOOK_ENABLE_CUSTOM=true pip install ."  # as the docs write it


def _tracked_copy(dest: Path) -> None:
    """The repository's tracked files (no build products, no virtual environment)."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    for name in files:
        if not name:
            continue
        src = ROOT / name.decode()
        if src.is_file():
            target = dest / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)


@pytest.mark.slow
def test_the_documented_compiled_install_works_in_a_clean_environment(tmp_path: Path) -> None:
    if shutil.which(os.environ.get("CC", "cc")) is None or not Path(sysconfig.get_paths()["include"], "Python.h").exists():
        pytest.skip("no C compiler or Python headers")
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs the repository's git checkout")
    source = tmp_path / "source"
    _tracked_copy(source)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "HATCH_BUILD_HOOK_ENABLE_CUSTOM")}
    # the fresh environment activated: its pip is the one the command finds
    env.update(VIRTUAL_ENV=str(env_dir), PATH=f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}",
               PIP_CACHE_DIR=str(tmp_path / "pip-cache"))
    install = subprocess.run(["bash", "-c", COMMAND], capture_output=True, text=True, env=env, cwd=source,
                             timeout=3600, check=False)
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    check = textwrap.dedent(
        """
        import importlib.util
        from frontlines.core.build import build
        assert build() == "compiled", build()
        assert importlib.util.find_spec("numpy") is None  # a clean install: no extras
        from frontlines.bots.registry import make_bot
        from frontlines.core.referee import Referee
        from frontlines.games import new_state
        for spec in ("netply", "ismcts:iterations=30,value=1"):
            bots = [make_bot(spec, 1), make_bot("heuristic", 2)]
            result = Referee(new_state("battleline-basic", seed=3)).play(bots, seed=3)
            assert result.outcome is not None and result.failed is None, spec
        print("ok")
        """
    )
    run = subprocess.run([str(python), "-c", check], capture_output=True, text=True, cwd=tmp_path, timeout=600, check=False,
                         env=env)
    assert run.stdout.strip() == "ok", run.stderr[-3000:]


def test_the_docs_give_the_command_this_test_runs() -> None:
    """Not slow: the docs cannot drift from what the slow test runs."""
    for doc in ("docs/performance.md", "README.md"):
        assert COMMAND in (ROOT / doc).read_text(encoding="utf-8"), doc

