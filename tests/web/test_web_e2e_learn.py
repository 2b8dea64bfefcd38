"""End-to-end tests of refusals in words and of the tutorials, in Debian's Chromium
(Playwright, as test_web_e2e.py; its fixtures and helpers are reused from there)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from test_web_e2e import browser, new_page, server  # noqa: F401 (pytest fixtures)
from webhelpers import LiveServer

pytestmark = [pytest.mark.e2e]

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "web"


def api(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.loads(r.read())


def _fill_flag_one(base: str) -> tuple[str, str]:
    """A pass-and-play Battle Line game where player 1 (seat 0) has filled their side of flag 1:
    the game's id and seat token, player 1 to move."""
    g = api(base, "/api/games", {"ruleset": "battleline", "opponent": "hotseat", "seed": 11,
                                  "options": {"first_player": "0"}})
    gid, token = g["id"], g["token"]
    for turn in range(6):
        view = api(base, f"/api/games/{gid}?t={token}")
        seat = view["view"]["to_move"]
        flag = 1 if seat == 0 else 9 - turn // 2
        play = next(e for e in view["view"]["legal"] if e["kind"] == "play" and e["flag"] == flag)
        view = api(base, f"/api/games/{gid}/action", {"t": token, "text": play["text"], "ply": view["ply"]})
        draw = next(e for e in view["view"]["legal"] if e["kind"] == "draw")
        api(base, f"/api/games/{gid}/action", {"t": token, "text": draw["text"], "ply": view["ply"]})
    return gid, token


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_a_refused_flag_says_why_in_the_page_language(browser: Any, server: LiveServer, lang: str) -> None:  # noqa: F811
    gid, token = _fill_flag_one(server.base)
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/g/{gid}?t={token}&lang={lang}")
    page.wait_for_selector('#table[data-turn="me"]')
    page.locator(".hand .card.selectable").first.click()
    mark = page.locator('[data-flag="1"] .refused-slot')
    mark.wait_for()
    mark.click()
    note = page.inner_text("#refusal")
    expected = {"en": "your side of flag 1 is full", "cs": "vaše strana vlajky 1 je plná"}[lang]
    assert expected in note, note
    assert page.locator('[data-flag="1"] .slot.selectable').count() == 0
    if lang == "en":
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "refusal-flag-full-en.png"))
    assert page.errors == []
