"""Accounts (issue 29): usernames, passwords hashed with argon2id, recovery codes, sessions
(revocable, renewed at login: no fixation), limits on guessing counted in the database, an
account's games on every device, and one account kept out of another's game. Storage tests
run on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webhelpers import make_client

from frontlines.web.accounts import (
    Accounts,
    Limits,
    clean_username,
    code_digest,
    name_key,
    new_codes,
    password_problem,
    username_problem,
)
from frontlines.web.settings import Hashing, Settings
from frontlines.web.store import Store

RULESET = "battleline-basic"
PASSWORD = "Correct-Horse-7"


class Device:
    """One browser: its own cookies and the CSRF token of its session, on a shared client."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies = httpx.Cookies()
        self.csrf = ""

    def _use(self) -> None:
        self.client.cookies = self.cookies

    def _keep(self) -> None:
        self.cookies = httpx.Cookies(self.client.cookies)

    def get(self, path: str, **kw: Any) -> httpx.Response:
        self._use()
        try:
            return self.client.get(path, **kw)
        finally:
            self._keep()

    def post(self, path: str, body: dict[str, Any] | None = None, *, csrf: bool = True, **kw: Any) -> httpx.Response:
        self._use()
        headers = {"X-CSRF-Token": self.csrf} if csrf and self.csrf else {}
        try:
            r = self.client.post(path, json=body or {}, headers={**headers, **kw.pop("headers", {})}, **kw)
        finally:
            self._keep()
        if r.status_code == 200 and isinstance(r.json(), dict) and "csrf" in r.json():
            self.csrf = r.json()["csrf"]
        return r

    def ws(self, path: str, **kw: Any) -> Any:
        self._use()
        return self.client.websocket_connect(path, **kw)

    def session(self) -> str | None:
        return self.cookies.get("frontlines_session")

    def sign_up(self, name: str, password: str = PASSWORD) -> dict[str, Any]:
        r = self.post("/api/account/signup", {"username": name, "password": password})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def log_in(self, name: str, password: str = PASSWORD) -> httpx.Response:
        return self.post("/api/account/login", {"username": name, "password": password})


@pytest.fixture
def app_client(db_url: str) -> Iterator[TestClient]:
    with make_client(db_url) as c:
        yield c


# --- usernames and passwords ---------------------------------------------------------------
@pytest.mark.parametrize("name", ["Ann", "ann_2", "Jan.Novák", "Šárka-9", "علی", "نگار۱۳", "太郎", "たろう",
                                  "ヤマダ太郎", "Taro太郎", "Ελένη", "Иван"])
def test_good_usernames(name: str) -> None:
    assert username_problem(clean_username(name)) is None


@pytest.mark.parametrize(("name", "problem"), [
    ("A", "length"), ("a" * 21, "length"),
    ("Ann\u202e", "invisible"), ("An\u200bn", "invisible"), ("A\u200dnn", "invisible"), ("\u2066Ann\u2069", "invisible"),
    ("Ann Lee", "characters"), ("Ann!", "characters"), ("12345", "characters"), ("\u0301Ann", "characters"),
    ("_Ann", "separators"), ("Ann.", "separators"), ("An__n", "separators"), ("a-.b", "separators"),
    ("pаypal", "scripts"),  # a Cyrillic а among Latin letters
    ("Ann1۱", "digits"), ("admin", "reserved"), ("Easy", "reserved"), ("ADM1N", "reserved"),
])
def test_bad_usernames(name: str, problem: str) -> None:
    assert username_problem(clean_username(name)) == problem


def test_names_that_read_alike_are_one_account() -> None:
    # case, full-width letters, Cyrillic look-alikes, 1/l/I and 0/o, Arabic and Persian forms,
    # kanji that read as katakana, Persian digits
    for a, b in [("Ann", "ANN"), ("Ann", "Ａｎｎ"), ("paypal", "раураl"), ("Bill", "B1ll"), ("Bill", "BIll"),
                 ("Bob0", "BobO"), ("علي", "علی"), ("كمال", "کمال"), ("ロロ", "口口"), ("Ann12", "Ann۱۲"),
                 ("corn", "com"), ("ann.lee", "ann_lee")]:
        assert name_key(a) == name_key(b), (a, b)
    assert name_key("Ann") != name_key("Anne") and name_key("Šárka") != name_key("Sarka")


