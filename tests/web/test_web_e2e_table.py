"""End-to-end tests of what the table says around the game, in Debian's Chromium (Playwright,
as test_web_e2e.py; its fixtures and helpers are reused from there): pass and play's hand-over,
a friend game's creator waiting for the friend."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_e2e import browser, new_page, server, wait_turn  # noqa: F401 (pytest fixtures)
from webhelpers import LiveServer

pytestmark = [pytest.mark.e2e]


def start(page: Any, base: str, kind: str, lang: str, starts: str) -> None:
    page.goto(f"{base}/?lang={lang}")
    page.wait_for_selector('#ruleset option[value="battleline"]', state="attached")
    page.check(f'input[name="kind"][value="{kind}"]')
    page.select_option("#seat", starts)
    page.click("#start")
    page.wait_for_selector("#table[data-ply]")


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_handover_says_who_moves_next(browser: Any, server: LiveServer, lang: str) -> None:  # noqa: F811
    """While the device changes hands the status line is not empty: it names who moves next
    (and nothing of either hand); the box under it says to pass the device."""
    page = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    start(page, server.base, "hotseat", lang, "first")
    assert wait_turn(page) == "me"
    page.locator(".hand .card.selectable").first.click()
    page.locator(".slot.selectable").first.click()
    page.wait_for_selector(".deck.selectable")
    page.locator(".deck.selectable").first.click()
    page.wait_for_selector("#handover:not([hidden])")
    status = page.inner_text("#status").strip()
    assert status == {"en": "Player 2 to move.", "cs": "Na tahu je Hráč 2."}[lang]
    assert page.inner_text("#handover-text") == {"en": "Pass the device to Player 2.", "cs": "Předejte zařízení: teď hraje Hráč 2."}[lang]
    assert page.locator("#board").is_hidden()
    page.click("#handover-ok")
    page.wait_for_function("!document.querySelector('#status').innerText.includes('2 to move') && "
                           "!document.querySelector('#status').innerText.includes('Na tahu je')")
    assert page.errors == []


def test_a_friend_game_creator_waits_for_the_friend(browser: Any, server: LiveServer) -> None:  # noqa: F811
    """The creator of a friend game, the friend not yet come: the status says so (not "waiting
    for Opponent"), the friend's bar says "not joined yet" (not "offline"), the link to send is
    there and copies, and there is no button to deal again (the link is still good). Once the
    friend has opened the link, the game goes on as usual."""
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  permissions=["clipboard-read", "clipboard-write"])
    context.set_default_timeout(60_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start(page, server.base, "friend", "en", "second")
    page.wait_for_selector("#invite:not([hidden])")
    page.wait_for_function("document.querySelector('#status').innerText.trim() !== ''")
    assert page.inner_text("#status").strip() == "Waiting for your friend to open the invite link."
    assert page.locator("#reinvite-row").is_hidden()
    bar = page.inner_text(".opp-bar")
    assert "not joined yet" in bar and "offline" not in bar
    link = page.input_value("#invite-link")
    assert "?invite=" in link
    page.click("#copy-invite")
    page.wait_for_function("document.querySelector('#copy-done').innerText !== ''")
    assert page.inner_text("#copy-done") == "Link copied."
    assert page.evaluate("navigator.clipboard.readText()") == link
    # the friend comes
    friend = new_page(browser, viewport={"width": 1280, "height": 900})
    friend.goto(link)
    assert wait_turn(friend) == "me"  # the friend moves first
    page.wait_for_selector("#invite", state="hidden")
    page.wait_for_function("document.querySelector('#status').innerText.startsWith('Waiting for Opponent')")
    assert "online" in page.inner_text(".opp-bar") and page.locator("#reinvite-row").is_hidden()
    assert errors == [] and friend.errors == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_face_down_battlefields_say_little_and_are_turned_over_at_the_end(browser: Any, server: LiveServer,  # noqa: F811
                                                                           lang: str) -> None:
    """Medieval with its battlefields face down: no flag carries "Battlefield face down" (one
    line under the flags says what face down means; each flag's label still says it for screen
    readers), nothing names a battlefield while the game is on; when it ends, every one is
    turned over, named under its flag, its rule marked as never applied."""
    from webhelpers import http_json

    from frontlines.web.i18n import gettext

    g = http_json(server.base, "/api/games", {"ruleset": "medieval", "opponent": "bot:random", "seed": 5, "seat": "0",
                                              "options": {"battlefields": "face_down", "battlefield_set": "house"}},
                  timeout=60)
    page = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(f"{server.base}{g['url']}&lang={lang}")
    page.wait_for_selector("#table[data-ply]")
    page.wait_for_selector(".flag-col")
    face_down = gettext(lang, "Battlefield face down")
    assert face_down not in page.inner_text("#board")
    assert page.locator(".flag-col .mark.bf").count() == 0
    assert page.locator(".bf-note").count() == 1
    labels = page.locator(".flag-col").evaluate_all("(els) => els.map((e) => e.getAttribute('aria-label'))")
    assert len(labels) == 9 and all(face_down in label for label in labels)
    html = page.content()
    assert not any(name in html for name in ("Hill", "Marsh", "Village", "Castle"))
    http_json(server.base, f"/api/games/{g['id']}/action", {"t": g["token"], "type": "resign"}, timeout=60)
    page.wait_for_selector('#table[data-turn="over"]')
    page.wait_for_selector(".flag-col .mark.bf.turned")
    turned = page.locator(".flag-col .mark.bf.turned").all_inner_texts()
    assert len(turned) == 9 and {gettext(lang, n) for n in ("Hill", "Marsh", "Village")} <= set(turned), turned
    assert face_down not in page.inner_text("#board")
    assert gettext(lang, "The face-down battlefields are turned over: their rules did not apply in this game.") \
        in page.inner_text(".bf-note")
    assert page.errors == []


# Everything a player reads or hears: the page's text and the labels, titles and popovers.
WORDS_ON_PAGE = """() => [document.body.innerText, ...[...document.querySelectorAll(
    '[aria-label], [title], [data-tip], [data-refusal]')].flatMap((e) => [e.getAttribute('aria-label'),
    e.getAttribute('title'), e.dataset.tip, e.dataset.refusal])].filter(Boolean).join('\\n')"""


def test_japanese_sentences_follow_each_other_without_a_space(browser: Any, server: LiveServer) -> None:  # noqa: F811
    """Japanese puts no space after 。: not in the status line (last move, whose move, what to
    do), the "not provable yet" note, a refused card's popover (its rule, then why it is
    refused), the tutorial's words after a move."""
    from test_web_e2e_learn import _fill_flag_one

    def spaced(words: str) -> list[str]:
        return [line for line in words.split("\n") if "。 " in line]

    gid, token = _fill_flag_one(server.base)
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/g/{gid}?t={token}&lang=ja")
    assert wait_turn(page) == "me"
    page.wait_for_selector(".claim-line .counter")
    status = page.inner_text("#status")
    assert status.startswith("直前の手番 — ") and status.count("。") >= 2, status  # the opponent's last turn, then yours
    words = page.evaluate(WORDS_ON_PAGE)
    assert "まだ証明できません。" in words and spaced(words) == []
    page.goto(f"{server.base}/learn/battleline?step=12&lang=ja")  # Companion Cavalry: its rule, then the refusal
    page.wait_for_selector('[data-tok="hand:CC"].refused')
    # the bar's hand: no space before the bracket (it read "手札：7枚 （戦術2枚）")
    bars = page.evaluate("[...document.querySelectorAll('.player-bar')].map((b) => b.textContent).join('\\n')")
    assert "（戦術" in bars and " （" not in bars, bars
    tip = page.get_attribute('[data-tok="hand:CC"]', "data-tip")
    assert "。⊘" in tip, tip
    page.click('[data-tok="hand:CC"]', force=True)
    page.wait_for_selector('#learn[data-done="true"]')
    assert spaced(page.evaluate(WORDS_ON_PAGE)) == []
    assert page.errors == []


