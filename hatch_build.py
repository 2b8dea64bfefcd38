"""The compiled build: a hatch build hook that compiles the hot modules with mypyc.

Off by default; pure Python stays the reference and the fallback. Turn it on for one
install with hatch's switch for this hook (docs/performance.md)::

    HATCH_BUILD_HOOK_ENABLE_CUSTOM=true pip install .        # a compiled wheel
    HATCH_BUILD_HOOK_ENABLE_CUSTOM=true pip install -e .     # in place, beside the sources

The modules are those of ``frontlines.core.build.COMPILED``. A wheel carries the extensions
beside the sources. An editable install writes them into ``src/`` (git ignores them),
where Python prefers them to the sources: after editing a compiled module, build again
or remove them (``./run pure``), or the old code keeps running (``frontlines bench``
says which build runs).

:func:`compile_modules` is also what tests/test_compiled.py calls to build a copy in a
temporary folder; it needs mypy (mypyc), setuptools and a C compiler.
"""

from __future__ import annotations

import os
import runpy
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent


def compiled_names() -> tuple[tuple[str, ...], str]:
    """``frontlines.core.build.COMPILED`` and ``GROUP``, read without importing the package."""
    spec = runpy.run_path(str(ROOT / "src" / "frontlines" / "core" / "build.py"))
    return tuple(spec["COMPILED"]), str(spec["GROUP"])


def compile_modules(src: Path, work: Path, opt_level: str = "3") -> list[tuple[Path, str]]:
    """Compile the modules of ``COMPILED`` found under ``src`` (a folder holding the
    ``frontlines`` package) with mypyc, working in ``work``; returns each extension built
    with its path relative to ``src`` (where it must be placed to be imported).
    ``opt_level`` is the C compiler's (a test builds at 0: the same code, built faster)."""
    from mypyc.build import mypycify  # build dependencies of the hook: mypy, setuptools
    from setuptools import Distribution

    names, group = compiled_names()
    paths = [str(src.joinpath(*name.split(".")).with_suffix(".py")) for name in names]
    here = os.getcwd()
    os.chdir(work)  # mypyc writes its C files and reads its configuration relative to here
    try:
        # a configuration file of its own: the project's [tool.mypy] names packages to check,
        # and mypyc takes files; the options that matter for compiling are given here. The
        # modules built on numpy (the optional ``ai`` extra: the flag network and its adapter
        # for the search) are not compiled, and a compiled module reaches them only inside a
        # function: they are skipped, so that the build needs no numpy (pip builds in an
        # environment of its own, where there is none)
        config = work / "mypyc.ini"
        config.write_text(
            "[mypy]\n\n[mypy-numpy.*]\nignore_missing_imports = True\n\n"
            "[mypy-frontlines.bots.learned,frontlines.bots.net.*]\nfollow_imports = skip\n"
        )
        options = ["--config-file", str(config), "--python-version", f"{sys.version_info[0]}.{sys.version_info[1]}"]
        os.environ["MYPYPATH"] = str(src)
        extensions = mypycify([*options, *paths], opt_level=opt_level, group_name=group, target_dir=str(work / "c"))
        dist = Distribution({"name": "frontlines", "ext_modules": extensions})
        build_ext: Any = dist.get_command_obj("build_ext")
        build_ext.build_lib = str(work / "lib")
        build_ext.build_temp = str(work / "temp")
        build_ext.parallel = os.cpu_count() or 1
        dist.run_command("build_ext")
    finally:
        os.chdir(here)
    lib = work / "lib"
    return [(path, path.relative_to(lib).as_posix()) for path in sorted(lib.rglob("*")) if path.is_file()]


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # read by a test, not by hatch
    pass
else:

    class CompiledBuildHook(BuildHookInterface):  # type: ignore[type-arg,misc]
        """Compile ``frontlines.core.build.COMPILED`` into the wheel (or, editable, into src/)."""

        PLUGIN_NAME = "custom"

        def initialize(self, version: str, build_data: dict[str, Any]) -> None:
            if self.target_name != "wheel":
                return
            work = Path(tempfile.mkdtemp(prefix="frontlines-mypyc-"))
            try:
                built = compile_modules(ROOT / "src", work)
                for path, relative in built:
                    if version == "editable":
                        shutil.copy2(path, ROOT / "src" / relative)
                    else:
                        target = work / "out" / relative
                        target.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copy2(path, target)
                        build_data["force_include"][str(target)] = relative
            finally:
                if version == "editable":
                    shutil.rmtree(work, ignore_errors=True)
            self._work = work
            build_data["pure_python"] = False
            build_data["infer_tag"] = True

        def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
            work = getattr(self, "_work", None)
            if work is not None:
                shutil.rmtree(work, ignore_errors=True)
