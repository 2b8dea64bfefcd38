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
(every backend then plays the game again from its deal, on a fresh worker: a game depends
only on its job, so the result is the one an undisturbed run gets). ``on_result``
returning True stops sending jobs; jobs already in flight still finish and are reported,
so that a stop never cuts a pair of games in half.

:class:`LocalBackend` is the standard-library one. The Ray backend lives in
:mod:`frontlines.cluster.ray_backend` (the ``cluster`` extra).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
import traceback
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
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


# Times one game may lose its worker before the run gives up (something kills every worker
# that plays it); the Ray backend allows as many (it imports this).
MAX_REPLAYS = 3


def _serve(start: Callable[[], Worker[Any, Any]], conn: Connection) -> None:
    """A local worker process: play numbered jobs from ``conn`` until ``None`` comes."""
    # Ctrl-C reaches every process of the terminal's group: the main process decides what
    # a stop means (report what was played), the workers finish their game or are ended.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    worker = start()
    try:
        while True:
            item = conn.recv()
            if item is None:
                break
            number, job = item
            conn.send((number, "start", None))  # lost with this process from here on
            try:
                conn.send((number, "ok", worker.play(job)))
            except Exception:
                conn.send((number, "error", traceback.format_exc()))
    except EOFError:  # the main process is gone
        pass
    finally:
        worker.close()


class _Slot:
    """One local worker process, its own pipe, and the jobs sent to it that it has not answered.

    A pipe per worker rather than one queue for all: a worker killed in the middle of a
    write spoils only its own pipe (a shared queue's lock would stay taken, and every other
    worker would wait on it for ever), and the main process knows which games it took along.
    """

    def __init__(self, ctx: Any, start: Callable[[], Worker[Any, Any]]) -> None:
        self.conn, theirs = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(start, theirs), daemon=True)
        self.process.start()
        theirs.close()  # only the worker holds its end now: its death reads as EOF here
        self.jobs: dict[int, Any] = {}  # number -> job, in the order sent
        self.started: set[int] = set()

    def send(self, number: int, job: Any) -> None:
        self.jobs[number] = job
        # A worker that died a moment ago: the job stays listed here and goes to its successor.
        with contextlib.suppress(OSError):
            self.conn.send((number, job))

    def answers(self) -> list[tuple[int, str, Any]]:
        """The results waiting in the pipe (a dead worker's complete ones too)."""
        found = []
        try:
            while self.conn.poll():
                number, kind, payload = self.conn.recv()
                if kind == "start":
                    self.started.add(number)
                else:
                    found.append((number, kind, payload))
        except (EOFError, OSError):  # the end of a dead worker's pipe
            pass
        return found

    def stop(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.conn.send(None)

    def end(self) -> None:
        self.process.join(timeout=10)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=2)
        self.conn.close()


class LocalBackend:
    """This machine: in this process when ``workers`` is 1, else that many worker processes.

    A worker process that dies (killed, out of memory, taken down by an engine it hosts)
    takes the game it was playing with it: that game is played again from its deal by a
    fresh process and reported with its replays, as on Ray (games it had not begun are
    just sent to the fresh process). A game whose worker dies more than ``max_replays``
    times stops the run with an error.
    """

    name = "local"

    def __init__(self, workers: int = 1, *, max_replays: int = MAX_REPLAYS) -> None:
        self.workers = max(1, workers)
        self.max_replays = max_replays

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
        slots = [_Slot(ctx, start) for _ in range(self.workers)]
        replays: dict[int, int] = {}  # number -> times its game lost its worker
        numbers = iter(range(1 << 62))
        stopping = False

        def report(slot: _Slot, answers: list[tuple[int, str, Any]], to: _Slot) -> None:
            nonlocal stopping
            for number, kind, payload in answers:
                job = slot.jobs.pop(number)
                if kind != "ok":
                    raise RuntimeError(f"arena worker failed:\n{payload}")
                if on_result(job, payload, replays.pop(number, 0)):
                    stopping = True
                if not stopping:
                    following = next(jobs, None)
                    if following is not None:
                        to.send(next(numbers), following)

        def replace(index: int) -> None:
            """``slots[index]`` died: what it finished counts, its games go to a fresh worker."""
            dead = slots[index]
            answers = dead.answers()
            dead.end()
            slots[index] = fresh = _Slot(ctx, start)
            finished = {number for number, _kind, _payload in answers}
            for number, job in dead.jobs.items():
                if number in finished:
                    continue
                if number in dead.started:
                    replays[number] = replays.get(number, 0) + 1
                    if replays[number] > self.max_replays:
                        raise RuntimeError(f"a game lost its worker {replays[number]} times; giving up "
                                           f"(the last one's exit code: {dead.process.exitcode})")
                fresh.send(number, job)
            report(dead, answers, fresh)

        try:
            # Keep every worker busy with one game queued behind the one it plays.
            for _ in range(2):
                for slot in slots:
                    job = next(jobs, None)
                    if job is not None:
                        slot.send(next(numbers), job)
            while any(slot.jobs for slot in slots):
                ready = set(wait([s.conn for s in slots] + [s.process.sentinel for s in slots]))
                for index, slot in enumerate(list(slots)):
                    if slot.process.sentinel in ready:
                        replace(index)
                    elif slot.conn in ready:
                        report(slot, slot.answers(), slot)
        finally:
            for slot in slots:
                slot.stop()
            for slot in slots:
                slot.end()


__all__ = ["MAX_REPLAYS", "Backend", "LocalBackend", "Worker"]
