"""Bot moves off the event loop: a pool of worker processes that heal, or a thread pool.

Why not ``concurrent.futures.ProcessPoolExecutor``: when one of its workers dies (killed,
out of memory, a crash in native code) the whole pool is broken for good, and every later
bot move fails with "A child process terminated abruptly" until the server restarts; and
after a ``kill -9`` of the server its workers and its resource tracker live on as orphans.

Here each worker is a plain child process (``python -m frontlines.web.workers``) that
reads one JSON request a line on stdin and answers one JSON line on its own pipe:

* A worker that dies is replaced and the move is asked again of the new one; a bot
  forfeits only for its own fault (it raised, or it did not answer in time), never
  because the server lost a process (:class:`WorkerLost` after a few tries instead).
* Workers end with the server, even after ``kill -9``: on Linux each asks the kernel for
  SIGKILL when its parent dies (``PR_SET_PDEATHSIG``); everywhere, a thread in the worker
  reads stdin and exits at end of file, which is what a dead parent leaves behind. No
  ``multiprocessing`` is involved, so there is no resource tracker to orphan.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import IO, Any, Protocol, TypeVar

from frontlines.core.game import View

log = logging.getLogger("frontlines.web")
T = TypeVar("T")

# A worker's answer can be a few hundred bytes; a request holds a view in notation.
_LINE_LIMIT = 1 << 20
# Seconds a new worker may take to import the games and bots (a busy machine is slow).
_START_LIMIT = 120.0


class BotFault(Exception):
    """The bot's own fault: it raised, or it did not answer in time. The bot forfeits."""


class WorkerLost(Exception):
    """The server's fault: workers kept dying on this move. Nobody forfeits; the move waits."""


# --- the time limit ----------------------------------------------------------------------------
# A bot's limit (--bot-timeout) is on its own work: the CPU time of the thread or worker
# process that runs it (and of the engines that process started), so that a bot is not
# forfeited for the time the machine gave to others. Wall time still has a cap, this many
# times the limit, for a bot that waits instead of working (or a host that gives no CPU
# clock: then the limit is on wall time, as it was).
WALL_FACTOR = 4.0


class OverTime(Exception):
    """A bot went past its limit; the message says on which clock."""


async def _wait(task: asyncio.Future[Any], seconds: float) -> bool:
    done, _ = await asyncio.wait({task}, timeout=seconds)
    return bool(done)


async def within_limit(task: asyncio.Future[T], limit: float, cpu_used: Callable[[], float | None], *,
                       clock: Callable[[], float] = time.monotonic,
                       wait: Callable[[asyncio.Future[Any], float], Awaitable[bool]] = _wait) -> T:
    """``task``'s result, or :class:`OverTime` once the bot's own time (``cpu_used()``:
    seconds of CPU since the turn began; None where it cannot be told, then wall time
    counts) reaches ``limit``, or wall time ``WALL_FACTOR`` times that. The task is left
    to the caller (a worker process or a thread cannot be stopped from here).

    ``clock`` and ``wait`` are for tests: what time it is, and waiting up to some seconds
    for the task (True: it is done).
    """
    start = clock()
    cap = WALL_FACTOR * limit
    while True:
        elapsed = clock() - start
        used = cpu_used()
        own = elapsed if used is None else used
        if own >= limit:
            raise OverTime(f"bot timed out: {own:.1f} s of its own time, over its limit of {limit:g} s"
                           if used is not None else f"bot timed out: no answer within {limit:g} s")
        if elapsed >= cap:
            raise OverTime(f"bot timed out: no answer within {cap:g} s (it had used {own:.1f} s of its own "
                           f"time; the limit is {limit:g} s)")
        # Own time grows no faster than wall time (one thread): no need to look again before
        # the limit could be reached.
        step = max(min(limit - own, cap - elapsed), 0.05)
        if await wait(task, step):
            return task.result()


