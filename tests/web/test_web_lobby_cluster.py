"""The lobby on two processes sharing one PostgreSQL: a seek posted through one is taken
through the other, two takers at once make one game, and a creator who leaves (or whose
process is killed) takes its seek off every process's list."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from test_web_lobby import DEADLINE, QUICK, Page, page_opener
from webhelpers import LiveServer, free_port, http_json

from conftest import _fresh_pg_database
from frontlines.web.store import GameRow, SeekRow, Store

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_url(pg_server: str) -> str:
    return _fresh_pg_database(pg_server)


@pytest.fixture
def pair(pg_url: str) -> Iterator[tuple[LiveServer, LiveServer]]:
    with LiveServer(pg_url, lobby=QUICK) as a, LiveServer(pg_url, lobby=QUICK) as b:
        yield a, b


@pytest.fixture
def pages() -> Iterator[Callable[[LiveServer | int], Page]]:
    with page_opener() as page:
        yield lambda server: page(server if isinstance(server, int) else server.port)


def post(page: Page, **fields: Any) -> dict[str, Any]:
    page.send(**{"type": "seek", "ruleset": "battleline-basic", "clock": "300+3", **fields})
    msg = page.expect(lambda m: m["type"] in ("posted", "error"), "posted")
    assert msg["type"] == "posted", msg
    return msg


def lobby_games(store: Store) -> int:
    with store.engine.connect() as conn:
        return int(conn.scalar(select(func.count()).select_from(GameRow).where(GameRow.opponent == "lobby")) or 0)


def test_a_seek_posted_on_one_process_is_taken_on_the_other(pair: tuple[LiveServer, LiveServer],
                                                              pages: Callable[[LiveServer | int], Page]) -> None:
    a, b = pair
    ann, bob = pages(a), pages(b)
    posted = post(ann, name="Ann", seat="1")
    seek_id, token = posted["seek"]["id"], posted["token"]
    bob.until_listed(lambda seeks: seek_id in seeks, "a's seek on b")
    assert bob.listed[seek_id] == posted["seek"]
    bob.send(type="accept", id=seek_id, name="Bob")
    mine = bob.of_type("matched")
    theirs = ann.of_type("matched")  # a hears it from b through the database
    assert theirs["game"] == mine["game"] and (theirs["seat"], mine["seat"]) == (1, 0)
    # the creator's token, which never left a, seats it on either process
    for server in (a, b):
        view = http_json(server.base, f"/api/games/{mine['game']}?t={token}", timeout=DEADLINE)
        assert view["role"] == 1 and view["names"] == ["Bob", "Ann"]
    ann.until_listed(lambda seeks: seek_id not in seeks, "the taken seek gone on a")
    # and they play: a move through a (whoever is to move) reaches the other on b
    game_id = mine["game"]
    tokens = {0: mine["token"], 1: token}
    mover = http_json(a.base, f"/api/games/{game_id}", timeout=DEADLINE)["view"]["to_move"]
    legal = http_json(a.base, f"/api/games/{game_id}?t={tokens[mover]}", timeout=DEADLINE)["view"]["legal"]
    moved = http_json(a.base, f"/api/games/{game_id}/action", {"t": tokens[mover], "text": legal[0]["text"]},
                      timeout=DEADLINE)
    assert moved["ply"] == 1
    end = time.monotonic() + DEADLINE
    while http_json(b.base, f"/api/games/{game_id}?t={tokens[1 - mover]}", timeout=DEADLINE)["ply"] != 1:
        assert time.monotonic() < end
        time.sleep(0.05)
    store = a.app.state.manager.store
    assert lobby_games(store) == 1


def take(page: Page, seek_id: str, start: threading.Barrier, answers: list[dict[str, Any]]) -> None:
    start.wait()
    page.send(type="accept", id=seek_id)
    answers.append(page.expect(lambda m: m["type"] in ("matched", "error"), "an answer"))


def test_two_takers_at_once_make_one_game(pair: tuple[LiveServer, LiveServer],
                                          pages: Callable[[LiveServer | int], Page]) -> None:
    a, b = pair
    creator = pages(a)
    takers = [pages(a), pages(b)]
    store = a.app.state.manager.store
    rounds = 4
    for n in range(rounds):
        seek_id = post(creator, name=f"C{n}")["seek"]["id"]
        for t in takers:
            t.until_listed(lambda seeks, i=seek_id: i in seeks, "the seek on both")
        answers: list[dict[str, Any]] = []
        start = threading.Barrier(2)
        threads = [threading.Thread(target=take, args=(t, seek_id, start, answers)) for t in takers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        won = [m for m in answers if m["type"] == "matched"]
        lost = [m for m in answers if m["type"] == "error"]
        assert len(won) == 1 and len(lost) == 1, answers
        assert lost[0]["code"] == "seek_gone"
        assert creator.of_type("matched")["game"] == won[0]["game"]
        assert lobby_games(store) == n + 1  # nothing doubled
    with store.engine.connect() as conn:
        taken = conn.scalar(select(func.count()).select_from(SeekRow).where(SeekRow.game_id.is_not(None)))
    assert taken == rounds


def test_a_creator_who_leaves_is_gone_from_both_processes(pair: tuple[LiveServer, LiveServer],
                                                         pages: Callable[[LiveServer | int], Page]) -> None:
    a, b = pair
    ann = pages(a)
    watchers = [pages(a), pages(b)]
    seek_id = post(ann)["seek"]["id"]
    for w in watchers:
        w.until_listed(lambda seeks: seek_id in seeks, "the seek")
    ann.close()
    for w in watchers:
        w.until_listed(lambda seeks: seek_id not in seeks, "the seek of a creator who left")
    # a creator back in time, through the other process, keeps it
    ann2 = pages(a)
    posted = post(ann2)
    ann2.close()
    back = pages(b)
    back.send(type="resume", seeks=[{"id": posted["seek"]["id"], "token": posted["token"]}])
    assert back.of_type("held")["seek"]["id"] == posted["seek"]["id"]
    time.sleep(QUICK.grace * 3)
    for w in watchers:
        w.settle()
        assert posted["seek"]["id"] in w.listed
    watchers[0].send(type="accept", id=posted["seek"]["id"])
    assert back.of_type("matched")["game"] == watchers[0].of_type("matched")["game"]


SEEK_LEASE = 2.0


@contextlib.contextmanager
def serve(pg_url: str, log: Path, *options: str) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """A real ``frontlines serve`` on ``pg_url`` (schema made first, as `frontlines db upgrade`
    does), once it answers; killed at the end if it still runs."""
    Store(pg_url).close()
    port = free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "frontlines", "serve", "--port", str(port), "--database",
                                 pg_url, "--bot-threads", "--log-level", "warning", "--new-games-per-minute", "0",
                                 "--shutdown-grace", "0", *options], stdout=out, stderr=subprocess.STDOUT)
    try:
        end = time.monotonic() + 120
        while True:
            try:
                http_json(f"http://127.0.0.1:{port}", "/api/seeks", timeout=5)
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < end, log.read_text()[-2000:]
                time.sleep(0.1)
        yield proc, port
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)


def test_a_killed_process_s_seeks_are_swept_by_the_other(pg_url: str, tmp_path: Path,
                                                         pages: Callable[[LiveServer | int], Page]) -> None:
    with serve(pg_url, tmp_path / "serve.log", "--seek-lease", str(SEEK_LEASE), "--seek-grace", "60") as (victim, port), \
            LiveServer(pg_url, lobby=QUICK) as b:
        ann, bob = pages(port), pages(b)
        seek_id = post(ann)["seek"]["id"]
        bob.until_listed(lambda seeks: seek_id in seeks, "the seek on b")
        os.kill(victim.pid, signal.SIGKILL)  # its pages' sockets vanish without a word
        victim.wait(timeout=30)
        killed = time.monotonic()
        bob.until_listed(lambda seeks: seek_id not in seeks, "the dead process's seek swept")
        # within its lease and a sweep or so (the grace of 60 s never started: nobody said goodbye)
        assert time.monotonic() - killed < 30


def test_a_stopping_process_hands_its_seeks_over(pg_url: str, tmp_path: Path,
                                                 pages: Callable[[LiveServer | int], Page]) -> None:
    """SIGTERM: the pages are told to reconnect (1012, with its reason) and their seeks get
    the grace, not the lease: one page that comes back to the other process holds its seek
    there and is paired from there; one that does not come back leaves the lobby soon."""
    from websockets.exceptions import ConnectionClosed

    with serve(pg_url, tmp_path / "serve.log", "--seek-grace", "4", "--seek-lease", "120") as (stopping, port), \
            LiveServer(pg_url, lobby=QUICK) as b:
        ann, gone, bob = pages(port), pages(port), pages(b)
        posted = post(ann, name="Ann")
        seek_id, left_id = posted["seek"]["id"], post(gone)["seek"]["id"]
        bob.until_listed(lambda seeks: {seek_id, left_id} <= set(seeks), "both seeks on b")
        stopping.send_signal(signal.SIGTERM)
        with pytest.raises(ConnectionClosed) as closed:
            ann.expect(lambda _: False, "the close", within=60)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1012, "server restarting; reconnect")
        back = pages(b)
        back.send(type="resume", seeks=[{"id": seek_id, "token": posted["token"]}])
        assert back.of_type("held")["seek"]["id"] == seek_id
        stopped = time.monotonic()
        bob.until_listed(lambda seeks: left_id not in seeks, "the seek whose page did not come back")
        assert time.monotonic() - stopped < 60  # its grace (4 s) and a sweep, not its lease (120 s)
        bob.settle()
        assert seek_id in bob.listed  # the one taken over never left the lobby
        bob.send(type="accept", id=seek_id)
        assert back.of_type("matched")["game"] == bob.of_type("matched")["game"]
        stopping.wait(timeout=60)
