"""Ratings (issue 29): a rated game between two accounts changes both ratings exactly once
when it ends, whichever way and whichever process ends it; what may be rated; the player
page and the leaderboard. (Glicko-2 itself: test_web_glicko2.py.)"""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from test_web_accounts import PASSWORD, RULESET, Device
from webhelpers import LiveServer, make_client

from conftest import _fresh_pg_database
from frontlines.web.database import normalise_url


# --- rated games on the server ------------------------------------------------------------------
def rated_game(client: TestClient, ann: Device, bob: Device, seat: int = 0) -> str:
    made = ann.post("/api/games", {"ruleset": RULESET, "opponent": "friend", "seat": str(seat), "rated": True})
    assert made.status_code == 200 and made.json()["rated"] is True, made.text
    claimed = bob.post(f"/api/games/{made.json()['id']}/claim", {"invite": made.json()["invite_token"]})
    assert claimed.status_code == 200, claimed.text
    gid: str = made.json()["id"]
    return gid


def ratings_rows(url: str) -> list[tuple[Any, ...]]:
    engine = create_engine(normalise_url(url))
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(
                "SELECT a.username, r.games, r.wins, r.losses, r.draws, round(r.rating) FROM ratings r"
                " JOIN accounts a ON a.id = r.account_id ORDER BY a.username"))]
    finally:
        engine.dispose()


def changes(url: str) -> int:
    engine = create_engine(normalise_url(url))
    try:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT count(*) FROM rating_changes")).scalar_one())
    finally:
        engine.dispose()


@pytest.fixture
def two(db_url: str) -> Iterator[tuple[TestClient, Device, Device, str]]:
    with make_client(db_url) as client:
        ann, bob = Device(client), Device(client)
        ann.sign_up("Ann")
        bob.sign_up("Bob")
        yield client, ann, bob, db_url


def test_a_resignation_in_a_rated_game_rates_both_players_once(two: tuple[TestClient, Device, Device, str]) -> None:
    client, ann, bob, url = two
    gid = rated_game(client, ann, bob)
    assert ann.get(f"/api/games/{gid}").json()["rated"] is True
    assert client.get(f"/api/games/{gid}/ratings").json() == []
    assert bob.post(f"/api/games/{gid}/action", {"type": "resign"}).status_code == 200
    assert ann.post(f"/api/games/{gid}/action", {"type": "resign"}).status_code == 409  # over: nothing more
    assert ratings_rows(url) == [("Ann", 1, 1, 0, 0, 1662), ("Bob", 1, 0, 1, 0, 1338)]
    assert changes(url) == 2
    assert sorted((c["username"], c["before"], c["after"]) for c in client.get(f"/api/games/{gid}/ratings").json()) \
        == [("Ann", 1500, 1662), ("Bob", 1500, 1338)]
    # A second game starts from the first one's ratings.
    gid2 = rated_game(client, bob, ann, seat=1)
    assert ann.post(f"/api/games/{gid2}/action", {"type": "resign"}).status_code == 200
    rows = ratings_rows(url)
    assert [r[:5] for r in rows] == [("Ann", 2, 1, 1, 0), ("Bob", 2, 1, 1, 0)] and rows[0][5] < 1662
    assert changes(url) == 4


def test_a_rated_game_ended_by_the_rules_is_rated_once(two: tuple[TestClient, Device, Device, str]) -> None:
    client, ann, bob, url = two
    gid = rated_game(client, ann, bob)
    rng = random.Random(3)
    seats = {0: ann, 1: bob}
    for _ in range(400):
        view = ann.get(f"/api/games/{gid}").json()
        mover = view["view"]["to_move"]
        if mover is None:
            break
        legal = seats[mover].get(f"/api/games/{gid}").json()["view"]["legal"]
        moved = seats[mover].post(f"/api/games/{gid}/action", {"text": rng.choice(legal)["text"], "ply": view["ply"]})
        assert moved.status_code == 200, moved.text
    final = ann.get(f"/api/games/{gid}").json()
    assert final["status"] == "finished"
    rows = ratings_rows(url)
    assert [r[1] for r in rows] == [1, 1] and changes(url) == 2
    won = final["view"]["outcome"]["winner"]
    if won is None:  # random play can stall with as many flags each (the deal is the server's own)
        assert [r[2:] for r in rows] == [(0, 0, 1, 1500), (0, 0, 1, 1500)]
    else:
        assert rows[won][2] == 1 and rows[1 - won][3] == 1 and rows[won][5] > 1500 > rows[1 - won][5]


