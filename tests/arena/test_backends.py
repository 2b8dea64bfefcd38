"""Backends without a running Ray: the local one's contract, and the start-up errors of
``--backend ray`` (Ray missing, a cluster address that answers nothing, a bad match)."""

from __future__ import annotations

import socket
import sys

import pytest

from frontlines.arena.backends import LocalBackend
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
        assert main(argv) == 2
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
