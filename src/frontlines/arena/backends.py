"""Where games are played: in this process, in local worker processes, or on a cluster.

The arena and ``frontlines selfplay`` keep the schedule, the records and the tallies; a
:class:`Backend` only gets each game played somewhere and hands its result back as soon as
it is known (in the order games finish, not the order they were sent). A game is a *job*;
a *worker* is what plays jobs one after another and keeps what is worth keeping between
them (its bots, and the engine processes they talk to). ``start`` builds a worker where the
jobs run, so it must be picklable when they run in another process: a module-level class,
or a :func:`functools.partial` of one.

``on_result(job, result, replays)`` is called in this process for every finished job;
``replays`` is how many times the job was sent again because the worker playing it died
(a cluster backend plays the game again from its deal; the local one reports a dead
worker as an error). ``on_result`` returning True stops sending jobs; jobs already in
flight still finish and are reported, so that a stop never cuts a pair of games in half.

:class:`LocalBackend` is the standard-library one. The Ray backend lives in
:mod:`frontlines.cluster.ray_backend` (the ``cluster`` extra).
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import threading
import traceback
from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeVar

J = TypeVar("J")
R = TypeVar("R")
J_contra = TypeVar("J_contra", contravariant=True)
R_co = TypeVar("R_co", covariant=True)


class Worker(Protocol[J_contra, R_co]):
    """Plays jobs one at a time where the backend runs it."""

    def play(self, job: J_contra) -> R_co: ...

    def close(self) -> None: ...


class Backend(Protocol):
    """Plays jobs on workers (see the module text)."""

    name: str

    def run(self, start: Callable[[], Worker[J, R]], jobs: Iterator[J], on_result: Callable[[J, R, int], bool]) -> None: ...


def _serve(start: Callable[[], Worker[Any, Any]], tasks: Any, results: Any) -> None:
    """A local worker process: play numbered jobs from ``tasks`` until ``None`` comes."""
    # Ctrl-C reaches every process of the terminal's group: the main process decides what
    # a stop means (report what was played), the workers finish their game or are ended.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    worker = start()
    try:
        while True:
            item = tasks.get()
            if item is None:
                break
            number, job = item
            try:
                results.put((number, "ok", worker.play(job)))
            except Exception:
                results.put((number, "error", traceback.format_exc()))
    finally:
        worker.close()


class LocalBackend:
    """This machine: in this process when ``workers`` is 1, else that many worker processes."""

    name = "local"

    def __init__(self, workers: int = 1) -> None:
        self.workers = max(1, workers)

    def run(self, start: Callable[[], Worker[J, R]], jobs: Iterator[J], on_result: Callable[[J, R, int], bool]) -> None:
        if self.workers == 1:
            worker = start()
            try:
                for job in jobs:
                    if on_result(job, worker.play(job), 0):
                        break
            finally:
                worker.close()
            return
        self._run_processes(start, jobs, on_result)

    def _run_processes(self, start: Callable[[], Worker[J, R]], jobs: Iterator[J], on_result: Callable[[J, R, int], bool]) -> None:
        methods = multiprocessing.get_all_start_methods()
        # fork is the fastest start, but forking a process that runs threads (pipe readers of
        # engines it hosts) is unsafe: then forkserver, or spawn where neither exists.
        if "fork" in methods and threading.active_count() == 1:
            method = "fork"
        else:
            method = "forkserver" if "forkserver" in methods else "spawn"
        ctx: Any = multiprocessing.get_context(method)
        task_q: Any = ctx.Queue()
        result_q: Any = ctx.Queue()
        procs = [ctx.Process(target=_serve, args=(start, task_q, result_q), daemon=True) for _ in range(self.workers)]
        for p in procs:
            p.start()
        in_flight: dict[int, J] = {}
        numbers = iter(range(1 << 62))
        stopping = False

        def send() -> None:
            job = next(jobs, None)
            if job is not None:
                number = next(numbers)
                in_flight[number] = job
                task_q.put((number, job))

        try:
            # Keep every worker busy with one game queued behind the one it plays.
            for _ in range(2 * self.workers):
                send()
            while in_flight:
                try:
                    number, kind, payload = result_q.get(timeout=1.0)
                except queue.Empty:
                    if not all(p.is_alive() for p in procs):
                        raise RuntimeError("an arena worker process died") from None
                    continue
                job = in_flight.pop(number)
                if kind != "ok":
                    raise RuntimeError(f"arena worker failed:\n{payload}")
                if on_result(job, payload, 0):
                    stopping = True
                if not stopping:
                    send()
        finally:
            for _ in procs:
                task_q.put(None)
            for p in procs:
                p.join(timeout=10)
                if p.is_alive():
                    p.terminate()
                    p.join(timeout=2)


__all__ = ["Backend", "LocalBackend", "Worker"]
