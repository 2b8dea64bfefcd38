"""The compiled build installs on a clean machine with the documented command for research
and training (docs/research.md, "Installing for training"; docs/performance.md and the README
give the same install without the extra): ``HATCH_BUILD_HOOK_ENABLE_CUSTOM=true pip install
'.[rl]'``, run as it is written, in a copy of the repository's tracked files, with a fresh
virtual environment's ``pip`` first on ``PATH``. pip builds in an isolated environment of its
own (hatchling, then the hook's mypy and setuptools, no numpy: the extra is the installed
package's, not the build's), fetched as every install here is, from the package index pip is
configured with (no other network), into an empty pip cache of the test's own.

Then, in that environment, the installed package (not the sources) loads compiled and:

* its research environments work on the compiled build: PettingZoo's own ``api_test`` on
  ``frontlines.rl.pettingzoo`` for ``battleline``, a whole Gymnasium episode played with the
  action mask, and OpenSpiel's ``rl_environment`` through a whole game;
* it plays, and its bots that use the optional numpy fall back without it (numpy hidden from
  that process: the research extra brings numpy, and one install is enough for both checks).

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
COMMAND = "HATCH_BUILD_HOOK_ENABLE_CUSTOM=true pip install ."  # the plain install, as the docs write it
RESEARCH_COMMAND = "HATCH_BUILD_HOOK_ENABLE_CUSTOM=true pip install '.[rl]'"  # the install for training

# the installed package's research environments, on the compiled build
RESEARCH_CHECK = """
import random
import sys
from pathlib import Path
import frontlines
from frontlines.core.build import build
assert build() == "compiled", build()
assert Path(frontlines.__file__).resolve().is_relative_to(Path(sys.prefix).resolve()), frontlines.__file__  # installed

import numpy as np
from pettingzoo.test import api_test
from frontlines.rl.pettingzoo import env
api_test(env(ruleset="battleline"), num_cycles=400)

import gymnasium
import frontlines.rl.gymnasium  # registers the ids
g = gymnasium.make("frontlines/BattleLine-v0", ruleset="battleline", opponent="random")
obs, info = g.reset(seed=7)
g.action_space.seed(7)
steps, done = 0, False
while not done:
    action = g.action_space.sample(mask=obs["action_mask"])
    assert obs["action_mask"][action] == 1
    obs, reward, terminated, truncated, info = g.step(action)
    done, steps = terminated or truncated, steps + 1
assert terminated and not truncated and reward in (-1.0, 0.0, 1.0) and steps > 10, (terminated, truncated, reward, steps)

import pyspiel
import frontlines.rl.openspiel  # registers frontlines_<ruleset>
from open_spiel.python import rl_environment
spiel = rl_environment.Environment("frontlines_battleline")
rng = random.Random(7)
step = spiel.reset()
while not step.last():
    step = spiel.step([rng.choice(step.observations["legal_actions"][step.observations["current_player"]])])
assert sorted(step.rewards) in ([-1.0, 1.0], [0.0, 0.0]), step.rewards
print("ok")
"""

# the plain package: it plays, and the bots that use the optional numpy fall back without it
PLAIN_CHECK = """
import sys
sys.modules["numpy"] = None  # numpy hidden: `import numpy` fails as where it is not installed
from frontlines.core.build import build
assert build() == "compiled", build()
from frontlines.bots.registry import make_bot
from frontlines.core.referee import Referee
from frontlines.games import new_state
for spec in ("netply", "ismcts:iterations=30,value=1"):
    bots = [make_bot(spec, 1), make_bot("heuristic", 2)]
    result = Referee(new_state("battleline-basic", seed=3)).play(bots, seed=3)
    assert result.outcome is not None and result.failed is None, spec
assert "numpy" not in sys.modules or sys.modules["numpy"] is None
print("ok")
"""


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
@pytest.mark.timeout(3600)  # a release build and the extra's packages: past the suite's 600 s on a loaded machine
def test_the_documented_compiled_install_for_training_works_in_a_clean_environment(tmp_path: Path) -> None:
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
    install = subprocess.run(["bash", "-c", RESEARCH_COMMAND], capture_output=True, text=True, env=env, cwd=source,
                             timeout=3600, check=False)
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    for name, check in (("research", RESEARCH_CHECK), ("plain", PLAIN_CHECK)):
        run = subprocess.run([str(python), "-c", textwrap.dedent(check)], capture_output=True, text=True, cwd=tmp_path,
                             timeout=900, check=False, env=env)
        assert run.returncode == 0 and run.stdout.strip().endswith("ok"), name + ": " + run.stdout[-2000:] + run.stderr[-3000:]


def test_the_docs_give_the_commands_this_test_runs() -> None:
    """Not slow: the docs cannot drift from what the slow test runs. The plain command is the
    research one without its extra."""
    assert RESEARCH_COMMAND.replace(" '.[rl]'", " .") == COMMAND
    for doc in ("docs/performance.md", "README.md"):
        assert COMMAND in (ROOT / doc).read_text(encoding="utf-8"), doc
    for doc in ("docs/research.md", "README.md"):
        assert RESEARCH_COMMAND in (ROOT / doc).read_text(encoding="utf-8"), doc
