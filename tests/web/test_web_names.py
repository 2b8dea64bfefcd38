"""Seat names: in pass and play both players are named when the game starts."""

from __future__ import annotations

from fastapi.testclient import TestClient


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
