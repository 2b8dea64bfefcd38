"""The lobby (web/lobby.py): pairing rules, and seeks over the lobby's WebSocket on one
process (SQLite and PostgreSQL). Two processes on one PostgreSQL: test_web_lobby_cluster.py."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from webhelpers import LiveServer, http_json

from frontlines.web.fanout import LobbyLimits
from frontlines.web.pairing import Seek, Seeker, compatible, pick, refusal, seats_for, terms_of
from frontlines.web.play.game import GameError

ws_client = pytest.importorskip("websockets.sync.client")

DEADLINE = 60.0
# Short times, so that a creator who leaves is swept within a second or two.
QUICK = LobbyLimits(grace=0.6, lease=3.0, sweep_every=0.2, flush_every=0.02)


# --- pairing (no I/O) --------------------------------------------------------------------------
def seek(seek_id: str = "s1", *, ruleset: str = "battleline", clock: str = "300+3", rated: bool = False,
         seat: int | None = None, account: int | None = None, rating: float | None = None, created: float = 0.0,
         **options: str) -> Seek:
    return Seek(seek_id, terms_of(ruleset, options, clock, rated), seat, "Ann", account, "d" * 64, created, rating)


def test_terms_are_the_game_with_every_option_resolved() -> None:
    assert terms_of("battleline", {}) == terms_of("battleline", {"first_player": "random"})
    assert terms_of("battleline", {}, "300+3") != terms_of("battleline", {})
    assert terms_of("battleline", {"claim_timing": "after_play"}) != terms_of("battleline", {})
    assert terms_of("battleline", {}, " 300+3 ").clock == "300+3"
    assert terms_of("warmachine", {}, "3d").clock == "3d"
    for ruleset, options, clock in (("chess", {}, ""), ("battleline", {"nope": "1"}, ""),
                                    ("battleline", {"first_player": "2"}, ""), ("battleline", {}, "5 min"),
                                    ("battleline", {}, "1+0"), ("battleline", {}, "30d")):
        with pytest.raises(GameError) as err:
            terms_of(ruleset, options, clock)
        assert err.value.code == "bad_request"


def test_compatible_needs_the_same_game_and_seats_that_do_not_clash() -> None:
    s = seek(seat=0)
    assert compatible(s, Seeker(s.terms))
    assert compatible(s, Seeker(s.terms, seat=1))
    assert not compatible(s, Seeker(s.terms, seat=0))  # both want seat 0
    assert compatible(seek(), Seeker(s.terms, seat=0))  # the seek takes either seat
    assert not compatible(s, Seeker(terms_of("battleline", {}, "600+5")))
    assert not compatible(s, Seeker(terms_of("battleline-basic", {}, "300+3")))
    assert not compatible(s, Seeker(terms_of("battleline", {"claim_timing": "after_play"}, "300+3")))
    assert not compatible(s, Seeker(terms_of("battleline", {}, "300+3", rated=True)))
    assert not compatible(s, Seeker(s.terms, own=frozenset({"s1"})))  # one's own seek


def test_rated_seeks_need_two_different_accounts() -> None:
    rated = seek(rated=True, account=7)
    assert refusal(rated, None) == "rated_needs_account"
    assert refusal(rated, 7) == "own_seek"
    assert refusal(rated, 8) is None
    assert compatible(rated, Seeker(rated.terms, account=8))
    assert not compatible(rated, Seeker(rated.terms))
    # a seek posted without an account cannot be rated, whoever takes it
    assert refusal(seek(rated=True), 8) == "rated_needs_account"
    assert refusal(seek(account=7), 7) == "own_seek"  # not even unrated
    assert refusal(seek(), None) is None


def test_pick_takes_the_longest_waiting_or_the_nearest_rating() -> None:
    a, b, c = seek("a", created=3.0), seek("b", created=1.0), seek("c", created=2.0, seat=0)
    assert [s.id for s in pick([a, b, c], Seeker(a.terms))] == ["b", "c", "a"]
    assert [s.id for s in pick([a, b, c], Seeker(a.terms, seat=0))] == ["b", "a"]
    far = seek("far", rated=True, account=1, rating=1900.0, created=0.0)
    near = seek("near", rated=True, account=2, rating=1450.0, created=5.0)
    new = seek("new", rated=True, account=3, rating=None, created=9.0)  # no rating yet: 1500
    seeker = Seeker(far.terms, account=4, rating=1480.0)
    assert [s.id for s in pick([far, near, new], seeker)] == ["new", "near", "far"]
    assert [s.id for s in pick([far, near, new], Seeker(far.terms, account=4, rating=1800.0))] == ["far", "new", "near"]


def test_seats_follow_the_creator_then_the_taker_then_the_coin() -> None:
    assert seats_for(0, None, 1) == (0, 1)
    assert seats_for(1, 1, 0) == (1, 0)  # the creator's choice stands (accept refuses a clash)
    assert seats_for(None, 0, 0) == (1, 0)
    assert seats_for(None, None, 1) == (1, 0)
    assert seats_for(None, None, 0) == (0, 1)


def test_a_seek_shows_only_what_its_creator_chose() -> None:
    shown = seek(account=7, rating=1612.4, claim_timing="after_play").public()
    assert shown == {"id": "s1", "ruleset": "battleline", "options": {"claim_timing": "after_play"}, "clock": "300+3",
                     "rated": False, "seat": None, "name": "Ann", "rating": 1612}


# --- one process ---------------------------------------------------------------------------------
class Page:
    """A home page's lobby socket: every message it was sent, and the list as it shows it."""

    def __init__(self, port: int) -> None:
        self.ws = ws_client.connect(f"ws://127.0.0.1:{port}/ws/lobby").__enter__()
        self.seen: list[dict[str, Any]] = []
        self.listed: dict[str, dict[str, Any]] = {}

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def _take(self, msg: dict[str, Any]) -> None:
        self.seen.append(msg)
        if msg["type"] == "lobby":
            self.listed = {s["id"]: s for s in msg["seeks"]}
        elif msg["type"] == "seeks":
            for s in msg["add"]:
                self.listed[s["id"]] = s
            for seek_id in msg["remove"]:
                self.listed.pop(seek_id, None)

    def expect(self, wanted: Callable[[dict[str, Any]], bool], what: str = "a message",
               within: float = DEADLINE) -> dict[str, Any]:
        end = time.monotonic() + within
        while True:
            left = end - time.monotonic()
            assert left > 0, f"no {what} in {within} s; seen {self.seen[-5:]}"
            try:
                msg: dict[str, Any] = json.loads(self.ws.recv(timeout=left))
            except TimeoutError:
                continue
            self._take(msg)
            if wanted(msg):
                return msg

    def of_type(self, kind: str, within: float = DEADLINE) -> dict[str, Any]:
        return self.expect(lambda m: m["type"] == kind, kind, within)

    def until_listed(self, check: Callable[[dict[str, dict[str, Any]]], bool], what: str) -> None:
        if not check(self.listed):
            self.expect(lambda _: check(self.listed), what)

    def settle(self, quiet: float = 0.5) -> None:
        """Read what has come, until nothing more comes for ``quiet`` seconds."""
        while True:
            try:
                self._take(json.loads(self.ws.recv(timeout=quiet)))
            except TimeoutError:
                return

    def close(self) -> None:
        self.ws.__exit__(None, None, None)