def test_the_seats_are_read_from_the_database_as_the_game_ends(two: tuple[TestClient, Device, Device, str]) -> None:
    """The process that stores the ending may not have heard yet that the other seat was taken
    (through another process, a moment ago): its copy says nobody holds that seat. The game is
    rated all the same, from the seats as stored."""
    client, ann, bob, url = two
    gid = rated_game(client, ann, bob)
    game = client.app.state.manager.games[gid]  # type: ignore[attr-defined]
    game.stored.accounts = (game.stored.accounts[0], None)  # as a copy that missed the claim
    assert ann.post(f"/api/games/{gid}/action", {"type": "resign"}).status_code == 200
    assert [r[:4] for r in ratings_rows(url)] == [("Ann", 1, 0, 1), ("Bob", 1, 1, 0)] and changes(url) == 2


def test_what_may_be_rated(two: tuple[TestClient, Device, Device, str]) -> None:
    client, ann, bob, url = two
    guest = Device(client)
    for who, body, code in [
        (guest, {"opponent": "friend"}, 400),  # no account
        (ann, {"opponent": "bot:random"}, 400), (ann, {"opponent": "hotseat"}, 400),
    ]:
        r = who.post("/api/games", {"ruleset": RULESET, "rated": True, **body})
        assert r.status_code == code and "two accounts" in r.json()["detail"]
    made = ann.post("/api/games", {"ruleset": RULESET, "opponent": "friend", "rated": True}).json()
    # The invite of a rated game: not for a guest, not for the creator's own account.
    refused = guest.post(f"/api/games/{made['id']}/claim", {"invite": made["invite_token"]})
    assert refused.status_code == 409 and "rated" in refused.json()["detail"]
    itself = Device(client)
    itself.log_in("Ann")
    assert itself.post(f"/api/games/{made['id']}/claim", {"invite": made["invite_token"]}).status_code == 409
    assert bob.post(f"/api/games/{made['id']}/claim", {"invite": made["invite_token"]}).status_code == 200
    # Unrated games between the same two accounts, a bot game, pass and play: no rating.
    plain = ann.post("/api/games", {"ruleset": RULESET, "opponent": "friend"}).json()
    bob.post(f"/api/games/{plain['id']}/claim", {"invite": plain["invite_token"]})
    bot = ann.post("/api/games", {"ruleset": RULESET, "opponent": "bot:random", "seed": 3}).json()
    hot = ann.post("/api/games", {"ruleset": RULESET, "opponent": "hotseat", "seed": 3}).json()
    for gid in (plain["id"], bot["id"], hot["id"]):
        assert ann.post(f"/api/games/{gid}/action", {"type": "resign"}).status_code == 200
    assert ratings_rows(url) == [] and changes(url) == 0


def test_the_player_page_and_the_leaderboard(two: tuple[TestClient, Device, Device, str]) -> None:
    client, ann, bob, _url = two
    for n in range(3):
        gid = rated_game(client, ann, bob, seat=n % 2)
        (bob if n < 2 else ann).post(f"/api/games/{gid}/action", {"type": "resign"})
    data = client.get("/api/players/ann").json()  # any spelling that reads as the name
    assert data["username"] == "Ann" and len(data["games"]) == 3
    (rating,) = data["ratings"]
    assert rating["ruleset"] == RULESET and rating["games"] == 3 and rating["wins"] == 2 and rating["provisional"]
    assert round(data["history"][RULESET][0]["rating"]) == 1662 and len(data["history"][RULESET]) == 3
    page = client.get("/player/Ann")
    assert page.status_code == 200
    assert '<svg class="rating-graph"' in page.text and "<polyline" in page.text and "provisional" in page.text
    assert client.get("/player/Nobody").status_code == 404
    fa = client.get("/player/Ann?lang=fa").text
    assert "۱" in fa and 'dir="rtl"' in fa
    board = client.get("/api/leaderboard", params={"ruleset": RULESET}).json()
    # Ann won, won, then lost: with deviations this wide the upset costs her more than she won.
    assert board["ranked"] == [] and [x["username"] for x in board["provisional"]] == ["Bob", "Ann"]
    assert [x["rating"] for x in board["provisional"]] == [1510, 1490]
    assert client.get(f"/leaderboard?ruleset={RULESET}").status_code == 200
    assert client.get("/leaderboard?ruleset=nonsense").status_code == 404


