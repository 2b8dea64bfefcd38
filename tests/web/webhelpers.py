"""Helpers shared by the web tests: free ports, app clients, a uvicorn server in a thread."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from typing import Any

from fastapi.testclient import TestClient

from frontlines.web.app import Settings, create_app
from frontlines.web.settings import Hashing


def close_frame(ws: Any, timeout: float) -> tuple[int, str] | None:
    """Read a (websockets sync) connection until it closes; the close code and reason the
    server sent, None if it sent no close frame. ``timeout``: for each message."""
    from websockets.exceptions import ConnectionClosed

    try:
        while True:
            ws.recv(timeout=timeout)
    except ConnectionClosed as exc:
        return (exc.rcvd.code, exc.rcvd.reason) if exc.rcvd is not None else None


def http_json(base: str, path: str, body: dict[str, Any] | None = None, *, timeout: float) -> Any:
    """A real HTTP call to a served process: GET, or POST ``body`` as JSON; the JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as r:
        return json.loads(r.read())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# Tests choose deals (against bots and in pass-and-play) and start many games at once, and make
# many accounts from one address with passwords hashed cheaply (test_web_accounts checks the
# real parameters).
TEST_SETTINGS: dict[str, object] = {"bot_executor": "thread", "bot_workers": 2, "seeded_deals": True,
                                    "new_games_per_minute": 0, "signups_per_hour": 0,
                                    "password_hashing": Hashing(time_cost=1, memory_kib=1024, lanes=1)}


def make_client(url: str, base_url: str = "http://testserver", **kwargs: object) -> TestClient:
    values: dict[str, object] = {**TEST_SETTINGS, **kwargs}
    settings = Settings(database=url, **values)  # type: ignore[arg-type]
    return TestClient(create_app(settings), base_url=base_url)


START_LIMIT = 120.0  # seconds a server in a thread may take to start


class LiveServer:
    """uvicorn serving the app in a thread, on a free 127.0.0.1 port."""

    def __init__(self, url: str, port: int | None = None, **settings: object) -> None:
        import uvicorn

        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        values: dict[str, object] = {**TEST_SETTINGS, **settings}
        app = create_app(Settings(database=url, **values))  # type: ignore[arg-type]
        self.app = app
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        # Generous: on a loaded machine the start (migrations, the PostgreSQL listener) took
        # longer than the 15 s this once allowed; polling returns as soon as it is up.
        deadline = time.monotonic() + START_LIMIT
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("uvicorn stopped while starting (see the log above)")
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        # until it has stopped (a test may start another on the same port): soon, unless loaded
        self.thread.join(timeout=START_LIMIT)
