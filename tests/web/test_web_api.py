"""API and WebSocket tests: view filtering, refused messages, seats and spectators, resuming
after a restart, records; every test that touches storage runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from webhelpers import make_client

from frontlines.core.record import GameRecord
from frontlines.games import parse_state

RULESET = "battleline-basic"


def create(client: TestClient, opponent: str = "friend", ruleset: str = RULESET, seat: int = 0,
           seed: int | None = 7, name: str = "Ann", options: dict[str, str] | None = None) -> dict[str, Any]:
    """A new game. Friend games are dealt by the server alone (no seed), and their invite is
    spent at once by a second browser: its seat token is ``friend_token``."""
    body: dict[str, Any] = {"ruleset": ruleset, "opponent": opponent, "seat": str(seat), "name": name,
                            "options": options or {}}
    if opponent != "friend" and seed is not None:
        body["seed"] = seed
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    if opponent == "friend":
        joined = client.post(f"/api/games/{data['id']}/claim", json={"invite": data["invite_token"]})
        assert joined.status_code == 200, joined.text
        assert joined.json()["seat"] == 1 - seat
        data["friend_token"] = joined.json()["token"]
    return data


def hidden_codes(view_of_other: dict[str, Any], seat_of_other: int) -> set[str]:
    """Cards in the other seat's hand: what this seat must never be told."""
    hand = view_of_other["hands"][seat_of_other] if view_of_other.get("hands") else None
    return set(hand or [])


def assert_no_leak(message: dict[str, Any], secret: set[str]) -> None:
    """No card of ``secret`` appears anywhere in the message except the 'unseen' list
    (which by definition names every card the receiver has not seen)."""
    body = json.loads(json.dumps(message))
    view = body.get("view", {})
    view.pop("unseen", None)
    # Cards of the other hand this seat knows because it put them where they were drawn
    # from (Scout): its own knowledge, not a leak; so are the cards of its own log entries
    # (the card it put back). The other seat's entries stay checked.
    view.pop("known", None)
    viewer = view.get("viewer")
    view["log_records"] = [r for r in view.get("log_records") or [] if viewer is None or r.get("seat") != viewer]
    # A failed claim's counter-example is a hypothetical completion drawn from the unseen
    # cards; naming one of them is not knowledge of where it is.
    for flag in view.get("flags") or []:
        if flag.get("claim"):
            flag["claim"].pop("counterexample", None)
            flag["claim"].pop("reason", None)
            flag["claim"].pop("why", None)
    text = json.dumps(body)
    for code in secret:
        assert f'"{code}"' not in text, f"{code} leaked: {text[:300]}"
    assert "Setup" not in text and "setup" not in text


def views_of_both(client: TestClient, game: dict[str, Any], other_token: str) -> tuple[dict[str, Any], dict[str, Any]]:
    mine = client.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
    theirs = client.get(f"/api/games/{game['id']}", params={"t": other_token}).json()
    return mine, theirs


# --- creating and viewing ------------------------------------------------------------------
def test_create_and_filtered_views(client: TestClient) -> None:
    game = create(client)
    assert game["invite_token"] and len({game["invite_token"], game["token"], game["friend_token"]}) == 3
    mine, theirs = views_of_both(client, game, game["friend_token"])
    assert mine["view"]["viewer"] == 0 and theirs["view"]["viewer"] == 1
    assert isinstance(mine["view"]["hands"][0], list) and mine["view"]["hands"][1] is None
    assert theirs["view"]["hands"][0] is None and isinstance(theirs["view"]["hands"][1], list)
    assert_no_leak(mine, set(theirs["view"]["hands"][1]))
    assert_no_leak(theirs, set(mine["view"]["hands"][0]))
    spectator = client.get(f"/api/games/{game['id']}").json()
    assert spectator["view"]["viewer"] is None and spectator["role"] is None
    assert spectator["view"]["hands"] == [None, None] and spectator["view"]["legal"] == []
    assert_no_leak(spectator, set(mine["view"]["hands"][0]) | set(theirs["view"]["hands"][1]))
    # A wrong token is a spectator, never a seat.
    wrong = client.get(f"/api/games/{game['id']}", params={"t": "x" * 32}).json()
    assert wrong["role"] is None
    listed = client.get("/api/games", params={"status": "active"}).json()
    assert [g["id"] for g in listed] == [game["id"]]
    assert "token0" not in json.dumps(listed) and game["token"] not in json.dumps(listed)