def thread_cpu_clock() -> Callable[[], float | None]:
    """Called in a bot's thread as its turn begins: how to read that thread's CPU time since
    then, from any thread (None where the platform has no per-thread clock)."""
    try:
        clock_id = time.pthread_getcpuclockid(threading.get_ident())
        began = time.clock_gettime(clock_id)
    except (AttributeError, OSError):
        return lambda: None

    def used() -> float | None:
        try:
            return time.clock_gettime(clock_id) - began
        except OSError:
            return None

    return used


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_cpu(pid: int) -> float | None:
    """CPU seconds of process ``pid`` and of its living descendants (an external engine the
    bot started works in a process of its own); None where ``/proc`` cannot tell."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        # utime, stime, cutime, cstime (fields 14-17; the list starts at field 3)
        total = sum(int(f) for f in fields[11:15]) / _TICKS
        children: list[int] = []
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as f:
                children += [int(c) for c in f.read().split()]
    except (OSError, IndexError, ValueError):
        return None
    for child in children:
        total += process_cpu(child) or 0.0  # one that just ended was counted in cutime, or is gone
    return total


def choose_action(spec: str, seed: int, seat: int, view: View | str) -> str:
    """Build the bot, choose, answer action text (in a worker process or a thread).

    A process worker receives the view as notation (plain text crosses the pipe); a thread
    worker receives the view object itself.
    """
    from frontlines.bots.registry import make_bot

    if isinstance(view, str):
        from frontlines.games import parse_view

        view = parse_view(view)
    bot = make_bot(spec, seed)
    try:
        bot.new_game(view.ruleset, seat, seed)
        action = bot.choose(view)
        return view.action_to_text(action)
    finally:
        bot.close()


def review_move(view: View | str, played: str, index: int, deals: int, width: int, seed: int) -> dict[str, Any]:
    """One decision of a finished game reviewed from the mover's ``view`` (``bots.analysis``):
    the review as a dictionary (in a worker process or a thread, like a bot's move)."""
    from dataclasses import replace

    from frontlines.bots.analysis import REVIEW_PARAMS, review_decision

    if isinstance(view, str):
        from frontlines.games import parse_view

        view = parse_view(view)
    params = replace(REVIEW_PARAMS, deals=deals, width=width)
    return review_decision(view, view.parse_action(played), index, params, seed).to_dict()


class Bots(Protocol):
    """Where the live games send a bot's turn, and the replays a move to review."""

    async def start(self) -> None: ...

    async def choose(self, spec: str, seed: int, seat: int, view: View) -> str:
        """Action text, :class:`BotFault` (forfeit) or :class:`WorkerLost` (retry later)."""
        ...

    async def review(self, view: View, played: str, index: int, *, deals: int, width: int, seed: int) -> dict[str, Any]:
        """:func:`review_move` off the event loop; :class:`BotFault` if it failed."""
        ...

    async def close(self) -> None: ...


# --- threads (tests, and servers that cannot start processes) --------------------------------
class ThreadBots:
    """Bots in a thread pool: nothing to heal, but a thread cannot be stopped either, so a
    bot past its time forfeits while its thread runs on to the end of its search."""

    def __init__(self, workers: int, choose: Callable[[str, int, int, View | str], str], timeout: float) -> None:
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="frontlines-bot")
        self._choose = choose
        self.timeout = timeout

    async def start(self) -> None:
        pass

    async def choose(self, spec: str, seed: int, seat: int, view: View) -> str:
        return await self._run(lambda: self._choose(spec, seed, seat, view), "bot crashed")

    async def review(self, view: View, played: str, index: int, *, deals: int, width: int, seed: int) -> dict[str, Any]:
        return await self._run(lambda: review_move(view, played, index, deals, width, seed), "review failed")

    async def _run(self, work: Callable[[], T], failed: str) -> T:
        """``work()`` in a thread of the pool, within the time limit on that thread's CPU
        clock; :class:`BotFault` if it runs over or raises (``failed``: how to say so)."""
        loop = asyncio.get_running_loop()
        cpu: list[Callable[[], float | None]] = []  # the work's thread's clock, once it began

        def timed() -> T:
            cpu.append(thread_cpu_clock())
            return work()

        future = loop.run_in_executor(self._executor, timed)
        try:
            # Until a thread takes the work up, nothing counts but the wall-time cap.
            return await within_limit(future, self.timeout, lambda: cpu[0]() if cpu else 0.0)
        except OverTime as exc:
            raise BotFault(str(exc)) from exc
        except Exception as exc:
            raise BotFault(f"{failed}: {str(exc) or type(exc).__name__}") from exc

    async def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


