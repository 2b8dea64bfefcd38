"""No secret in any log line (issue 19, finding 5): a real ``frontlines serve`` at the most
talkative log level plays a whole friend game over HTTP and WebSockets, and an account is
made, logged into (with a wrong password first), used on a WebSocket, given a new password
and reset with a recovery code; its output must name no seat token, no invite ticket, no
database password, no account password, no recovery code, no session cookie and no CSRF
token (issue 29)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from webhelpers import START_LIMIT, free_port

from frontlines.web.logs import mask_url, redact

RULESET = "battleline-basic"
PASSWORD = "pw-Very-Secret-42"
WAIT = 60.0  # seconds for an answer: soon, but a loaded machine (tracing every message here) is slow


def http(base: str, path: str, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=WAIT) as r:
        raw = r.read()
        return json.loads(raw) if r.headers.get("content-type", "").startswith("application/json") else raw


def use_an_account(base: str) -> list[str]:
    """Sign up, log in (a wrong password first), watch a game on a WebSocket with the cookie,
    change the password, reset it with a code; answer every secret that went by."""
    import http.cookiejar
    import urllib.error

    from websockets.sync.client import connect

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def call(path: str, body: dict[str, Any] | None = None, csrf: str = "") -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(base + path, data=data, headers={
            "Content-Type": "application/json", **({"X-CSRF-Token": csrf} if csrf else {})})
        try:
            with opener.open(request, timeout=WAIT) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    first, wrong, second, third = "Tr0ub4dor&3-first", "wrong-guess-Zq9", "c0rrect-H0rse-2nd", "Batt3ry-Stapl3-3rd"
    code, made = call("/api/account/signup", {"username": "Logger", "password": first})
    assert code == 200, made
    assert call("/api/account/login", {"username": "Logger", "password": wrong}, made["csrf"])[0] == 401
    code, session = call("/api/account/login", {"username": "Logger", "password": first}, made["csrf"])
    assert code == 200, session
    cookie = next(c.value for c in jar if c.name == "frontlines_session")
    game = call("/api/games", {"ruleset": RULESET, "opponent": "bot:random"}, session["csrf"])[1]
    with connect(f"{base.replace('http://', 'ws://')}/ws/{game['id']}",
                 additional_headers={"Cookie": f"frontlines_session={cookie}"}) as ws:
        assert json.loads(ws.recv(timeout=WAIT))["role"] == 0  # the account's seat, without the seat link
    code, changed = call("/api/account/password", {"password": first, "new_password": second}, session["csrf"])
    assert code == 200, changed
    code, reset = call("/api/account/reset", {"username": "Logger", "code": made["codes"][0], "password": third},
                       changed["csrf"])
    assert code == 200, reset
    return [first, wrong, second, third, *made["codes"], cookie, made["csrf"], session["csrf"], changed["csrf"],
            reset["csrf"], *(c.value for c in jar if c.name == "frontlines_session")]


def play_a_whole_game(base: str) -> list[str]:
    """Create, invite, play to the end over both sockets; answer every secret handed out."""
    from websockets.sync.client import connect

    game = http(base, "/api/games", {"ruleset": RULESET, "opponent": "friend", "name": "Ann"})
    gid, ticket = game["id"], game["invite_token"]
    http(base, f"/g/{gid}?invite={ticket}")  # the page a friend opens first
    friend = http(base, f"/api/games/{gid}/claim", {"invite": ticket})
    tokens = [game["token"], friend["token"]] if friend["seat"] == 1 else [friend["token"], game["token"]]
    http(base, f"/g/{gid}?t={tokens[0]}&lang=fa")
    http(base, f"/api/games/{gid}?t={tokens[1]}")
    ws_base = base.replace("http://", "ws://")
    rng = random.Random(1)
    with connect(f"{ws_base}/ws/{gid}?t={tokens[0]}") as ws0, connect(f"{ws_base}/ws/{gid}?t={tokens[1]}") as ws1:
        socks = [ws0, ws1]
        last = [json.loads(ws0.recv(timeout=WAIT)), None]
        last[0] = json.loads(ws0.recv(timeout=WAIT))  # again when seat 1 joined
        last[1] = json.loads(ws1.recv(timeout=WAIT))
        plies = 0
        while last[0]["view"]["to_move"] is not None and plies < 400:
            mover = last[0]["view"]["to_move"]
            move = rng.choice(last[mover]["view"]["legal"])["text"]
            if plies == 3:  # one move over HTTP, with the token in the body
                http(base, f"/api/games/{gid}/action", {"t": tokens[mover], "text": move})
            else:
                socks[mover].send(json.dumps({"type": "action", "text": move, "ply": last[mover]["ply"]}))
            last = [json.loads(ws0.recv(timeout=WAIT)), json.loads(ws1.recv(timeout=WAIT))]
            plies += 1
        assert last[0]["status"] == "finished"
    return [*tokens, ticket]


@pytest.mark.parametrize("database", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_no_secret_in_any_log_line(tmp_path: Path, request: pytest.FixtureRequest, database: str) -> None:
    if database == "sqlite":
        url = f"sqlite:///{tmp_path / 'logs.db'}"
    else:  # the test cluster trusts local connections, so any password will do
        server: str = request.getfixturevalue("pg_server")
        url = server.replace("postgres@", f"postgres:{PASSWORD}@", 1)
        # The deploy sequence on PostgreSQL: migrate, then serve (serve does not migrate it).
        subprocess.run([sys.executable, "-m", "frontlines", "db", "upgrade", "--database", url], check=True,
                       capture_output=True, timeout=120)
    port = free_port()
    out = (tmp_path / "server.log").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "frontlines", "serve", "--port", str(port), "--bot-threads",
                             "--log-level", "trace", "--database", url], cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_LIMIT
        while True:
            try:
                http(base, "/api/rulesets")
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "frontlines serve did not start"
                time.sleep(0.1)
        secrets = play_a_whole_game(base)
        account_secrets = use_an_account(base)
    finally:
        proc.terminate()
        proc.wait(timeout=WAIT)
        out.close()
    log = (tmp_path / "server.log").read_text(encoding="utf-8", errors="replace")
    for secret in secrets:
        assert secret not in log
    for secret in account_secrets:
        assert secret not in log, "an account's secret is in the log"
    assert PASSWORD not in log
    # The session cookie went by at trace level, redacted.
    assert "frontlines_session=***" in log
    # The server did log the requests (trace shows every ASGI message), only without secrets.
    assert "/ws/" in log and "/claim" in log and "t=***" in log and "invite=***" in log
    # Every line formatted as its logger meant: uvicorn's access log reads its record's own
    # arguments (a filter that merged them into the message broke every request line).
    assert "Logging error" not in log and '"GET /api/rulesets HTTP/1.1" 200' in log
    if database == "postgres":
        assert "postgres:***@" in log


def test_an_access_line_keeps_its_arguments_for_its_formatter() -> None:
    import logging

    from uvicorn.logging import AccessFormatter

    from frontlines.web.logs import RedactSecrets

    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5000", "GET", "/g/abc?t=SECRET&lang=fa", "1.1", 200), None)
    assert RedactSecrets().filter(record)
    line = AccessFormatter('%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s',
                           use_colors=False).format(record)
    assert line.endswith('127.0.0.1:5000 - "GET /g/abc?t=***&lang=fa HTTP/1.1" 200 OK') and "SECRET" not in line
    # A record whose arguments cannot be kept apart is still redacted, as one message.
    odd = logging.LogRecord("frontlines", logging.INFO, __file__, 1, "seat %d at %s", ("t=SECRET", "x"), None)
    assert RedactSecrets().filter(odd) and "SECRET" not in odd.getMessage()


def test_redaction_rules() -> None:
    assert redact("GET /g/abc?t=SECRET&lang=fa HTTP/1.1") == "GET /g/abc?t=***&lang=fa HTTP/1.1"
    assert redact("'query_string': b't=SECRET'") == "'query_string': b't=***'"
    assert redact("/g/x?lang=fa&invite=SECRET#top") == "/g/x?lang=fa&invite=***#top"
    assert redact("format=json&at=5") == "format=json&at=5"
    assert mask_url("postgresql://ann:p@ss:w0rd@db.example/fl") == "postgresql://ann:***@db.example/fl"
    assert mask_url("sqlite:///frontlines.db") == "sqlite:///frontlines.db"
    assert redact("(b'cookie', b'lang=fa; frontlines_session=SECRET; x=1'), (b'x-csrf-token', b'abc0')") == \
        "(b'cookie', b'lang=fa; frontlines_session=***; x=1'), (b'x-csrf-token', b'***')"
    assert redact("set-cookie: __Host-frontlines_session=SECRET; Path=/") == "set-cookie: __Host-frontlines_session=***; Path=/"