def test_rulesets_say_what_their_places_are_called(client: TestClient) -> None:
    """The home page words each ruleset's options before any view exists: /api/rulesets says
    what each ruleset calls its places (Schotten Totten's stones)."""
    rulesets = client.get("/api/rulesets").json()
    places = {r["name"]: r["place_name"] for r in rulesets}
    assert places["schotten-totten"] == places["schotten-totten-tactics"] == "stone"
    assert places["battleline"] == places["medieval"] == "flag" and places["warmachine"] is None
    # and each option in words: the core's, which the terminal shows too (issue 30 item 25)
    claim = next(o for o in rulesets[0]["options"] if o["name"] == "claim_timing")
    assert claim["label"] == "When flags may be claimed" and claim["words"][0] == "Any time before drawing"
    assert claim["about"].startswith("when flags may be claimed")


def test_bad_requests(client: TestClient) -> None:
    assert client.post("/api/games", json={"ruleset": "nope", "opponent": "friend"}).status_code == 400
    assert client.post("/api/games", json={"ruleset": RULESET, "opponent": "bot:god"}).status_code == 400
    assert client.post("/api/games", json=[1, 2]).status_code == 400
    assert client.post("/api/games", content=b"{not json").status_code == 400
    assert client.post("/api/games", json={"ruleset": RULESET, "opponent": "friend",
                                           "options": {"bogus": "1"}}).status_code == 400
    assert client.get("/api/games/nosuchgame").status_code == 404
    assert client.get("/g/nosuchgame").status_code == 404


def drain(ws: WebSocketTestSession, n: int) -> dict[str, Any]:
    msg: dict[str, Any] = {}
    for _ in range(n):
        msg = ws.receive_json()
    return msg


# --- refused messages -------------------------------------------------------------------------
def test_illegal_and_malformed_messages_change_nothing(client: TestClient) -> None:
    game = create(client)
    gid, t0, t1 = game["id"], game["token"], game["friend_token"]
    with client.websocket_connect(f"/ws/{gid}?t={t0}") as ws0, client.websocket_connect(f"/ws/{gid}?t={t1}") as ws1:
        first = drain(ws0, 2)
        drain(ws1, 1)
        mover = first["view"]["to_move"]
        wsm, wso = (ws0, ws1) if mover == 0 else (ws1, ws0)
        other_legal = client.get(f"/api/games/{gid}", params={"t": t0 if mover == 0 else t1}).json()["view"]["legal"]
        cases: list[tuple[str, str]] = [
            ("not json", "malformed"),
            ("[1, 2]", "malformed"),
            (json.dumps({"type": "dance"}), "malformed"),
            (json.dumps({"type": "action", "text": 42}), "malformed"),
            (json.dumps({"type": "action", "text": ""}), "malformed"),
            (json.dumps({"type": "action", "text": "Z99@1"}), "illegal"),
            (json.dumps({"type": "action", "text": "claim:3"}), "illegal"),
            (json.dumps({"type": "action", "text": other_legal[0]["text"], "ply": 5}), "stale"),
            (json.dumps({"type": "action", "text": other_legal[0]["text"], "ply": "0"}), "malformed"),
            (json.dumps({"type": "action", "text": "x" * 5000}), "malformed"),
            (json.dumps({"type": "name", "name": ["x"]}), "malformed"),
        ]
        for raw, code in cases:
            wsm.send_text(raw)
            reply = wsm.receive_json()
            assert reply["type"] == "error" and reply["code"] == code, (raw[:40], reply)
        # The other seat may not move for the mover, even with a legal text.
        wso.send_json({"type": "action", "text": other_legal[0]["text"]})
        assert wso.receive_json()["code"] == "not_your_turn"
        # A card the mover does not hold.
        hand = set(client.get(f"/api/games/{gid}", params={"t": t0 if mover == 0 else t1}).json()["view"]["hands"][mover])
        missing = next(c for c in ("R1", "O2", "Y3", "G4", "B5", "P6", "R10") if c not in hand)
        wsm.send_json({"type": "action", "text": f"{missing}@1"})
        refused = wsm.receive_json()
        assert refused["code"] == "illegal"
        # the rule that refused it travels with the error, for the page to say in its language
        assert refused["reason"]["code"] == "not_in_hand" and refused["reason"]["params"] == {"card": missing}
        assert refused["reason"]["words"] and "hand" in refused["message"]
        wsm.send_json({"type": "ping"})
        assert wsm.receive_json() == {"type": "pong"}
    with client.websocket_connect(f"/ws/{gid}") as spectator:
        drain(spectator, 1)
        spectator.send_json({"type": "action", "text": other_legal[0]["text"]})
        assert spectator.receive_json()["code"] == "spectator"
        spectator.send_json({"type": "resign"})
        assert spectator.receive_json()["code"] == "spectator"
    after = client.get(f"/api/games/{gid}").json()
    assert after["ply"] == 0 and after["status"] == "active"
    # HTTP moves are checked the same way.
    r = client.post(f"/api/games/{gid}/action", json={"t": t0 if mover == 0 else t1, "text": "Z99@1"})
    assert r.status_code == 409 and r.json()["code"] == "illegal"