@pytest.fixture
def server(db_url: str) -> Iterator[LiveServer]:
    with LiveServer(db_url, lobby=QUICK) as s:
        yield s


@pytest.fixture
def pages(server: LiveServer) -> Iterator[Callable[[], Page]]:
    with page_opener() as page:
        yield lambda: page(server.port)


@contextlib.contextmanager
def page_opener() -> Iterator[Callable[[int], Page]]:
    """Opens lobby pages on a port, each once it has the list; closes them all at the end."""
    opened: list[Page] = []

    def page(port: int) -> Page:
        p = Page(port)
        p.of_type("lobby")
        opened.append(p)
        return p

    try:
        yield page
    finally:
        for p in opened:
            p.close()


def post(page: Page, **fields: Any) -> dict[str, Any]:
    page.send(**{"type": "seek", "ruleset": "battleline", "clock": "300+3", **fields})
    return page.expect(lambda m: m["type"] in ("posted", "error"), "posted")


def test_a_seek_posted_is_listed_to_everyone_and_taken_by_one(server: LiveServer, pages: Callable[[], Page]) -> None:
    ann, bob, eve = pages(), pages(), pages()
    posted = post(ann, name="Ann", seat="0", options={"claim_timing": "after_play"})
    assert posted["type"] == "posted", posted
    seek_id, token = posted["seek"]["id"], posted["token"]
    for p in (bob, eve):
        p.until_listed(lambda seeks: seek_id in seeks, "the new seek")
        assert p.listed[seek_id] == posted["seek"]
    assert http_json(server.base, "/api/seeks", timeout=DEADLINE)["seeks"] == [posted["seek"]]
    bob.send(type="accept", id=seek_id, name="Bob")
    mine = bob.of_type("matched")
    theirs = ann.of_type("matched")
    assert mine["game"] == theirs["game"] and mine["seek"] == theirs["seek"] == seek_id
    assert (theirs["seat"], mine["seat"]) == (0, 1) and "token" not in theirs
    game_id = mine["game"]
    # each token seats its holder; the seek is gone from every list
    for who, seat in ((token, 0), (mine["token"], 1)):
        view = http_json(server.base, f"/api/games/{game_id}?t={who}", timeout=DEADLINE)
        assert view["role"] == seat and view["opponent"] == "lobby" and view["names"] == ["Ann", "Bob"]
        assert view["status"] == "active" and view["clock"]["control"] == "300+3"  # the seek's clock
    game = http_json(server.base, f"/api/games/{game_id}", timeout=DEADLINE)
    assert game["role"] is None
    eve.until_listed(lambda seeks: not seeks, "the seek gone")
    assert http_json(server.base, "/api/seeks", timeout=DEADLINE)["seeks"] == []
    # taken once: a second taker is told it is gone
    eve.send(type="accept", id=seek_id)
    assert eve.of_type("error")["code"] == "seek_gone"