@pytest.mark.parametrize("lang", ["ja", "cs", "fa"])
def test_war_machine_tracker_headers_keep_their_words_whole_on_a_phone(browser: Any, server: LiveServer,  # noqa: F811
                                                                      lang: str) -> None:
    """At 390 wide a country's name in the tracker's headers is never broken inside the word
    (Japanese breaks between any two characters unless told not to): each name is one line box,
    and the tracker still fits the screen."""
    from webhelpers import http_json

    g = http_json(server.base, "/api/games", {"ruleset": "warmachine", "opponent": "bot:random", "seed": 2, "seat": "0"},
                  timeout=60)
    page = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.goto(f"{server.base}{g['url']}&lang={lang}")
    from frontlines.web.i18n import gettext

    names = [gettext(lang, n) for n in ("Germany", "Italy", "Japan", "Britain", "USA", "USSR")]
    page.wait_for_selector(".wm-tracker th")
    # the lines each header's country name takes: the name's own characters, measured as laid out
    lines = page.evaluate("""(names) => [...document.querySelectorAll('.wm-tracker th')].flatMap((th) => {
        const walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
        for (let node = walk.nextNode(); node; node = walk.nextNode()) {
          const name = names.find((n) => node.data.includes(n));
          if (!name) continue;
          const range = document.createRange();
          range.setStart(node, node.data.indexOf(name));
          range.setEnd(node, node.data.indexOf(name) + name.length);
          return [[name, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size]];
        }
        return [];
    })""", names)
    assert len(lines) == 12 and all(n == 1 for _, n in lines), lines
    assert page.evaluate("(() => { const t = document.querySelector('#tracker'); return t.scrollWidth <= t.clientWidth; })()")
    assert page.errors == []


def test_the_table_links_to_its_rules_and_its_lesson(browser: Any, server: LiveServer) -> None:  # noqa: F811
    """From a Schotten Totten (tactical) table in Czech: "Pravidla" opens the rules of this
    ruleset in Czech, in a tab of its own, this game's options marked (claims before drawing,
    not Schotten Totten's usual after the play); "Naučte se hrát" opens the Schotten Totten
    lesson."""
    from webhelpers import http_json

    from frontlines.web.i18n import gettext

    g = http_json(server.base, "/api/games", {"ruleset": "schotten-totten-tactics", "opponent": "hotseat", "seed": 3,
                                              "options": {"claim_timing": "before_draw"}}, timeout=60)
    page = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(f"{server.base}{g['url']}&lang=cs")
    page.wait_for_selector("#table[data-ply]")
    page.wait_for_function("document.querySelector('#rules-link').getAttribute('href') !== '/rules'")
    assert page.get_attribute("#rules-link", "target") == "_blank"
    with page.context.expect_page() as opened:
        page.click("#rules-link")
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.inner_text("h1") == "Pravidla: Schotten Totten (taktická varianta)"
    chosen = rules.locator(".rules-choice.chosen").all_inner_texts()
    assert any(c.startswith("✔ " + gettext("cs", "Any time before drawing")) for c in chosen), chosen
    assert gettext("cs", "Headhunter") in rules.inner_text("main")
    with page.context.expect_page() as opened:
        page.click("#learn-link")
    lesson = opened.value
    lesson.wait_for_selector('#learn[data-step="1"]')
    assert lesson.url.split("?")[0].endswith("/learn/schotten-totten") and lesson.get_attribute("html", "lang") == "cs"
    assert page.errors == []