def test_unknown_game_socket(client: TestClient) -> None:
    with client.websocket_connect("/ws/nosuchgame") as ws:
        assert ws.receive_json()["code"] == "not_found"


# --- a whole game: two seats and a spectator ----------------------------------------------------
_CODE = re.compile(r"(?<![A-Za-z0-9])([ROYGBP](?:10|[1-9])|AL|DA|CC|SB|FO|MU|SC|RE|DE|TR)(?![A-Za-z0-9])")


def table_codes(view: dict[str, Any], seat: int | None) -> set[str]:
    """Cards this receiver sees now: its own hand and everything face up on the table."""
    out: set[str] = set()
    if seat is not None and view["hands"][seat]:
        out |= set(view["hands"][seat])
    for flag in view["flags"]:
        for side in (*flag["sides"], *flag["environment"]):
            out |= set(side)
    for pile in (*view["discards"], *view["guile"]):
        out |= set(pile)
    return out


def mentioned_codes(message: dict[str, Any]) -> set[str]:
    """Every card code a message mentions, apart from the 'unseen' list and claim
    counter-examples (hypothetical completions drawn from the unseen cards, which the
    proof's sentence and its data, ``reason`` and ``why``, name too)."""
    body = json.loads(json.dumps(message))
    body.pop("game_id", None)  # a random id can look like a card ("x-R7_y")
    view = body["view"]
    view.pop("unseen", None)
    view.pop("card_names", None)
    for flag in view.get("flags") or []:
        if flag.get("claim"):
            flag["claim"].pop("counterexample", None)
            flag["claim"].pop("reason", None)
            flag["claim"].pop("why", None)
    return set(_CODE.findall(json.dumps(body)))


