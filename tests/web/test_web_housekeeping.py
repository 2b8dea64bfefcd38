"""Housekeeping (issue 19, finding 8): idle games leave the live list as ``abandoned`` (kept,
never deleted); game creation is rate limited per client address."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from test_web_api import RULESET, create
from webhelpers import make_client

from frontlines.web import housekeeping


def sweep(client: TestClient, unstarted_after: float, idle_after: float) -> list[str]:
    """One sweep, run in the app's own event loop (no waiting on a clock)."""
    manager = client.app.state.manager  # type: ignore[attr-defined]

    async def run() -> list[str]:
        return await housekeeping.abandon_idle(manager, unstarted_after=unstarted_after, idle_after=idle_after)

    ids: list[str] = client.portal.call(run)  # type: ignore[union-attr]
    return ids


def move(client: TestClient, game: dict[str, Any]) -> None:
    gid = game["id"]
    mover = client.get(f"/api/games/{gid}").json()["view"]["to_move"]
    token = game["token"] if mover == 0 else game["friend_token"]
    legal = client.get(f"/api/games/{gid}", params={"t": token}).json()["view"]["legal"]
    assert client.post(f"/api/games/{gid}/action", json={"t": token, "text": legal[0]["text"]}).status_code == 200


def test_idle_games_are_abandoned_not_deleted(db_url: str) -> None:
    with make_client(db_url) as client:
        empty, played, watched = create(client), create(client), create(client)
        move(client, played)
        # Long limits: nothing is idle yet.
        assert sweep(client, 3600, 3600) == []
        with client.websocket_connect(f"/ws/{watched['id']}?t={watched['token']}") as ws:
            ws.receive_json()
            # Games without a move go at once; a game with a move, or a seated player here, stays.
            gone = sweep(client, 0, 3600)
            assert set(gone) == {empty["id"]}
            gone = sweep(client, 0, 0)
            assert set(gone) == {played["id"]}
        live = {g["id"] for g in client.get("/api/games", params={"status": "active"}).json()}
        assert live == {watched["id"]}
        abandoned = client.get("/api/games", params={"status": "abandoned"}).json()
        assert {g["id"] for g in abandoned} == {empty["id"], played["id"]}
        kept = next(g for g in abandoned if g["id"] == played["id"])
        assert kept["plies"] == 1  # its move is still there
        # An abandoned game is over: no move, no record (nothing was decided).
        r = client.post(f"/api/games/{played['id']}/action", json={"t": played["token"], "text": "R1@1"})
        assert r.status_code == 409 and r.json()["code"] == "game_over"
        assert client.get(f"/api/games/{played['id']}").json()["status"] == "abandoned"
        assert client.get(f"/api/games/{played['id']}/record.txt").status_code == 403
        assert client.get(f"/g/{played['id']}").status_code == 200  # its page still opens


def test_the_store_refuses_a_move_in_an_abandoned_game(sqlite_url: str) -> None:
    """A move that arrives just after the sweep must not be stored."""
    with make_client(sqlite_url) as client:
        game = create(client)
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        assert store.abandon_idle(unstarted_before=1e12, idle_before=1e12, keep=set()) == [game["id"]]
        mover = client.get(f"/api/games/{game['id']}").json()["view"]["to_move"]
        token = game["token"] if mover == 0 else game["friend_token"]
        legal = client.get(f"/api/games/{game['id']}", params={"t": token}).json()["view"]["legal"]
        r = client.post(f"/api/games/{game['id']}/action", json={"t": token, "text": legal[0]["text"]})
        assert r.status_code == 409 and r.json()["code"] == "game_over"
        assert store.load(game["id"]).actions == []


def test_game_creation_is_rate_limited(sqlite_url: str) -> None:
    body = {"ruleset": RULESET, "opponent": "friend"}
    with make_client(sqlite_url, new_games_per_minute=3) as client:
        answers = [client.post("/api/games", json=body) for _ in range(4)]
        assert [r.status_code for r in answers] == [200, 200, 200, 429]
        refused = answers[-1]
        assert "too many new games" in refused.json()["detail"] and int(refused.headers["Retry-After"]) >= 1


def test_rate_limit_buckets() -> None:
    limit = housekeeping.RateLimit(per_minute=2)
    assert [limit.take("10.0.0.1", now=0.0) for _ in range(2)] == [0.0, 0.0]
    assert limit.take("10.0.0.1", now=0.0) == 30.0  # one token back after 30 s
    assert limit.take("10.0.0.2", now=0.0) == 0.0  # another address has its own bucket
    assert limit.take("10.0.0.1", now=30.0) == 0.0
    # One IPv6 /64 is one client; an IPv4-mapped address is its IPv4 address.
    assert limit.key("2001:db8::1") == limit.key("2001:db8::ffff") == "2001:db8::/64"
    assert limit.key("::ffff:10.0.0.1") == "10.0.0.1"
    assert housekeeping.RateLimit(per_minute=0).take("x", now=0.0) == 0.0
    small = housekeeping.RateLimit(per_minute=1, max_clients=2)
    for i in range(5):
        small.take(f"10.0.0.{i}", now=0.0)
    assert small.take("10.0.0.0", now=0.0) == 0.0  # the oldest address was forgotten
