"""Clocks: the arithmetic (Fischer, correspondence, first turns free), and the server keeping
them: time stored with each move, readings in every view, a flag when time runs out (by a
timer or a sweep), a move after the deadline refused, clocks stopped at the end; on SQLite
and PostgreSQL."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from webhelpers import make_client

from frontlines.core.record import GameRecord
from frontlines.web.store import Store, normalise_url
from frontlines.web.timecontrol import DAY, ClockState, Control, advance, clock_text, ran_out, reading, start, stopped

RULESET = "battleline-basic"
LIVE = Control.parse("300+3")
assert LIVE is not None


# --- the arithmetic ------------------------------------------------------------------------
def test_controls_are_written_as_pgn_writes_them_and_refused_outside_their_range() -> None:
    assert Control.parse("") is None and Control.parse("  ") is None
    assert Control.parse("300+3") == Control("live", 300.0, 3.0) and str(Control("live", 300.0, 3.0)) == "300+3"
    assert Control.parse("3d") == Control("days", 3 * DAY) and str(Control.parse("14d")) == "14d"
    for bad in ("5+3", "10801+0", "300+181", "0d", "15d", "300", "5m", "-1+0", "300 + 3", "3.5d", "1e3+0"):
        with pytest.raises(ValueError):
            Control.parse(bad)


def turn(control: Control, state: ClockState, now: float, seat: int, actions: int = 2) -> ClockState:
    """``seat`` plays a turn of ``actions`` actions, the last at ``now`` (1 s apart before)."""
    for k in range(actions):
        nxt = seat if k < actions - 1 else 1 - seat
        state = advance(control, state, now=now - (actions - 1 - k), mover=seat, next_to_move=nxt).state
    return state


def test_fischer_charges_each_action_and_gives_the_increment_once_a_turn() -> None:
    s = start(LIVE, clocked=(True, True), now=1000.0)
    assert s.left == (300.0, 300.0) and s.running is None and s.to_move == 0
    # First turns are free: nothing runs until a player has finished one turn.
    s = turn(LIVE, s, 1100.0, 0)
    assert s.left == (300.0, 300.0) and s.running is None and s.to_move == 1 and s.moved == 1
    s = turn(LIVE, s, 1200.0, 1)
    assert s.left == (300.0, 300.0) and s.running == 0 and s.deadline == 1500.0 and s.moved == 3
    # Seat 0 plays a card 20 s later: charged, no increment yet (the turn goes on) ...
    step = advance(LIVE, s, now=1220.0, mover=0, next_to_move=0)
    assert step.spent == 20.0 and step.state.left == (280.0, 300.0)
    assert step.state.running == 0 and step.state.deadline == 1500.0  # the same deadline
    # ... then draws 2 s later: charged, and 3 s back as the turn passes.
    step = advance(LIVE, step.state, now=1222.0, mover=0, next_to_move=1)
    assert step.spent == 2.0 and step.state.left == (281.0, 300.0)
    assert step.state.running == 1 and step.state.deadline == 1222.0 + 300.0 and step.state.ply == 6
    assert step.state.time_left(1, 1322.0) == 200.0 and step.state.time_left(0, 1322.0) == 281.0


def test_correspondence_gives_each_turn_its_days_again() -> None:
    c = Control.parse("2d")
    assert c is not None
    s = turn(c, turn(c, start(c, clocked=(True, True), now=0.0), 10.0, 0), 20.0, 1)
    assert s.running == 0 and s.deadline == 20.0 + 2 * DAY
    s = advance(c, s, now=20.0 + DAY, mover=0, next_to_move=0).state  # a day on the card
    assert s.left[0] == DAY and s.deadline == 20.0 + 2 * DAY
    s = advance(c, s, now=30.0 + DAY, mover=0, next_to_move=1).state  # the draw: the turn passes
    assert s.left[0] == 2 * DAY and s.running == 1 and s.deadline == 30.0 + 3 * DAY


def test_a_move_after_the_deadline_is_out_of_time_and_changes_nothing() -> None:
    s = turn(LIVE, turn(LIVE, start(LIVE, clocked=(True, True), now=0.0), 1.0, 0), 2.0, 1)
    assert not ran_out(s, 301.9) and ran_out(s, 302.0)
    late = advance(LIVE, s, now=302.5, mover=0, next_to_move=0)
    assert late.out_of_time and late.state == s
    assert not advance(LIVE, s, now=301.9, mover=0, next_to_move=0).out_of_time


def test_a_bots_seat_has_no_clock() -> None:
    s = start(LIVE, clocked=(True, False), now=0.0)
    s = turn(LIVE, turn(LIVE, s, 5.0, 0), 6.0, 1)
    assert s.left == (300.0, None) and s.running == 0
    s = turn(LIVE, s, 16.0, 0)  # the bot's turn: nothing runs
    assert s.running is None and s.left == (293.0, None) and s.to_move == 1
    s = turn(LIVE, s, 17.0, 1)
    assert s.running == 0 and s.deadline == 17.0 + 293.0
    assert reading(LIVE, s, 27.0)["left"] == [283.0, None]


def test_the_end_stops_the_clocks_and_a_flag_leaves_nothing() -> None:
    s = turn(LIVE, turn(LIVE, start(LIVE, clocked=(True, True), now=0.0), 1.0, 0), 2.0, 1)
    resigned = stopped(s, 62.0)
    assert resigned.left == (240.0, 300.0) and resigned.running is None and resigned.deadline is None
    flagged = stopped(s, 302.1, flag=True)
    assert flagged.left == (0.0, 300.0) and flagged.to_move is None
    assert reading(LIVE, s, 400.0)["left"] == [0.0, 300.0]  # never below nothing


def test_clock_texts() -> None:
    assert [clock_text(x) for x in (299.0, 9.97, 3725.0, 2 * DAY + 7200)] == ["4:59", "9.9", "1:02:05", "2d 2h"]


# --- the server ----------------------------------------------------------------------------
def create(client: TestClient, clock: str, opponent: str = "friend", seat: int = 0) -> dict[str, Any]:
    body: dict[str, Any] = {"ruleset": RULESET, "opponent": opponent, "seat": str(seat), "clock": clock}
    if opponent != "friend":
        body["seed"] = 11
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    game: dict[str, Any] = r.json()
    tokens = {seat: game["token"]}
    if opponent == "friend":
        claimed = client.post(f"/api/games/{game['id']}/claim", json={"invite": game["invite_token"]}).json()
        tokens[1 - seat] = claimed["token"]
    game["tokens"] = tokens
    return game


def view(client: TestClient, game: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    params = {} if seat is None else {"t": game["tokens"][seat]}
    answer: dict[str, Any] = client.get(f"/api/games/{game['id']}", params=params).json()
    return answer


def play(client: TestClient, game: dict[str, Any], rng: random.Random, n: int) -> dict[str, Any]:
    """``n`` random legal actions by whoever is to move; the last view."""
    msg = view(client, game, 0)
    for _ in range(n):
        mover = msg["view"]["to_move"]
        legal = view(client, game, mover)["view"]["legal"]
        r = client.post(f"/api/games/{game['id']}/action",
                        json={"t": game["tokens"][mover], "text": rng.choice(legal)["text"], "ply": msg["ply"]})
        assert r.status_code == 200, r.text
        msg = r.json()
    return msg


def squeeze(url: str, game_id: str, seconds: float) -> None:
    """Leave the running clock ``seconds`` (negative: ran out that long ago), by the
    database's clock, in the database only: the server must find it there."""
    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        now = time.time() if url.startswith("sqlite") else float(conn.scalar(text("SELECT extract(epoch FROM clock_timestamp())")))
        seat = conn.scalar(text("SELECT running FROM clocks WHERE game_id = :g"), {"g": game_id})
        assert seat in (0, 1)
        conn.execute(text(f"UPDATE clocks SET left{seat} = :left, since = :now, deadline = :deadline WHERE game_id = :g"),
                     {"left": max(0.0, seconds), "now": now, "deadline": now + seconds, "g": game_id})
    engine.dispose()


