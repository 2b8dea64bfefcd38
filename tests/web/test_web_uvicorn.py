"""The app under plain uvicorn (``uvicorn frontlines.web.app:app_from_env --factory``)
stops as politely as ``frontlines serve``: on SIGTERM its bot turns are handed over first,
then every client is told to reconnect (close 1012 with the reason), then uvicorn ends.
Real uvicorn processes: only they get the signal the way an operator's would."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from webhelpers import LiveServer, close_frame, free_port, http_json

from frontlines.web.database import normalise_url
from frontlines.web.fanout import RESTART_REASON
from frontlines.web.store import BotLease, Store

ws_client = pytest.importorskip("websockets.sync.client")

WAIT = 120.0  # seconds for any one event on a loaded machine; it normally comes at once


def http(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    return http_json(base, path, body, timeout=WAIT)


@contextmanager
def uvicorn_process(url: str, log: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``uvicorn …:app_from_env --factory`` on a free port, its settings from the environment;
    its bot thinks for an hour, so a bot turn is surely in progress when it is stopped."""
    port = free_port()
    env = {**os.environ, "FRONTLINES_DATABASE": url, "FRONTLINES_SEEDED_DEALS": "1", "FRONTLINES_BOT_THREADS": "1",
           "FRONTLINES_BOT_DELAY": "3600", "FRONTLINES_SHUTDOWN_GRACE": "0", "FRONTLINES_NEW_GAMES_PER_MINUTE": "0"}
    with log.open("wb") as out:
        popen = subprocess.Popen([sys.executable, "-m", "uvicorn", "frontlines.web.app:app_from_env", "--factory",
                                  "--host", "127.0.0.1", "--port", str(port)], env=env, stdout=out,
                                 stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + WAIT
        while True:
            assert popen.poll() is None, log.read_text()
            try:
                http(base, "/healthz")
                break
            except OSError:
                assert time.monotonic() < end, "uvicorn did not start"
                time.sleep(0.1)
        yield popen, base
    finally:
        if popen.poll() is None:
            popen.kill()
        popen.wait(timeout=WAIT)


def bot_to_move(base: str) -> dict[str, Any]:
    """A game against a bot, played by us until the bot is to move."""
    game = http(base, "/api/games", {"ruleset": "battleline-basic", "opponent": "bot:random", "seat": "1", "seed": 5})
    while True:
        view = http(base, f"/api/games/{game['id']}?t={game['token']}")
        if not view["view"]["legal"]:
            return game
        http(base, f"/api/games/{game['id']}/action",
             {"t": game["token"], "text": view["view"]["legal"][0]["text"], "ply": view["ply"]})


def stop_politely(popen: subprocess.Popen[bytes], base: str, game: dict[str, Any]) -> None:
    """SIGTERM while a seat is connected and the bot thinks: the seat hears why it is closed."""
    port = base.rsplit(":", 1)[1]
    with ws_client.connect(f"ws://127.0.0.1:{port}/ws/{game['id']}?t={game['token']}",
                           open_timeout=WAIT, close_timeout=5) as ws:
        assert json.loads(ws.recv(timeout=WAIT))["type"] == "view"  # it is being served
        popen.send_signal(signal.SIGTERM)
        assert close_frame(ws, WAIT) == (1012, RESTART_REASON)
    # uvicorn raises the signal again once it has stopped, as the convention for a parent.
    assert popen.wait(timeout=WAIT) in (0, -signal.SIGTERM)


def test_sigterm_under_plain_uvicorn_tells_clients_why(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.db'}"
    with uvicorn_process(url, tmp_path / "uvicorn.log") as (popen, base):
        game = bot_to_move(base)
        stop_politely(popen, base, game)
    log = (tmp_path / "uvicorn.log").read_text()
    assert "Traceback" not in log and "Logging error" not in log


@pytest.mark.postgres
def test_sigterm_under_plain_uvicorn_hands_the_bot_turn_over_first(pg_server: str, tmp_path: Path) -> None:
    """By the time a client hears 1012, the bot turn is free for another process; one that
    starts then plays it, and the client, reconnected there, carries on."""
    from conftest import _fresh_pg_database

    url = _fresh_pg_database(pg_server)
    Store(url).close()  # `frontlines db upgrade`: a factory app does not migrate PostgreSQL
    with uvicorn_process(url, tmp_path / "uvicorn.log") as (popen, base):
        game = bot_to_move(base)
        stop_politely(popen, base, game)
    engine = create_engine(normalise_url(url))
    with engine.connect() as conn:
        lease = conn.execute(select(BotLease.owner, BotLease.expires).where(BotLease.game_id == game["id"])).one()
    engine.dispose()
    assert tuple(lease) == ("", 0.0)  # released, not left to expire
    with LiveServer(url) as other:
        port = other.port
        with ws_client.connect(f"ws://127.0.0.1:{port}/ws/{game['id']}?t={game['token']}",
                               open_timeout=WAIT, close_timeout=5) as ws:
            while True:
                view = json.loads(ws.recv(timeout=WAIT))
                if view["type"] == "view" and view["view"]["legal"]:
                    break  # the bot moved there: our turn again
    log = (tmp_path / "uvicorn.log").read_text()
    assert "Traceback" not in log and "Logging error" not in log


def test_a_draining_process_sends_a_new_websocket_elsewhere(sqlite_url: str) -> None:
    """Under plain uvicorn the listening socket may still take a connection during the drain."""
    from starlette.websockets import WebSocketDisconnect
    from webhelpers import make_client

    with make_client(sqlite_url) as client:
        game = client.post("/api/games", json={"ruleset": "battleline-basic", "opponent": "hotseat"}).json()
        client.app.state.manager.draining = True  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{game['id']}?t={game['token']}") as ws, \
                pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert (closed.value.code, closed.value.reason) == (1012, RESTART_REASON)


@pytest.mark.parametrize(("variables", "words", "status"), [
    ({"FRONTLINES_DATABASE": "mysql://x/y"}, "unsupported database 'mysql'", 2),
    ({"FRONTLINES_DATABASE": "postgresql://nobody@127.0.0.1:1/none"}, "cannot reach the database", 1),
    ({"FRONTLINES_BOT_LEASE": "soon"}, "argument --bot-lease: invalid value 'soon' (from the command line or FRONTLINES_BOT_LEASE)", 2),
    ({"FRONTLINES_DATABASE": "sqlite:///{tmp}/no/such/dir/web.db"}, "cannot open the SQLite database", 2),
])
def test_a_bad_start_under_plain_uvicorn_is_one_line(tmp_path: Path, variables: dict[str, str], words: str,
                                                      status: int) -> None:
    """As with `frontlines serve`: one line and an exit before the port is bound, no traceback."""
    env = {**os.environ, **{k: v.replace("{tmp}", str(tmp_path)) for k, v in variables.items()}}
    env.setdefault("FRONTLINES_DATABASE", f"sqlite:///{tmp_path / 'web.db'}")
    done = subprocess.run([sys.executable, "-m", "uvicorn", "frontlines.web.app:app_from_env", "--factory",
                           "--port", str(free_port())], env=env, capture_output=True, text=True, timeout=WAIT,
                          cwd=tmp_path)
    assert done.returncode == status, done.stderr
    assert f"frontlines: {words}" in done.stderr and "Traceback" not in done.stderr
    assert "Uvicorn running" not in done.stderr


@pytest.mark.postgres
def test_plain_uvicorn_refuses_a_postgresql_schema_not_at_the_newest_revision(pg_server: str, tmp_path: Path) -> None:
    from conftest import _fresh_pg_database

    env = {**os.environ, "FRONTLINES_DATABASE": _fresh_pg_database(pg_server)}
    done = subprocess.run([sys.executable, "-m", "uvicorn", "frontlines.web.app:app_from_env", "--factory",
                           "--port", str(free_port())], env=env, capture_output=True, text=True, timeout=WAIT,
                          cwd=tmp_path)
    assert done.returncode == 2 and "frontlines: the database schema is empty" in done.stderr
    assert "frontlines db upgrade" in done.stderr and "Traceback" not in done.stderr
