"""Once a cookie carries authority (issue 29): every state-changing request is CSRF-protected
and comes from this site, every WebSocket checks its Origin, and no password reaches a log
line or an answer."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_web_accounts import PASSWORD, RULESET, Device
from webhelpers import LiveServer, make_client

from frontlines.web.guard import UNSAFE, Policy, origin_of

ws_client = pytest.importorskip("websockets.sync.client")


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url, allowed_origins="https://club.example") as c:
        yield c


def unsafe_routes(client: TestClient) -> list[tuple[str, str]]:
    """Every (method, path) of the app that may change something, path parameters filled in."""
    found = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, APIRoute):
            for method in sorted(route.methods & UNSAFE):
                found.append((method, re.sub(r"\{[^}]+\}", "x1", route.path)))
    return found


def test_every_state_changing_route_needs_the_csrf_token(client: TestClient) -> None:
    """Every POST/PUT/PATCH/DELETE route of the app, whoever added it, is refused without the
    session's CSRF token when the request sends a live session's cookie."""
    Device(client).sign_up("Ann")
    routes = unsafe_routes(client)
    assert len(routes) >= 12 and ("POST", "/api/account/logout") in routes and ("POST", "/api/games") in routes
    for method, path in routes:
        ann = Device(client)  # logged in afresh: a route before may have ended the session
        assert ann.log_in("Ann").status_code == 200
        game = ann.post("/api/games", {"ruleset": RULESET, "opponent": "friend"}).json()
        path = path.replace("/x1/", f"/{game['id']}/") if path.startswith("/api/games/") else path
        for headers in ({}, {"X-CSRF-Token": "0" * 64}, {"X-CSRF-Token": ""}):
            ann._use()
            r = client.request(method, path, json={}, headers=headers)
            assert r.status_code == 403 and r.json()["code"] == "csrf", (method, path, headers, r.text)
        # With the token the route itself answers (whatever it makes of an empty body).
        r = client.request(method, path, json={}, headers={"X-CSRF-Token": ann.csrf})
        assert not (r.status_code == 403 and r.json().get("code") == "csrf"), (method, path)


def test_requests_from_another_site_are_refused(client: TestClient) -> None:
    body = {"ruleset": RULESET, "opponent": "bot:random"}
    cases = [
        ({"Origin": "https://evil.example"}, 403), ({"Origin": "null"}, 403),
        ({"Origin": "http://testserver.evil.example"}, 403), ({"Origin": "https://testserver"}, 403),  # scheme
        ({"Referer": "https://evil.example/page"}, 403), ({"Sec-Fetch-Site": "cross-site"}, 403),
        ({"Origin": "http://testserver"}, 200), ({"Origin": "http://TestServer:80"}, 200),
        ({"Referer": "http://testserver/"}, 200), ({"Origin": "https://club.example"}, 200),  # --allowed-origins
        ({"Sec-Fetch-Site": "same-origin"}, 200), ({}, 200),  # a script says nothing of where it is
    ]
    for headers, status in cases:
        r = client.post("/api/games", json=body, headers=headers)
        assert r.status_code == status, (headers, r.text)
        if status == 403:
            assert r.json()["code"] == "cross_origin"
    # Logging in from another site (login CSRF: the victim logged into the attacker's account).
    Device(client).sign_up("Mallory")
    r = client.post("/api/account/login", json={"username": "Mallory", "password": PASSWORD},
                    headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and "set-cookie" not in r.headers


def test_a_cross_site_websocket_with_the_cookie_is_refused(client: TestClient) -> None:
    ann = Device(client)
    ann.sign_up("Ann")
    gid = ann.post("/api/games", {"ruleset": RULESET, "opponent": "bot:random", "seed": 2}).json()["id"]
    for origin in ("https://evil.example", "null", "http://testserver.evil.example"):
        with pytest.raises(WebSocketDisconnect) as refused, ann.ws(f"/ws/{gid}", headers={"origin": origin}) as ws:
            ws.receive_json()
        assert refused.value.code == 4403
    # From the site itself (or an allowed origin) the cookie seats the account.
    for origin in ("http://testserver", "https://club.example"):
        with ann.ws(f"/ws/{gid}", headers={"origin": origin}) as ws:
            assert ws.receive_json()["role"] == 0
    # Without the cookie the Origin is checked all the same.
    ann.post("/api/account/logout")
    with pytest.raises(WebSocketDisconnect), ann.ws(f"/ws/{gid}", headers={"origin": "https://evil.example"}) as ws:
        ws.receive_json()


def websocket_paths(client: TestClient, game_id: str) -> list[str]:
    """Every WebSocket route of the app, its path parameters filled in with ``game_id``."""
    from starlette.routing import WebSocketRoute

    found = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, (APIWebSocketRoute, WebSocketRoute)):
            found.append(re.sub(r"\{[^}]+\}", game_id, route.path))
    return found


def test_every_websocket_refuses_another_site_with_the_cookie(client: TestClient) -> None:
    """Every WebSocket of the app, whoever added it (the game's, the lobby's ...), checks
    the handshake's Origin: from another site it never opens, cookie or not."""
    ann = Device(client)
    ann.sign_up("Ann")
    gid = ann.post("/api/games", {"ruleset": RULESET, "opponent": "bot:random", "seed": 2}).json()["id"]
    paths = websocket_paths(client, gid)
    assert f"/ws/{gid}" in paths and "/ws/lobby" in paths
    for path in paths:
        for origin in ("https://evil.example", "null"):
            with pytest.raises(WebSocketDisconnect) as refused, ann.ws(path, headers={"origin": origin}) as ws:
                ws.receive_json()
            assert refused.value.code == 4403, (path, origin)
        with ann.ws(path, headers={"origin": "http://testserver"}) as ws:
            assert ws.receive_json()["type"] in ("view", "lobby"), path