@pytest.fixture
def fast(db_url: str) -> Iterator[TestClient]:
    """A server whose clock sweep looks every 0.1 s."""
    with make_client(db_url, clock_sweep=0.1) as c:
        yield c


def wait_for(client: TestClient, game: dict[str, Any], done: Any, what: str, limit: float = 60.0) -> dict[str, Any]:
    end = time.monotonic() + limit
    while True:
        msg = view(client, game)
        if done(msg):
            return msg
        assert time.monotonic() < end, what
        time.sleep(0.05)


def test_views_carry_the_clocks_and_each_action_its_time(fast: TestClient, db_url: str) -> None:
    game = create(fast, "300+3")
    assert game["clock"] == "300+3"
    first = view(fast, game)  # a spectator sees the clocks too
    a = first["view"]["to_move"]  # who starts
    assert first["clock"] == {"control": "300+3", "kind": "live", "base": 300.0, "increment": 3.0,
                              "left": [300.0, 300.0], "running": None, "to_move": a}
    rng = random.Random(5)
    msg = play(fast, game, rng, 4)  # both first turns: free
    assert msg["clock"]["left"][1 - a] == 300.0 and 299.0 < msg["clock"]["left"][a] <= 300.0
    assert msg["clock"]["running"] == a
    time.sleep(0.3)
    msg = play(fast, game, rng, 2)  # the starter's second turn: charged, then 3 s back
    left = msg["clock"]["left"][a]
    assert 300.0 < left < 302.8 and msg["clock"]["running"] == 1 - a
    spectator = view(fast, game)["clock"]
    assert spectator["left"][a] == left and spectator["left"][1 - a] <= 300.0
    store = fast.app.state.manager.store  # type: ignore[attr-defined]
    spent = store.spent(game["id"])
    assert len(spent) == 6 and all(x is not None and x >= 0 for x in spent) and spent[4] >= 0.3
    # The home page's list knows where a game's clocks stand.
    listed = fast.get("/api/games", params={"ids": game["id"]}).json()[0]
    assert listed["clock"]["control"] == "300+3" and listed["clock"]["to_move"] == 1 - a


