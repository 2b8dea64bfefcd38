"""The lobby on the home page, in Debian's Chromium (Playwright; fixtures from
test_web_e2e.py): a player on a desktop plays anyone and waits, listed live; a stranger on a
phone sees the seek appear and takes it; both pages go to the same table, each at its own
seat. In English and in Persian (right to left, Persian digits), at 1280 and 390 wide."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_web_e2e import browser, new_page, serious_violations, server, shot  # noqa: F401 (pytest fixtures)
from webhelpers import LiveServer

pytestmark = [pytest.mark.e2e]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
NAMES = {"en": ("Ann", "Bob"), "fa": ("آنا", "بابک")}
WAITING = {"en": "Waiting for an opponent", "fa": "در انتظار حریف"}
CLOCK = {"en": "5 min + 3 s", "fa": "۵ دقیقه + ۳ ثانیه"}


def open_home(page: Any, base: str, lang: str) -> None:
    page.goto(f"{base}/?lang={lang}")
    page.wait_for_selector('#ruleset option[value="battleline-basic"]', state="attached")
    page.wait_for_selector("#seeks li")  # the lobby's list (or its "nobody is waiting")


def fits(page: Any, width: int) -> bool:
    return bool(page.evaluate(f"document.documentElement.scrollWidth <= {width}"))


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_two_strangers_meet_in_the_lobby(browser: Any, server: LiveServer, lang: str, shots: Path) -> None:  # noqa: F811
    ann_name, bob_name = NAMES[lang]
    ann = new_page(browser, viewport=DESKTOP)
    bob = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    open_home(ann, server.base, lang)
    open_home(bob, server.base, lang)
    # Ann plays anyone: nobody waits, so she is listed and waits
    ann.select_option("#ruleset", "battleline-basic")
    ann.check('input[name="kind"][value="lobby"]')
    assert ann.input_value("#clock") == "300+3"  # live unless the player says otherwise
    ann.fill("#name", ann_name)
    ann.click("#start")
    ann.wait_for_selector("#seeks li.mine")
    ann.wait_for_function(f"document.querySelector('#lobby-status').textContent.includes({WAITING[lang]!r})")
    # Bob's phone hears of it at once, in his language
    seek = bob.wait_for_selector("#seeks li [data-accept]")
    text = bob.inner_text("#seeks")
    assert ann_name in text and CLOCK[lang] in text
    if lang == "fa":
        assert bob.get_attribute("html", "dir") == "rtl"
        assert not re.search(r"[0-9]", text), text  # Persian digits only
        assert not re.search(r"[0-9]", bob.inner_text("#lobby-count"))
    assert fits(bob, PHONE["width"]) and fits(ann, DESKTOP["width"])
    shot(ann, shots, f"lobby-waiting-desktop-{lang}")
    shot(bob, shots, f"lobby-phone-{lang}")
    assert serious_violations(bob) == []
    bob.fill("#name", bob_name)
    seek.click()
    # both go to the table, each at a seat of the same game
    for page in (ann, bob):
        page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+\?t="))
        page.wait_for_selector("#table[data-ply]")
    assert ann.url.split("?")[0] == bob.url.split("?")[0]
    assert ann.url != bob.url  # two seats, two tokens
    for page, other in ((ann, bob_name), (bob, ann_name)):  # each sees the other by name
        assert other in page.inner_text("body")
    shot(bob, shots, f"lobby-matched-phone-{lang}")
    # the seek is gone from the lobby; both remember the game as theirs
    home = new_page(browser, viewport=DESKTOP)
    open_home(home, server.base, lang)
    assert home.query_selector("#seeks [data-accept]") is None
    for page in (ann, bob):
        page.goto(f"{server.base}/?lang={lang}")
        page.wait_for_selector("#my-games li")
        assert page.query_selector(f'#my-games a[href^="{ann.url.split("?")[0].split(server.base)[1]}"]') is not None
    assert ann.errors == [] and bob.errors == [] and home.errors == []


def test_a_seek_leaves_the_lobby_when_its_page_closes(browser: Any, server: LiveServer) -> None:  # noqa: F811
    ann = new_page(browser, viewport=DESKTOP)
    watcher = new_page(browser, viewport=PHONE)
    open_home(ann, server.base, "en")
    open_home(watcher, server.base, "en")
    ann.check('input[name="kind"][value="lobby"]')
    ann.select_option("#clock", "3d")
    ann.click("#start")
    watcher.wait_for_selector("#seeks [data-accept]")
    assert "3 days a move" in watcher.inner_text("#seeks")
    # a reload keeps it (the page holds it again within the grace) ...
    ann.reload()
    ann.wait_for_selector("#seeks li.mine")
    # ... a page that goes away does not
    ann.context.close()
    watcher.wait_for_selector("#seeks [data-accept]", state="detached")
    assert watcher.errors == []


@pytest.mark.parametrize("lang", ["en", "fa", "ja"])
def test_a_clock_of_seconds_reads_in_seconds(browser: Any, server: LiveServer, lang: str) -> None:  # noqa: F811
    """The API takes live clocks from 15 s: a base that is not whole minutes reads in seconds,
    not rounded to "0 min" or "2 min"; whole minutes read in minutes, in the page's digits."""
    page = new_page(browser)
    open_home(page, server.base, lang)
    said = page.evaluate("""() => import('/static/lobby.js').then((m) =>
        ['30+0', '90+2', '300+3', '3d'].map((clock) => m.clockWords(clock)))""")
    expected = {
        "en": ["30 s + 0 s", "90 s + 2 s", "5 min + 3 s", "3 days a move"],
        "fa": ["۳۰ ثانیه + ۰ ثانیه", "۹۰ ثانیه + ۲ ثانیه", "۵ دقیقه + ۳ ثانیه"],
        "ja": ["30秒＋0秒", "90秒＋2秒", "5分＋3秒"],
    }[lang]
    assert said[:len(expected)] == expected
