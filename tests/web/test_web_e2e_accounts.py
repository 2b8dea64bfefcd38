"""End-to-end tests of accounts and ratings in Debian's Chromium (Playwright, as
test_web_e2e.py; its fixtures are reused from there), in English and Persian: sign up and
see the recovery codes once, log out, log in in a second browser and find the same games
there; a rated game through an invite link, a guest sent to log in and back; the player page
with its rating graph and the leaderboard, on a phone and a desktop. Screenshots go to the
``shots`` folder (FRONTLINES_ARTIFACTS=1 keeps them in artifacts/web/)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_web_e2e import HTTP_TIMEOUT, browser, new_page, server, shot, start_game, wait_turn  # noqa: F401 (fixtures)
from webhelpers import LiveServer

pytestmark = [pytest.mark.e2e]

PASSWORD = "Correct-Horse-7"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
NAMES = {"en": ("Ann", "Bob"), "fa": ("نگار", "بابک")}
PERSIAN_DIGITS = re.compile("[۰-۹]")


def sign_up(page: Any, base: str, name: str, lang: str) -> list[str]:
    page.goto(f"{base}/account?lang={lang}")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#codes:not([hidden])")
    codes: list[str] = page.locator("#code-list li").all_inner_texts()
    return codes


def log_in(page: Any, base: str, name: str, lang: str, next_url: str = "") -> None:
    page.goto(f"{base}/account?lang={lang}{next_url}")
    page.fill("#login-name", name)
    page.fill("#login-password", PASSWORD)
    page.click("#login button[type=submit]")
    page.wait_for_url(re.compile(r".*/(\?.*)?$") if not next_url else re.compile(r".*/g/.*"))


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"


class Api:
    """Accounts and games made over HTTP for the pages to show (a cookie jar and a CSRF token)."""

    def __init__(self, base: str) -> None:
        import httpx2 as httpx

        self.http = httpx.Client(base_url=base, timeout=HTTP_TIMEOUT)
        self.csrf = ""

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        r = self.http.post(path, json=body or {}, headers={"X-CSRF-Token": self.csrf} if self.csrf else {})
        r.raise_for_status()
        data = r.json()
        if isinstance(data, dict) and "csrf" in data:
            self.csrf = data["csrf"]
        return data


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_sign_up_log_out_and_find_the_games_on_another_device(browser: Any, server: LiveServer, lang: str,  # noqa: F811
                                                              shots: Path) -> None:
    name = NAMES[lang][0]
    laptop = new_page(browser, viewport=DESKTOP)
    codes = sign_up(laptop, server.base, name, lang)
    assert len(codes) == 10 and all(re.fullmatch(r"[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}", c) for c in codes)
    assert laptop.is_hidden("#login") and laptop.is_visible("#codes-done")
    shot(laptop, shots, f"account-codes-{lang}")
    laptop.click("#codes-done")
    laptop.wait_for_selector("header .me")
    assert laptop.inner_text("header .me") == name
    # A game against a bot, started while logged in: it belongs to the account.
    start_game(laptop, server.base, "battleline-basic", "bot", lang=lang)
    game_url = laptop.url
    game_id = re.search(r"/g/([^?]+)", game_url).group(1)  # type: ignore[union-attr]
    assert wait_turn(laptop) == "me"
    laptop.goto(f"{server.base}/?lang={lang}")
    laptop.wait_for_selector("#my-games li")
    # The codes are shown once: the account page has none of them now.
    laptop.goto(f"{server.base}/account?lang={lang}")
    page_text = laptop.inner_text("main")
    assert not any(c in page_text for c in codes)
    if lang == "fa":
        assert PERSIAN_DIGITS.search(laptop.inner_text("#codes-left")), laptop.inner_text("#codes-left")
    shot(laptop, shots, f"account-page-{lang}")
    laptop.click("#logout")
    # (the header links the account page logged in too: wait for the name to go)
    laptop.wait_for_selector("header .me", state="detached")
    # The same games on a phone, once logged in there, and its seat without the seat link.
    phone = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    phone.goto(f"{server.base}/account?lang={lang}")
    phone.click("#forgot summary")  # the recovery form too
    no_sideways_scroll(phone)
    shot(phone, shots, f"account-login-phone-{lang}")
    log_in(phone, server.base, name, lang)
    phone.wait_for_selector(f'#my-games a[href="/g/{game_id}"]')
    assert phone.locator("#my-empty").is_hidden()
    no_sideways_scroll(phone)
    shot(phone, shots, f"home-account-phone-{lang}")
    phone.click(f'#my-games a[href="/g/{game_id}"]')
    assert wait_turn(phone) == "me"  # seated: the account's seat, no token in the address
    assert "t=" not in phone.url and phone.locator(".hand .card").count() > 0
    assert laptop.errors == [] and phone.errors == []


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_rated_game_by_invite_and_the_player_page(browser: Any, server: LiveServer, lang: str,  # noqa: F811
                                                    shots: Path) -> None:
    ann_name, bob_name = NAMES[lang]
    Api(server.base).post("/api/account/signup", {"username": bob_name, "password": PASSWORD})
    ann = new_page(browser, viewport=DESKTOP)
    sign_up(ann, server.base, ann_name, lang)
    ann.click("#codes-done")
    ann.wait_for_selector("header .me")
    # Ann makes a rated game for a friend.
    ann.goto(f"{server.base}/?lang={lang}")
    ann.wait_for_selector('#ruleset option[value="battleline-basic"]', state="attached")
    ann.select_option("#ruleset", "battleline-basic")
    ann.check('input[name="kind"][value="friend"]')
    assert ann.is_hidden("#name-field") and ann.is_visible("#rated")
    ann.check("#rated")
    ann.click("#start")
    ann.wait_for_selector("#invite:not([hidden])")
    invite = ann.input_value("#invite-link")
    assert ann.inner_text("#rated-note")
    # A guest opening the invite is sent to log in, and comes back to take the seat.
    bob = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    bob.goto(f"{invite}&lang={lang}")
    bob.wait_for_selector("#login-for-seat:not([hidden])")
    shot(bob, shots, f"rated-invite-guest-phone-{lang}")
    bob.click("#login-for-seat-link")
    bob.wait_for_selector("#login-name")
    bob.fill("#login-name", bob_name)
    bob.fill("#login-password", PASSWORD)
    bob.click("#login button[type=submit]")
    bob.wait_for_selector("#table[data-ply]")
    bob.wait_for_function("document.querySelector('#rated-note') && !document.querySelector('#rated-note').hidden")
    assert bob.locator("#join").is_hidden()  # an account's seat bears its name
    # Bob resigns; both pages say what the game did to their ratings.
    ann.wait_for_function("!document.querySelector('#invite') || document.querySelector('#invite').hidden")
    bob.once("dialog", lambda d: d.accept())
    bob.click("#resign")
    for page in (ann, bob):
        page.wait_for_function("/[→←]/.test(document.querySelector('#rated-note').textContent)")
        note = page.inner_text("#rated-note")
        assert ann_name in note and bob_name in note, note
        if lang == "fa":
            assert PERSIAN_DIGITS.search(note) and not re.search("[0-9]", note), note
    shot(bob, shots, f"rated-game-over-phone-{lang}")
    # Two more rated games for the graph (made over HTTP), then Ann's player page.
    api_ann, api_bob = Api(server.base), Api(server.base)
    api_ann.post("/api/account/login", {"username": ann_name, "password": PASSWORD})
    api_bob.post("/api/account/login", {"username": bob_name, "password": PASSWORD})
    for loser in (api_ann, api_bob):
        game = api_ann.post("/api/games", {"ruleset": "battleline-basic", "opponent": "friend", "rated": True})
        api_bob.post(f"/api/games/{game['id']}/claim", {"invite": game["invite_token"]})
        loser.post(f"/api/games/{game['id']}/action", {"type": "resign"})
    for viewport, where in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = new_page(browser, viewport=viewport)
        page.goto(f"{server.base}/player/{ann_name}?lang={lang}")
        graph = page.locator("svg.rating-graph")
        assert graph.is_visible() and page.locator("svg.rating-graph circle").count() == 3
        assert graph.bounding_box()["width"] <= viewport["width"]
        rating = page.inner_text(".rating-value")
        assert "?" in rating  # three games: provisional
        assert page.locator(".badge").first.is_visible()
        if lang == "fa":
            assert page.get_attribute("html", "dir") == "rtl" and PERSIAN_DIGITS.search(rating)
            assert not re.search("[0-9]", page.inner_text("main")), "Latin digits on the Persian page"
        no_sideways_scroll(page)
        shot(page, shots, f"player-{where}-{lang}")
        page.goto(f"{server.base}/leaderboard?ruleset=battleline-basic&lang={lang}")
        assert page.locator(f'a[href="/player/{ann_name}"], a[href*="/player/"]').count() >= 2
        no_sideways_scroll(page)
        shot(page, shots, f"leaderboard-{where}-{lang}")
        assert page.errors == []
    assert ann.errors == [] and bob.errors == []


def test_waiting_for_you_lists_the_accounts_games_on_another_device(browser: Any, server: LiveServer) -> None:  # noqa: F811
    """A friend game whose seats the accounts hold (made over HTTP, no seat link in this
    browser): logged in on a new device, the home page's "waiting for you" lists it when it is
    the account's move, and its link seats the account without a token."""
    api_ann, api_bob = Api(server.base), Api(server.base)
    api_ann.post("/api/account/signup", {"username": "Ann", "password": PASSWORD})
    api_bob.post("/api/account/signup", {"username": "Bob", "password": PASSWORD})
    game = api_ann.post("/api/games", {"ruleset": "battleline-basic", "opponent": "friend", "seat": "0"})
    api_bob.post(f"/api/games/{game['id']}/claim", {"invite": game["invite_token"]})
    to_move = api_ann.http.get(f"/api/games/{game['id']}").json()["view"]["to_move"]
    name = ("Ann", "Bob")[to_move]
    page = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    log_in(page, server.base, name, "en")
    page.wait_for_selector("#waiting-panel:not([hidden])")
    links = page.eval_on_selector_all("#waiting a", "links => links.map((a) => a.getAttribute('href'))")
    assert links == [f"/g/{game['id']}"]
    page.click("#waiting a")
    assert wait_turn(page) == "me" and "t=" not in page.url
    assert page.errors == []