def test_a_player_whose_time_runs_out_loses_on_time(fast: TestClient, db_url: str) -> None:
    game = create(fast, "300+3")
    a = play(fast, game, random.Random(6), 4)["view"]["to_move"]
    squeeze(db_url, game["id"], 0.3)
    end = wait_for(fast, game, lambda m: m["status"] == "finished", "the flag never came")
    outcome = end["view"]["outcome"]
    assert outcome["winner"] == 1 - a and outcome["reason"] == "time"
    assert end["clock"]["left"][a] == 0.0 and end["clock"]["running"] is None
    record = GameRecord.parse(fast.get(f"/api/games/{game['id']}/record.txt").text)
    assert record.tags["Termination"] == "time" and record.tags["Loser"] == str(a)
    assert record.tags["TimeControl"] == "300+3" and record.tags["Result"] == ("0-1" if a == 0 else "1-0")
    assert fast.get("/api/stats").json()["clocks"]["flagged"] == 1
    # Stopped: the sweep finds nothing more to do.
    store = fast.app.state.manager.store  # type: ignore[attr-defined]
    loaded = store.load(game["id"])
    assert loaded is not None and loaded.clock is not None and loaded.clock.deadline is None


def test_a_move_that_arrives_after_the_deadline_is_refused_and_the_flag_stored(db_url: str) -> None:
    with make_client(db_url, clock_sweep=60.0) as client:  # no sweep in time: the move finds it
        game = create(client, "300+3")
        a = play(client, game, random.Random(7), 4)["view"]["to_move"]
        squeeze(db_url, game["id"], -2.0)
        legal = view(client, game, a)["view"]["legal"]
        r = client.post(f"/api/games/{game['id']}/action", json={"t": game["tokens"][a], "text": legal[0]["text"]})
        assert r.status_code == 409 and r.json()["code"] == "out_of_time"
        end = view(client, game)
        assert end["status"] == "finished" and end["ply"] == 4 and end["view"]["outcome"]["reason"] == "time"
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        assert len(store.load(game["id"]).actions) == 4


def test_a_bot_game_clocks_the_person_only_and_a_resignation_stops_it(fast: TestClient) -> None:
    game = create(fast, "180+2", opponent="bot:random", seat=0)
    assert view(fast, game)["clock"]["left"] == [180.0, None]
    rng = random.Random(8)
    for _ in range(3):  # the person's turns, the bot answering
        wait_for(fast, game, lambda m: m["view"]["to_move"] == 0, "the bot did not answer")
        play(fast, game, rng, 2)
    msg = wait_for(fast, game, lambda m: m["view"]["to_move"] == 0, "the bot did not answer")
    assert msg["clock"]["running"] == 0 and msg["clock"]["left"][1] is None
    r = fast.post(f"/api/games/{game['id']}/action", json={"t": game["token"], "type": "resign"})
    assert r.status_code == 200
    end = r.json()
    assert end["clock"]["running"] is None and 0 < end["clock"]["left"][0] <= 184.0


def test_correspondence_clocks_are_days_and_keep_a_game_from_being_abandoned(fast: TestClient, db_url: str) -> None:
    game = create(fast, "3d", opponent="hotseat")
    game["tokens"] = {0: game["token"], 1: game["token"]}
    msg = play(fast, game, random.Random(9), 4)
    a = msg["view"]["to_move"]
    assert msg["clock"]["kind"] == "days" and msg["clock"]["running"] == a
    assert msg["clock"]["left"][a] > 3 * DAY - 60
    store = fast.app.state.manager.store  # type: ignore[attr-defined]
    # A week without a move abandons a game, unless its clock runs: then the clock decides.
    engine = create_engine(normalise_url(db_url))
    with engine.begin() as conn:
        conn.execute(text("UPDATE games SET updated = 0 WHERE id = :g"), {"g": game["id"]})
    engine.dispose()
    assert store.abandon_idle(unstarted_before=time.time(), idle_before=time.time(), keep=set()) == []


def test_bad_clocks_are_refused(fast: TestClient) -> None:
    for bad in ("5+0", "1:00", "30d", 300):
        r = fast.post("/api/games", json={"ruleset": RULESET, "opponent": "friend", "clock": bad})
        assert r.status_code == 400 and "clock" in r.text


def test_a_game_from_before_clocks_has_none(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.create_game(game_id="old", ruleset=RULESET, options={}, setup="x", seat_hashes=("", ""),
                          names=("", ""), opponent="friend", bot_seat=None)
        loaded = store.load("old")
        assert loaded is not None and loaded.time_control == "" and loaded.clock is None
    finally:
        store.close()
