"""Rematch: both players agree (against a bot the person alone), seats swap, same ruleset,
options and clock, the same tokens hold the swapped seats; offers declined, withdrawn and
expired; made once, on SQLite and PostgreSQL, and across two processes on one PostgreSQL."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from webhelpers import LiveServer, http_json

from conftest import _fresh_pg_database
from frontlines.web.store import normalise_url

RULESET = "battleline"


def finished_friend_game(client: TestClient, clock: str = "", options: dict[str, str] | None = None) -> dict[str, Any]:
    g: dict[str, Any] = client.post("/api/games", json={"ruleset": RULESET, "opponent": "friend", "seat": "0",
                                                        "name": "Ann", "clock": clock, "options": options or {}}).json()
    friend = client.post(f"/api/games/{g['id']}/claim", json={"invite": g["invite_token"]}).json()
    g["tokens"] = {0: g["token"], 1: friend["token"]}
    assert client.post(f"/api/games/{g['id']}/action", json={"t": friend["token"], "type": "resign"}).status_code == 200
    return g


def answer(client: TestClient, game: dict[str, Any], seat: int, yes: bool) -> tuple[int, dict[str, Any]]:
    r = client.post(f"/api/games/{game['id']}/rematch",
                    json={"t": game["tokens"][seat], "answer": "yes" if yes else "no"})
    return r.status_code, r.json()


def test_both_agree_and_the_seats_swap_keeping_each_token(client: TestClient) -> None:
    g = finished_friend_game(client, clock="300+3", options={"claim_timing": "start_of_turn", "first_player": "0"})
    old = client.get(f"/api/games/{g['id']}").json()
    assert old["rematch"] == {"offers": 0, "declined": None, "game": None, "needed": 3, "expires_in": None}
    status, first = answer(client, g, 0, True)
    assert status == 200 and first["rematch"]["offers"] == 1 and first["rematch"]["game"] is None
    assert 0 < first["rematch"]["expires_in"] <= 600
    # The other player's page hears the offer.
    assert client.get(f"/api/games/{g['id']}", params={"t": g["tokens"][1]}).json()["rematch"]["offers"] == 1
    status, second = answer(client, g, 1, True)
    new_id = second["rematch"]["game"]
    assert status == 200 and new_id and new_id != g["id"]
    # Each token holds the other seat now; names swap with them; ruleset, options and clock stay.
    mine = client.get(f"/api/games/{new_id}", params={"t": g["tokens"][0]}).json()
    theirs = client.get(f"/api/games/{new_id}", params={"t": g["tokens"][1]}).json()
    assert (mine["role"], theirs["role"]) == (1, 0)
    assert mine["names"] == [old["names"][1], old["names"][0]] and mine["names"][1] == "Ann"
    assert mine["ruleset"] == RULESET and mine["view"]["options"] == old["view"]["options"]
    assert mine["clock"]["control"] == "300+3" and mine["status"] == "active" and mine["ply"] == 0
    assert mine["view"]["options"]["claim_timing"] == "start_of_turn" and mine["view"]["to_move"] == 0
    assert mine["opponent"] == "friend" and not mine["invite_open"]
    # Made once: more answers change nothing.
    assert answer(client, g, 0, True)[1]["rematch"]["game"] == new_id
    ids = [row["id"] for row in client.get("/api/games", params={"status": "active"}).json()]
    assert ids.count(new_id) == 1 and len(ids) == 1


def test_declined_withdrawn_and_who_may_ask(client: TestClient) -> None:
    g = finished_friend_game(client)
    # A spectator and a bad token are refused; so is a game still being played.
    r = client.post(f"/api/games/{g['id']}/rematch", json={"t": "x" * 32, "answer": "yes"})
    assert r.status_code == 409 and r.json()["code"] == "spectator"
    active = client.post("/api/games", json={"ruleset": RULESET, "opponent": "hotseat"}).json()
    r = client.post(f"/api/games/{active['id']}/rematch", json={"t": active["token"], "answer": "yes"})
    assert r.status_code == 409 and r.json()["code"] == "not_over"
    # Offered, then withdrawn.
    assert answer(client, g, 0, True)[1]["rematch"]["offers"] == 1
    withdrawn = answer(client, g, 0, False)[1]["rematch"]
    assert withdrawn["offers"] == 0 and withdrawn["declined"] is None
    # Offered, then declined: the one declined is refused; the one who declined may offer after all.
    answer(client, g, 0, True)
    status, declined = answer(client, g, 1, False)
    assert status == 200 and declined["rematch"]["declined"] == 1 and declined["rematch"]["offers"] == 0
    status, refused = answer(client, g, 0, True)
    assert status == 409 and refused["code"] == "declined"
    status, again = answer(client, g, 1, True)
    assert status == 200 and again["rematch"]["declined"] is None and again["rematch"]["offers"] == 2
    assert answer(client, g, 0, True)[1]["rematch"]["game"]


def test_an_offer_expires(client: TestClient, db_url: str) -> None:
    g = finished_friend_game(client)
    answer(client, g, 0, True)
    engine = create_engine(normalise_url(db_url))
    with engine.begin() as conn:
        conn.execute(text("UPDATE rematches SET expires = 1 WHERE game_id = :g"), {"g": g["id"]})
    engine.dispose()
    # The page learns it from its reading (the reading here is the copy in memory, so it is
    # read again first, as another process's notice would make it).
    manager = client.app.state.manager  # type: ignore[attr-defined]
    stale = manager.games[g["id"]]
    stale.stored.rematch = type(stale.stored.rematch)(offers=1, declined=None, expires=1.0, game=None)
    assert client.get(f"/api/games/{g['id']}").json()["rematch"]["expires_in"] == 0.0
    # The other player's yes comes too late: it is an offer of its own, not a rematch.
    status, late = answer(client, g, 1, True)
    assert status == 200 and late["rematch"]["offers"] == 2 and late["rematch"]["game"] is None


def test_against_a_bot_the_person_alone_decides_and_pass_and_play_once(client: TestClient) -> None:
    b = client.post("/api/games", json={"ruleset": RULESET, "opponent": "bot:random", "seat": "0", "seed": 4,
                                        "clock": "180+2"}).json()
    client.post(f"/api/games/{b['id']}/action", json={"t": b["token"], "type": "resign"})
    r = client.post(f"/api/games/{b['id']}/rematch", json={"t": b["token"], "answer": "yes"}).json()
    assert r["rematch"]["needed"] == 1 and r["rematch"]["game"]
    new = client.get(f"/api/games/{r['rematch']['game']}", params={"t": b["token"]}).json()
    assert new["role"] == 1 and new["bot_seat"] == 0 and new["clock"]["left"] == [None, 180.0]
    h = client.post("/api/games", json={"ruleset": RULESET, "opponent": "hotseat", "name": "Ann",
                                        "other_name": "Bob"}).json()
    client.post(f"/api/games/{h['id']}/action", json={"t": h["token"], "type": "resign"})
    r = client.post(f"/api/games/{h['id']}/rematch", json={"t": h["token"], "answer": "yes"}).json()
    new = client.get(f"/api/games/{r['rematch']['game']}", params={"t": h["token"]}).json()
    assert new["role"] == "both" and new["names"] == ["Bob", "Ann"]


def test_both_pages_hear_the_rematch_over_the_websocket(client: TestClient) -> None:
    g = finished_friend_game(client)
    with client.websocket_connect(f"/ws/{g['id']}?t={g['tokens'][0]}") as ws0, \
            client.websocket_connect(f"/ws/{g['id']}?t={g['tokens'][1]}") as ws1:
        assert ws0.receive_json()["type"] == ws1.receive_json()["type"] == "view"
        ws0.send_json({"type": "rematch", "answer": "yes"})
        assert ws1.receive_json()["rematch"]["offers"] == 1
        ws1.send_json({"type": "rematch", "answer": "yes"})
        made = [next_with_game(ws) for ws in (ws0, ws1)]
        assert made[0] == made[1]


def next_with_game(ws: Any) -> str:
    for _ in range(10):
        msg = ws.receive_json()
        if msg.get("rematch") and msg["rematch"]["game"]:
            game: str = msg["rematch"]["game"]
            return game
    raise AssertionError("no view named the rematch")


# --- two processes on one PostgreSQL -------------------------------------------------------------
@pytest.fixture
def pair(pg_server: str) -> Iterator[tuple[str, LiveServer, LiveServer]]:
    url = _fresh_pg_database(pg_server)
    with LiveServer(url) as a, LiveServer(url) as b:
        yield url, a, b


def post(base: str, path: str, body: dict[str, Any]) -> Any:
    return http_json(base, path, body, timeout=120)


@pytest.mark.postgres
def test_a_rematch_agreed_on_two_processes_is_made_once(pair: tuple[str, LiveServer, LiveServer]) -> None:
    url, a, b = pair
    games = []
    for _ in range(6):
        g = post(a.base, "/api/games", {"ruleset": RULESET, "opponent": "friend", "seat": "0"})
        friend = post(b.base, f"/api/games/{g['id']}/claim", {"invite": g["invite_token"]})
        post(a.base, f"/api/games/{g['id']}/action", {"t": g["token"], "type": "resign"})
        games.append((g["id"], g["token"], friend["token"]))
    # Both players answer at the same moment, each through their own process.
    answers: dict[tuple[str, int], Any] = {}

    def say(base: str, game_id: str, token: str, seat: int) -> None:
        answers[(game_id, seat)] = post(base, f"/api/games/{game_id}/rematch", {"t": token, "answer": "yes"})

    threads = [threading.Thread(target=say, args=(base, gid, token, seat))
               for gid, t0, t1 in games for base, token, seat in ((a.base, t0, 0), (b.base, t1, 1))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    made = {}
    for gid, _t0, _t1 in games:
        end = time.monotonic() + 120
        while True:
            seen = [http_json(p.base, f"/api/games/{gid}", timeout=120)["rematch"]["game"] for p in (a, b)]
            if seen[0] and seen[0] == seen[1]:
                break
            assert time.monotonic() < end, seen
            time.sleep(0.05)
        made[gid] = seen[0]
    engine = create_engine(normalise_url(url))
    with engine.connect() as conn:
        assert conn.scalar(text("SELECT count(*) FROM games")) == 2 * len(games)  # one rematch each
    engine.dispose()
    stats = [http_json(p.base, "/api/stats", timeout=120)["rematches_made"] for p in (a, b)]
    assert sum(stats) == len(games), stats
    for gid, t0, t1 in games:
        assert http_json(b.base, f"/api/games/{made[gid]}?t={t0}", timeout=120)["role"] == 1
        assert http_json(a.base, f"/api/games/{made[gid]}?t={t1}", timeout=120)["role"] == 0


@pytest.mark.postgres
def test_a_process_that_hears_the_second_yes_makes_the_game(pair: tuple[str, LiveServer, LiveServer]) -> None:
    """The process that stored the second yes died before making the game: another process
    that holds the game hears the notice and makes it."""
    import psycopg

    url, a, _b = pair
    g = post(a.base, "/api/games", {"ruleset": RULESET, "opponent": "friend", "seat": "0"})
    friend = post(a.base, f"/api/games/{g['id']}/claim", {"invite": g["invite_token"]})
    post(a.base, f"/api/games/{g['id']}/action", {"t": g["token"], "type": "resign"})
    post(a.base, f"/api/games/{g['id']}/rematch", {"t": g["token"], "answer": "yes"})
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{a.port}/ws/{g['id']}?t={g['token']}") as ws:
        assert json.loads(ws.recv(timeout=120))["rematch"]["offers"] == 1
        # The second yes, written as a process would that died right after its commit.
        with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
            conn.execute("UPDATE rematches SET offers = 3 WHERE game_id = %s", (g["id"],))
            conn.execute("SELECT pg_notify('frontlines_games', %s)", (f"r {g['id']} 3 gone:1:abc",))
        end = time.monotonic() + 120
        while True:
            msg = json.loads(ws.recv(timeout=max(0.1, end - time.monotonic())))
            if msg.get("rematch") and msg["rematch"]["game"]:
                break
    new = http_json(a.base, f"/api/games/{msg['rematch']['game']}?t={friend['token']}", timeout=120)
    assert new["role"] == 0 and new["status"] == "active"
