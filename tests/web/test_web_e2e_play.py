"""End-to-end tests of playing people in Debian's Chromium (Playwright, as test_web_e2e.py,
whose helpers are reused): live clocks on both players' pages and a spectator's, counting
down, tenths under ten seconds, a flag, a rematch with the seats swapped; in English and
Persian."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from test_web_e2e import HTTP_TIMEOUT, browser, new_page, play_first_turns, wait_turn  # noqa: F401 (pytest fixtures)
from webhelpers import LiveServer

pytestmark = [pytest.mark.e2e]

# Digits as each page writes them.
DIGITS = {"en": "0-9", "fa": "۰-۹"}
WORDS = {
    "en": {"mine": "Your time ran out.", "theirs": "time ran out.", "offer": "offers a rematch"},
    "fa": {"mine": "وقتت تمام شد.", "theirs": "تمام شد.", "offer": "بازی دوباره پیشنهاد می‌کند"},
}


@pytest.fixture
def fast(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose clock sweep looks every 0.2 s."""
    with LiveServer(f"sqlite:///{tmp_path / 'e2e.db'}", clock_sweep=0.2) as s:
        yield s


def friend_game(server: LiveServer, clock: str) -> tuple[str, dict[int, str]]:
    g = httpx.post(f"{server.base}/api/games", json={"ruleset": "battleline-basic", "opponent": "friend", "seat": "0",
                                                    "name": "Ann", "clock": clock}, timeout=HTTP_TIMEOUT).json()
    friend = httpx.post(f"{server.base}/api/games/{g['id']}/claim", json={"invite": g["invite_token"]},
                        timeout=HTTP_TIMEOUT).json()
    return g["id"], {0: g["token"], 1: friend["token"]}


