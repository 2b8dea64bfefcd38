"""Quick messages (web/play/quick.py): a seated player's phrase, by id only, reaches the other
player and the spectators, on SQLite and PostgreSQL and from one process to another; bad
phrases, spectators, pass-and-play and bot games are refused; a seat is rate-limited. Also
``to_move`` in a page's own games' summaries (the home page's "waiting for you" list)."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect
from webhelpers import LiveServer, http_json

from conftest import _fresh_pg_database
from frontlines.web.play import quick
from frontlines.web.play.manager import Manager
from frontlines.web.store import normalise_url

ws_client = pytest.importorskip("websockets.sync.client")

RULESET = "battleline-basic"
DEADLINE = 120.0  # seconds a message may take on a loaded machine (waiting ends when it comes)


def friend_game(client: TestClient) -> tuple[str, dict[int, str]]:
    g = client.post("/api/games", json={"ruleset": RULESET, "opponent": "friend", "seat": "0", "name": "Ann"}).json()
    friend = client.post(f"/api/games/{g['id']}/claim", json={"invite": g["invite_token"]}).json()
    return g["id"], {0: g["token"], 1: friend["token"]}


def said(seat: int, phrase: str, game_id: str) -> dict[str, Any]:
    return {"type": "quick", "game_id": game_id, "seat": seat, "phrase": phrase}


@contextlib.contextmanager
def both_seats(client: TestClient, game_id: str, tokens: dict[int, str]) -> Iterator[tuple[Any, Any]]:
    """Both seats connected, each past the views of its arrival (seat 0 has seen seat 1 come)."""
    with client.websocket_connect(f"/ws/{game_id}?t={tokens[0]}") as ws0, \
            client.websocket_connect(f"/ws/{game_id}?t={tokens[1]}") as ws1:
        ws0.receive_json()
        ws1.receive_json()
        while ws0.receive_json()["online"] != [True, True]:
            pass
        yield ws0, ws1


def manager(client: TestClient) -> Manager:
    m: Manager = client.app.state.manager  # type: ignore[attr-defined]
    return m


def test_a_phrase_reaches_the_other_seat_and_the_spectators(client: TestClient) -> None:
    game_id, tokens = friend_game(client)
    with client.websocket_connect(f"/ws/{game_id}?t={tokens[0]}") as ws0, \
            client.websocket_connect(f"/ws/{game_id}?t={tokens[1]}") as ws1, \
            client.websocket_connect(f"/ws/{game_id}") as watcher:
        for ws in (ws0, ws1, watcher):
            assert ws.receive_json()["type"] == "view"
        ws0.send_json({"type": "quick", "phrase": "good_luck"})
        # One message, the phrase's id and who said it, to everyone (the speaker's page too).
        for ws in (ws1, watcher, ws0):
            msg = ws.receive_json()
            while msg["type"] != "quick":  # a seat's arrival may re-send views first
                msg = ws.receive_json()
            assert msg == said(0, "good_luck", game_id)
        ws1.send_json({"type": "quick", "phrase": "thanks"})
        for ws in (ws0, watcher, ws1):
            assert ws.receive_json() == said(1, "thanks", game_id)
        # After the game too ("good game").
        ws1.send_json({"type": "resign"})
        assert ws0.receive_json()["status"] == ws1.receive_json()["status"] == "finished"
        ws0.send_json({"type": "quick", "phrase": "good_game"})
        assert ws1.receive_json() == said(0, "good_game", game_id)
    assert client.get("/api/stats").json()["quick_said"] == 3


def test_only_known_phrase_ids_are_sent(client: TestClient) -> None:
    game_id, tokens = friend_game(client)
    with both_seats(client, game_id, tokens) as (ws0, ws1):
        for bad in ({"type": "quick", "phrase": "you are a cheat"}, {"type": "quick"},
                    {"type": "quick", "phrase": 1}, {"type": "quick", "phrase": ["hello"]}, {"type": "quick", "phrase": "Hello!"}):
            ws0.send_json(bad)
            error = ws0.receive_json()
            assert error["type"] == "error" and error["code"] == "malformed", (bad, error)
        # None of them reached the other seat: the next thing it hears is the good one.
        ws0.send_json({"type": "quick", "phrase": "hello"})
        assert ws1.receive_json() == said(0, "hello", game_id)
        assert ws0.receive_json() == said(0, "hello", game_id)


def test_spectators_pass_and_play_and_bot_games_cannot_send(client: TestClient) -> None:
    game_id, tokens = friend_game(client)
    with client.websocket_connect(f"/ws/{game_id}?t={tokens[1]}") as ws1, \
            client.websocket_connect(f"/ws/{game_id}") as watcher, \
            client.websocket_connect(f"/ws/{game_id}?t=not-a-seat-token") as stranger:
        ws1.receive_json()
        watcher.receive_json()
        assert stranger.receive_json()["code"] == "bad_token"
        stranger.receive_json()
        for spectator in (watcher, stranger):
            spectator.send_json({"type": "quick", "phrase": "oops"})
            assert spectator.receive_json()["code"] == "spectator"
        ws1.send_json({"type": "quick", "phrase": "nice_move"})
        msg = ws1.receive_json()
        while msg["type"] != "quick":
            msg = ws1.receive_json()
        assert msg == said(1, "nice_move", game_id)  # nothing from the spectators came first
    for opponent in ("hotseat", "bot:random"):
        g = client.post("/api/games", json={"ruleset": RULESET, "opponent": opponent, "seat": "0"}).json()
        with client.websocket_connect(f"/ws/{g['id']}?t={g['token']}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick", "phrase": "hello"})
            msg = ws.receive_json()
            while msg["type"] == "view":  # the bot's first moves
                msg = ws.receive_json()
            assert msg["type"] == "error" and msg["code"] == "no_one_to_tell", opponent


def test_a_seat_may_say_three_at_once_then_one_every_few_seconds(client: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quick, "EVERY", 3600.0)  # no phrase comes back during the test, however slow
    game_id, tokens = friend_game(client)
    with both_seats(client, game_id, tokens) as (ws0, ws1):
        for phrase in ("hello", "good_luck", "oops"):
            ws0.send_json({"type": "quick", "phrase": phrase})
            assert ws0.receive_json() == said(0, phrase, game_id)
        ws0.send_json({"type": "quick", "phrase": "oops"})
        refused = ws0.receive_json()
        assert refused["type"] == "error" and refused["code"] == "too_fast"
        # The other seat has an allowance of its own.
        ws1.send_json({"type": "quick", "phrase": "hello"})
        for ws in (ws1, ws1, ws1, ws1):  # seat 0's three, then its own
            last = ws.receive_json()
        assert last == said(1, "hello", game_id)
        # Once the time has passed, seat 0 may speak again.
        manager(client).games[game_id].quick_allowance[0].stamp -= 3600.0
        ws0.send_json({"type": "quick", "phrase": "thanks"})
        assert ws0.receive_json() == said(1, "hello", game_id)
        assert ws0.receive_json() == said(0, "thanks", game_id)
        assert ws1.receive_json() == said(0, "thanks", game_id)


def test_a_pages_own_games_say_whose_turn_it_is(client: TestClient) -> None:
    game_id, tokens = friend_game(client)

    def turns() -> dict[str, Any]:
        rows = client.get("/api/games", params={"ids": game_id}).json()
        return {row["id"]: row["to_move"] for row in rows}

    assert turns()[game_id] == client.get(f"/api/games/{game_id}").json()["view"]["to_move"]
    for ply in range(6):
        view = client.get(f"/api/games/{game_id}", params={"t": tokens[0]}).json()
        mover = view["view"]["to_move"]
        view = client.get(f"/api/games/{game_id}", params={"t": tokens[mover]}).json()
        text = view["view"]["legal"][0]["text"]
        assert client.post(f"/api/games/{game_id}/action", json={"t": tokens[mover], "text": text, "ply": ply}).status_code == 200
        after = client.get(f"/api/games/{game_id}", params={"t": tokens[0]}).json()["view"]["to_move"]
        assert turns()[game_id] == after
        # A game this process does not hold is read to say so.
        manager(client).games.pop(game_id)
        assert turns()[game_id] == after
    client.post(f"/api/games/{game_id}/action", json={"t": tokens[0], "type": "resign"})
    assert turns()[game_id] is None
    # The public lists do not read games for it.
    assert all("to_move" not in row for row in client.get("/api/games", params={"status": "active"}).json())


# --- two processes on one PostgreSQL -------------------------------------------------------------
@pytest.fixture
def pair(pg_server: str) -> Iterator[tuple[str, LiveServer, LiveServer]]:
    url = _fresh_pg_database(pg_server)
    with LiveServer(url) as a, LiveServer(url) as b:
        yield url, a, b


def next_quick(ws: Any) -> dict[str, Any]:
    end = time.monotonic() + DEADLINE
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=max(0.1, end - time.monotonic())))
        if msg["type"] != "view" and msg["type"] != "presence":
            return msg


@pytest.mark.postgres
def test_a_phrase_said_on_one_process_reaches_the_pages_of_the_other(pair: tuple[str, LiveServer, LiveServer]) -> None:
    url, a, b = pair
    engine = create_engine(normalise_url(url))
    tables = set(inspect(engine).get_table_names())
    g = http_json(a.base, "/api/games", {"ruleset": RULESET, "opponent": "friend", "seat": "0"}, timeout=DEADLINE)
    friend = http_json(b.base, f"/api/games/{g['id']}/claim", {"invite": g["invite_token"]}, timeout=DEADLINE)
    with ws_client.connect(f"ws://127.0.0.1:{a.port}/ws/{g['id']}?t={g['token']}") as ws0, \
            ws_client.connect(f"ws://127.0.0.1:{b.port}/ws/{g['id']}?t={friend['token']}") as ws1, \
            ws_client.connect(f"ws://127.0.0.1:{b.port}/ws/{g['id']}") as watcher_b, \
            ws_client.connect(f"ws://127.0.0.1:{a.port}/ws/{g['id']}") as watcher_a:
        for ws in (ws0, ws1, watcher_a, watcher_b):
            assert json.loads(ws.recv(timeout=DEADLINE))["type"] == "view"
        ws0.send(json.dumps({"type": "quick", "phrase": "good_luck"}))
        for ws in (ws0, ws1, watcher_a, watcher_b):
            assert next_quick(ws) == said(0, "good_luck", g["id"])
        ws1.send(json.dumps({"type": "quick", "phrase": "thanks"}))
        for ws in (ws0, ws1, watcher_a, watcher_b):
            assert next_quick(ws) == said(1, "thanks", g["id"])
        # A refused phrase reaches nobody, here or there.
        watcher_b.send(json.dumps({"type": "quick", "phrase": "oops"}))
        assert next_quick(watcher_b)["code"] == "spectator"
        ws1.send(json.dumps({"type": "quick", "phrase": "well_played"}))
        assert next_quick(ws0) == said(1, "well_played", g["id"])
    # Said, not kept: no table was made for them, and no row of the game's changed.
    assert set(inspect(engine).get_table_names()) == tables
    engine.dispose()
    stats = [http_json(p.base, "/api/stats", timeout=DEADLINE)["quick_said"] for p in (a, b)]
    assert stats == [1, 2]
