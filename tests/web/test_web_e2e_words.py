"""End-to-end tests of the words players read, in Debian's Chromium (Playwright, as
test_web_e2e.py; its fixtures and helpers are reused from there): Schotten Totten's stones and
combinations in the four languages, on the table, in refusals, proofs, claims, the log and the
replay; pass and play by the players' names."""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path
from typing import Any

import pytest
from test_web_e2e import HTTP_TIMEOUT, browser, new_page, server, wait_turn  # noqa: F401 (pytest fixtures)
from webhelpers import LiveServer, http_json

pytestmark = [pytest.mark.e2e]


# Everything a player reads or hears: the page's text and the labels, titles and popovers.
WORDS_ON_PAGE = """() => [document.body.innerText, ...[...document.querySelectorAll(
    '[aria-label], [title], [data-tip], [data-refusal]')].flatMap((e) => [e.getAttribute('aria-label'),
    e.getAttribute('title'), e.dataset.tip, e.dataset.refusal])].filter(Boolean).join('\\n')"""

# (Schotten Totten's word, Battle Line's word) in each language, as patterns.
STONE = {"en": (r"\b[Ss]tones?\b", r"\b[Ff]lags?\b"), "cs": (r"[Kk][aá]men", r"[Vv]lajk"),
         "ja": ("石", "フラッグ"), "fa": ("سنگ", "پرچم")}


def _stone_position(server: LiveServer) -> tuple[str, str, str, int, int]:  # noqa: F811
    """A pass-and-play Schotten Totten (tactics) game after seeded random moves, at a card play
    where the mover's side of some stone is full and a troop card, once played, opens a claim:
    (game id, seat token, that play's text, the full stone, the stone it may claim)."""
    import httpx2 as httpx

    from frontlines.games import new_state

    ruleset, seed = "schotten-totten-tactics", 1
    state, rng, texts = new_state(ruleset, seed=seed), random.Random(seed), []
    found = None
    while found is None:
        assert not state.is_terminal(), "no such position in this deal"
        seat = state.current_player()
        v = state.view(seat).to_dict()
        full = [f["index"] for f in v["flags"] if f["claimed_by"] is None and len(f["sides"][seat]) >= f["capacity"]]
        for e in v["legal"] if len(texts) >= 20 and full else ():
            if e["kind"] == "play" and re.fullmatch(r"[ROYGBP]\d", e["card"]):
                after = copy.deepcopy(state)
                after.apply(after.parse_action(e["text"]))
                claim = next((c for c in after.view(seat).to_dict()["legal"] if c["kind"] == "claim"), None)
                if claim is not None:
                    found = (e["text"], full[0], claim["flag"])
                    break
        if found is None:
            entry = rng.choice([e for e in v["legal"] if e["kind"] != "claim"] or v["legal"])
            texts.append(entry["text"])
            state.apply(state.parse_action(entry["text"]))
    g = httpx.post(f"{server.base}/api/games", json={"ruleset": ruleset, "opponent": "hotseat", "seed": seed}, timeout=HTTP_TIMEOUT).json()
    for text in texts:
        httpx.post(f"{server.base}/api/games/{g['id']}/action", json={"t": g["token"], "text": text}, timeout=HTTP_TIMEOUT).raise_for_status()
    return g["id"], g["token"], *found


# (Schotten Totten's clan cards, Battle Line's troop cards) in each language, as patterns (in
# English, not the notation's "draw:troop").
CLAN = {"en": (r"\b[Cc]lan\b", r"(?<!:)\b[Tt]roops?\b"), "cs": ("klan", r"[Jj]ednot"), "ja": ("クラン", "部隊"),
        "fa": ("قبیله", "سرباز")}


def plain(text: str) -> str:
    """``text`` without the bidi isolates around a typed name."""
    return re.sub("[\u2066-\u2069]", "", text)


def _says_stone(page: Any, lang: str) -> str:
    stone, flag = STONE[lang]
    words: str = page.evaluate(WORDS_ON_PAGE)
    assert re.search(stone, words), words
    assert not re.findall(rf".{{0,40}}{flag}.{{0,40}}", words)
    assert not re.findall(rf".{{0,40}}{CLAN[lang][1]}.{{0,40}}", words)  # clan cards, never troops
    return words


# Battle Line's formation words, which Schotten Totten's proofs must not use, and Schotten
# Totten's own (its combinations and the sum), one of which each proof names.
BATTLE_LINE_FORMATIONS = ("wedge", "phalanx", "battalion", "skirmish", "host")
SCHOTTEN_FORMATIONS = ("Colour Run", "Three of a Kind", "Colour", "Run", "Sum")


