"""``--backend local|ray`` and ``--ray-address``: where ``arena`` and ``selfplay`` play their games.

The local backend is this machine's processes (standard library). The Ray backend
(:mod:`frontlines.cluster.ray_backend`, the ``cluster`` extra) is imported only when asked
for; it starts Ray here, or joins the cluster at ``--ray-address``, before the first game,
so that an unreachable cluster or a missing Ray is a one-line error at start-up.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator

from frontlines.arena.backends import Backend, LocalBackend


def add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="where games are played: this machine's processes (default), or a Ray cluster "
                        "(needs pip install 'frontlines[cluster]'; docs/arena.md)")
    parser.add_argument("--ray-address", metavar="ADDR", default=None,
                        help="with --backend ray: the cluster to join (HOST:PORT of its head, or auto); "
                        "default: start Ray on this machine")


@contextlib.contextmanager
def open_backend(kind: str, address: str | None, workers: int | None) -> Iterator[tuple[Backend, int]]:
    """The backend and its number of workers, ready to play; left (Ray stopped, if started here) afterwards.

    ``workers`` None: 1 locally, one per CPU of the cluster on Ray.
    """
    if workers is not None:
        workers = max(1, workers)
    if kind == "local":
        if address is not None:
            raise ValueError("--ray-address goes with --backend ray")
        local = LocalBackend(workers or 1)
        yield local, local.workers
        return
    from frontlines.cluster.ray_backend import RayBackend

    with RayBackend(address, workers) as ray:
        yield ray, ray.connect()
