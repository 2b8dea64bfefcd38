"""Hostile input (issue 19, findings 7 and 9): every bad request is a 4xx with a clear message,
JSON under /api and a page in the request's language elsewhere, the same on SQLite and
PostgreSQL; never a 500, never ``internal``."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from test_web_api import RULESET, create, drain

from frontlines.web.inputs import name_problem


def test_deep_and_long_bodies_are_refused(client: TestClient) -> None:
    deep = client.post("/api/games", content=b"[" * 3000, headers={"Content-Type": "application/json"})
    assert deep.status_code == 400 and "JSON" in deep.json()["detail"]
    seed = b'{"ruleset": "%s", "opponent": "bot:random", "seed": %s}' % (RULESET.encode(), b"9" * 4400)
    long_number = client.post("/api/games", content=seed, headers={"Content-Type": "application/json"})
    assert long_number.status_code == 400
    big_seed = client.post("/api/games", json={"ruleset": RULESET, "opponent": "bot:random", "seed": 10**40})
    assert big_seed.status_code == 400 and "seed" in big_seed.json()["detail"]
    huge = client.post("/api/games", content=b'{"name": "' + b"x" * 100_000 + b'"}',
                       headers={"Content-Type": "application/json"})
    assert huge.status_code == 413
    game = create(client)
    action = client.post(f"/api/games/{game['id']}/action", content=b"[" * 3000)
    assert action.status_code == 400


@pytest.mark.parametrize("path", ["/api/games/a%00b", "/api/games/a%00b/record.txt", "/api/games/a%01b/replay/0",
                                  "/api/games/" + "x" * 300, "/api/games/%E2%80%AE"])
def test_impossible_ids_are_not_found(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404 and r.json() == {"detail": "no such game"}


@pytest.mark.parametrize("path", ["/g/a%00b", "/replay/a%00b", "/g/nosuchgame", "/replay/nosuchgame"])
def test_unknown_game_links_show_a_page(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "There is no such game." in r.text and '<a href="/">' in r.text
    fa = client.get(path, params={"lang": "fa"})
    assert fa.status_code == 404 and 'dir="rtl"' in fa.text and "چنین بازی‌ای وجود ندارد." in fa.text
    assert "There is no such page." in client.get("/nowhere", params={"lang": "en"}).text


def test_control_characters_are_refused_everywhere(client: TestClient) -> None:
    for name in ("a\u0000b", "a\u001bb", "a\u0085b", "\ud800"):
        body = json.dumps({"ruleset": RULESET, "opponent": "friend", "name": name})  # ASCII, escapes kept
        r = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (repr(name), r.text)
    assert client.get("/api/games", params={"ids": "a\x00b"}).status_code == 400
    assert client.get("/api/games", params={"ids": "abc,def"}).json() == []
    options = client.post("/api/games", json={"ruleset": RULESET, "opponent": "friend", "options": {"a\x00": "b"}})
    assert options.status_code == 400
    # A name with line breaks is folded into one line, as before.
    ok = client.post("/api/games", json={"ruleset": RULESET, "opponent": "friend", "name": " Ann\n the\tBold "})
    assert ok.status_code == 200
    assert client.get(f"/api/games/{ok.json()['id']}").json()["names"][0] == "Ann the Bold"


@pytest.mark.parametrize("body", [
    {"ruleset": RULESET, "opponent": "friend", "seat": "x"},
    {"ruleset": RULESET, "opponent": "friend", "seat": 2},
    {"ruleset": RULESET, "opponent": "friend", "seat": True},
    {"ruleset": RULESET, "opponent": "friend", "seat": None},
    {"ruleset": RULESET, "opponent": "bot:god"},
    {"ruleset": 5, "opponent": "friend"},
    {"opponent": "friend"},
    {"ruleset": RULESET, "opponent": "friend", "name": 7},
    {"ruleset": RULESET, "opponent": "friend", "options": {"first_player": 0}},
    {"ruleset": RULESET, "opponent": "friend", "colour": "red"},
    {"ruleset": RULESET, "opponent": "bot:random", "seed": -1},
    {"ruleset": RULESET, "opponent": "bot:random", "seed": "7"},
    [1, 2], "text", None, 3,
])
def test_bad_new_game_bodies(client: TestClient, body: object) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == 400, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str) and detail


def test_seat_is_read_exactly(client: TestClient) -> None:
    for given, seat in (("1", 1), (1, 1), ("0", 0), (0, 0)):
        r = client.post("/api/games", json={"ruleset": RULESET, "opponent": "friend", "seat": given})
        assert r.json()["seat"] == seat


def test_bad_http_moves(client: TestClient) -> None:
    game = create(client)
    gid, token = game["id"], game["token"]
    for body in ({"t": token, "text": 5}, {"t": token, "text": "x" * 65}, {"t": token, "ply": "3", "text": "R1@1"},
                 {"t": token, "type": "dance"}, {"t": ["x"]}, {"t": token, "text": "R1@1", "ply": 10**30},
                 {"t": token, "text": "a\x00"}):
        r = client.post(f"/api/games/{gid}/action", json=body)
        assert r.status_code == 400, (body, r.text)
    missing = client.post(f"/api/games/{gid}/action", json={"t": token})
    assert missing.status_code == 409 and missing.json()["code"] == "malformed"


def test_bad_websocket_messages_are_malformed_not_internal(client: TestClient) -> None:
    game = create(client)
    with client.websocket_connect(f"/ws/{game['id']}?t={game['token']}") as ws:
        drain(ws, 1)
        for raw in ("[" * 3000, '{"type": "action", "text": "R1@1", "ply": ' + "9" * 5000 + "}",
                    json.dumps({"type": "name", "name": "a\u0000b"}), json.dumps({"type": "action", "text": "R1@1\u0000"}),
                    json.dumps({"type": "action", "text": "R1@1", "ply": -1}), json.dumps({"type": "action", "text": "R1@1", "ply": True}),
                    '"\\ud800"', json.dumps({"type": None}), json.dumps({}), "null", "", "\u0000"):
            ws.send_text(raw)
            reply = ws.receive_json()
            # a name with a control character is refused as a name, which the page says in words
            expected = "bad_name" if raw.startswith('{"type": "name"') else "malformed"
            assert reply["type"] == "error" and reply["code"] == expected, (raw[:40], reply)
        ws.send_bytes(b"\x00\x01")
        assert ws.receive_json()["code"] == "malformed"
        ws.send_json({"type": "ping", "extra": 1})  # unknown fields in messages are ignored
        assert ws.receive_json() == {"type": "pong"}
    with client.websocket_connect("/ws/a%00b") as ws:
        assert ws.receive_json()["code"] == "not_found"
    with client.websocket_connect(f"/ws/{game['id']}?t=%00") as ws:
        assert ws.receive_json()["code"] == "bad_token"


def test_pages_cannot_be_framed_and_send_no_referer(client: TestClient) -> None:
    game = create(client)
    for path in ("/", f"/g/{game['id']}", "/api/rulesets", "/g/nosuchgame", "/static/table.js"):
        r = client.get(path)
        assert r.headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in r.headers["content-security-policy"]
        assert r.headers["referrer-policy"] == "no-referrer" and r.headers["x-content-type-options"] == "nosniff"
    refused = client.post("/api/games", content=b"[" * 3000)
    assert refused.status_code == 400 and refused.headers["x-frame-options"] == "DENY"


# Names people write: Persian compounds with the zero-width non-joiner, Japanese with an
# ideographic space (folded), Czech diacritics, an emoji sequence joined by ZWJ.
GOOD_NAMES = ["علی‌رضا حسین‌زاده", "مهسا", "山田\u3000太郎", "やまだ たろう", "Bořek Žďárský", "Šárka Nováková",
              "Ann 👩\u200d💻", "Zoë ❤\ufe0f", "O'Neil-Smith"]
# Names that show something other than what they hold.
BAD_NAMES = ["Ann\u202eliam", "Ma\u200blory", "\u200bAnn", "Ann\u200c", "An\u200cn", "x\u2066y\u2069", "\u200fAnn",
             "\ufeffAnn", "so\u00adft", "\u3164", "line\u2028break", "\ue000", "tag\U000e0041", "a\u2060b"]


def test_names_are_what_they_show() -> None:
    for name in GOOD_NAMES:
        assert name_problem(name) is None, repr(name)
    for name in BAD_NAMES:
        assert name_problem(name) is not None, repr(name)


def test_a_name_with_invisible_or_direction_characters_is_refused_by_its_code(client: TestClient) -> None:
    """Refused, not stripped: the player sees why (the pages word the code bad_name in their
    language) and fixes it; names in Persian, Japanese and Czech go through untouched."""
    for name in BAD_NAMES:
        r = client.post("/api/games", json={"ruleset": RULESET, "opponent": "hotseat", "name": "Ann", "other_name": name})
        assert r.status_code == 400 and r.json()["code"] == "bad_name", (repr(name), r.text)
        assert "invisible characters" in r.json()["detail"]
    for name in GOOD_NAMES:
        r = client.post("/api/games", json={"ruleset": RULESET, "opponent": "friend", "name": name})
        assert r.status_code == 200, (repr(name), r.text)
        assert client.get(f"/api/games/{r.json()['id']}").json()["names"][0] == " ".join(name.split())
    game = create(client)
    with client.websocket_connect(f"/ws/{game['id']}?t={game['friend_token']}") as ws:
        drain(ws, 1)
        ws.send_json({"type": "name", "name": "Bob\u202e"})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "bad_name", reply
        ws.send_json({"type": "name", "name": "علی‌رضا"})
        assert ws.receive_json()["names"][1] == "علی‌رضا"