def test_password_rules() -> None:
    assert password_problem("short") == "length"
    assert password_problem("x" * 257) == "length"
    assert password_problem("Correct-Horse-7") is None
    assert password_problem("AnnaLee99", "annalee99") == "username"
    assert password_problem("password1") == "common" and password_problem("aaaaaaaa") == "common"


def test_passwords_are_hashed_with_argon2id_at_owasp_strength(sqlite_url: str) -> None:
    """The server's parameters (tests elsewhere hash cheaply): argon2id, 19 MiB, 2 passes, 1 lane."""
    assert Settings().password_hashing == Hashing(time_cost=2, memory_kib=19 * 1024, lanes=1)
    store = Store(sqlite_url)
    try:
        accounts = Accounts(store)
        stored = accounts._hash("a password")
        assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$") and "a password" not in stored
        assert accounts._verify(stored, "a password") and not accounts._verify(stored, "a passworD")
    finally:
        store.close()


def test_recovery_codes_are_random_and_read_leniently() -> None:
    codes = new_codes()
    assert len(codes) == len(set(codes)) == 10
    assert all(len(c) == 14 and c.count("-") == 2 for c in codes)
    code = "7kq2-m9xa-3t0c"
    assert code_digest(code) == code_digest(" 7KQ2 M9XA 3TOC ") == code_digest("7kq2m9xa3t0c")
    assert code_digest(code) != code_digest("7kq2-m9xa-3t0d")