def test_a_real_server_refuses_the_handshake_from_another_site(sqlite_url: str) -> None:
    """uvicorn answers the cross-site handshake 403: the socket never opens, no view is sent."""
    from websockets.exceptions import InvalidStatus

    with LiveServer(sqlite_url) as server:
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())

        def post(path: str, body: dict[str, Any], csrf: str = "") -> Any:
            req = urllib.request.Request(server.base + path, data=json.dumps(body).encode(), headers={
                "Content-Type": "application/json", **({"X-CSRF-Token": csrf} if csrf else {})})
            with opener.open(req, timeout=60) as r:
                return json.loads(r.read()), r.headers

        made, headers = post("/api/account/signup", {"username": "Ann", "password": PASSWORD})
        cookie = headers["set-cookie"].split(";", 1)[0]
        game, _ = post("/api/games", {"ruleset": RULESET, "opponent": "bot:random", "seed": 4}, made["csrf"])
        url = f"ws://127.0.0.1:{server.port}/ws/{game['id']}"
        with pytest.raises(InvalidStatus) as refused:
            ws_client.connect(url, origin="https://evil.example", additional_headers={"Cookie": cookie})  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        with ws_client.connect(url, origin=f"http://127.0.0.1:{server.port}", additional_headers={"Cookie": cookie}) as ws:  # type: ignore[arg-type]
            assert json.loads(ws.recv(timeout=60))["role"] == 0
        # Behind a proxy trusted for X-Forwarded-Proto (uvicorn trusts 127.0.0.1): the site is
        # https, its cookie Secure and bound to the host.
        req = urllib.request.Request(server.base + "/api/account/login", data=json.dumps(
            {"username": "Ann", "password": PASSWORD}).encode(), headers={
            "Content-Type": "application/json", "X-Forwarded-Proto": "https", "Origin": f"https://127.0.0.1:{server.port}"})
        with urllib.request.urlopen(req, timeout=60) as r:
            assert r.headers["set-cookie"].startswith("__Host-frontlines_session=") and "Secure" in r.headers["set-cookie"]
        req = urllib.request.Request(server.base + "/api/games", data=b"{}", headers={
            "Content-Type": "application/json", "X-Forwarded-Proto": "https", "Origin": f"http://127.0.0.1:{server.port}"})
        with pytest.raises(urllib.error.HTTPError) as mixed:
            urllib.request.urlopen(req, timeout=60)
        assert mixed.value.code == 403  # http is not the https site's origin


def test_origins_are_compared_by_scheme_host_and_port() -> None:
    assert origin_of("https://Play.Example.org") == ("https", "play.example.org", 443)
    assert origin_of("http://h:8000/path?q") == ("http", "h", 8000)
    assert origin_of("wss://h") == ("https", "h", 443)
    assert origin_of("null") is None and origin_of("ftp://h") is None and origin_of("https://h:99999") is None
    assert Policy.of("https://a.example, https://b.example:8443").allowed == {
        ("https", "a.example", 443), ("https", "b.example", 8443)}
    with pytest.raises(ValueError):
        Policy.of("not an origin")


def test_no_password_in_a_log_line_or_an_answer(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    """Every logger at its most talkative (SQL statements with their parameters included)
    while accounts are made, logged into, refused, renamed and reset: no password, old or new,
    and no recovery code appears in a log record, and no answer holds a password."""
    # The last two are refused: a control character, and too long for the request's model (a
    # refusal that echoed its input would show it).
    passwords = ["Pass-Word-One-1", "Wrong-Guess-Two-2", "Pass-Word-Three-3", "Pass-Word-Four-4", "Bad\x07Pass-Five",
                 "Too-Long-Six-" + "6" * 1500]
    for name in ("sqlalchemy.engine", "uvicorn", "frontlines", "httpx", None):
        caplog.set_level(1, logger=name)  # (put back as it was after the test)
    answers = []
    ann = Device(client)
    made = ann.post("/api/account/signup", {"username": "Ann", "password": passwords[0]})
    codes = made.json()["codes"]
    answers += [made, ann.log_in("Ann", passwords[1]), ann.log_in("Ann", passwords[0]),
                ann.post("/api/account/password", {"password": passwords[1], "new_password": passwords[2]}),
                ann.post("/api/account/password", {"password": passwords[0], "new_password": passwords[2]}),
                ann.post("/api/account/reset", {"username": "Ann", "code": codes[0], "password": passwords[3]}),
                ann.post("/api/account/signup", {"username": "Bob", "password": passwords[4]}),
                ann.post("/api/account/signup", {"username": "Bob", "password": passwords[5]}),
                ann.post("/api/account/codes", {"password": passwords[3]})]
    assert [a.status_code for a in answers] == [200, 401, 200, 403, 200, 200, 400, 400, 200]
    logged = caplog.text + "\n".join(r.getMessage() for r in caplog.records)
    assert "INSERT INTO accounts" in logged  # the SQL was logged, with its parameters
    for secret in [*passwords, *codes, *answers[-1].json()["codes"]]:
        assert secret not in logged
    for answer in answers:
        text = answer.text + str(answer.headers)
        assert not any(p in text for p in passwords), answer.text
