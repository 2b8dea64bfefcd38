"""A page whose server process stops (SIGTERM) carries on by itself through another process.

Two server processes share one PostgreSQL database behind a load balancer as small as a
test needs (a loopback port whose connections go to the first process that accepts one).
A real ``frontlines serve`` process is stopped the polite way in the middle of a game
against a bot: it tells the page to reconnect (close code 1012), the page does so by
itself, without a reload, reaches the other process, and the game goes on there.
"""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_e2e import CHROMIUM, browser, click_one_move, new_page, start_game, wait_turn  # noqa: F401 (fixture)
from webhelpers import LiveServer, free_port

from conftest import _fresh_pg_database

pytestmark = [pytest.mark.e2e, pytest.mark.postgres,
              pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed")]

START_LIMIT = 120.0  # seconds a `frontlines serve` may take to import and answer on a busy machine
TIMEOUT = 60_000  # ms for the page to get somewhere: a busy machine is slow, polling ends sooner

# The page's WebSockets as it sees them (opened, closed with which code), and a mark that a
# reload would wipe out.
WATCH_SOCKETS = """
window.closeCodes = [];
window.opened = 0;
window.notReloaded = true;
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("open", () => { window.opened += 1; });
    this.addEventListener("close", (ev) => window.closeCodes.push(ev.code));
  }
};
"""


class Balancer:
    """Forwards each connection to the first of ``ports`` that accepts it, byte for byte."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):  # closed at the end of the test
            while True:
                client, _ = self.listener.accept()
                for port in self.ports:
                    try:
                        backend = socket.create_connection(("127.0.0.1", port), timeout=5)
                        break
                    except OSError:
                        continue
                else:
                    client.close()
                    continue
                backend.settimeout(None)
                self.sockets += [client, backend]
                for a, b in ((client, backend), (backend, client)):
                    threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)  # the other side's end, passed on

    def close(self) -> None:
        self.listener.close()
        for s in self.sockets:
            with contextlib.suppress(OSError):
                s.close()


def serve(url: str, log: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    args = [sys.executable, "-m", "frontlines.cli", "serve", "--database", url, "--port", str(port), "--bot-threads",
            "--bot-delay", "0", "--shutdown-grace", "0", "--log-level", "warning"]
    with log.open("wb") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + START_LIMIT
    while True:
        assert proc.poll() is None, f"serve exited {proc.returncode}: {log.read_text()}"
        with contextlib.suppress(OSError), urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=10) as r:
            if r.status == 200:
                return proc, port
        assert time.monotonic() < deadline, "serve did not answer"
        time.sleep(0.2)


@pytest.fixture
def two_processes(pg_server: str, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], LiveServer, Balancer]]:
    url = _fresh_pg_database(pg_server)
    with LiveServer(url) as other:  # migrates the new database as it starts
        first, port = serve(url, tmp_path / "serve.log")
        balancer = Balancer([port, other.port])
        try:
            yield first, other, balancer
        finally:
            balancer.close()
            if first.poll() is None:
                first.kill()
            first.wait(timeout=30)


def test_a_page_reconnects_by_itself_when_its_process_stops(
        browser: Any, two_processes: tuple[subprocess.Popen[bytes], LiveServer, Balancer]) -> None:  # noqa: F811
    first, other, balancer = two_processes
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.add_init_script(WATCH_SOCKETS)
    start_game(page, f"http://127.0.0.1:{balancer.port}", "battleline-basic", "bot")
    game_id = page.evaluate("location.pathname.split('/').pop()")
    for _ in range(3):  # a few moves through the first process
        assert wait_turn(page) == "me"
        click_one_move(page)
    played = int(page.get_attribute("#table", "data-ply"))
    # Counted before the stop: the page comes back within a second of the close, which can be
    # before the process has finished stopping (and before the test looks again).
    opened = page.evaluate("window.opened")

    first.send_signal(signal.SIGTERM)
    # uvicorn raises the signal again once it has stopped, as the convention for a parent.
    assert first.wait(timeout=60) in (0, -signal.SIGTERM)
    # The process said "service restart" (not a dropped connection), and the page came back
    # by itself, to the other process: the game goes on there.
    page.wait_for_function("window.closeCodes.includes(1012)", timeout=TIMEOUT)
    page.wait_for_function(f"window.opened > {opened}", timeout=TIMEOUT)
    moves = 0
    while moves < 3 and wait_turn(page) == "me":
        click_one_move(page)
        moves += 1
    now = int(page.get_attribute("#table", "data-ply"))
    assert now > played and moves > 0
    assert page.evaluate("window.notReloaded") is True
    with urllib.request.urlopen(f"{other.base}/api/games/{game_id}", timeout=30) as r:
        stored = json.loads(r.read())
    assert stored["ply"] >= now and stored["status"] in ("active", "finished")
    assert page.errors == []