# --- processes -----------------------------------------------------------------------------
class _WorkerDied(Exception):
    pass


@dataclass(eq=False)
class _Worker:
    process: asyncio.subprocess.Process
    jobs: int = 0
    busy: bool = field(default=False)
    ready: bool = field(default=False)

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.returncode is None

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()

    async def _line(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        try:
            line = await self.process.stdout.readline()
        except (ConnectionResetError, ValueError) as exc:  # ValueError: a line past the limit
            raise _WorkerDied(str(exc)) from exc
        if not line:
            raise _WorkerDied(f"worker {self.pid} ended")
        answer: dict[str, Any] = json.loads(line)
        return answer

    async def wait_ready(self) -> None:
        """A fresh worker says so once its imports are done: start-up is not thinking time."""
        if not self.ready:
            await self._line()
            self.ready = True

    async def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            await self.process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise _WorkerDied(str(exc)) from exc
        return await self._line()


class ProcessBots:
    """A fixed number of worker processes; dead ones are replaced, their move asked again."""

    def __init__(self, workers: int, *, timeout: float, tries: int = 3) -> None:
        self.size = max(1, workers)
        self.timeout = timeout
        self.tries = tries
        self.replaced = 0  # workers started to replace one that died or hung
        self._idle: asyncio.Queue[_Worker] = asyncio.Queue()
        self._all: set[_Worker] = set()
        self._closed = False
        self._jobs = 0

    async def start(self) -> None:
        """Start every worker now rather than on a player's move (they warm up in parallel)."""
        for _ in range(self.size):
            self._idle.put_nowait(await self._spawn())

    def pids(self) -> list[int]:
        return sorted(w.pid for w in self._all if w.alive())

    def busy_pids(self) -> list[int]:
        return sorted(w.pid for w in self._all if w.busy and w.alive())

    async def _spawn(self) -> _Worker:
        # The worker's stderr is the server's: a bot's traceback belongs in the server log.
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "frontlines.web.workers", str(os.getpid()),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=_LINE_LIMIT)
        worker = _Worker(process)
        self._all.add(worker)
        return worker

    async def _replace(self, worker: _Worker) -> None:
        worker.kill()
        self._all.discard(worker)
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            await worker.process.wait()
        if not self._closed:
            self.replaced += 1
            self._idle.put_nowait(await self._spawn())

    async def choose(self, spec: str, seed: int, seat: int, view: View) -> str:
        self._jobs += 1
        request = {"id": self._jobs, "spec": spec, "seed": seed, "seat": seat, "view": view.to_notation()}
        return str((await self._run(request))["text"])

    async def review(self, view: View, played: str, index: int, *, deals: int, width: int, seed: int) -> dict[str, Any]:
        self._jobs += 1
        request = {"id": self._jobs, "kind": "review", "view": view.to_notation(), "played": played, "index": index,
                   "deals": deals, "width": width, "seed": seed}
        review: dict[str, Any] = (await self._run(request))["review"]
        return review

    async def _run(self, request: dict[str, Any]) -> dict[str, Any]:
        """The answer of an idle worker to ``request`` (a worker that dies is replaced and
        the request asked again; a failure of the work itself is a :class:`BotFault`)."""
        for attempt in range(1, self.tries + 1):
            worker = await self._idle.get()
            if not worker.alive():  # died while idle: replace it first
                log.warning("bot worker %s had died (exit %s); replacing it", worker.pid, worker.process.returncode)
                await self._replace(worker)
                worker = await self._idle.get()
            worker.busy = True
            try:
                await asyncio.wait_for(worker.wait_ready(), _START_LIMIT)
                answer = await self._ask(worker, request)
            except _WorkerDied as exc:
                log.warning("bot worker died during a move (%s, try %d of %d); replacing it", exc, attempt, self.tries)
                await self._replace(worker)
                continue
            except (TimeoutError, OverTime) as exc:
                # A worker mid-search cannot be interrupted; a fresh one takes its place.
                await self._replace(worker)
                if not worker.ready:  # it never started: the server's fault, not the bot's
                    log.warning("bot worker %s did not start; replacing it", worker.pid)
                    continue
                raise BotFault(str(exc)) from exc
            except BaseException:
                # Cancelled (the server stops, the game ended): the worker's answer would
                # arrive for nobody, so it does not go back to the pool.
                await asyncio.shield(self._replace(worker))
                raise
            worker.busy = False
            worker.jobs += 1
            self._idle.put_nowait(worker)
            if "error" in answer:
                raise BotFault(f"bot crashed: {answer['error']}")
            return answer
        raise WorkerLost(f"bot workers died {self.tries} times on this move")

    async def _ask(self, worker: _Worker, request: dict[str, Any]) -> dict[str, Any]:
        """The worker's answer within the bot's limit, on the worker's own CPU time."""
        began = process_cpu(worker.pid)
        asking = asyncio.ensure_future(worker.ask(request))

        def used() -> float | None:
            now = process_cpu(worker.pid) if began is not None else None
            return None if now is None or began is None else now - began

        try:
            return await within_limit(asking, self.timeout, used)
        finally:
            if not asking.done():
                asking.cancel()
                with contextlib.suppress(BaseException):
                    await asking

    async def close(self) -> None:
        self._closed = True
        workers = list(self._all)
        for w in workers:
            if w.process.stdin is not None:
                w.process.stdin.close()  # end of file: the worker exits by itself
        for w in workers:
            try:
                await asyncio.wait_for(w.process.wait(), 2)
            except TimeoutError:
                w.kill()
                await w.process.wait()
        self._all.clear()