def _proofs_in_schotten_words(page: Any, lang: str) -> None:
    """Each proof and counter-example note on the table names the combinations as Schotten
    Totten does, in the page's language (never Battle Line's wedge or host)."""
    from frontlines.web.i18n import FORMATION_PLACEHOLDERS, cases_used, gettext, pgettext

    notes = page.locator(".flag-col .proof, .flag-col .counter .reason").all_inner_texts()
    assert notes
    # each in any form a sentence may ask of it (Czech "vaši barvu")
    own = [form.lower() for w in SCHOTTEN_FORMATIONS
           for form in (gettext(lang, w), *(pgettext(lang, c, w) for c in cases_used(lang, FORMATION_PLACEHOLDERS)))]
    foreign = [gettext(lang, w).lower() for w in BATTLE_LINE_FORMATIONS if gettext(lang, w).lower() not in own]
    for note in notes:
        assert any(w in note.lower() for w in own), note
        assert not [w for w in foreign if w in note.lower()], note
        if lang in ("fa", "ja"):
            assert not re.search(r"[A-Za-z]{3,}", note), note  # no English left in the sentence
            assert "," not in note, note  # their own commas between cards (، and 、)


@pytest.mark.parametrize("lang", ["en", "fa", "ja", "cs"])
def test_schotten_totten_speaks_of_stones(browser: Any, server: LiveServer, lang: str, shots: Path) -> None:  # noqa: F811
    """Schotten Totten's table, refusals, claim buttons, log and replay name its boundary
    stones, never flags, and its clan cards, never troops, in each language."""
    gid, token, play, full, claim = _stone_position(server)
    card, target = play.split("@")
    stone = STONE[lang][0]
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/g/{gid}?t={token}&lang={lang}")
    assert wait_turn(page) == "me"
    assert re.search(CLAN[lang][0], page.inner_text(".deck.troop")), lang  # the draw button's deck
    _says_stone(page, lang)
    _proofs_in_schotten_words(page, lang)
    # a card picked: the full stone refuses it, and says why when clicked
    page.click(f'.hand [data-tok="hand:{card}"]')
    page.click(f'.flag-col[data-flag="{full}"] .refused-slot')
    page.wait_for_selector("#refusal:not([hidden])")
    assert re.search(stone, page.inner_text("#refusal"))
    _says_stone(page, lang)
    ply = page.get_attribute("#table", "data-ply")
    page.click(f'[data-tok="flag:{target}"]')
    page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'")
    button = page.locator(f'.claim-btn[data-tok="claim:{claim}"]')
    assert re.search(stone, button.get_attribute("aria-label") or "")
    _says_stone(page, lang)
    _proofs_in_schotten_words(page, lang)
    ply = page.get_attribute("#table", "data-ply")
    button.click()
    page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'")
    assert re.search(stone, page.locator("#log li").last.inner_text())
    if lang == "fa":  # the log's numbers in Persian digits too
        assert page.evaluate("getComputedStyle(document.querySelector('#log')).listStyleType") == "persian"
    _says_stone(page, lang)
    page.screenshot(path=str(shots / f"schotten-totten-stones-{lang}.png"))
    # the replay, once the game is over
    page.once("dialog", lambda d: d.accept())
    page.click("#resign")
    page.wait_for_selector('#table[data-turn="over"]')
    page.goto(f"{server.base}/replay/{gid}?lang={lang}")
    page.wait_for_selector("#step-label:not(:empty)")
    page.click("#last")
    page.wait_for_function("document.querySelector('#step').value === document.querySelector('#step').max")
    page.wait_for_selector("#log .who")
    assert re.search(stone, page.inner_text("#log"))
    _says_stone(page, lang)
    assert page.errors == []


def test_pass_and_play_by_the_players_names(browser: Any, server: LiveServer) -> None:  # noqa: F811
    """Two people at one device type their names at the start; the status, both players' bars,
    the hand-over, the log, the outcome, the replay and the home page's list then name them
    (in the page's language), and the names are offered again for the next game."""
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/?lang=cs")
    page.select_option("#ruleset", "battleline-basic")
    assert page.locator("#other-name").is_hidden()
    page.check('input[name="kind"][value="hotseat"]')
    page.fill("#name", "Ann")
    page.fill("#other-name", "Bořek")
    page.select_option("#seat", "first")
    page.click("#start")
    assert wait_turn(page) == "me"
    # the names are isolated from the sentences around them (U+2068 .. U+2069, issue 30)
    assert page.inner_text("#status").startswith("\u2068Ann\u2069, jste na tahu.")
    bars = [plain(b) for b in page.locator(".player-bar").all_inner_texts()]
    assert any(b.startswith("Ann") for b in bars) and any(b.startswith("Bořek") for b in bars)
    assert not re.search(r"Hráč \d|\bVy\b", page.evaluate(WORDS_ON_PAGE))
    for _ in range(2):  # a card, then the draw: the device goes to Bořek
        ply = page.get_attribute("#table", "data-ply")
        if page.locator(".deck.selectable").count():
            page.locator(".deck.selectable").first.click()
        else:
            page.locator(".hand .card.selectable").first.click()
            page.locator(".slot.selectable").first.click()
        page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'")
    page.wait_for_selector("#handover:not([hidden])")
    assert plain(page.inner_text("#handover-text")) == "Předejte zařízení: teď hraje Bořek."
    page.click("#handover-ok")
    page.wait_for_function("document.querySelector('#status').innerText.includes('Bořek\u2069, jste na tahu.')")
    assert page.locator("#log .who").all_inner_texts() == ["\u2068Ann\u2069:", "\u2068Ann\u2069:"]
    page.once("dialog", lambda d: d.accept())
    page.click("#resign")
    page.wait_for_selector('#table[data-turn="over"]')
    assert plain(page.inner_text("#status")).startswith("Vyhrál(a) Ann (vzdání)")
    page.goto(f"{server.base}/replay/{page.url.split('/g/')[1].split('?')[0]}?lang=cs")
    page.wait_for_selector("#step-label:not(:empty)")
    assert [plain(o) for o in page.locator("#perspective option").all_inner_texts()[1:]] == ["Ann", "Bořek"]
    page.goto(f"{server.base}/?lang=cs")
    page.wait_for_selector("#my-games li")
    assert "Ann – Bořek" in plain(page.inner_text("#my-games"))
    page.check('input[name="kind"][value="hotseat"]')
    assert page.input_value("#name") == "Ann" and page.input_value("#other-name") == "Bořek"
    assert page.errors == []