@pytest.mark.parametrize("ruleset", ["battleline-basic", "battleline"])
def test_two_seats_and_spectator_play_to_the_end(client: TestClient, ruleset: str) -> None:
    game = create(client, seed=11, ruleset=ruleset)
    gid, t0, t1 = game["id"], game["token"], game["friend_token"]
    rng = random.Random(5)
    with client.websocket_connect(f"/ws/{gid}?t={t0}") as ws0, \
            client.websocket_connect(f"/ws/{gid}?t={t1}") as ws1, \
            client.websocket_connect(f"/ws/{gid}") as spec:
        # A seat's arrival re-sends the seats their view; a spectator's arrival sends nothing
        # to the others (one view to the newcomer: no cost that grows with the audience).
        last = [drain(ws0, 2), drain(ws1, 1), drain(spec, 1)]
        socks = [ws0, ws1, spec]
        seats: list[int | None] = [0, 1, None]
        # Every card a receiver has ever been able to see at the table (or in its hand).
        ever = [table_codes(m["view"], seat) for m, seat in zip(last, seats, strict=True)]
        plies = 0
        while last[2]["view"]["to_move"] is not None:
            mover = last[2]["view"]["to_move"]
            legal = last[mover]["view"]["legal"]
            assert legal and last[1 - mover]["view"]["legal"] == []
            socks[mover].send_json({"type": "action", "text": rng.choice(legal)["text"], "ply": last[mover]["ply"]})
            last = [s.receive_json() for s in socks]
            plies += 1
            assert all(m["type"] == "view" and m["ply"] == plies for m in last)
            assert last[2]["view"]["hands"] == [None, None]
            # No message names a card its receiver could not have seen at the table.
            for i, (m, seat) in enumerate(zip(last, seats, strict=True)):
                ever[i] |= table_codes(m["view"], seat)
                if m["view"]["to_move"] is not None:
                    assert mentioned_codes(m) <= ever[i], (seat, mentioned_codes(m) - ever[i])
            # Neither seat is ever told the other's hand; the spectator neither.
            h0, h1 = last[0]["view"]["hands"][0], last[1]["view"]["hands"][1]
            if last[2]["view"]["to_move"] is not None:
                assert last[0]["view"]["hands"][1] is None and last[1]["view"]["hands"][0] is None
                assert_no_leak(last[0], set(h1))
                assert_no_leak(last[1], set(h0))
                assert_no_leak(last[2], set(h0) | set(h1))
            assert plies < 400
    final = client.get(f"/api/games/{gid}").json()
    assert final["status"] == "finished"
    assert final["view"]["outcome"]["reason"] in ("breakthrough", "envelopment", "stall")  # ended by the rules
    # The record replays to the same final position.
    text = client.get(f"/api/games/{gid}/record.txt").text
    record = GameRecord.parse(text)
    assert len(record.actions) == plies
    assert record.replay(parse_state).view(None).to_dict()["outcome"] == final["view"]["outcome"]
    as_json = client.get(f"/api/games/{gid}/record.json").json()
    assert GameRecord.from_json(as_json).actions == record.actions
    info = client.get(f"/api/games/{gid}/replay").json()
    assert info["steps"] == plies + 1
    step0 = client.get(f"/api/games/{gid}/replay/0").json()["view"]
    assert all(isinstance(h, list) for h in step0["hands"])  # a finished game hides nothing
    assert client.get(f"/api/games/{gid}/replay/{plies + 5}").status_code == 404


def test_records_wait_for_the_end_and_resign(client: TestClient) -> None:
    game = create(client)
    gid = game["id"]
    for path in ("record.txt", "record.json", "replay", "replay/0"):
        assert client.get(f"/api/games/{gid}/{path}").status_code == 403
    with client.websocket_connect(f"/ws/{gid}?t={game['friend_token']}") as ws1:
        drain(ws1, 1)
        ws1.send_json({"type": "name", "name": "  Bob   the\nBold "})
        assert ws1.receive_json()["names"] == ["Ann", "Bob the Bold"]
        ws1.send_json({"type": "resign"})
        done = ws1.receive_json()
        assert done["status"] == "finished" and done["view"]["outcome"]["winner"] == 0
        ws1.send_json({"type": "resign"})
        assert ws1.receive_json()["code"] == "game_over"
    record = GameRecord.parse(client.get(f"/api/games/{gid}/record.txt").text)
    assert record.tags["Termination"] == "resignation" and record.tags["Loser"] == "1"
    replayed = record.replay(parse_state).outcome()
    assert replayed is not None and (replayed.winner, replayed.reason) == (0, "resignation")
    # The replay shows the resignation as a step of its own, after the last position.
    assert client.get(f"/api/games/{gid}/replay").json()["steps"] == len(record.actions) + 2
    steps = [client.get(f"/api/games/{gid}/replay/{n}").json()["view"] for n in (0, 1)]
    assert steps[0]["outcome"] is None and steps[1]["outcome"]["reason"] == "resignation"


