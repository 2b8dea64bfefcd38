"""End-to-end tests in Debian's Chromium (Playwright) of "your move" and quick messages: the
tab's title and icon when the other player has moved, the sound and the notification a player
turned on (asked for only on their click, shown only while the tab is hidden), a quick message
said in one language and read in the other's, muting, the settings remembered on the device,
and the home page's "waiting for you" list; in English and Persian (Persian digits, right to
left, nothing wider than a 390 px phone)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from test_web_e2e import HTTP_TIMEOUT, browser, click_one_move, new_page  # noqa: F401 (pytest fixtures)
from webhelpers import LiveServer

pytestmark = [pytest.mark.e2e]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
# What each page says: its "your move" title prefix and two phrases.
WORDS = {
    "en": {"turn": "Your move — ", "good_luck": "Good luck!", "thanks": "Thanks!", "hello": "Hello!", "you": "You: "},
    "fa": {"turn": "نوبت توست — ", "good_luck": "موفق باشی!", "thanks": "ممنون!", "hello": "سلام!", "you": "تو: "},
}
# A stand-in for the browser's notifications: records what would be shown and whether the page
# asked for permission; and a switch that makes the page think its tab is hidden.
FAKE_NOTIFICATIONS = """
window.__notes = [];
window.__asked = 0;
let permission = "default";
window.Notification = class {
  constructor(title, options) { window.__notes.push({ title, body: (options || {}).body || "" }); }
  static get permission() { return permission; }
  static requestPermission() { window.__asked += 1; permission = "granted"; return Promise.resolve(permission); }
};
Object.defineProperty(Document.prototype, "hidden", { configurable: true, get() { return !!window.__hidden; } });
"""


def api(server: LiveServer, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    r = httpx.request(method, f"{server.base}{path}", json=body, timeout=HTTP_TIMEOUT)
    assert r.status_code == 200, r.text
    return r.json()


def friend_game(server: LiveServer, clock: str = "") -> tuple[str, dict[int, str]]:
    g = api(server, "POST", "/api/games", {"ruleset": "battleline-basic", "opponent": "friend", "seat": "0",
                                           "name": "Ann", "clock": clock})
    friend = api(server, "POST", f"/api/games/{g['id']}/claim", {"invite": g["invite_token"]})
    return g["id"], {0: g["token"], 1: friend["token"]}


def play_turn(server: LiveServer, game_id: str, token: str) -> None:
    """The seat of ``token`` plays its whole turn, each time the first legal action."""
    while True:
        view = api(server, "GET", f"/api/games/{game_id}?t={token}")
        if view["view"]["to_move"] != view["role"] or not view["view"]["legal"]:
            return
        api(server, "POST", f"/api/games/{game_id}/action",
            {"t": token, "text": view["view"]["legal"][0]["text"], "ply": view["ply"]})


def click_turn(page: Any) -> None:
    """Play this page's whole turn by clicking (a card, its flag, the draw; claims first)."""
    while page.get_attribute("#table", "data-turn") == "me":
        click_one_move(page)


def icon(page: Any) -> str:
    href: str = page.evaluate("document.querySelector('link[rel=icon]').getAttribute('href')")
    return href


def said_line(page: Any) -> str:
    text: str = page.inner_text("#quick-said")
    return text.replace("\u2068", "").replace("\u2069", "")


def fits(page: Any, width: int, selectors: str) -> list[str]:
    """The elements under ``selectors`` that reach past the page's sides (none should)."""
    found: list[str] = page.evaluate(
        """([sel, width]) => [...document.querySelectorAll(sel)].filter((el) => {
             const r = el.getBoundingClientRect();
             return r.width > 0 && (r.left < -0.5 || r.right > width + 0.5);
           }).map((el) => el.outerHTML.slice(0, 80))""", [selectors, width])
    if page.evaluate("document.documentElement.scrollWidth") > width:
        found.append("the page scrolls sideways")
    return found


def latin_digits(page: Any, selector: str) -> list[str]:
    return re.findall(r"[0-9]+", page.inner_text(selector))


