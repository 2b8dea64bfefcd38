"""Backends without a running Ray: the local one's contract, and the start-up errors of
``--backend ray`` (Ray missing, a cluster address that answers nothing, a bad match)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from frontlines.arena.backends import LocalBackend
from frontlines.arena.match import MatchConfig, run_match
from frontlines.cli import main


class Square:
    """A worker for the contract test: plays a number by squaring it."""

    def play(self, job: int) -> int:
        return job * job

    def close(self) -> None:
        pass


@pytest.mark.parametrize("workers", [1, 2])
def test_local_backend_reports_every_job_and_stops_sending_when_asked(workers: int) -> None:
    seen: list[tuple[int, int, int]] = []
    LocalBackend(workers).run(Square, iter(range(6)), lambda job, result, replays: seen.append((job, result, replays)) is not None)
    assert sorted(seen) == [(j, j * j, 0) for j in range(6)]
    seen.clear()
    # a stop after the first result: games already sent still come back, no new one is sent
    LocalBackend(workers).run(Square, iter(range(100)), lambda job, result, replays: seen.append((job, result, replays)) is None)
    assert 1 <= len(seen) <= 2 * workers and len(seen) < 100


class DiesOn:
    """A worker whose process dies (SIGKILL) when it takes job ``fatal``: once, while the file
    ``marker`` does not exist, or every time (``always``)."""

    def __init__(self, fatal: int, marker: str, always: bool = False) -> None:
        self.fatal, self.marker, self.always = fatal, Path(marker), always

    def play(self, job: int) -> int:
        if job == self.fatal and (self.always or not self.marker.exists()):
            self.marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return job * job

    def close(self) -> None:
        pass


def test_a_local_worker_that_dies_has_its_game_played_again(tmp_path: Path) -> None:
    marker = tmp_path / "died"
    seen: list[tuple[int, int, int]] = []
    LocalBackend(2).run(partial(DiesOn, 3, str(marker)), iter(range(10)),
                        lambda job, result, replays: seen.append((job, result, replays)) is not None)
    assert marker.exists()  # a worker really died
    # every job once, with its result; the game under way when its worker died says so, and
    # the one queued behind it (never begun) is simply played by the fresh worker
    assert sorted(seen) == [(j, j * j, 1 if j == 3 else 0) for j in range(10)]


def test_a_game_that_kills_every_worker_stops_the_run(tmp_path: Path) -> None:
    seen: list[int] = []
    with pytest.raises(RuntimeError, match="a game lost its worker 4 times; giving up"):
        LocalBackend(2).run(partial(DiesOn, 1, str(tmp_path / "died"), True), iter(range(4)),
                            lambda job, result, replays: seen.append(job) is not None)
    assert 1 not in seen


def test_an_arena_worker_killed_mid_game_replays_it_with_the_same_record(tmp_path: Path) -> None:
    fake = Path(__file__).resolve().parents[1] / "fakebots" / "frontlines_fake.py"
    marker = tmp_path / "killed"
    # The engine kills the worker process hosting it (SIGKILL) at its fifth answer, once.
    bots = [("killer", f"cmd:{sys.executable} {fake} killhost 5 {marker}"), ("r", "random")]

    def play(tag: str, backend: LocalBackend) -> tuple[Any, list[str]]:
        records = tmp_path / f"{tag}.jsonl"
        # the engine's limits: more than a loaded machine takes to start Python (the default 10 s is not)
        report = run_match(MatchConfig("battleline-basic", bots, games=4, seed=11, records=str(records), progress=False,
                                       backend=backend, external={"handshake_timeout": 300.0, "move_timeout": 300.0}))
        lines = records.read_text(encoding="utf-8").splitlines()
        return report, sorted(lines, key=lambda line: int(json.loads(line)["tags"]["Round"]))

    killed, killed_records = play("killed", LocalBackend(2))
    assert marker.exists()  # a worker really was killed
    assert [r["times"] for r in killed.data["replays"]] == [1]
    assert "played again from their deal because their worker died" in killed.text
    # With the marker there, the engine never kills: these are the undisturbed games.
    calm, calm_records = play("calm", LocalBackend(1))
    assert calm.data["replays"] == []
    assert killed_records == calm_records and killed.data["games"] == calm.data["games"]
    assert all(g["reason"] not in ("forfeit", "time") for g in killed.data["games"])


def test_backend_ray_without_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if it were not installed
    for argv in (["arena", "--rules", "battleline", "--bot", "random", "--bot", "heuristic", "--backend", "ray"],
                 ["selfplay", "--rules", "battleline", "--p0", "random", "--p1", "random", "--backend", "ray"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert "pip install 'frontlines[cluster]'" in err


def test_ray_address_needs_the_ray_backend(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--rules", "battleline", "--bot", "random", "--bot", "heuristic", "--ray-address", "auto"]) == 2
    assert "--ray-address goes with --backend ray" in capsys.readouterr().err


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_address_that_answers_nothing_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (the cluster extra)")
    from frontlines.cluster.ray_backend import ClusterError, probe

    address = f"127.0.0.1:{closed_port()}"
    for argv in (
        ["arena", "--rules", "battleline-basic", "--bot", "random", "--bot", "heuristic", "--backend", "ray", "--ray-address", address],
        ["selfplay", "--rules", "battleline-basic", "--p0", "random", "--p1", "random", "--backend", "ray", "--ray-address", address],
    ):
        assert main(argv) == 1  # trying again later may work: not a mistake to fix (that is 2)
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert f"no Ray cluster answers at {address}" in err and "ray start --head" in err
    with pytest.raises(ClusterError, match="is not HOST:PORT"):
        probe("nowhere")


def test_a_bad_match_is_told_before_ray_starts(capsys: pytest.CaptureFixture[str]) -> None:
    # a closed port as the address: had the cluster been joined first, the error would be about it
    assert main(["arena", "--rules", "battleline-basic", "--bot", "random", "--bot", "nope", "--backend", "ray",
                 "--ray-address", f"127.0.0.1:{closed_port()}"]) == 2
    err = capsys.readouterr().err
    assert "nope" in err and "Ray" not in err


class StopsByHand:
    """The local backend, with Ctrl-C pressed after ``after`` games."""

    name = "local"

    def __init__(self, after: int) -> None:
        self.after = after

    def run(self, start: Any, jobs: Any, on_result: Any) -> None:
        told = 0

        def counted(job: Any, result: Any, replays: int) -> bool:
            nonlocal told
            stop = bool(on_result(job, result, replays))
            told += 1
            if told == self.after:
                raise KeyboardInterrupt
            return stop

        LocalBackend(1).run(start, jobs, counted)


def test_a_match_stopped_by_hand_keeps_and_reports_what_it_played(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    config = MatchConfig("battleline-basic", [("r", "random"), ("h", "heuristic")], games=10, seed=2,
                         records=str(records), progress=False, backend=StopsByHand(3))
    report = run_match(config)
    assert report.stopped and report.data["stopped"] is True
    assert len(report.results) == report.data["games_played"] == 3
    assert len(records.read_text(encoding="utf-8").splitlines()) == 3
    assert sum(p["games"] for p in report.data["pairs"]) == 3
    assert "stopped by hand after 3 of 10 games" in report.text
    assert not run_match(MatchConfig("battleline-basic", [("r", "random"), ("h", "heuristic")], games=2,
                                     progress=False)).stopped


def test_ctrl_c_on_a_running_arena_keeps_what_it_played(tmp_path: Path) -> None:
    """Ctrl-C reaches the arena and its worker processes (one process group, as in a terminal)."""
    records, out = tmp_path / "games.jsonl", tmp_path / "match.json"
    proc = subprocess.Popen(
        # games enough that even a fast machine is far from done when the Ctrl-C comes
        [sys.executable, "-m", "frontlines.cli", "arena", "--rules", "battleline-basic", "--games", "4000",
         "--bot", "random", "--bot", "heuristic", "--workers", "2", "--records", str(records), "--json", str(out), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        # a shell without job control starts background commands with Ctrl-C ignored, and
        # that would be inherited: the arena must see it as a terminal would send it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        while proc.poll() is None and (not records.exists() or len(records.read_text(encoding="utf-8").splitlines()) < 2):
            time.sleep(0.1)
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["stopped"] is True and 2 <= data["games_played"] < 4000
    assert f"stopped by hand after {data['games_played']} of 4000 games" in stdout
    saved = records.read_text(encoding="utf-8").splitlines()
    assert len(saved) == data["games_played"] and all(json.loads(line)["tags"] for line in saved)
