"""End-to-end in Debian's Chromium (Playwright; helpers from test_web_e2e.py and
test_web_e2e_accounts.py), in English and Persian: two strangers sign up in two browsers; one
posts a rated seek with a live clock in the lobby, the other takes it; they play with the
clock running, one runs out of time; both ratings change; they rematch, and the rematch is
rated too. A third browser, without an account, watches with both clocks visible.
Screenshots go to the ``shots`` folder (FRONTLINES_ARTIFACTS=1 keeps them in artifacts/web/)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from test_web_e2e import HTTP_TIMEOUT, browser, new_page, play_first_turns, shot  # noqa: F401 (pytest fixtures)
from test_web_e2e_accounts import DESKTOP, NAMES, PERSIAN_DIGITS, PHONE, no_sideways_scroll, sign_up
from webhelpers import LiveServer

pytestmark = [pytest.mark.e2e]

WORDS = {
    "en": {"mine": "Your time ran out.", "theirs": "time ran out.", "rated": "rated"},
    "fa": {"mine": "وقتت تمام شد.", "theirs": "تمام شد.", "rated": "رتبه‌ای"},
}
CLOCK = "15+0"  # shorter than the form offers (a minute), so that the flag comes soon


@pytest.fixture
def fast(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose clock sweep looks every 0.2 s."""
    with LiveServer(f"sqlite:///{tmp_path / 'e2e.db'}", clock_sweep=0.2) as s:
        yield s


def open_home(page: Any, base: str, lang: str) -> None:
    page.goto(f"{base}/?lang={lang}")
    page.wait_for_selector('#ruleset option[value="battleline-basic"]', state="attached")
    page.wait_for_selector("#seeks li")  # the lobby's list (or its "nobody is waiting")


def rated_note(page: Any) -> str:
    page.wait_for_function("/[→←]/.test(document.querySelector('#rated-note').textContent)")
    note: str = page.inner_text("#rated-note")
    return note


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_strangers_with_accounts_play_a_rated_lobby_game_on_the_clock_and_rematch(
        browser: Any, fast: LiveServer, lang: str, shots: Path) -> None:  # noqa: F811
    ann_name, bob_name = NAMES[lang]
    ann = new_page(browser, viewport=DESKTOP)
    bob = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    for page, name in ((ann, ann_name), (bob, bob_name)):
        sign_up(page, fast.base, name, lang)
        page.click("#codes-done")
        page.wait_for_selector("header .me")
    # Ann posts a rated seek with a live clock: "Anyone, in the lobby", "Rated game".
    open_home(ann, fast.base, lang)
    ann.select_option("#ruleset", "battleline-basic")
    ann.check('input[name="kind"][value="lobby"]')
    assert ann.is_hidden("#name-field") and ann.is_visible("#rated")  # she plays under her username
    assert ann.is_visible('[data-rated-help="lobby"]') and ann.is_hidden('[data-rated-help="friend"]')
    ann.check("#rated")
    ann.evaluate(f"document.querySelector('#clock-live').append(new Option('{CLOCK}', '{CLOCK}'))")
    ann.select_option("#clock", CLOCK)
    ann.click("#start")
    ann.wait_for_selector("#seeks li.mine")
    # Bob, on his phone, sees it with Ann's name and "rated", and takes it.
    open_home(bob, fast.base, lang)
    seek = bob.wait_for_selector("#seeks li [data-accept]")
    listed = bob.inner_text("#seeks")
    assert ann_name in listed and WORDS[lang]["rated"] in listed, listed
    if lang == "fa":
        assert not re.search("[0-9]", listed), listed
    no_sideways_scroll(bob)
    shot(bob, shots, f"lobby-rated-seek-phone-{lang}")
    seek.click()
    for page in (ann, bob):
        page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+\?t="))
        page.wait_for_selector(".clock")
    game_id = ann.get_attribute("#table", "data-game")
    assert bob.get_attribute("#table", "data-game") == game_id
    # A third browser, without an account, watches: both clocks visible.
    watcher = new_page(browser, viewport=DESKTOP)
    watcher.goto(f"{fast.base}/g/{game_id}?lang={lang}")
    for page in (ann, bob, watcher):
        page.wait_for_selector(".clock")
        assert page.locator(".clock").count() == 2
        assert page.inner_text("#rated-note")  # "Rated game."
        names = page.inner_text("body")
        assert ann_name in names and bob_name in names
    # Both first turns (free), by clicking; then the starter's clock runs on every page.
    starter = play_first_turns((ann, bob))
    for page in (ann, bob, watcher):
        page.wait_for_selector(".clock.running")
    watcher.wait_for_selector(".clock.low")
    no_sideways_scroll(bob)
    shot(watcher, shots, f"rated-clock-spectator-{lang}")
    # The starter waits too long: the flag ends the game, said on every page.
    for page in (ann, bob, watcher):
        page.wait_for_selector('#table[data-turn="over"]', timeout=60_000)
    winner = bob if starter is ann else ann
    assert WORDS[lang]["mine"] in starter.inner_text("#status")
    assert WORDS[lang]["theirs"] in winner.inner_text("#status")
    assert WORDS[lang]["theirs"] in watcher.inner_text("#status")
    # Both ratings changed, said on both players' pages and the watcher's.
    ratings = httpx.get(f"{fast.base}/api/games/{game_id}/ratings", timeout=HTTP_TIMEOUT).json()
    won = ann_name if winner is ann else bob_name
    lost = bob_name if won == ann_name else ann_name
    assert {c["username"]: c["after"] > c["before"] for c in ratings} == {won: True, lost: False}
    for page in (ann, bob, watcher):
        note = rated_note(page)
        assert ann_name in note and bob_name in note, note
        if lang == "fa":
            assert PERSIAN_DIGITS.search(note) and not re.search("[0-9]", note), note
    shot(bob, shots, f"rated-flag-phone-{lang}")
    shot(ann, shots, f"rated-flag-desktop-{lang}")
    # The rematch: the loser offers, the winner accepts; both move to the new game, seats
    # swapped, rated again; the watcher is offered a link.
    starter.click('#rematch [data-rematch="yes"]')
    # The offer has come once the winner may decline it: its own 'Rematch' button is a primary "yes" before any offer.
    winner.wait_for_selector('#rematch [data-rematch="no"]')
    shot(winner, shots, f"rated-rematch-offer-{lang}")
    winner.click('#rematch [data-rematch="yes"]')
    for page in (ann, bob):
        page.wait_for_url(re.compile(r"/g/(?!" + re.escape(game_id) + r")[^?]+\?t="))
        page.wait_for_selector("#table[data-ply]")
    new_id = ann.get_attribute("#table", "data-game")
    assert new_id != game_id and bob.get_attribute("#table", "data-game") == new_id
    watcher.wait_for_selector(f'#rematch a[href^="/g/{new_id}"]')
    rematch = httpx.get(f"{fast.base}/api/games/{new_id}", timeout=HTTP_TIMEOUT).json()
    assert rematch["rated"] is True and rematch["players"] == [True, True]
    assert rematch["clock"]["control"] == CLOCK
    for page in (ann, bob):
        page.wait_for_function("!document.querySelector('#rated-note').hidden")
    # The first game is on both players' pages, with a rating each.
    player = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    player.goto(f"{fast.base}/player/{won}?lang={lang}")
    assert player.locator("svg.rating-graph circle").count() == 1
    no_sideways_scroll(player)
    shot(player, shots, f"rated-winner-player-phone-{lang}")
    for page in (ann, bob, watcher, player):
        assert page.errors == []