# --- bots and restarts --------------------------------------------------------------------------
def play_against_bot(client: TestClient, game: dict[str, Any], moves: int | None, rng: random.Random) -> dict[str, Any]:
    """Play random legal moves for our seat until ``moves`` are made or the game ends."""
    gid, token = game["id"], game["token"]
    made = 0
    ply, deadline = -1, 0.0
    while True:
        msg = client.get(f"/api/games/{gid}", params={"t": token}).json()
        if msg["status"] == "finished" or (moves is not None and made >= moves):
            return msg
        if msg["ply"] != ply:  # a move must not take long, whatever the game's length
            ply, deadline = msg["ply"], time.monotonic() + 120
        assert time.monotonic() < deadline, "game against the bot did not progress"
        legal = msg["view"]["legal"]
        if not legal:
            time.sleep(0.01)  # the bot is thinking in its worker
            continue
        r = client.post(f"/api/games/{gid}/action", json={"t": token, "text": rng.choice(legal)["text"], "ply": msg["ply"]})
        assert r.status_code == 200, r.text
        made += 1


def test_resume_after_restart(db_url: str) -> None:
    rng = random.Random(3)
    with make_client(db_url) as c1:
        game = create(c1, opponent="bot:random", seed=21)
        before = play_against_bot(c1, game, 6, rng)
        mine = c1.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
    # A new server process on the same database: same game, same position, same seat.
    with make_client(db_url) as c2:
        again = c2.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
        assert again["role"] == 0 and again["ply"] >= before["ply"]
        if again["ply"] == mine["ply"]:
            assert again["view"] == mine["view"]
        final = play_against_bot(c2, game, None, rng)
        assert final["status"] == "finished"
        mine_list = c2.get("/api/games", params={"ids": game["id"]}).json()
        assert mine_list[0]["status"] == "finished" and mine_list[0]["plies"] == final["ply"]


def test_bot_in_a_process_pool(sqlite_url: str) -> None:
    with make_client(sqlite_url, bot_executor="process") as c:
        game = create(c, opponent="bot:random", seat=1, seed=4)
        msg = play_against_bot(c, game, 2, random.Random(1))
        assert msg["ply"] >= 2
        assert c.get("/api/stats").json()["slowest_bot_s"] > 0


def test_live_games_fall_out_of_memory_and_come_back(sqlite_url: str) -> None:
    with make_client(sqlite_url, cache_games=1) as c:
        a, b = create(c, seed=1), create(c, seed=2)
        stats = c.get("/api/stats").json()
        assert stats["live_games"] == 1
        view_a = c.get(f"/api/games/{a['id']}", params={"t": a["token"]}).json()
        assert view_a["role"] == 0 and view_a["ply"] == 0
        assert c.get(f"/api/games/{b['id']}", params={"t": b["friend_token"]}).json()["role"] == 1


def test_hotseat_shows_the_mover(client: TestClient) -> None:
    game = create(client, opponent="hotseat")
    assert game["invite_token"] is None
    msg = client.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json()
    assert msg["role"] == "both" and msg["view"]["viewer"] == msg["view"]["to_move"]
    text = msg["view"]["legal"][0]["text"]
    after = client.post(f"/api/games/{game['id']}/action", json={"t": game["token"], "text": text}).json()
    assert after["ply"] == 1 and after["view"]["viewer"] == after["view"]["to_move"]


def test_war_machine_game_over_websocket(client: TestClient) -> None:
    game = create(client, ruleset="warmachine", seed=3)
    gid = game["id"]
    rng = random.Random(2)
    with client.websocket_connect(f"/ws/{gid}?t={game['token']}") as ws0, \
            client.websocket_connect(f"/ws/{gid}?t={game['friend_token']}") as ws1:
        last = [drain(ws0, 2), drain(ws1, 1)]
        while last[0]["view"]["to_move"] is not None:
            mover = last[0]["view"]["to_move"]
            [ws0, ws1][mover].send_json({"type": "action", "text": rng.choice(last[mover]["view"]["legal"])["text"]})
            last = [ws0.receive_json(), ws1.receive_json()]
            if last[0]["view"]["to_move"] is not None:
                assert last[0]["view"]["hands"][1] is None and last[1]["view"]["hands"][0] is None
        assert last[0]["status"] == "finished"
    state = parse_state(GameRecord.parse(client.get(f"/api/games/{gid}/record.txt").text).tags["Setup"])
    assert state.game == "warmachine"