def test_play_anyone_pairs_compatible_seeks_or_posts_one(server: LiveServer, pages: Callable[[], Page]) -> None:
    ann, bob, cat = pages(), pages(), pages()
    ann.send(type="anyone", ruleset="battleline", clock="300+3", name="Ann")
    first = ann.of_type("posted")["seek"]
    cat.until_listed(lambda seeks: first["id"] in seeks, "ann's seek")
    # a different clock is another game: cat's "anyone" posts a seek of its own
    cat.send(type="anyone", ruleset="battleline", clock="600+5", name="Cat")
    assert cat.of_type("posted")["seek"]["clock"] == "600+5"
    # the same game: bob is paired with ann at once
    bob.until_listed(lambda seeks: len(seeks) == 2, "both seeks")
    bob.send(type="anyone", ruleset="battleline", options={"first_player": "random"}, clock="300+3", name="Bob")
    paired = bob.of_type("matched")
    assert paired["seek"] == first["id"] and ann.of_type("matched")["game"] == paired["game"]
    cat.until_listed(lambda seeks: list(seeks) == [s for s in seeks if seeks[s]["clock"] == "600+5"], "only cat's")


def test_seek_messages_carry_nothing_secret(server: LiveServer, pages: Callable[[], Page]) -> None:
    ann, eve = pages(), pages()
    posted = post(ann, name="Ann")
    eve.until_listed(lambda seeks: posted["seek"]["id"] in seeks, "the seek")
    bob = pages()  # a page that arrives later gets the whole list
    everything = json.dumps(eve.seen + bob.seen + [http_json(server.base, "/api/seeks", timeout=DEADLINE)])
    assert posted["token"] not in everything
    for word in ("token", "hash", "owner", "account", "address", "expires", "127.0.0.1"):
        assert word not in everything, word
    assert set(bob.listed[posted["seek"]["id"]]) == {"id", "ruleset", "options", "clock", "rated", "seat", "name",
                                                     "rating"}


