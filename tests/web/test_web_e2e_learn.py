"""End-to-end tests of refusals in words and of the tutorials, in Debian's Chromium
(Playwright, as test_web_e2e.py; its fixtures and helpers are reused from there)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_web_e2e import browser, new_page, server  # noqa: F401 (pytest fixtures)
from webhelpers import LiveServer, http_json

pytestmark = [pytest.mark.e2e]



def api(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    return http_json(base, path, body, timeout=60)


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
def test_a_refused_flag_says_why_in_the_page_language(browser: Any, server: LiveServer, lang: str, shots: Path) -> None:  # noqa: F811
    gid, token = _fill_flag_one(server.base)
    # Czech on a phone: the refused flag's mark must fit its narrow column too
    page = new_page(browser, viewport={"width": 390, "height": 844} if lang == "cs" else {"width": 1280, "height": 900})
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
    page.screenshot(path=str(shots / ("refusal-flag-full-en.png" if lang == "en" else "refusal-flag-full-cs-390.png")))
    assert page.errors == []


# --- the tutorials ------------------------------------------------------------------------------
def _clicks(entry: dict[str, Any]) -> list[str]:
    """The clicks that make a legal entry (as the adapters' pathOf in adapters.js)."""
    kind = entry["kind"]
    if kind in ("play", "environment"):
        return [f"hand:{entry['card']}", f"flag:{entry['flag']}"]
    if kind == "claim":
        return [f"claim:{entry['flag']}"]
    if kind in ("draw", "scout_draw"):
        return [f"pile:{entry['pile']}"] if "pile" in entry else [f"deck:{entry['deck']}"]
    if kind in ("scout", "scout_return"):
        return [f"hand:{entry.get('card') or 'SC'}"]
    if kind == "redeploy":
        return ["hand:RE", f"table:{entry['card']}", "btn:discard" if entry["target"] == "x" else f"flag:{entry['target']}"]
    if kind == "deserter":
        return ["hand:DE", f"table:{entry['card']}"]
    if kind == "traitor":
        return ["hand:TR", f"table:{entry['card']}", f"flag:{entry['target']}"]
    if kind == "deploy":
        return [f"hand:{entry['card']}", f"deploy:{entry['end']}:{entry['position']}"]
    if kind == "burn":
        return [f"hand:{entry['card']}", "btn:burn"]
    raise AssertionError(f"no clicks for {entry}")


def walk(page: Any, base: str, key: str, pictures: dict[int, str], shots: Path) -> None:
    """Every step of tutorial ``key`` by clicking as a learner would, to its last step."""
    from frontlines.web.learn import TUTORIALS

    tut = TUTORIALS[key]
    page.goto(f"{base}/learn/{key}?lang=en")
    for i, step in enumerate(tut.steps, 1):
        page.wait_for_selector(f'#learn[data-step="{i}"]')
        assert page.inner_text("#learn-say").strip().startswith(step.say[0][:30])
        if step.task == "move":
            view = api(base, f"/api/learn/{key}/{i}")["view"]
            entry = next(e for e in view["legal"] if e["text"] == step.do[0])
            for tok in _clicks(entry):
                page.locator(f'[data-tok="{tok}"]').first.click()
        elif step.task == "refuse":
            card = page.locator(f'[data-tok="hand:{step.refuse}"]').first
            anywhere = card.get_attribute("aria-disabled") == "true"  # refused at every flag
            # a refused card is aria-disabled (clickable, to say why): Playwright needs force
            card.click(force=True)
            if key == "warmachine":
                page.locator(".refused-list li").first.wait_for()
            elif not anywhere:  # refused at some flags (a battlefield's rule): their marks say why
                page.locator(".flag-col .refused-slot").first.click()
                page.wait_for_selector("#refusal:not([hidden])")
                assert "⊘" in page.inner_text("#refusal") and "the battlefield" in page.inner_text("#refusal")
            else:
                assert "⊘" in page.inner_text("#refusal")
        page.wait_for_selector('#learn[data-done="true"]')
        if step.task == "move":
            assert "Well done." in page.inner_text("#learn-feedback")
        if i in pictures:
            page.screenshot(path=str(shots / pictures[i]), full_page=True)
        if i < len(tut.steps):
            page.click("#learn-next")
    assert page.locator("#learn-play").is_visible() and page.locator("#learn-next").is_hidden()


TUTORIAL_SHOTS = {
    "battleline": {7: "learn-battleline-claim-en.png", 8: "learn-battleline-proof-not-yet-en.png",
                   12: "learn-battleline-tactics-limit-en.png", 19: "learn-battleline-scout-return-en.png"},
    "schotten-totten": {7: "learn-schotten-totten-claim-en.png"},
    "medieval": {2: "learn-medieval-marsh-refuses-en.png", 4: "learn-medieval-village-forest-en.png"},
    "warmachine": {2: "learn-warmachine-refused-places-en.png", 7: "learn-warmachine-battle-en.png"},
}


@pytest.mark.parametrize("key", ["battleline", "schotten-totten", "medieval", "warmachine"])
def test_each_tutorial_to_its_end_then_a_game_against_easy(browser: Any, server: LiveServer, key: str, shots: Path) -> None:  # noqa: F811
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    walk(page, server.base, key, TUTORIAL_SHOTS[key], shots)
    page.click("#learn-play")
    page.wait_for_selector("#table[data-ply]")
    assert "Easy" in page.inner_text("body")
    if key == "medieval":  # the game the lesson taught: battlefields face up, with their rules
        page.wait_for_selector(".flag-col .bf-text")
    assert page.errors == []


def test_a_wrong_move_gets_a_hint_and_a_refused_one_its_reason(browser: Any, server: LiveServer) -> None:  # noqa: F811
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/learn/battleline?step=2&lang=en")
    page.wait_for_selector('#learn[data-step="2"]')
    page.click('[data-tok="hand:R9"]')
    page.click('[data-tok="flag:3"]')
    page.wait_for_function("document.querySelector('#learn-feedback').textContent.includes('another one')")
    assert page.get_attribute("#learn", "data-done") == "false"
    wrong = api(server.base, "/api/learn/battleline/7", {"text": "claim:2"})
    assert wrong["ok"] is False and wrong["reason"]["code"] == "claim_unproven"  # flag 2 is not even complete


@pytest.mark.parametrize(("lang", "word", "stone"), [("fa", "پرچم", "سنگ"), ("ja", "フラッグ", "石"), ("cs", "karet", "karet")])
def test_the_tutorials_in_the_other_languages(browser: Any, server: LiveServer, lang: str, word: str,  # noqa: F811
                                              stone: str, shots: Path) -> None:
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/?lang={lang}")
    page.click('a[href="/learn"]')
    page.wait_for_selector(".learn-list")
    page.screenshot(path=str(shots / f"learn-list-{lang}.png"), full_page=True)
    for key in ("battleline", "schotten-totten", "medieval", "warmachine"):
        page.goto(f"{server.base}/learn/{key}")
        page.wait_for_selector('#learn[data-step="1"]')
        say = page.inner_text("#learn-say")
        assert say and not re.search(r"\b(the|flag|card|your)\b", say), say
        assert page.get_attribute("html", "dir") == ("rtl" if lang == "fa" else "ltr")
        if key != "warmachine":  # Battle Line's flags, Schotten Totten's stones
            assert (stone if key == "schotten-totten" else word) in page.inner_text("#board") + say
    # a refusal in words, in this language: the tactics limit step
    page.goto(f"{server.base}/learn/battleline?step=12")
    page.wait_for_selector('#learn[data-step="12"]')
    page.click('[data-tok="hand:CC"]', force=True)
    note = page.inner_text("#refusal")
    assert note.startswith("⊘") and "tactics" not in note
    page.screenshot(path=str(shots / f"learn-battleline-tactics-limit-{lang}.png"), full_page=True)
    assert page.errors == []


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_next_looks_disabled_and_says_what_opens_it(browser: Any, server: LiveServer, lang: str) -> None:  # noqa: F811
    """Until the step's task is done, Next is greyed (not the blue of a button that acts), says
    it is unavailable to assistive technology, and a click or keyboard focus says what opens
    it; the step stays. After the move it is the blue Next again and moves on."""
    page = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(f"{server.base}/learn/battleline?step=2&lang={lang}")
    page.wait_for_selector('#learn[data-step="2"]')
    nxt = page.locator("#learn-next")
    assert nxt.get_attribute("aria-disabled") == "true"
    back_colour = "getComputedStyle(document.querySelector('#learn-next')).backgroundColor"
    blue = page.evaluate("getComputedStyle(document.querySelector('#learn-play')).backgroundColor")  # the primary blue
    assert page.evaluate(back_colour) != blue
    why = page.locator("#learn-next-why")
    assert why.is_hidden()
    nxt.click(force=True)  # Playwright waits for an aria-disabled button to be enabled; a person just clicks
    why.wait_for()
    said = why.inner_text()
    assert said and page.get_attribute("#learn", "data-step") == "2"
    assert said == {"en": "Next opens once you have made the move the text asks for.",
                    "fa": "«بعدی» وقتی باز می‌شود که حرکتی را که متن خواسته انجام بدهی."}[lang]
    # keyboard: the hint is the button's description, and focus shows it
    assert page.evaluate("document.querySelector('#learn-next').getAttribute('aria-describedby')") == "learn-next-why"
    page.goto(f"{server.base}/learn/battleline?step=12&lang={lang}")  # a step that asks to click a refused card
    page.wait_for_selector('#learn[data-step="12"]')
    page.focus("#learn-next")
    page.locator("#learn-next-why").wait_for()
    assert page.inner_text("#learn-next-why") != said
    page.goto(f"{server.base}/learn/battleline?step=2&lang={lang}")
    page.wait_for_selector('#learn[data-step="2"]')
    page.click('[data-tok="hand:R8"]')
    page.click('[data-tok="flag:1"]')
    page.wait_for_selector('#learn[data-done="true"]')
    assert nxt.get_attribute("aria-disabled") is None and page.evaluate(back_colour) == blue
    assert page.locator("#learn-next-why").is_hidden()
    nxt.click()
    page.wait_for_selector('#learn[data-step="3"]')
    assert page.errors == []


def test_the_claim_step_says_why_the_proof_holds(browser: Any, server: LiveServer) -> None:  # noqa: F811
    """Step 7 promises why the proof holds: after the claim, the flag has no proof note any
    more, so the words after "Well done." give it."""
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/learn/battleline?step=7&lang=en")
    page.wait_for_selector('#learn[data-step="7"]')
    assert "no unseen troop cards can beat your wedge (27)" in page.inner_text("#board")
    page.click('[data-tok="claim:1"]')
    page.wait_for_selector('#learn[data-done="true"]')
    said = page.inner_text("#learn-feedback")
    assert "Why the proof holds: no unseen troop cards can beat your wedge (27)." in said, said
    assert "{proof}" not in said
    page.goto(f"{server.base}/learn/battleline?step=7&lang=ja")
    page.wait_for_selector('#learn[data-step="7"]')
    page.click('[data-tok="claim:1"]')
    page.wait_for_selector('#learn[data-done="true"]')
    said = page.inner_text("#learn-feedback")
    # Japanese sentences follow each other with no space after "。"
    assert said.startswith("よくできました。フラッグ1はあなたのものです。証明が成り立つ理由：未確認の部隊カードでは"), said
    assert "。 " not in said
    assert page.errors == []
