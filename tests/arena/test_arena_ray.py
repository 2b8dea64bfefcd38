"""The arena and selfplay on Ray (``--backend ray``): the same games as the local backend,
external engines on the Ray workers, a worker killed in the middle of a game. (Start-up
errors are in test_backends.py: they need no Ray running.)

One small local Ray (2 CPUs, no dashboard) serves the whole module: starting Ray costs
seconds, a game of these bots milliseconds.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed (the cluster extra: pip install 'frontlines[cluster]')")

from frontlines.arena.backends import LocalBackend  # noqa: E402
from frontlines.arena.match import MatchConfig, Report, run_match  # noqa: E402
from frontlines.cli import main  # noqa: E402
from frontlines.cluster.ray_backend import ClusterError, RayBackend  # noqa: E402

RULES = "battleline-basic"
FAKE = Path(__file__).resolve().parents[1] / "fakebots" / "frontlines_fake.py"
# The fake engine's limits: more than a loaded machine takes to start Python (the default 10 s is not).
PATIENT = {"handshake_timeout": 300.0, "move_timeout": 300.0}


def _children() -> set[int]:
    """This process's children, from the process table (empty where there is none)."""
    me, found = str(os.getpid()), set()
    for entry in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError, IndexError):
            if (entry / "stat").read_text().rsplit(")", 1)[1].split()[1] == me:
                found.add(int(entry.name))
    return found


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # Ray gives its own processes fixed times to come up, which a loaded machine passed (at
    # load 14 the raylet gave up on its metrics agent after 16 s, and the driver's 30 s wait for
    # the node ran out): the GCS gets longer (a setting; only for the start, other tests want
    # Ray's short default), and a start that timed out another try, its processes stopped first.
    gcs_wait = "RAY_gcs_server_port_wait_time_s"
    with pytest.MonkeyPatch.context() as env:
        env.setenv(gcs_wait, os.environ.get(gcs_wait, "300"))
        for attempt in range(1, 4):
            before = _children()
            try:
                ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.ERROR)
                break
            except Exception as exc:
                ray.shutdown()
                for pid in _children() - before:  # what the failed start left running
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                if attempt == 3 or "timed out" not in str(exc).lower():
                    raise
    try:
        yield
    finally:
        ray.shutdown()


def fake(mode: str, *args: str) -> str:
    return "cmd:" + " ".join([sys.executable, str(FAKE), mode, *args])


def play(tmp_path: Path, tag: str, bots: list[tuple[str, str]], backend: Any, games: int = 4) -> tuple[Report, list[str]]:
    """A match and its records (one JSON line per game, in game order)."""
    records = tmp_path / f"{tag}.jsonl"
    config = MatchConfig(RULES, bots, games=games, seed=11, records=str(records), progress=False, backend=backend,
                         external=PATIENT)
    report = run_match(config)
    lines = records.read_text(encoding="utf-8").splitlines()
    return report, sorted(lines, key=lambda line: int(json.loads(line)["tags"]["Round"]))


def test_ray_plays_the_same_games_as_the_local_backend(local_ray: None, tmp_path: Path) -> None:
    # three bots, one of them an external engine, which then runs on the Ray workers
    bots = [("r", "random"), ("h", "heuristic"), ("ext", fake("ok"))]
    local, local_records = play(tmp_path, "local", bots, LocalBackend(1))
    on_ray, ray_records = play(tmp_path, "ray", bots, RayBackend(workers=2))
    assert len(ray_records) == len(local_records) == 12
    assert ray_records == local_records  # game by game: the same moves, the same results
    assert on_ray.data["games"] == local.data["games"]
    assert on_ray.data["pairs"] == local.data["pairs"]
    assert on_ray.data["players"] == local.data["players"]
    assert on_ray.data["config"]["backend"] == "ray" and local.data["config"]["backend"] == "local"
    assert on_ray.data["replays"] == local.data["replays"] == []
    assert {g["reason"] for g in on_ray.data["games"]} & {"breakthrough", "envelopment"}  # real games were played


def test_a_worker_killed_mid_game_plays_the_game_again_from_its_deal(local_ray: None, tmp_path: Path) -> None:
    marker = tmp_path / "killed"
    bots = [("killer", fake("killhost", "5", str(marker))), ("r", "random")]
    # One Ray worker: its first game is under way when the engine kills the worker's process
    # at its fifth answer, and its second game waits in the worker's queue.
    on_ray, ray_records = play(tmp_path, "ray", bots, RayBackend(workers=1))
    assert marker.exists()  # the worker really was killed
    replayed = {r["game"]: r["times"] for r in on_ray.data["replays"]}
    assert replayed.get(1) == 1 and set(replayed) <= {1, 2} and set(replayed.values()) == {1}
    assert "played again from their deal because their worker died" in on_ray.text
    assert all(r.replays == replayed.get(r.index + 1, 0) for r in on_ray.results)
    # With the marker there, the engine never kills: the local games are the undisturbed ones.
    local, local_records = play(tmp_path, "local", bots, LocalBackend(1))
    assert local.data["replays"] == []
    assert ray_records == local_records
    assert on_ray.data["games"] == local.data["games"]
    assert all(g["reason"] not in ("forfeit", "time") for g in on_ray.data["games"])


def test_arena_and_selfplay_commands_on_ray(local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "arena.json"
    assert main(["arena", "--rules", RULES, "--games", "2", "--seed", "4", "--bot", "random", "--bot", "heuristic",
                 "--backend", "ray", "--workers", "2", "--quiet", "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["config"]["backend"] == "ray" and data["config"]["workers"] == 2 and data["games_played"] == 2
    capsys.readouterr()
    for backend in ("local", "ray"):
        record = tmp_path / f"selfplay-{backend}.jsonl"
        assert main(["selfplay", "--rules", RULES, "--p0", "random", "--p1", "heuristic", "--games", "5",
                     "--seed", "3", "--backend", backend, "--jobs", "2", "--record", str(record)]) == 0
    lines = capsys.readouterr().out.splitlines()
    told = [line for line in lines if line.startswith("game ")]
    assert told[:5] == told[5:] and [t.split()[1] for t in told[:5]] == ["1", "2", "3", "4", "5"]  # in game order
    assert (tmp_path / "selfplay-local.jsonl").read_text() == (tmp_path / "selfplay-ray.jsonl").read_text()


def test_more_workers_than_the_cluster_has_cpus_is_refused(local_ray: None) -> None:
    # each worker takes a CPU: a third actor on two CPUs would wait for ever
    with pytest.raises(ClusterError, match="--workers 3 is more than the 2 CPUs of the Ray cluster"):
        RayBackend(workers=3).connect()
    assert RayBackend().connect() == 2  # by default, one worker per CPU
