"""The Ray backend: arena and selfplay games on the actors of a Ray cluster.

Each worker is a Ray actor holding one :class:`~frontlines.arena.backends.Worker` (its bots,
and the external engines they start, which therefore run on the node of that actor). The
driver keeps two games in flight per actor, as the local backend does with its processes,
and hands each result on as it arrives. Games are the same as on the local backend: a game
depends only on its task (deal seed, seats, bots), never on where it runs.

A worker that dies (its process killed, its node lost) takes the games it held with it:
they are sent again, from their deal, to a fresh actor, and reported with the number of
times that happened. A game whose worker dies more than ``max_replays`` times stops the run
(something kills every worker that plays it).

Ray is imported here and nowhere else; without it, asking for this backend is a one-line
error naming the extra to install.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from frontlines.arena.backends import MAX_REPLAYS, Worker
from frontlines.core.errors import FrontlinesError

J = TypeVar("J")
R = TypeVar("R")

INSTALL = "pip install 'frontlines[cluster]'"
# Seconds to wait for anything to answer at --ray-address: Ray itself retries for minutes.
CONNECT_TIMEOUT = 5.0


class ClusterError(FrontlinesError):
    """Ray cannot be used as asked (a one-line message for the user). A command exits 2
    for it: a mistake to fix first (Ray not installed, a malformed address, too many workers)."""

    exit_status = 2


class ClusterUnavailable(ClusterError):
    """Nothing answered at the address, or it is not a Ray cluster that lets us join: exit 1,
    since trying again later may work (as for a database that does not answer)."""

    exit_status = 1


def import_ray() -> Any:
    """The ``ray`` module, or :class:`ClusterError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ClusterError(f"--backend ray needs Ray, which is not installed: {INSTALL}") from None
    return ray


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 300 else text[:300] + "…"


def probe(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Raise :class:`ClusterError` unless something accepts a connection at ``address``
    (``HOST:PORT`` or ``ray://HOST:PORT``) within ``timeout`` seconds."""
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ClusterError(f"--ray-address {address!r} is not HOST:PORT (or ray://HOST:PORT, or auto)")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        why = f"no answer within {timeout:g} s" if isinstance(exc, TimeoutError) else (exc.strerror or _one_line(exc))
        raise ClusterUnavailable(
            f"no Ray cluster answers at {address} ({why}); start one there with `ray start --head`, "
            "or leave out --ray-address to run Ray on this machine"
        ) from None


@contextlib.contextmanager
def _environment(**defaults: str) -> Iterator[None]:
    """Environment variables set for the block, each only where the user has not set it."""
    added = [name for name in defaults if name not in os.environ]
    for name in added:
        os.environ[name] = defaults[name]
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


@contextlib.contextmanager
def _stderr_muted() -> Iterator[None]:
    """File descriptor 2 goes nowhere for the block (C++ libraries write to it directly)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w", encoding="utf-8") as sink:
            os.dup2(sink.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class _Host:
    """The body of a Ray actor: one worker, game after game."""

    def __init__(self, start: Callable[[], Worker[Any, Any]]) -> None:
        self.worker = start()

    def play(self, job: Any) -> Any:
        return self.worker.play(job)

    def close(self) -> None:
        self.worker.close()


class RayBackend:
    """Games on Ray actors: ``address`` None starts Ray on this machine (``workers`` CPUs,
    no dashboard); otherwise it joins the cluster there (``auto``: the one started on this
    machine by ``ray start``). ``workers`` None: one per CPU of the cluster."""

    name = "ray"

    def __init__(
        self,
        address: str | None = None,
        workers: int | None = None,
        *,
        connect_timeout: float = CONNECT_TIMEOUT,
        max_replays: int = MAX_REPLAYS,
    ) -> None:
        self.address = address
        self.workers = workers
        self.connect_timeout = connect_timeout
        self.max_replays = max_replays
        self._owned = False  # Ray was started (or joined) here, so close() leaves it

    def connect(self) -> int:
        """Start or join Ray (once); the number of workers games will be played on."""
        ray = import_ray()
        if not ray.is_initialized():
            self._init(ray)
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if self.workers is None:
            self.workers = max(1, cpus)
        elif self.workers > cpus:
            # An actor wants a CPU; more actors than CPUs would wait for ever.
            raise ClusterError(f"--workers {self.workers} is more than the {cpus} CPUs of the Ray cluster")
        return self.workers

    def _init(self, ray: Any) -> None:
        quiet = {"logging_level": logging.ERROR, "log_to_driver": False}
        try:
            if self.address is None:
                # Nothing leaves this machine: no usage report, no dashboard.
                os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
                cpus = self.workers or os.cpu_count() or 1
                # "local": a new Ray of our own, even where RAY_ADDRESS or an earlier
                # `ray start` on this machine would have made ray.init join that one
                ray.init(address="local", num_cpus=cpus, include_dashboard=False, **quiet)
            else:
                if self.address != "auto":
                    probe(self.address, self.connect_timeout)
                # Something answered; if it is not Ray, Ray would retry for many minutes:
                # one try (about 40 s at most), unless the user set it.
                # Ray's C++ side logs every failed try on stderr: the user gets our one line.
                with _environment(RAY_gcs_server_port_wait_time_s="1"), _stderr_muted():
                    ray.init(address=self.address, **quiet)
        except ClusterError:
            raise
        except Exception as exc:
            if self.address is None:
                raise ClusterError(f"cannot start Ray on this machine: {_one_line(exc)}") from None
            hint = ""
            if os.environ.get("RAY_AUTH_MODE", "").lower() != "token":
                # Ray's refusal of a missing token shows only in the log muted above.
                hint = ("; if the cluster uses token authentication, set RAY_AUTH_MODE=token here, "
                        "with its token in ~/.ray/auth_token or RAY_AUTH_TOKEN")
            raise ClusterUnavailable(f"cannot join the Ray cluster at {self.address}: {_one_line(exc)}{hint}") from None
        self._owned = True

    def close(self) -> None:
        """Leave Ray (stopping it if it was started here)."""
        if self._owned:
            self._owned = False
            import_ray().shutdown()

    def __enter__(self) -> RayBackend:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, start: Callable[[], Worker[J, R]], jobs: Iterator[J], on_result: Callable[[J, R, int], bool]) -> None:
        ray = import_ray()
        workers = self.connect()
        from ray.exceptions import RayActorError, RayTaskError, WorkerCrashedError

        host = ray.remote(num_cpus=1, max_restarts=0)(_Host)
        actors: list[Any] = [host.remote(start) for _ in range(workers)]
        # reference of a game in flight -> (actor slot, the actor, the game, its replays so far)
        in_flight: dict[Any, tuple[int, Any, J, int]] = {}

        def send(slot: int, job: J, replays: int = 0) -> None:
            in_flight[actors[slot].play.remote(job)] = (slot, actors[slot], job, replays)

        stopping = False
        try:
            # Keep every worker busy with one game queued behind the one it plays.
            for _ in range(2):
                for slot in range(workers):
                    job = next(jobs, None)
                    if job is not None:
                        send(slot, job)
            while in_flight:
                ready, _ = ray.wait(list(in_flight), num_returns=1)
                slot, actor, job, replays = in_flight.pop(ready[0])
                try:
                    result = ray.get(ready[0])
                except (RayActorError, WorkerCrashedError) as exc:
                    if replays >= self.max_replays:
                        raise ClusterError(
                            f"a game lost its worker {replays + 1} times; giving up ({_one_line(exc)})"
                        ) from None
                    if actors[slot] is actor:  # the first of its games to report the death
                        with contextlib.suppress(Exception):
                            ray.kill(actor, no_restart=True)
                        actors[slot] = host.remote(start)
                    send(slot, job, replays + 1)
                    continue
                except RayTaskError as exc:
                    raise RuntimeError(f"arena worker failed:\n{exc}") from None
                if on_result(job, result, replays):
                    stopping = True
                if not stopping:
                    following = next(jobs, None)
                    if following is not None:
                        send(slot, following)
        finally:
            # Let the workers close their engines, then free their CPUs for the next run.
            with contextlib.suppress(Exception):
                ray.get([a.close.remote() for a in actors], timeout=10)
            for a in actors:
                with contextlib.suppress(Exception):
                    ray.kill(a, no_restart=True)


__all__ = ["CONNECT_TIMEOUT", "INSTALL", "ClusterError", "ClusterUnavailable", "RayBackend", "import_ray", "probe"]