def make_bots(kind: str, workers: int, *, timeout: float) -> ThreadBots | ProcessBots:
    """``process`` (the default for servers) or ``thread`` bots; call ``start()`` inside the
    running event loop."""
    if kind == "process":
        return ProcessBots(workers, timeout=timeout)
    # Looked up now, not at import: a test may have swapped in a failing bot.
    return ThreadBots(workers, choose_action, timeout)


# --- the worker process --------------------------------------------------------------------
def _die_with_parent(parent: int) -> None:
    """Ask Linux to SIGKILL us when the parent dies; a no-op elsewhere (stdin EOF covers it)."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before we asked
        os._exit(1)


def _read_requests(jobs: queue.Queue[bytes]) -> None:
    """Pass request lines on; at end of file (the server closed us or died) end the process
    at once, even in the middle of a search."""
    for line in sys.stdin.buffer:
        jobs.put(line)
    os._exit(0)


def worker_main(parent: int) -> None:
    _die_with_parent(parent)
    # Answers go on a private copy of stdout; anything a bot prints goes to stderr instead
    # of into the protocol.
    answers: IO[bytes] = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    jobs: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=_read_requests, args=(jobs,), daemon=True, name="lifeline").start()
    import frontlines.bots.registry
    import frontlines.games

    frontlines.games.all_rulesets()  # warm: the first real move is quick
    del frontlines.bots.registry
    answers.write(b'{"ready": true}\n')
    answers.flush()
    while True:
        request = json.loads(jobs.get())
        try:
            answer: dict[str, Any]
            if request.get("kind") == "review":
                answer = {"id": request["id"], "review": review_move(
                    request["view"], request["played"], request["index"], request["deals"], request["width"],
                    request["seed"])}
            else:
                answer = {"id": request["id"], "text": choose_action(
                    request["spec"], request["seed"], request["seat"], request["view"])}
        except Exception as exc:  # the bot's fault: say so, and stay up for the next move
            answer = {"id": request["id"], "error": str(exc) or type(exc).__name__}
        answers.write(json.dumps(answer).encode() + b"\n")
        answers.flush()


if __name__ == "__main__":
    worker_main(int(sys.argv[1]))