# --- signing up, logging in, sessions --------------------------------------------------------
def test_sign_up_logs_in_with_a_safe_cookie_and_codes_once(app_client: TestClient) -> None:
    ann = Device(app_client)
    r = ann.post("/api/account/signup", {"username": "Ann", "password": PASSWORD})
    assert r.status_code == 200
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("frontlines_session=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Path=/" in cookie and "Secure" not in cookie  # plain http: a Secure cookie would not come back
    assert len(r.json()["codes"]) == 10 and r.json()["username"] == "Ann"
    assert ann.get("/api/account").json() == {"username": "Ann", "codes_left": 10, "sessions": 1}
    # The codes are never shown again: no page or answer holds them.
    page = ann.get("/account").text
    assert not any(c in page for c in r.json()["codes"])
    # The same name, written otherwise, is taken.
    bob = Device(app_client)
    for taken in ("ann", "ANN", "Ａｎｎ"):
        again = bob.post("/api/account/signup", {"username": taken, "password": PASSWORD})
        assert again.status_code == 409 and again.json()["code"] == "username_taken"
    bad = bob.post("/api/account/signup", {"username": "Bob\u202e", "password": PASSWORD})
    assert bad.status_code == 400 and bad.json()["code"] == "username_invisible"
    weak = bob.post("/api/account/signup", {"username": "Bob", "password": "bob"})
    assert weak.status_code == 400 and weak.json()["code"] == "password_length"


def test_secure_cookies_over_tls_and_behind_a_trusted_proxy(sqlite_url: str) -> None:
    with make_client(sqlite_url, base_url="https://testserver") as client:
        r = client.post("/api/account/signup", json={"username": "Ann", "password": PASSWORD})
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("__Host-frontlines_session=") and "; Secure" in cookie and "Path=/" in cookie
        assert client.get("/api/account").json()["username"] == "Ann"


def test_secure_cookies_always(tmp_path: Any) -> None:
    with make_client(f"sqlite:///{tmp_path / 'a.db'}", secure_cookies="always") as client:
        r = client.post("/api/account/signup", json={"username": "Ann", "password": PASSWORD})
        assert "; Secure" in r.headers["set-cookie"]


def test_a_login_starts_a_new_session_and_ends_the_old_one(app_client: TestClient) -> None:
    """Session fixation: whatever session id the browser had before (planted by someone, or
    another account's), logging in gives it a new one, and the old one stops working."""
    Device(app_client).sign_up("Ann")
    Device(app_client).sign_up("Mallory", "Mallory-Pass-1")
    # 1. A value planted in the browser before the login is never adopted.
    victim = Device(app_client)
    victim.cookies.set("frontlines_session", "planted-by-someone-else-0123456789abcdef", domain="testserver.local")
    assert victim.log_in("Ann").status_code == 200
    assert victim.session() not in (None, "planted-by-someone-else-0123456789abcdef")
    attacker = Device(app_client)
    attacker.cookies.set("frontlines_session", "planted-by-someone-else-0123456789abcdef", domain="testserver.local")
    assert attacker.get("/api/account").status_code == 401
    # 2. A session the attacker knows (their own, planted in the victim's browser) ends when the
    # victim logs in, so the attacker cannot ride the victim's login either.
    mallory = Device(app_client)
    assert mallory.log_in("Mallory", "Mallory-Pass-1").status_code == 200
    known = mallory.session()
    planted = Device(app_client)
    planted.cookies.set("frontlines_session", str(known), domain="testserver.local")
    planted.csrf = mallory.csrf
    assert planted.log_in("Ann").status_code == 200
    assert planted.session() != known
    assert planted.get("/api/account").json()["username"] == "Ann"
    assert mallory.get("/api/account").status_code == 401
    # 3. Logging in again on the same device: a new id each time.
    before = victim.session()
    assert victim.log_in("Ann").status_code == 200
    assert victim.session() != before


def test_log_out_and_log_out_everywhere(app_client: TestClient) -> None:
    phone, laptop, tablet = Device(app_client), Device(app_client), Device(app_client)
    phone.sign_up("Ann")
    assert laptop.log_in("Ann").status_code == 200 and tablet.log_in("Ann").status_code == 200
    assert laptop.get("/api/account").json()["sessions"] == 3
    old = phone.session()
    out = phone.post("/api/account/logout")
    assert out.status_code == 200 and "frontlines_session=;" in out.headers["set-cookie"]
    gone = Device(app_client)
    gone.cookies.set("frontlines_session", str(old), domain="testserver.local")
    assert gone.get("/api/account").status_code == 401
    assert laptop.get("/api/account").json()["sessions"] == 2
    everywhere = laptop.post("/api/account/logout-all")
    assert everywhere.status_code == 200 and everywhere.json()["ended"] == 2
    assert laptop.get("/api/account").status_code == 401
    # A page with a cookie of a session that has ended (the tablet's) clears it.
    stale = tablet.get("/")
    assert stale.status_code == 200 and "frontlines_session=;" in stale.headers.get("set-cookie", "")
    assert 'name="csrf-token"' not in stale.text and tablet.get("/api/account").status_code == 401


def test_recovery_codes_reset_the_password_once_and_end_every_session(app_client: TestClient) -> None:
    ann = Device(app_client)
    codes = ann.sign_up("Ann")["codes"]
    other = Device(app_client)
    assert other.log_in("Ann").status_code == 200
    lost = Device(app_client)
    wrong = lost.post("/api/account/reset", {"username": "Ann", "code": "0000-0000-0000", "password": "New-Pass-22"})
    assert wrong.status_code == 401 and wrong.json()["code"] == "bad_code"
    weak = lost.post("/api/account/reset", {"username": "Ann", "code": codes[3], "password": "short"})
    assert weak.status_code == 400  # the code is not spent on a password that is refused
    done = lost.post("/api/account/reset", {"username": "Ann", "code": codes[3].upper(), "password": "New-Pass-22"})
    assert done.status_code == 200 and done.json()["codes_left"] == 9
    assert lost.get("/api/account").json()["username"] == "Ann"
    assert ann.get("/api/account").status_code == 401 and other.get("/api/account").status_code == 401
    again = Device(app_client).post("/api/account/reset", {"username": "Ann", "code": codes[3], "password": "Other-Pass-3"})
    assert again.status_code == 401
    assert Device(app_client).log_in("Ann").status_code == 401
    assert Device(app_client).log_in("Ann", "New-Pass-22").status_code == 200
    # New codes (the password given) replace the old ones.
    fresh = lost.post("/api/account/codes", {"password": "New-Pass-22"})
    assert fresh.status_code == 200 and len(fresh.json()["codes"]) == 10
    stale = Device(app_client).post("/api/account/reset", {"username": "Ann", "code": codes[4], "password": "Other-Pass-3"})
    assert stale.status_code == 401


def test_a_password_change_keeps_this_device_and_ends_the_others(app_client: TestClient) -> None:
    ann, other = Device(app_client), Device(app_client)
    ann.sign_up("Ann")
    other.log_in("Ann")
    before = ann.session()
    wrong = ann.post("/api/account/password", {"password": "not-it-at-all", "new_password": "Second-Pass-2"})
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_password"
    done = ann.post("/api/account/password", {"password": PASSWORD, "new_password": "Second-Pass-2"})
    assert done.status_code == 200 and ann.session() != before
    assert ann.get("/api/account").json()["sessions"] == 1
    assert other.get("/api/account").status_code == 401
    assert Device(app_client).log_in("Ann", "Second-Pass-2").status_code == 200


# --- limits on guessing ------------------------------------------------------------------------
def test_login_guessing_is_limited_per_account_and_per_address(tmp_path: Any) -> None:
    with make_client(f"sqlite:///{tmp_path / 'a.db'}", login_failures_per_account=5,
                     login_failures_per_address=12, login_window=3.0) as client:
        Device(client).sign_up("Ann")
        Device(client).sign_up("Bob")
        guesser = Device(client)
        answers = [guesser.log_in("Ann", f"guess-number-{i}").status_code for i in range(7)]
        assert answers == [401] * 5 + [429] * 2
        # Past the limit even the right password is refused for a while, and says how long.
        limited = Device(client).log_in("Ann")
        assert limited.status_code == 429 and 1 <= int(limited.headers["Retry-After"]) <= 3
        assert limited.json()["code"] == "too_many_attempts"
        # Other accounts are still open from here, until the address's own limit: 12 failures.
        bob = [guesser.log_in("Bob", f"guess-{i}").status_code for i in range(6)]
        assert bob == [401] * 4 + [429] * 2  # 8 counted from this address already
        assert Device(client).log_in("Bob").status_code == 429  # the address is out of guesses
        time.sleep(3.2)  # the window passes
        assert Device(client).log_in("Ann").status_code == 200
        # A success clears its account's count: five more wrong guesses before the limit.
        answers = [guesser.log_in("Ann", f"again-{i}").status_code for i in range(6)]
        assert answers == [401] * 5 + [429]


def test_an_unknown_name_counts_and_answers_like_a_wrong_password(app_client: TestClient) -> None:
    r = Device(app_client).log_in("Nobody", "whatever-1")
    assert r.status_code == 401 and r.json() == {"detail": "wrong username or password", "code": "bad_login"}
    Device(app_client).sign_up("Ann")
    r = Device(app_client).log_in("Ann", "whatever-1")
    assert r.status_code == 401 and r.json() == {"detail": "wrong username or password", "code": "bad_login"}


def test_signups_are_limited_per_address(tmp_path: Any) -> None:
    with make_client(f"sqlite:///{tmp_path / 'a.db'}", signups_per_hour=2) as client:
        assert [Device(client).post("/api/account/signup", {"username": f"User{n}a", "password": PASSWORD}).status_code
                for n in range(3)] == [200, 200, 429]


def test_counts_are_exact_when_guesses_come_at_once(db_url: str) -> None:
    """Two "processes" (two stores with their own connections) count the same attempts: of 40
    attempts made at once under a limit of 10, exactly 10 are let through."""
    stores = [Store(db_url), Store(db_url)]
    try:
        accounts = [Accounts(s, hashing=Hashing(1, 1024, 1)) for s in stores]
        allowed: list[bool] = []
        lock = threading.Lock()

        def attempt(n: int) -> None:
            wait = accounts[n % 2].take_attempts([("login:account:ann", 10)], 60.0)
            with lock:
                allowed.append(wait == 0)

        threads = [threading.Thread(target=attempt, args=(n,)) for n in range(40)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sum(allowed) == 10 and len(allowed) == 40
    finally:
        for s in stores:
            s.close()


def test_expired_sessions_and_old_counts_are_swept(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    try:
        accounts = Accounts(store, hashing=Hashing(1, 1024, 1), limits=Limits(window=60.0))
        account = accounts._create_sync("Ann", "x", [])
        token = accounts._open_session_sync(account.id, None)
        assert accounts.session_account(token) == account
        assert accounts.session_account(token, now=time.time() + 31 * 86400) is None  # expired
        accounts.take_attempts([("login:account:x", 5)], 60.0)
        accounts.sweep(now=time.time() + 31 * 86400)
        assert accounts.session_account(token) is None
        assert accounts.take_attempts([("login:account:x", 1)], 60.0) == 0  # the old count is gone
    finally:
        store.close()


# --- an account's games --------------------------------------------------------------------
def test_an_accounts_games_follow_it_to_another_device(app_client: TestClient) -> None:
    phone = Device(app_client)
    phone.sign_up("Ann")
    made = phone.post("/api/games", {"ruleset": RULESET, "opponent": "bot:random", "seat": "0", "seed": 3,
                                     "name": "typed name"})
    assert made.status_code == 200
    gid = made.json()["id"]
    laptop = Device(app_client)
    assert laptop.get("/api/account/games").status_code == 401
    assert laptop.log_in("Ann").status_code == 200
    games = laptop.get("/api/account/games").json()
    assert [g["id"] for g in games] == [gid] and games[0]["seats"] == [0]
    assert games[0]["names"][0] == "Ann"  # an account plays under its username
    # The table: no seat link on this device, the account's seat all the same.
    view = laptop.get(f"/api/games/{gid}").json()
    assert view["role"] == 0 and view["players"] == [True, False] and view["view"]["hands"][0] is not None
    with laptop.ws(f"/ws/{gid}") as ws:
        message = ws.receive_json()
        assert message["role"] == 0
        legal = message["view"]["legal"][0]["text"]
        ws.send_json({"type": "action", "text": legal, "ply": message["ply"]})
        assert ws.receive_json()["ply"] == message["ply"] + 1
        ws.send_json({"type": "name", "name": "Someone else"})
        assert ws.receive_json()["code"] == "named"  # an account's seat bears its name
    # Logged out, the same device only watches.
    laptop.post("/api/account/logout")
    assert laptop.get(f"/api/games/{gid}").json()["role"] is None


def test_pass_and_play_and_friend_games_of_an_account(app_client: TestClient) -> None:
    ann = Device(app_client)
    ann.sign_up("Ann")
    hot = ann.post("/api/games", {"ruleset": RULESET, "opponent": "hotseat", "name": "Mum", "other_name": "Dad"}).json()
    assert ann.get(f"/api/games/{hot['id']}").json()["role"] == "both"
    assert ann.get(f"/api/games/{hot['id']}").json()["names"] == ["Mum", "Dad"]  # the names typed stay
    friend = ann.post("/api/games", {"ruleset": RULESET, "opponent": "friend", "seat": "0"}).json()
    bob = Device(app_client)
    bob.sign_up("Bob")
    claimed = bob.post(f"/api/games/{friend['id']}/claim", {"invite": friend["invite_token"]})
    assert claimed.status_code == 200 and claimed.json()["seat"] == 1
    assert bob.get(f"/api/games/{friend['id']}").json()["role"] == 1  # Bob's account holds seat 1
    assert ann.get(f"/api/games/{friend['id']}").json()["names"] == ["Ann", "Bob"]
    # Ann opening her own invite on another device takes the other seat under a token only
    # (one account on both seats would not know which it is).
    own = ann.post("/api/games", {"ruleset": RULESET, "opponent": "friend", "seat": "0"}).json()
    elsewhere = Device(app_client)
    elsewhere.log_in("Ann")
    mine = elsewhere.post(f"/api/games/{own['id']}/claim", {"invite": own["invite_token"]})
    assert mine.status_code == 200 and elsewhere.get(f"/api/games/{own['id']}").json()["players"] == [True, False]


def test_one_account_cannot_act_in_anothers_game(app_client: TestClient) -> None:
    ann, mallory = Device(app_client), Device(app_client)
    ann.sign_up("Ann")
    mallory.sign_up("Mallory")
    bot = ann.post("/api/games", {"ruleset": RULESET, "opponent": "bot:random", "seat": "0", "seed": 5}).json()
    friend = ann.post("/api/games", {"ruleset": RULESET, "opponent": "friend", "seat": "0"}).json()
    for gid in (bot["id"], friend["id"]):
        seen = mallory.get(f"/api/games/{gid}").json()
        assert seen["role"] is None and seen["view"]["hands"] == [None, None]
        moved = mallory.post(f"/api/games/{gid}/action", {"text": "claim:1"})
        assert moved.status_code == 409 and moved.json()["code"] == "spectator"
        resigned = mallory.post(f"/api/games/{gid}/action", {"type": "resign"})
        assert resigned.status_code == 409 and resigned.json()["code"] == "spectator"
        with mallory.ws(f"/ws/{gid}") as ws:
            assert ws.receive_json()["role"] is None
            ws.send_json({"type": "resign"})
            assert ws.receive_json()["code"] == "spectator"
    again = mallory.post(f"/api/games/{friend['id']}/invite", {})
    assert again.status_code == 409
    assert [g["id"] for g in mallory.get("/api/account/games").json()] == []
    # Ann's game stands as it was.
    assert ann.get(f"/api/games/{bot['id']}").json()["status"] == "active"
    assert ann.post(f"/api/games/{friend['id']}/invite", {}).status_code == 200  # her own re-invite works


def test_a_reinvite_takes_the_seat_from_the_account_that_held_it(app_client: TestClient) -> None:
    ann, bob = Device(app_client), Device(app_client)
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    game = ann.post("/api/games", {"ruleset": RULESET, "opponent": "friend", "seat": "0"}).json()
    bob.post(f"/api/games/{game['id']}/claim", {"invite": game["invite_token"]})
    assert ann.post(f"/api/games/{game['id']}/invite", {}).status_code == 200
    assert bob.get(f"/api/games/{game['id']}").json()["role"] is None
    assert ann.get(f"/api/games/{game['id']}").json()["names"] == ["Ann", ""]
    assert bob.get("/api/account/games").json() == []


def test_a_websocket_refuses_the_cookie_of_a_session_logged_out_meanwhile(app_client: TestClient) -> None:
    ann = Device(app_client)
    ann.sign_up("Ann")
    gid = ann.post("/api/games", {"ruleset": RULESET, "opponent": "bot:random", "seed": 1}).json()["id"]
    token = ann.session()
    ann.post("/api/account/logout")
    ann.cookies.set("frontlines_session", str(token), domain="testserver.local")
    with ann.ws(f"/ws/{gid}") as ws:
        assert ws.receive_json()["role"] is None
    with pytest.raises(WebSocketDisconnect), ann.ws(f"/ws/{gid}", headers={"origin": "https://elsewhere.example"}) as ws:
        ws.receive_json()  # (the guard's tests: a cross-site origin)
