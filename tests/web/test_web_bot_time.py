"""A bot's time limit is on its own work: the CPU time of its thread or worker process,
not the time the machine gave to others; wall time has a cap, WALL_FACTOR times the limit.
The clocks are injected: no test here depends on how fast the machine is."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable

import pytest

from frontlines.web.workers import WALL_FACTOR, OverTime, process_cpu, thread_cpu_clock, within_limit

LIMIT = 30.0


class Machine:
    """Wall time that moves only when the server waits, a bot that gets ``share`` of each
    second (its own CPU time), and answers once it has worked ``work`` seconds."""

    def __init__(self, share: float, work: float | None, cpu_clock: bool = True) -> None:
        self.now = 1000.0
        self.cpu = 0.0
        self.share = share
        self.work = work
        self.cpu_clock = cpu_clock
        self.looks = 0

    def clock(self) -> float:
        return self.now

    def used(self) -> float | None:
        return self.cpu if self.cpu_clock else None

    async def wait(self, task: asyncio.Future[object], seconds: float) -> bool:
        self.looks += 1
        self.now += seconds
        self.cpu += self.share * seconds
        if self.work is not None and self.cpu >= self.work and not task.done():
            task.set_result("R1@1")
        return task.done()


def run(machine: Machine) -> tuple[object, float]:
    """The answer (or the OverTime), and the wall time it came at."""

    async def main() -> tuple[object, float]:
        task: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        start = machine.now
        try:
            answer: object = await within_limit(task, LIMIT, machine.used, clock=machine.clock, wait=machine.wait)
        except OverTime as exc:
            answer = exc
        return answer, machine.now - start

    return asyncio.run(main())


def test_a_starved_bot_within_its_own_limit_is_not_forfeited() -> None:
    # A fifth of a core: 20 s of its own work take 100 s, past the old 30 s wall limit.
    answer, took = run(Machine(share=0.2, work=20.0))
    assert answer == "R1@1" and took == pytest.approx(100.0, abs=1.0)


def test_a_bot_that_works_past_its_limit_forfeits_at_its_limit() -> None:
    machine = Machine(share=1.0, work=None)
    answer, took = run(machine)
    assert isinstance(answer, OverTime) and "of its own time, over its limit of 30 s" in str(answer)
    assert took == pytest.approx(LIMIT, abs=0.1)
    assert machine.looks <= 3  # it waits until the limit could be reached, not in small steps


def test_a_starved_bot_over_its_limit_forfeits_when_its_own_time_is_spent() -> None:
    answer, took = run(Machine(share=0.5, work=None))
    assert isinstance(answer, OverTime) and "of its own time" in str(answer)
    assert took == pytest.approx(2 * LIMIT, abs=0.2)


def test_a_bot_that_does_not_work_meets_the_wall_cap() -> None:
    answer, took = run(Machine(share=0.0, work=None))
    assert isinstance(answer, OverTime) and f"no answer within {WALL_FACTOR * LIMIT:g} s" in str(answer)
    assert took == pytest.approx(WALL_FACTOR * LIMIT, abs=0.1)
    # ... and one that answers before it, however little it worked, is not forfeited.
    answer, _ = run(Machine(share=0.01, work=1.0))
    assert answer == "R1@1"


def test_without_a_cpu_clock_the_limit_is_on_wall_time() -> None:
    answer, took = run(Machine(share=0.2, work=25.0, cpu_clock=False))
    assert isinstance(answer, OverTime) and "no answer within 30 s" in str(answer)
    assert took == pytest.approx(LIMIT, abs=0.1)


def burn(until: Callable[[], bool]) -> None:
    while not until():
        sum(range(1000))


def test_a_threads_cpu_time_is_read_from_another_thread() -> None:
    clocks: list[Callable[[], float | None]] = []
    worked, release = threading.Event(), threading.Event()

    def bot() -> None:
        clocks.append(thread_cpu_clock())
        began = time.thread_time()
        burn(lambda: time.thread_time() - began >= 0.05)
        worked.set()
        release.wait(120)  # waits: uses no CPU while the main thread works

    thread = threading.Thread(target=bot)
    thread.start()
    try:
        assert worked.wait(120)
        used = clocks[0]()
        if used is None:
            pytest.skip("no per-thread CPU clock on this platform")
        assert used >= 0.05
        mine = time.thread_time()
        burn(lambda: time.thread_time() - mine >= 0.2)  # the main thread's work is not the bot's
        again = clocks[0]()
        assert again is not None and again - used < 0.1
    finally:
        release.set()
        thread.join()


def test_a_process_cpu_time_counts_its_own_work() -> None:
    before = process_cpu(os.getpid())
    if before is None:
        pytest.skip("no /proc on this platform")
    began = time.process_time()
    burn(lambda: time.process_time() - began >= 0.2)
    after = process_cpu(os.getpid())
    assert after is not None and after - before >= 0.1  # clock ticks are coarser than process_time
    assert process_cpu(2**22 + 12345) is None  # no such process