# --- pages and languages ---------------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "direction", "word"), [
    ("en", "ltr", "New game"), ("fa", "rtl", "بازی تازه"), ("ja", "ltr", "新しいゲーム"), ("cs", "ltr", "Nová hra")])
def test_pages_in_four_languages(sqlite_url: str, lang: str, direction: str, word: str) -> None:
    with make_client(sqlite_url) as c:
        r = c.get("/", params={"lang": lang})
        assert r.status_code == 200
        assert f'lang="{lang}" dir="{direction}"' in r.text and word in r.text
        assert r.cookies.get("lang") == lang
        assert c.get("/").text.count(f'lang="{lang}"') >= 1  # the cookie keeps the choice
        catalog = c.get(f"/i18n/{lang}.json").json()
        assert (catalog == {}) == (lang == "en")
        game = create(c)
        page = c.get(f"/g/{game['id']}", params={"t": game["token"]})
        assert page.status_code == 200 and 'type="module"' in page.text
        # Switching language on the table keeps the seat.
        assert f'href="/g/{game["id"]}?t={game["token"]}&amp;lang=fa"' in page.text
    with make_client(sqlite_url) as c:
        assert 'lang="ja"' in c.get("/", headers={"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"}).text


def test_static_files_are_served(client: TestClient) -> None:
    for name in ("common.js", "adapters.js", "table.js", "board.js", "home.js", "replay.js", "reasons.js", "warmachine.js",
                 "style.css"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and len(r.text) > 100, name
    assert "cdn" not in client.get("/").text.lower()


def test_serve_command_starts_with_an_sqlite_file(tmp_path: Path) -> None:
    """The README's Quick start: one command, an embedded SQLite file, nothing else."""
    from webhelpers import START_LIMIT, free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "frontlines", "serve", "--port", str(port), "--bot-threads",
                             "--log-level", "warning"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_LIMIT
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    assert r.status == 200 and b"Frontlines" in r.read()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "frontlines serve did not start"
                time.sleep(0.1)
        assert (tmp_path / "frontlines.db").exists()
    finally:
        proc.terminate()
        proc.communicate(timeout=60)  # reaps it and closes its output pipe


@pytest.mark.parametrize("failure", ["crash", "illegal"])
def test_a_failing_bot_forfeits(sqlite_url: str, monkeypatch: pytest.MonkeyPatch, failure: str) -> None:
    from frontlines.web import workers

    def bad_bot(spec: str, seed: int, seat: int, view: object) -> str:
        if failure == "crash":
            raise RuntimeError("out of memory")
        return "claim:9"

    monkeypatch.setattr(workers, "choose_action", bad_bot)
    with make_client(sqlite_url) as c:
        game = create(c, opponent="bot:random", seat=1)
        deadline = time.monotonic() + 120  # ends at the bot's first turn: soon, but a loaded machine is slow
        while (msg := c.get(f"/api/games/{game['id']}", params={"t": game["token"]}).json())["status"] != "finished":
            assert time.monotonic() < deadline
            if msg["view"]["legal"]:  # we may have the first turn: play until the bot must move
                c.post(f"/api/games/{game['id']}/action", json={"t": game["token"], "text": msg["view"]["legal"][0]["text"]})
            time.sleep(0.02)
        assert msg["view"]["outcome"]["winner"] == 1 and msg["view"]["outcome"]["reason"] == "forfeit"
        record = GameRecord.parse(c.get(f"/api/games/{game['id']}/record.txt").text)
        assert record.tags["Termination"] == "forfeit" and record.tags["Loser"] == "0"
        replayed = record.replay(parse_state).outcome()
        assert replayed is not None and (replayed.winner, replayed.reason) == (1, "forfeit")


def test_an_unreadable_stored_game_does_not_stop_the_server(sqlite_url: str) -> None:
    from frontlines.web.store import Store

    store = Store(sqlite_url)
    store.create_game(game_id="broken", ruleset=RULESET, options={}, setup="battleline nonsense", seat_hashes=("a" * 64, ""),
                      names=("", "random"), opponent="bot:random", bot_seat=1)
    store.close()
    with make_client(sqlite_url) as c:
        assert c.get("/").status_code == 200
        game = create(c)
        assert c.get(f"/api/games/{game['id']}").status_code == 200
