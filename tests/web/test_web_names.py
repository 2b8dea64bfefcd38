"""Seat names: in pass and play both players are named when the game starts; a finished
game keeps the names it was played under."""

from __future__ import annotations

from fastapi.testclient import TestClient
from test_web_api import create
from webhelpers import make_client


def test_pass_and_play_names_both_seats(client: TestClient) -> None:
    r = client.post("/api/games", json={"ruleset": "battleline-basic", "opponent": "hotseat", "seat": "1",
                                        "name": " Ann ", "other_name": "Bořek  Novák"})
    assert r.status_code == 200, r.text
    g = r.json()
    view = client.get(f"/api/games/{g['id']}", params={"t": g["token"]}).json()
    assert view["names"] == ["Bořek Novák", "Ann"]  # the creator at the seat asked for, spaces tidied
    assert client.get("/api/games", params={"ids": g["id"]}).json()[0]["names"] == ["Bořek Novák", "Ann"]


def test_only_pass_and_play_names_the_other_seat(client: TestClient) -> None:
    """A friend names their own seat when they join, and a bot's seat is its level."""
    for opponent, other in (("friend", ""), ("bot:easy", "easy")):
        g = client.post("/api/games", json={"ruleset": "battleline-basic", "opponent": opponent, "seat": "0",
                                            "name": "Ann", "other_name": "Mallory"}).json()
        assert client.get(f"/api/games/{g['id']}", params={"t": g["token"]}).json()["names"] == ["Ann", other]
    too_long = client.post("/api/games", json={"ruleset": "battleline-basic", "opponent": "hotseat",
                                               "other_name": "x" * 1000})
    assert too_long.status_code == 400


def test_a_finished_game_keeps_the_names_it_was_played_under(db_url: str) -> None:
    """A seat cannot be renamed once the game is over (resigned here): the player is told
    so, and the record and the lists keep the name the game was played under."""
    with make_client(db_url) as client:
        g = create(client, opponent="friend", name="Ann")
        gid = g["id"]
        with client.websocket_connect(f"/ws/{gid}?t={g['friend_token']}") as ws:
            assert ws.receive_json()["type"] == "view"
            ws.send_json({"type": "name", "name": "Bob"})
            assert ws.receive_json()["names"] == ["Ann", "Bob"]  # while it is played: fine
            assert client.post(f"/api/games/{gid}/action", json={"t": g["token"], "type": "resign"}).status_code == 200
            assert ws.receive_json()["status"] == "finished"
            ws.send_json({"type": "name", "name": "Mallory"})
            refused = ws.receive_json()
            assert refused["type"] == "error" and refused["code"] == "game_over", refused
        record = client.get(f"/api/games/{gid}/record.json").json()
        assert (record["tags"]["Player0"], record["tags"]["Player1"]) == ("Ann", "Bob")
        assert client.get("/api/games", params={"ids": gid}).json()[0]["names"] == ["Ann", "Bob"]


def test_the_database_refuses_to_rename_a_finished_games_player(db_url: str) -> None:
    """The check is in the update itself: a process that has not heard of the ending yet
    (several processes on one PostgreSQL) still cannot rename."""
    with make_client(db_url) as client:
        g = create(client, opponent="bot:random", name="Ann")
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        assert store.set_name(g["id"], 0, "Ann B.") is True
        store.finish(g["id"], result="0-1", reason="resignation", termination="resignation", loser=0)
        assert store.set_name(g["id"], 0, "Mallory") is False
        assert store.load(g["id"]).names[0] == "Ann B."