@pytest.mark.parametrize("langs", [("en", "fa"), ("fa", "en")])
def test_your_move_title_icon_sound_notification_and_quick_messages(browser: Any, live_server: LiveServer,  # noqa: F811
                                                                     shots: Path, langs: tuple[str, str]) -> None:
    game_id, tokens = friend_game(live_server)
    # Ann (seat 0) at a desktop, her friend on a phone, each in their own language; a spectator
    # in the friend's.
    pages = {0: new_page(browser, **DESKTOP), 1: new_page(browser, **PHONE)}
    lang = {0: langs[0], 1: langs[1]}
    for seat, page in pages.items():
        page.context.add_init_script(FAKE_NOTIFICATIONS)
        page.goto(f"{live_server.base}/g/{game_id}?t={tokens[seat]}&lang={lang[seat]}")
    watcher = new_page(browser, **PHONE)
    watcher.goto(f"{live_server.base}/g/{game_id}?lang={langs[1]}")
    for page in (*pages.values(), watcher):
        page.wait_for_selector("#table[data-turn]")
    mover = next(seat for seat, page in pages.items() if page.get_attribute("#table", "data-turn") == "me")
    waiter = 1 - mover
    base_title = {seat: re.sub("^" + re.escape(WORDS[lang[seat]]["turn"]), "", pages[seat].title()) for seat in (0, 1)}
    # The mover's tab says it is their move, in their language, with the other icon; not the other's.
    assert pages[mover].title() == WORDS[lang[mover]]["turn"] + base_title[mover]
    assert icon(pages[mover]).endswith("/static/flag-turn.svg")
    assert pages[waiter].title() == base_title[waiter] and icon(pages[waiter]).endswith("/static/flag.svg")
    assert watcher.title() == base_title[1] and icon(watcher).endswith("/static/flag.svg")
    # The waiting player turns the sound on (it plays once, to say what it is) and asks for
    # notifications: the browser is asked only now, on the click.
    w = pages[waiter]
    assert w.evaluate("window.__asked") == 0
    w.click("#alerts summary")
    assert not w.is_checked("#alert-sound")  # off by default
    w.check("#alert-sound")
    assert w.evaluate("document.documentElement.dataset.chimes") == "1"
    w.click("#alert-notify")
    w.wait_for_selector('#alert-notify[aria-pressed="true"]')
    assert w.evaluate("window.__asked") == 1
    shot(w, shots, f"social-alerts-{lang[waiter]}")
    w.evaluate("window.__hidden = true")  # the player looks at another tab
    click_turn(pages[mover])
    # The turn came to the waiting player: title, icon, a chime and a notification.
    prefix = WORDS[lang[waiter]]["turn"]
    w.wait_for_function("prefix => document.title.startsWith(prefix)", arg=prefix)
    assert icon(w).endswith("/static/flag-turn.svg")
    w.wait_for_function("document.documentElement.dataset.chimes === '2'")
    notes = w.evaluate("window.__notes")
    assert len(notes) == 1 and notes[0]["title"].startswith(prefix), notes
    # ... and the other's went back.
    pages[mover].wait_for_function("title => document.title === title", arg=base_title[mover])
    assert icon(pages[mover]).endswith("/static/flag.svg")
    # Seen while the tab is in front, the turn comes without a notification; the settings stay
    # over a reload, and a page that opens on the player's turn does not chime.
    w.reload()
    w.wait_for_selector("#table[data-turn='me']")
    assert w.evaluate("document.getElementById('alert-sound').checked") is True
    assert w.evaluate("document.documentElement.dataset.chimes") is None
    assert w.title().startswith(prefix)

    # Quick messages: Ann wishes good luck; the friend and the spectator read it in theirs.
    ann, friend = pages[0], pages[1]
    ann.click('#quick-buttons [data-phrase="good_luck"]')
    for page, seat_lang in ((friend, lang[1]), (watcher, langs[1])):
        page.wait_for_selector("#quick-said:not([hidden])")
        assert said_line(page) == "Ann: " + WORDS[seat_lang]["good_luck"]
    ann.wait_for_selector("#quick-said:not([hidden])")
    assert said_line(ann) == WORDS[lang[0]]["you"] + WORDS[lang[0]]["good_luck"]
    assert watcher.locator("#quick-buttons button").count() == 0  # spectators only read
    assert friend.locator("#quick-buttons button").count() == 8
    shot(friend, shots, f"social-quick-{lang[1]}-phone")
    shot(ann, shots, f"social-quick-{lang[0]}-desktop")
    # The friend mutes them: Ann's next phrase reaches the spectator, not the friend's page.
    friend.check("#quick-mute")
    assert friend.is_hidden("#quick-said")
    ann.click('#quick-buttons [data-phrase="thanks"]')
    watcher.wait_for_function("n => document.querySelectorAll('#quick-log li').length === n", arg=2)
    assert WORDS[langs[1]]["thanks"] in watcher.inner_text("#quick-log")
    assert friend.is_hidden("#quick-said") and friend.locator("#quick-log li").count() == 0
    # Their own phrases still show; Ann hears them.
    friend.click('#quick-buttons [data-phrase="hello"]')
    ann.wait_for_function("n => document.querySelectorAll('#quick-log li').length === n", arg=3)
    assert said_line(ann).endswith(WORDS[lang[0]]["hello"])
    friend.wait_for_selector("#quick-said:not([hidden])")
    assert said_line(friend) == WORDS[lang[1]]["you"] + WORDS[lang[1]]["hello"]
    shot(friend, shots, f"social-muted-{lang[1]}-phone")
    friend.reload()
    friend.wait_for_selector("#table[data-turn]")
    assert friend.evaluate("document.getElementById('quick-mute').checked") is True
    # The Persian pages: right to left, Persian digits, and on the phone nothing wider than it.
    for page, page_lang, width in ((ann, lang[0], 1280), (friend, lang[1], 390), (watcher, langs[1], 390)):
        if page_lang != "fa":
            continue
        assert page.evaluate("document.documentElement.dir") == "rtl"
        page.evaluate("document.querySelector('#alerts') && (document.querySelector('#alerts').open = true)")
        for selector in ("#quick", "#status", "#alerts"):
            assert not latin_digits(page, selector), selector
        assert not re.search(r"[0-9]", page.title())
        assert not fits(page, width, "#quick, #quick *, #quick-said, #alerts, #alerts *")
    for page in (*pages.values(), watcher):
        assert page.errors == []