@pytest.mark.parametrize("lang", ["en", "fa", "ja", "cs"])
def test_home_page_words_the_rules_options_of_each_ruleset(browser: Any, server: LiveServer, lang: str, shots: Path) -> None:  # noqa: F811
    """The new-game form's rules options (labels, choices, help) speak of stones and of
    Schotten Totten's own tactic cards when a Schotten Totten ruleset is chosen (/api/rulesets
    says each ruleset's place_name), and of flags again for Battle Line, in each language."""
    from frontlines.web.i18n import gettext

    stone, flag = STONE[lang]
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/?lang={lang}")
    page.wait_for_selector('#ruleset option[value="schotten-totten-tactics"]', state="attached")
    page.select_option("#ruleset", "schotten-totten-tactics")
    page.click(".field-details summary")  # the options fold open
    page.wait_for_selector("#opt-claim_timing")
    options = page.inner_text("#options")
    assert re.search(stone, options) and not re.search(flag, options), options
    assert gettext(lang, "Headhunter") in options and gettext(lang, "Scout") not in options
    page.locator("#options").screenshot(path=str(shots / f"home-options-schotten-totten-{lang}.png"))
    page.select_option("#ruleset", "battleline")
    page.wait_for_function("(word) => !document.querySelector('#options').innerText.includes(word)",
                           arg=gettext(lang, "Headhunter"))
    options = page.inner_text("#options")
    assert re.search(flag, options) and not re.search(stone, options), options
    assert page.errors == []


@pytest.mark.parametrize("lang", ["fa", "cs"])
def test_a_name_with_a_direction_override_is_refused_in_the_page_language(browser: Any, server: LiveServer,  # noqa: F811
                                                                          lang: str, shots: Path) -> None:
    """A name holding a right-to-left override is refused with a sentence in the page's
    language, on the home page and when a friend names their seat; a Persian name with its
    zero-width non-joiner is taken as it is."""
    from frontlines.web.i18n import gettext

    said = gettext(lang, "A name cannot hold invisible characters or characters that change the direction of the text.")
    assert said != "A name cannot hold invisible characters or characters that change the direction of the text."
    page = new_page(browser, viewport={"width": 390, "height": 844})
    page.goto(f"{server.base}/?lang={lang}")
    page.check('input[name="kind"][value="friend"]')
    page.fill("#name", "Ann\u202emaI")
    page.click("#start")
    page.wait_for_function("document.querySelector('#new-error').textContent.length > 0")
    assert said in page.inner_text("#new-error")
    page.screenshot(path=str(shots / f"name-refused-{lang}-390.png"))
    page.fill("#name", "علی‌رضا")
    page.click("#start")
    page.wait_for_selector("#table[data-ply]")
    gid = page.url.split("/g/")[1].split("?")[0]
    assert "علی‌رضا" in http_json(server.base, f"/api/games/{gid}", timeout=HTTP_TIMEOUT)["names"]
    # the friend's side: a name typed into the join form
    ticket = page.evaluate("JSON.parse(localStorage.getItem('frontlines.games') || '[]')[0].invite")
    assert ticket, "the creator's page keeps the invite link"
    friend = new_page(browser, viewport={"width": 390, "height": 844})
    friend.goto(f"{server.base}{ticket}&lang={lang}" if "?" in ticket else f"{server.base}{ticket}?lang={lang}")
    friend.wait_for_selector("#join:not([hidden])")
    friend.fill("#join-name", "Bob\u200b")
    friend.click("#join-save")
    friend.wait_for_function(f"document.body.innerText.includes({said!r})")
    friend.screenshot(path=str(shots / f"name-refused-join-{lang}-390.png"))
    friend.wait_for_selector("#join:not([hidden])")  # offered again, to fix
    friend.fill("#join-name", "Bořek")
    friend.click("#join-save")
    page.wait_for_function("document.body.innerText.includes('Bořek')")  # the creator sees the friend's name
    assert page.errors == [] and friend.errors == []
