"""End-to-end tests of replays in Debian's Chromium (Playwright, as test_web_e2e.py; its fixtures
and helpers are reused from there): both hands shown in War Machine, and the controls in one row
on a phone in every language."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_web_e2e import browser, new_page, server  # noqa: F401 (pytest fixtures)
from webhelpers import LiveServer, http_json

pytestmark = [pytest.mark.e2e]


def api(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    return http_json(base, path, body, timeout=60)


def finished_against_the_bot(base: str, ruleset: str, seed: int) -> str:
    """A game against the random bot played to its end (this seat's moves seeded random): its id."""
    import time

    g = api(base, "/api/games", {"ruleset": ruleset, "opponent": "bot:random", "seed": seed, "seat": "0"})
    rng = random.Random(seed)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        m = api(base, f"/api/games/{g['id']}?t={g['token']}")
        v = m["view"]
        if v["to_move"] is None:
            return str(g["id"])
        if v["to_move"] != v["viewer"] or not v["legal"]:
            time.sleep(0.05)
            continue
        api(base, f"/api/games/{g['id']}/action", {"t": g["token"], "text": rng.choice(v["legal"])["text"], "ply": m["ply"]})
    raise AssertionError("the game did not end")


def go_to_step(page: Any, step: int) -> None:
    page.evaluate("(n) => { const s = document.querySelector('#step'); s.value = String(n); "
                  "s.dispatchEvent(new Event('input')); }", step)
    page.wait_for_function("(n) => document.querySelector('#step-label').innerText.includes(n)", arg=str(step))


def test_war_machine_replay_shows_both_hands(browser: Any, server: LiveServer) -> None:  # noqa: F811
    """"Show: both hands" opens the bot's hand in the middle of the game too (it was shown only
    at the end), card for card as the bot held it; from one seat, the other hand is hidden."""
    gid = finished_against_the_bot(server.base, "warmachine", 4)
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/replay/{gid}?lang=en")
    page.wait_for_selector("#step-label:not(:empty)")
    assert page.input_value("#perspective") == "all"
    go_to_step(page, 12)
    bot_hand = api(server.base, f"/api/games/{gid}/replay/12?seat=1")["view"]["hands"][1]
    assert bot_hand
    page.wait_for_selector(".opp-bar .open-hand .wm-mini")
    shown = page.locator(".opp-bar .open-hand .wm-mini").evaluate_all("(els) => els.map((e) => e.dataset.code)")
    assert shown == bot_hand
    assert page.locator(".wm-hand .wm-card").count() == len(api(server.base, f"/api/games/{gid}/replay/12?seat=0")["view"]["hands"][0])
    page.select_option("#perspective", "0")
    page.wait_for_function("!document.querySelector('.opp-bar .open-hand')")
    assert page.errors == []


@pytest.mark.parametrize("lang", ["en", "fa", "ja", "cs"])
def test_replay_controls_fit_one_row_on_a_phone(browser: Any, server: LiveServer, lang: str) -> None:  # noqa: F811
    """At 390 wide every control of the replay bar (first, previous, slider, next, last, the step,
    the hands shown) sits in one row, inside the screen, in each language; the step's words stay
    for screen readers."""
    gid = finished_against_the_bot(server.base, "battleline", 2)
    page = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                    device_scale_factor=2)
    page.goto(f"{server.base}/replay/{gid}?lang={lang}")
    page.wait_for_selector("#step-label:not(:empty)")
    page.click("#last")
    boxes = page.evaluate("""() => [...document.querySelectorAll('.replay-bar > *')]
        .filter((e) => e.getBoundingClientRect().width > 1)
        .map((e) => { const r = e.getBoundingClientRect(); return [e.id || e.tagName, r.top, r.bottom, r.left, r.right]; })""")
    middles = [(top + bottom) / 2 for _, top, bottom, _, _ in boxes]
    assert max(middles) - min(middles) < 8, boxes  # one row
    assert len(boxes) == 7, boxes  # the "Show" label is heard, not seen
    assert min(b[3] for b in boxes) >= 0 and max(b[4] for b in boxes) <= 390, boxes
    import re

    from frontlines.web.i18n import gettext

    said = page.locator("#step-label .long").text_content()  # the words are there for screen readers
    assert all(part.strip() in said for part in re.split(r"\{\w+\}", gettext(lang, "Step {n} of {total}"))), said
    assert page.errors == []


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_win_chance_graph_marks_the_big_mistakes(browser: Any, server: LiveServer, shots: Any,  # noqa: F811
                                                      monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """"Analyse the game" reviews it on the server (web/analysis.py, a few deals a move for the
    test's sake), then draws seat 0's win chance over the game with the mistakes and blunders
    marked; a mark takes the replay to the position where it was made and says what was
    played and what was better."""
    import frontlines.web.analysis as analysis

    monkeypatch.setattr(analysis, "DEALS", 2)
    monkeypatch.setattr(analysis, "WIDTH", 2)
    gid = finished_against_the_bot(server.base, "battleline-basic", 5)
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/replay/{gid}?lang={lang}")
    page.wait_for_selector("#step-label:not(:empty)")
    assert page.locator("#review-graph").is_hidden()
    page.click("#analyse")
    page.wait_for_selector("#review-graph svg polyline", timeout=180_000)
    review = api(server.base, f"/api/games/{gid}/analysis")
    assert review["status"] == "ready"
    flagged = [m for m in review["moves"] if m["verdict"]]
    assert flagged, "random play makes mistakes"
    assert page.locator("#review-graph .mark").count() == len(flagged)
    assert page.locator("#review-graph .mark.blunder").count() == sum(m["verdict"] == "blunder" for m in flagged)
    worst = max(flagged, key=lambda m: m["loss"])
    page.locator(f'#review-graph .mark[data-step="{worst["index"]}"]').click()
    page.wait_for_selector(f'#replay[data-shown="{worst["index"]}"]')
    said = page.inner_text("#review-move")
    assert worst["move"] in said and worst["best"] in said
    page.screenshot(path=str(shots / f"replay-win-chance-{lang}.png"), full_page=True)
    assert page.errors == []