def test_caps_and_refusals(server: LiveServer, pages: Callable[[], Page]) -> None:
    ann = pages()
    mine = [post(ann)["seek"]["id"] for _ in range(QUICK.seeks_per_connection)]
    refused = post(ann)
    assert refused["type"] == "error" and refused["code"] == "too_many_seeks"
    bob = pages()
    assert post(bob, rated=True)["code"] == "rated_needs_account"
    for bad in ({"ruleset": "chess"}, {"clock": "forever"}, {"options": {"first_player": "9"}}):
        bob.send(**{"type": "seek", "ruleset": "battleline", **bad})
        assert bob.of_type("error")["code"] == "bad_request", bad
    for raw in ("{", '{"type": "seek"}', '{"type": "accept", "id": "../../x"}', '{"type": "what"}',
                json.dumps({"type": "resume", "seeks": [{"id": "a", "token": "b"}] * 11})):
        bob.ws.send(raw)
        assert bob.of_type("error")["code"] == "malformed", raw
    # one's own seek cannot be taken; one that is not there is gone
    ann.send(type="accept", id=mine[0])
    assert ann.of_type("error")["code"] == "own_seek"
    bob.send(type="accept", id="nosuchseek")
    assert bob.of_type("error")["code"] == "seek_gone"
    bob.send(type="ping")
    assert bob.of_type("pong")


def test_a_seek_ends_when_its_creator_leaves_or_cancels(server: LiveServer, pages: Callable[[], Page]) -> None:
    ann, bob = pages(), pages()
    first, second = post(ann)["seek"]["id"], post(ann)["seek"]["id"]
    bob.until_listed(lambda seeks: {first, second} <= set(seeks), "both seeks")
    ann.send(type="cancel", id=first)
    bob.until_listed(lambda seeks: first not in seeks and second in seeks, "the cancelled seek gone")
    left = time.monotonic()
    ann.close()
    bob.until_listed(lambda seeks: not seeks, "the seek of a creator who left")
    assert time.monotonic() - left >= QUICK.grace * 0.9  # not before its grace


def test_a_creator_back_within_the_grace_keeps_its_seek(server: LiveServer, pages: Callable[[], Page]) -> None:
    ann, bob = pages(), pages()
    posted = post(ann, name="Ann")
    seek_id, token = posted["seek"]["id"], posted["token"]
    ann.close()
    again = pages()  # the reloaded page
    again.send(type="resume", seeks=[{"id": seek_id, "token": token}, {"id": "other", "token": token}])
    assert again.of_type("held")["seek"]["id"] == seek_id
    assert again.of_type("expired")["id"] == "other"
    time.sleep(QUICK.grace * 3)  # well past the grace: still open, held by the page that came back
    assert seek_id in {s["id"] for s in http_json(server.base, "/api/seeks", timeout=DEADLINE)["seeks"]}
    bob.send(type="accept", id=seek_id, name="Bob")
    assert again.of_type("matched")["game"] == bob.of_type("matched")["game"]
    # a page that comes back after its seek was taken is told where the game is
    late = pages()
    late.send(type="resume", seeks=[{"id": seek_id, "token": token}])
    assert late.of_type("matched")["seat"] in (0, 1)
    # someone without the token holds nothing
    eve = pages()
    post_id = post(bob)["seek"]["id"]
    eve.send(type="resume", seeks=[{"id": post_id, "token": token}])
    assert eve.of_type("expired")["id"] == post_id


def test_a_player_who_starts_a_game_stops_seeking(server: LiveServer, pages: Callable[[], Page]) -> None:
    ann, bob, eve = pages(), pages(), pages()
    taken = post(ann)["seek"]["id"]
    post(ann, clock="600+5")
    post(bob, clock="900+10")
    eve.until_listed(lambda seeks: len(seeks) == 3, "three seeks")
    bob.send(type="accept", id=taken)
    bob.of_type("matched")
    ann.of_type("matched")
    eve.until_listed(lambda seeks: not seeks, "both players' other seeks gone")


def test_seeks_are_checked_like_names(server: LiveServer, pages: Callable[[], Page]) -> None:
    ann = pages()
    long = "x" * 100
    assert post(ann, name=f"  Ann \n  {long}")["seek"]["name"] == ("Ann " + long)[:40]
    ann.send(type="seek", ruleset="battleline")  # live unless said otherwise
    assert ann.of_type("posted")["seek"]["clock"] == "300+3"
    for bad in ("Ann\u202e", "A\u200bnn"):  # a direction override, a zero-width space
        refused = post(ann, name=bad)
        assert refused["type"] == "error" and refused["code"] == "bad_name", bad
    ann.ws.send(json.dumps({"type": "seek", "ruleset": "battleline", "name": "a\x00b"}))
    assert ann.of_type("error")["code"] == "bad_name"
    ann.send(type="accept", id="whatever", name="\u2066Eve")
    assert ann.of_type("error")["code"] == "bad_name"
