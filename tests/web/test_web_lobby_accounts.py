"""The lobby with accounts (issue 29): a page's session reaches its lobby socket; seeks and
seats of players with an account bear their usernames and belong to the accounts; a rated
seek is posted and taken by accounts only, its game is rated, its ending rates both players,
and its rematch (the accounts swapped with the seats) is rated too; a seek shows its
creator's rating. On SQLite and PostgreSQL, through the app's own WebSockets."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_web_accounts import Device
from webhelpers import make_client


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with make_client(db_url) as c:
        yield c


def until(ws: Any, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first message ``wanted`` takes (a lobby page hears every seek come and go)."""
    for _ in range(50):
        msg: dict[str, Any] = ws.receive_json()
        if wanted(msg):
            return msg
    raise AssertionError("no such message in 50")


def answer(ws: Any) -> dict[str, Any]:
    return until(ws, lambda m: m["type"] in ("posted", "matched", "error"))


def seek(ws: Any, **fields: Any) -> dict[str, Any]:
    ws.send_json({"type": "seek", "ruleset": "battleline-basic", "clock": "300+3", **fields})
    return answer(ws)


def test_a_rated_seek_pairs_two_accounts_rates_its_game_and_its_rematch(client: TestClient) -> None:
    ann, bob, guest = Device(client), Device(client), Device(client)
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    with guest.ws("/ws/lobby") as g:
        g.receive_json()
        assert seek(g, rated=True, name="Gus")["code"] == "rated_needs_account"
    with ann.ws("/ws/lobby") as a:
        a.receive_json()
        posted = seek(a, rated=True, name="Mallory")  # an account's seek bears its username
        assert posted["type"] == "posted" and posted["seek"]["name"] == "Ann" and posted["seek"]["rated"] is True
        assert posted["seek"]["rating"] is None  # no rated game yet
        seek_id = posted["seek"]["id"]
        with guest.ws("/ws/lobby") as g:
            g.receive_json()
            g.send_json({"type": "accept", "id": seek_id, "name": "Gus"})
            assert answer(g)["code"] == "rated_needs_account"
        with bob.ws("/ws/lobby") as b:
            b.receive_json()
            b.send_json({"type": "accept", "id": seek_id, "name": "Someone"})
            taken = answer(b)
            assert taken["type"] == "matched", taken
        made = answer(a)
    assert made["type"] == "matched" and made["game"] == taken["game"]
    gid, ann_seat = taken["game"], made["seat"]
    # Both seats belong to the accounts, on any device, without the seat links.
    for device, seat in ((ann, ann_seat), (bob, 1 - ann_seat)):
        view = device.get(f"/api/games/{gid}").json()
        assert view["role"] == seat and view["rated"] is True and view["players"] == [True, True]
        assert view["names"][ann_seat] == "Ann" and view["names"][1 - ann_seat] == "Bob"
        assert [g["id"] for g in device.get("/api/account/games").json()] == [gid]
    assert guest.get(f"/api/games/{gid}").json()["role"] is None
    # Bob resigns: both ratings change, once.
    assert bob.post(f"/api/games/{gid}/action", {"type": "resign"}).status_code == 200
    after = {c["username"]: (c["before"], c["after"]) for c in client.get(f"/api/games/{gid}/ratings").json()}
    assert after == {"Ann": (1500, 1662), "Bob": (1500, 1338)}
    # The rematch, answered by the accounts: seats (and accounts) swapped, rated again.
    assert ann.post(f"/api/games/{gid}/rematch", {"answer": "yes"}).status_code == 200
    assert bob.post(f"/api/games/{gid}/rematch", {"answer": "yes"}).status_code == 200
    new = client.get(f"/api/games/{gid}").json()["rematch"]["game"]
    assert new and new != gid
    assert ann.get(f"/api/games/{new}").json()["role"] == 1 - ann_seat
    assert bob.get(f"/api/games/{new}").json()["role"] == ann_seat
    assert client.get(f"/api/games/{new}").json()["rated"] is True
    assert ann.post(f"/api/games/{new}/action", {"type": "resign"}).status_code == 200
    again = {c["username"]: c["before"] for c in client.get(f"/api/games/{new}/ratings").json()}
    assert again == {"Ann": 1662, "Bob": 1338}
    # A seek now shows its creator's rating, to everyone.
    with bob.ws("/ws/lobby") as b, guest.ws("/ws/lobby") as g:
        b.receive_json()
        g.receive_json()
        mine = seek(b, rated=True)["seek"]
        assert mine["rating"] is not None and mine["rating"] > 1338
        listed = until(g, lambda m: m["type"] == "seeks" and any(s["id"] == mine["id"] for s in m["add"]))
        assert [s["rating"] for s in listed["add"] if s["id"] == mine["id"]] == [mine["rating"]]


def test_an_unrated_lobby_game_of_an_account_and_a_guest(client: TestClient) -> None:
    ann, guest = Device(client), Device(client)
    ann.sign_up("Ann")
    with ann.ws("/ws/lobby") as a, guest.ws("/ws/lobby") as g:
        a.receive_json()
        g.receive_json()
        posted = seek(a, name="")
        g.send_json({"type": "accept", "id": posted["seek"]["id"], "name": "Gus"})
        taken = answer(g)
        made = answer(a)
    gid = taken["game"]
    view = ann.get(f"/api/games/{gid}").json()  # the account's seat, without its token
    assert view["role"] == made["seat"] and view["rated"] is False
    assert view["players"][made["seat"]] is True and view["players"][taken["seat"]] is False
    assert view["names"][made["seat"]] == "Ann" and view["names"][taken["seat"]] == "Gus"
    assert [g["id"] for g in ann.get("/api/account/games").json()] == [gid]
    # the guest's seat is its token's alone
    assert guest.get(f"/api/games/{gid}").json()["role"] is None
    assert guest.get(f"/api/games/{gid}", params={"t": taken["token"]}).json()["role"] == taken["seat"]
