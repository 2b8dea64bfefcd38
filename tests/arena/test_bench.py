"""``frontlines bench`` runs its quick measurements and writes JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from frontlines.cli import main
from frontlines.core.build import build


def test_bench_smoke(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bench.json"
    code = main(["bench", "--runs", "1", "--games", "2", "--rules", "battleline-basic", "--rules", "warmachine",
                 "--proofs", "200", "--ismcts-time", "0.05", "--json", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "random games/s" in text and "proofs/s" in text and "iterations/s" in text
    data = json.loads(out.read_text())
    assert data["build"] == build() and f"build                      {build()}" in text
    assert set(data["games_per_second"]) == {"battleline-basic", "warmachine"}
    assert data["proofs_per_second"] > 0 and data["ismcts_iterations_per_second"] > 0


def test_build_is_read_from_the_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An extension beside a compiled module's source makes it load compiled; a source
    edited after its extension is reported stale."""
    import os
    from importlib.machinery import EXTENSION_SUFFIXES

    from frontlines.core import build as b

    for name in b.COMPILED:
        source = tmp_path.joinpath(*name.split(".")).with_suffix(".py")
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text("")
    monkeypatch.setattr(b, "_PACKAGES", tmp_path)
    assert b.build() == "pure" and b.compiled_modules() == [] and b.describe() == "pure"
    first = tmp_path.joinpath(*b.COMPILED[0].split("."))
    first.with_name(first.name + EXTENSION_SUFFIXES[0]).write_bytes(b"")
    assert b.build() == "partial" and b.compiled_modules() == [b.COMPILED[0]]
    for name in b.COMPILED[1:]:
        base = tmp_path.joinpath(*name.split("."))
        base.with_name(base.name + EXTENSION_SUFFIXES[0]).write_bytes(b"")
    assert b.build() == "compiled" and b.stale_modules() == []
    source = first.with_suffix(".py")
    os.utime(source, (source.stat().st_mtime + 10, source.stat().st_mtime + 10))
    assert b.stale_modules() == [b.COMPILED[0]] and "stale" in b.describe()
