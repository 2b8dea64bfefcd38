"""Running the server for real: health probes, one process per SQLite file, and start-up
errors through the real command line (one line, exit 2, no traceback, no port bound)."""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import websockets.sync.client
from sqlalchemy import create_engine, text
from webhelpers import free_port, make_client

from frontlines.web import health
from frontlines.web.database import normalise_url

START_LIMIT = 90.0  # seconds a `frontlines serve` may take to import and answer on a busy machine


def frontlines(*args: str) -> list[str]:
    return [sys.executable, "-m", "frontlines.cli", *args]


def serve_args(url: str, port: int) -> list[str]:
    return frontlines("serve", "--database", url, "--port", str(port), "--bot-threads", "--log-level", "warning")


def get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def readyz(port: int) -> tuple[int, str]:
    """/readyz of a served process, asked until it says ready (or a generous while has passed):
    its probe gives the database 3 s, which a loaded machine can take, and it then answers 503."""
    deadline = time.monotonic() + START_LIMIT
    while (answer := get(port, "/readyz"))[0] != 200 and time.monotonic() < deadline:
        time.sleep(0.2)
    return answer


@contextmanager
def serving(url: str, *more: str) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """A real `frontlines serve` process (with the options ``more``), once it answers /healthz."""
    port = free_port()
    proc = subprocess.Popen([*serve_args(url, port), *more], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + START_LIMIT
        while True:
            assert proc.poll() is None, f"serve exited {proc.returncode}: {proc.communicate()}"
            try:
                if get(port, "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "serve did not answer"
            time.sleep(0.2)
        yield proc, port
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        proc.communicate()


def refused(args: list[str], status: int = 2) -> str:
    """Run a command that must stop at once: answer its one line on stderr."""
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    output = done.stdout + done.stderr
    assert "Traceback" not in output, output
    assert done.returncode == status, output
    assert "Frontlines: http" not in done.stdout, "the server got as far as announcing itself"
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("frontlines "), output
    return lines[0]


# --- /healthz and /readyz --------------------------------------------------------------
def set_revision(url: str, statement: str) -> None:
    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        conn.execute(text(statement))
    engine.dispose()


def test_readyz_says_whether_the_database_is_usable(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Not the probe's own time limit (its test is below): on a loaded machine one /readyz took
    # up to 4.6 s against the 3 s limit, and answered "did not answer" instead.
    monkeypatch.setattr(health, "READY_TIMEOUT", 300.0)
    with make_client(db_url) as client:
        assert client.get("/healthz").json() == {"status": "alive"}
        ready = client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "ready" and ready.json()["revision"]
        assert ready.headers["cache-control"] == "no-store"

        set_revision(db_url, "UPDATE alembic_version SET version_num = 'f00dnext'")
        # Migrated for the next release while this one runs (a rolling deploy): still ready.
        late = client.get("/readyz")
        assert late.status_code == 200 and late.json()["revision"] == "f00dnext" and "newer" in late.json()["note"]
        set_revision(db_url, "DELETE FROM alembic_version")  # say, a backup from before migrations restored
        behind = client.get("/readyz")
        assert behind.status_code == 503 and behind.json()["status"] == "unavailable"
        assert "from before migrations" in behind.json()["reason"]

        manager = client.app.state.manager  # type: ignore[attr-defined]
        manager.draining = True  # a process told to stop (SIGTERM) takes no new clients
        assert client.get("/readyz").json() == {"status": "unavailable", "reason": "starting or shutting down"}
        manager.draining = False

        store = manager.store
        kept = store.engine
        store.engine = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none", connect_args={"connect_timeout": 2})
        try:
            gone = client.get("/readyz")
            assert gone.status_code == 503 and gone.json() == {"status": "unavailable", "reason": "database unreachable"}
            assert client.get("/healthz").status_code == 200  # alive all the same: no restart for a database outage
        finally:
            store.engine.dispose()
            store.engine = kept


def test_readyz_gives_up_on_a_database_that_does_not_answer_in_time(sqlite_url: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health, "READY_TIMEOUT", 0.05)
    with make_client(sqlite_url) as client:
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        answered = store.ready
        release = threading.Event()

        def stuck() -> object:
            release.wait(60)  # a database that takes its time
            return answered()

        monkeypatch.setattr(store, "ready", stuck)
        try:
            slow = client.get("/readyz")
        finally:
            release.set()
        assert slow.status_code == 503
        assert slow.json() == {"status": "unavailable", "reason": "database did not answer within 0.05 s"}
        assert client.get("/healthz").status_code == 200


# --- SQLite: one server process per file -------------------------------------------------
def test_a_second_server_on_the_same_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'one.db'}"
    with serving(url) as (first, port):
        line = refused(serve_args(url, free_port()))
        assert f"in use by another frontlines process (pid {first.pid})" in line
        line = refused(frontlines("db", "upgrade", "--database", url))
        assert "in use by another frontlines process" in line
        assert readyz(port)[0] == 200  # the first is untouched
        first.send_signal(signal.SIGKILL)  # the kernel drops the lock with the process
        first.wait(timeout=30)
    with serving(url) as (_, port):
        assert readyz(port)[0] == 200
    with serving(f"sqlite:///{tmp_path / 'other.db'}"):  # another file is another matter
        pass


# --- bad input at start-up ----------------------------------------------------------------
@pytest.mark.parametrize(("url", "words", "status"), [
    ("mysql://ann@localhost/games", "unsupported database 'mysql'", 2),
    ("not a url", "not a database URL", 2),
    ("sqlite+nonsense:///games.db", "SQLite is reached through", 2),
    ("sqlite:////nonexistent/dir/games.db", "cannot open the SQLite database /nonexistent/dir/games.db", 2),
    # Nothing to fix in the command: 1, so a service manager tries again later.
    ("postgresql://ann:secret@127.0.0.1:1/games", "cannot reach the database postgresql://ann:***@127.0.0.1:1/games", 1),
])
def test_a_bad_database_stops_the_server_in_one_line(url: str, words: str, status: int, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    from frontlines.cli import main

    def half_started(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server was started")

    # Wherever serve hands the app over (uvicorn.run, or a Server of its own), binding the port goes through here.
    monkeypatch.setattr(uvicorn, "run", half_started)
    monkeypatch.setattr(uvicorn.Server, "startup", half_started)
    assert main(["serve", "--database", url, "--port", str(free_port())]) == status
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("frontlines serve: ")
    assert words in err and "secret" not in err


def test_one_line_through_a_real_process() -> None:
    assert "unsupported database 'mysql'" in refused(serve_args("mysql://ann@localhost/games", free_port()))


def test_a_port_in_use_stops_the_server_before_it_starts(tmp_path: Path) -> None:
    """A port another process listens on is one line and exit 1 (it may pass: the server
    before is still stopping), before the banner and the app's start-up (it was uvicorn's
    error after "Application startup complete"); a host this machine does not have is exit 2."""
    url = f"sqlite:///{tmp_path / 'g.db'}"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = frontlines("serve", "--database", url, "--port", str(port), "--bot-threads")  # uvicorn's info lines
        line = refused(args, status=1)
    assert f"port {port} is in use on 127.0.0.1" in line and "--port" in line
    assert "cannot listen on 192.0.2.1:" in refused([*serve_args(url, free_port()), "--host", "192.0.2.1"])


def test_a_client_that_sends_its_headers_slowly_is_cut_off(tmp_path: Path) -> None:
    """A slowloris: 100 connections that send a request's headers one line every 0.3 s. With
    --header-timeout 1 each is answered 408 and closed once its headers are a second late (a
    loaded machine may take longer; without the deadline none ever closes), while a plain
    request is answered and a WebSocket game, whose headers came at once, stays open."""
    with serving(f"sqlite:///{tmp_path / 'g.db'}", "--header-timeout", "1") as (_proc, port):
        slow = []
        for _ in range(100):
            sock = socket.create_connection(("127.0.0.1", port), timeout=60)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            slow.append(sock)
        game = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"http://127.0.0.1:{port}/api/games", data=json.dumps({"ruleset": "battleline-basic", "opponent": "friend"}).encode(),
            headers={"Content-Type": "application/json"}), timeout=60).read())
        with websockets.sync.client.connect(f"ws://127.0.0.1:{port}/ws/{game['id']}?t={game['token']}",
                                            open_timeout=60) as ws:
            assert json.loads(ws.recv(timeout=60))["type"] == "view"
            answers: dict[socket.socket, bytes] = {}
            started = time.monotonic()
            while len(answers) < len(slow) and time.monotonic() - started < 60:
                for sock in slow:
                    if sock in answers:
                        continue
                    if select.select([sock], [], [], 0)[0]:  # the server answered, or closed
                        answers[sock] = sock.recv(4096)
                        continue
                    try:
                        sock.sendall(b"X-Slow: 1\r\n")
                    except OSError:  # closed under us: read what was said
                        answers[sock] = b"closed"
                time.sleep(0.3)
            assert len(answers) == len(slow), f"{len(slow) - len(answers)} slow connections still open after 60 s"
            assert all(a.startswith(b"HTTP/1.1 408") or a in (b"", b"closed") for a in answers.values())
            assert sum(a.startswith(b"HTTP/1.1 408") for a in answers.values()) > len(slow) // 2
            assert get(port, "/healthz")[0] == 200
            ws.send(json.dumps({"type": "ping"}))  # open well past the deadline
            assert json.loads(ws.recv(timeout=60)) == {"type": "pong"}
        for sock in slow:
            sock.close()


def test_a_sqlite_schema_newer_than_the_code_stops_the_server(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'newer.db'}"
    assert subprocess.run(frontlines("db", "upgrade", "--database", url), capture_output=True, timeout=120).returncode == 0
    set_revision(url, "UPDATE alembic_version SET version_num = 'f00dnext'")
    line = refused(serve_args(url, free_port()))
    assert "f00dnext, which this version of frontlines does not know" in line


@pytest.mark.postgres
def test_postgresql_is_migrated_by_db_upgrade_not_by_serve(pg_server: str) -> None:
    """The deploy sequence: `serve` refuses a schema that is not up to date; `db upgrade`; `serve`."""
    from conftest import _fresh_pg_database

    url = _fresh_pg_database(pg_server)
    line = refused(serve_args(url, free_port()))
    assert "empty" in line and "run `frontlines db upgrade`" in line
    done = subprocess.run(frontlines("db", "upgrade", "--database", url), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "now at revision" in done.stdout, done.stdout + done.stderr
    with serving(url) as (_, port):
        status, body = readyz(port)
        assert status == 200 and '"ready"' in body
        with serving(url) as (_, second):  # PostgreSQL takes several processes
            assert readyz(second)[0] == 200
    set_revision(url, "UPDATE alembic_version SET version_num = 'f00dnext'")
    assert "does not know" in refused(serve_args(url, free_port()))


def test_the_lock_is_per_process_not_per_store(tmp_path: Path) -> None:
    """Tools and tests may open one SQLite file twice in one process; the lock lasts until the last closes."""
    from frontlines.web.database import DatabaseError, lock_sqlite, unlock_sqlite

    url = f"sqlite:///{tmp_path / 'count.db'}"
    probe = [sys.executable, "-c", "import sys; from frontlines.web.database import lock_sqlite; lock_sqlite(sys.argv[1])", url]
    first, second = lock_sqlite(url), lock_sqlite(url)
    assert first == second == os.path.realpath(tmp_path / "count.db")
    unlock_sqlite(first)
    assert "DatabaseError" in subprocess.run(probe, capture_output=True, text=True, timeout=60).stderr
    unlock_sqlite(second)
    assert subprocess.run(probe, capture_output=True, timeout=60).returncode == 0
    with pytest.raises(DatabaseError):  # an unreadable URL never reaches the file system
        lock_sqlite("sqlite+nonsense:///x")