def test_established_players_are_ranked(sqlite_url: str) -> None:
    from frontlines.web.ratings import record_game
    from frontlines.web.store import Store

    with make_client(sqlite_url) as client:
        names = ["Ann", "Bob", "Cid"]
        for n in names:
            Device(client).sign_up(n)
        store = Store(sqlite_url)
        try:
            ids = {n: i + 1 for i, n in enumerate(names)}
            with store._session() as s, s.begin():
                # Each pair plays in turn; the first named wins two games of three. (Results that
                # never vary would teach little: Glicko-2 expects them, and deviations stay wide.)
                for g in range(60):
                    a, b = [("Ann", "Bob"), ("Ann", "Cid"), ("Bob", "Cid")][g % 3]
                    s.execute(text("INSERT INTO games (id, ruleset, options, setup, seat_hash0, seat_hash1,"
                                   " invite_hash, name0, name1, opponent, status, result, reason, termination, plies,"
                                   " created, updated, rated) VALUES (:id, :rs, '{}', '', '', '', '', '', '',"
                                   " 'friend', 'finished', '1-0', '', '', 0, 0, 0, true)"), {"id": f"g{g}", "rs": RULESET})
                    record_game(s, game_id=f"g{g}", ruleset=RULESET, accounts=(ids[a], ids[b]),
                                score=0.0 if (g // 3) % 3 == 2 else 1.0, now=time.time() - 100 + g)
        finally:
            store.close()
        board = client.get("/api/leaderboard", params={"ruleset": RULESET}).json()
        assert [x["username"] for x in board["ranked"]] == ["Ann", "Bob", "Cid"]
        page = client.get(f"/leaderboard?ruleset={RULESET}&lang=cs").text
        table = page[page.index('<table class="board">'):]
        assert table.index(">Ann<") < table.index(">Bob<") < table.index(">Cid<")


# --- two processes on one PostgreSQL ---------------------------------------------------------------
class Browser:
    """A browser against a real server: its cookies and its CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = ""

    def call(self, path: str, body: dict[str, Any] | None = None, base: str | None = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request((base or self.base) + path, data=data, headers={
            "Content-Type": "application/json", **({"X-CSRF-Token": self.csrf} if self.csrf else {})})
        try:
            with self.opener.open(req, timeout=120) as r:
                answer = json.loads(r.read())
                status = r.status
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())
        if isinstance(answer, dict) and "csrf" in answer:
            self.csrf = answer["csrf"]
        return status, answer


@pytest.mark.postgres
def test_a_rated_game_ended_through_two_processes_at_once_is_rated_once(pg_server: str) -> None:
    """Ann's game is made on process A and Bob takes his seat through B; then both resign at
    the same moment, Ann through A and Bob through B, five times over: each game ends once
    and is rated once, and both ratings count every game."""
    url = _fresh_pg_database(pg_server)
    with LiveServer(url) as a, LiveServer(url) as b:
        ann, bob = Browser(a.base), Browser(b.base)
        assert ann.call("/api/account/signup", {"username": "Ann", "password": PASSWORD})[0] == 200
        assert bob.call("/api/account/signup", {"username": "Bob", "password": PASSWORD})[0] == 200
        for _ in range(5):
            status, made = ann.call("/api/games", {"ruleset": RULESET, "opponent": "friend", "rated": True})
            assert status == 200, made
            assert bob.call(f"/api/games/{made['id']}/claim", {"invite": made["invite_token"]})[0] == 200
            answers: list[int] = []
            start = threading.Barrier(2)

            def resign(who: Browser, answers: list[int] = answers, gid: str = made["id"],
                       start: threading.Barrier = start) -> None:
                start.wait()
                answers.append(who.call(f"/api/games/{gid}/action", {"type": "resign"})[0])

            threads = [threading.Thread(target=resign, args=(who,)) for who in (ann, bob)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(answers) in ([200, 409], [200, 200]), answers  # one ending (a late one may see it)
            # Both processes say the same ending.
            assert ann.call(f"/api/games/{made['id']}")[1]["status"] == "finished"
            assert bob.call(f"/api/games/{made['id']}")[1]["view"]["outcome"] == \
                ann.call(f"/api/games/{made['id']}")[1]["view"]["outcome"]
        rows = ratings_rows(url)
        assert [r[1] for r in rows] == [5, 5] and rows[0][2] + rows[0][3] == 5 and rows[0][2] == rows[1][3]
        assert changes(url) == 10