def shot(page: Any, shots: Path, name: str) -> None:
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_waiting_for_you_lists_the_games_where_it_is_my_turn(browser: Any, live_server: LiveServer,  # noqa: F811
                                                            shots: Path, lang: str) -> None:
    page = new_page(browser, **PHONE)
    games = [friend_game(live_server), friend_game(live_server), friend_game(live_server, clock="3d")]
    bot = api(live_server, "POST", "/api/games", {"ruleset": "battleline-basic", "opponent": "bot:random", "seat": "0"})
    # Game 0 and the correspondence game: my move (Ann's, seat 0); game 1: the friend's.
    for game_id, tokens in games:
        play_turn(live_server, game_id, tokens[1])
    play_turn(live_server, games[1][0], games[1][1][0])
    # This browser knows Ann's seat in each (the table page remembers it).
    for game_id, tokens in games:
        page.goto(f"{live_server.base}/g/{game_id}?t={tokens[0]}&lang={lang}")
        page.wait_for_selector("#table[data-turn]")
    page.goto(f"{live_server.base}/g/{bot['id']}?t={bot['token']}&lang={lang}")
    page.wait_for_selector("#table[data-turn]")
    page.goto(f"{live_server.base}/?lang={lang}")
    page.wait_for_selector("#waiting-panel:not([hidden])")
    links = page.eval_on_selector_all("#waiting a", "links => links.map((a) => a.getAttribute('href'))")
    # Not the friend's turn, not the bot game; the longest waiting first.
    waiting = sorted((games[0], games[2]), key=lambda g: api(live_server, "GET", f"/api/games?ids={g[0]}")[0]["updated"])
    assert links == [f"/g/{game_id}?t={tokens[0]}" for game_id, tokens in waiting]
    assert page.title().startswith("(2) " if lang == "en" else "(۲) ")
    item = page.inner_text(f"#waiting li:nth-child({waiting.index(games[2]) + 1})")
    assert ("left" if lang == "en" else "مانده") in item  # the correspondence clock's time
    shot(page, shots, f"social-waiting-{lang}-phone")
    # The friend moves in game 1: it waits for me too once the page looks again.
    play_turn(live_server, games[1][0], games[1][1][1])
    page.reload()
    page.wait_for_function("document.querySelectorAll('#waiting li').length === 3")
    # Ann moves in game 0: it leaves the list.
    play_turn(live_server, games[0][0], games[0][1][0])
    page.reload()
    page.wait_for_function("document.querySelectorAll('#waiting li').length === 2")
    if lang == "fa":
        assert page.evaluate("document.documentElement.dir") == "rtl"
        assert not latin_digits(page, "#waiting-panel") and not re.search(r"[0-9]", page.title())
    assert not fits(page, 390, "#waiting-panel, #waiting-panel *")
    assert page.errors == []