def clock_of(page: Any, seat: int) -> str:
    text: str = page.inner_text(f'.clock[data-seat="{seat}"]')
    return text


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_live_clocks_count_down_on_every_page_and_a_flag_ends_the_game(browser: Any, fast: LiveServer,  # noqa: F811
                                                                       shots: Path, lang: str) -> None:
    game_id, tokens = friend_game(fast, "15+0")
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    desktop = {"viewport": {"width": 1280, "height": 900}}
    pages = {seat: new_page(browser, **(phone if seat == 1 else desktop)) for seat in (0, 1)}
    for seat, page in pages.items():
        page.goto(f"{fast.base}/g/{game_id}?t={tokens[seat]}&lang={lang}")
    watcher = new_page(browser, **desktop)
    watcher.goto(f"{fast.base}/g/{game_id}?lang={lang}")
    for page in (*pages.values(), watcher):
        page.wait_for_selector(".clock")
        # Both clocks, full, not running: each player's first turn is free.
        assert page.locator(".clock").count() == 2 and page.locator(".clock.running").count() == 0
        assert clock_of(page, 0) == clock_of(page, 1) == ("0:15" if lang == "en" else "۰:۱۵")
    # Both first turns, by clicking.
    first = play_first_turns(list(pages.values()))
    starter = next(seat for seat, page in pages.items() if page is first)
    # Now the starter's clock runs, on all three pages, counting down between messages.
    for page in (*pages.values(), watcher):
        page.wait_for_selector(f'.clock.running[data-seat="{starter}"]')
    before = [clock_of(p, starter) for p in (*pages.values(), watcher)]
    time.sleep(1.5)
    after = [clock_of(p, starter) for p in (*pages.values(), watcher)]
    assert all(a != b for a, b in zip(before, after, strict=True)), (before, after)
    assert all(re.fullmatch(f"[{DIGITS[lang]}]+:[{DIGITS[lang]}]{{2}}|[{DIGITS[lang]}][.٫][{DIGITS[lang]}]", x)
               for x in after), after
    # Under ten seconds: tenths, marked low.
    mover = pages[starter]
    mover.wait_for_selector(f'.clock.low[data-seat="{starter}"]')
    assert re.fullmatch(f"[{DIGITS[lang]}][.٫][{DIGITS[lang]}]", clock_of(mover, starter)), clock_of(mover, starter)
    watcher.screenshot(path=str(shots / f"clock-spectator-{lang}.png"))
    # The flag: the game is over, said in words on every page.
    for page in (*pages.values(), watcher):
        page.wait_for_selector('#table[data-turn="over"]', timeout=60_000)
    assert WORDS[lang]["mine"] in mover.inner_text("#status")
    assert WORDS[lang]["theirs"] in pages[1 - starter].inner_text("#status")
    assert WORDS[lang]["theirs"] in watcher.inner_text("#status")
    assert clock_of(mover, starter) == ("0.0" if lang == "en" else "۰٫۰")
    assert mover.locator(".clock.running").count() == 0
    pages[1].screenshot(path=str(shots / f"clock-flag-phone-{lang}.png"))
    pages[0].screenshot(path=str(shots / f"clock-flag-desktop-{lang}.png"))

    # Rematch: the loser offers, the winner's page offers to accept; both pages move to the
    # new game, each with its own token in the other seat; the spectator is offered a link.
    winner = pages[1 - starter]
    mover.click('#rematch [data-rematch="yes"]')
    # The offer has come once the winner may decline it: its own 'Rematch' button is a primary "yes" before any offer.
    winner.wait_for_selector('#rematch [data-rematch="no"]')
    assert WORDS[lang]["offer"] in winner.inner_text("#rematch")
    winner.screenshot(path=str(shots / f"rematch-offer-{lang}.png"))
    winner.click('#rematch [data-rematch="yes"]')
    for page in pages.values():
        page.wait_for_url(re.compile(r"/g/(?!" + re.escape(game_id) + r")[^?]+\?t="))
        page.wait_for_selector("#table[data-ply]")
    new_id = pages[0].get_attribute("#table", "data-game")
    assert new_id != game_id and pages[1].get_attribute("#table", "data-game") == new_id
    assert f"lang={lang}" in pages[0].url
    for seat in (0, 1):
        seen = httpx.get(f"{fast.base}/api/games/{new_id}", params={"t": tokens[seat]}, timeout=HTTP_TIMEOUT).json()
        assert seen["role"] == 1 - seat and seen["clock"]["control"] == "15+0"
    watcher.wait_for_selector(f'#rematch a[href^="/g/{new_id}"]')
    for page in (*pages.values(), watcher):
        assert page.errors == []


def test_the_new_game_form_starts_a_game_with_a_clock(browser: Any, fast: LiveServer) -> None:  # noqa: F811
    """Persian: the presets in Persian digits; a bot game with a live clock shows only the
    person's clock; a custom clock reaches the server as minutes and seconds."""
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{fast.base}/?lang=fa")
    page.wait_for_selector('#clock-live option[value="300+3"]', state="attached")
    assert page.locator('#clock-live option[value="300+3"]').inner_text() == "۵ دقیقه + ۳ ثانیه"
    page.select_option("#clock", "300+3")
    assert "ربات" in page.inner_text("#clock-help")  # against a bot, only your clock
    page.select_option("#seat", "second")
    page.click("#start")
    page.wait_for_selector(".clock")
    assert page.locator(".clock").count() == 1 and page.inner_text(".clock") == "۵:۰۰"
    page.goto(f"{fast.base}/?lang=fa")
    page.wait_for_selector('#clock-live option[value="custom"]', state="attached")
    assert page.input_value("#clock") == "300+3"  # remembered on this device
    page.check('input[name="kind"][value="hotseat"]')
    page.select_option("#clock", "custom")
    page.fill("#clock-minutes", "2")
    page.fill("#clock-increment", "1")
    page.click("#start")
    page.wait_for_selector(".clock")
    game_id = page.get_attribute("#table", "data-game")
    listed = httpx.get(f"{fast.base}/api/games", params={"ids": game_id}, timeout=HTTP_TIMEOUT).json()
    assert listed[0]["clock"]["control"] == "120+1"
    assert page.locator(".clock").count() == 2
    assert page.errors == []
