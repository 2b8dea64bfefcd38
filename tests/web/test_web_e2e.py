"""End-to-end tests in Debian's Chromium, driven by Playwright (sync API).

A real uvicorn server runs in a thread on a free loopback port. Screenshots of the table go to
the suite's artifacts folder (a temporary one; the checkout's artifacts/web/ with
FRONTLINES_ARTIFACTS=1) for people to look at.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium not installed"),
]
playwright_api = pytest.importorskip("playwright.sync_api")

from webhelpers import LiveServer  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
# ms a page may take to get somewhere (Playwright's default is 30 s): a loaded machine is slow,
# and waiting ends as soon as the page is there
TURN_TIMEOUT = 60_000
HTTP_TIMEOUT = 60.0  # s for a request the test makes itself (httpx's default of 5 a loaded machine can take)


def serious_violations(page: Any) -> list[tuple[str, str]]:
    """axe-core (shipped inside axe-playwright-python) on the page: serious and critical only."""
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    found = axe_module.Axe().run(page).response["violations"]
    return [(v["id"], v["nodes"][0]["html"]) for v in found if v["impact"] in ("serious", "critical")]


def shot(page: Any, shots: Path, name: str) -> None:
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite:///{tmp_path / 'e2e.db'}") as s:
        yield s


def new_page(browser: Any, **kwargs: Any) -> Any:
    context = browser.new_context(**kwargs)
    context.set_default_timeout(TURN_TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def start_game(page: Any, base: str, ruleset: str, kind: str, level: str = "random", lang: str = "en",
               starts: str = "first") -> None:
    page.goto(f"{base}/?lang={lang}")
    page.wait_for_selector(f'#ruleset option[value="{ruleset}"]', state="attached")
    page.select_option("#ruleset", ruleset)
    page.check(f'input[name="kind"][value="{kind}"]')
    if kind == "bot":
        page.select_option("#level", level)
    page.select_option("#seat", starts)
    page.click("#start")
    page.wait_for_selector("#table[data-ply]")


def wait_turn(page: Any) -> str:
    page.wait_for_selector('#table[data-turn="me"], #table[data-turn="over"]', timeout=TURN_TIMEOUT)
    turn: str = page.get_attribute("#table", "data-turn")
    return turn


def play_first_turns(pages: Sequence[Any]) -> Any:
    """Both players' first turns (two moves each, by clicking) on the pages of one game's
    seats; the page of the player who moved first (its clock runs next: first turns are free).
    The second player's page learns of its turn by WebSocket a moment after the first player's
    last move shows, so it is waited for, never read once."""
    deadline = time.monotonic() + TURN_TIMEOUT / 1000
    while True:
        starter = next((p for p in pages if p.get_attribute("#table", "data-turn") == "me"), None)
        if starter is not None:
            break
        if time.monotonic() > deadline:
            raise AssertionError("nobody's turn")
        time.sleep(0.05)
    for _ in range(2):
        click_one_move(starter)
    (second,) = [p for p in pages if p is not starter]
    assert wait_turn(second) == "me"
    for _ in range(2):
        click_one_move(second)
    return starter


def click_one_move(page: Any) -> None:
    """Make one move by clicking, as a person would: claim, else card then flag, else draw."""
    ply = page.get_attribute("#table", "data-ply")
    claim = page.locator(".claim-btn")
    if claim.count():
        claim.first.click()
    elif page.locator(".hand .card.selectable").count():
        page.locator(".hand .card.selectable").first.click()
        page.locator(".slot.selectable").first.click()
    elif page.locator(".deck.selectable").count():
        page.locator(".deck.selectable").first.click()
    else:
        page.locator("#controls button:not([disabled])").first.click()
    page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'", timeout=TURN_TIMEOUT)


def test_whole_game_against_a_bot_by_clicking(browser: Any, server: LiveServer, shots: Path) -> None:
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    start_game(page, server.base, "battleline-basic", "bot")
    moves = 0
    # The first move by keyboard alone: Tab to a playable card, Enter, Tab to a flag, Enter.
    assert wait_turn(page) == "me"
    assert page.locator(".deck.troop").count() == 1 and page.locator(".deck.tactics").count() == 0  # no tactics here
    ply = page.get_attribute("#table", "data-ply")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.hand .card.selectable')"):
            break
    page.keyboard.press("Enter")
    # Focus moves by itself to the next step's first choice: a flag to play to.
    page.wait_for_function("document.activeElement.matches('.slot.selectable')")
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'")
    while wait_turn(page) == "me":
        if moves == 10:
            shot(page, shots, "table-vs-bot-midgame")
            # each player's last card on the table is marked (the bot's and this player's)
            assert 1 <= page.locator(".flag-col .card.last-move").count() <= 2
            assert "(last move)" in (page.locator(".flag-col .card.last-move").first.get_attribute("aria-label") or "")
        click_one_move(page)
        moves += 1
        assert moves < 300
    status = page.inner_text("#status")
    assert "won" in status or "lost" in status or "Draw" in status
    # every log entry says who made it: "You" for this player's own actions
    assert page.locator("#log li").count() == page.locator("#log .who").count() > 0
    assert "You:" in page.inner_text("#log")
    shot(page, shots, "table-vs-bot-finished")
    # The finished game opens as a replay with its records.
    page.click("#replay-link")
    page.wait_for_selector("#step-label:not(:empty)")
    page.click("#last")
    page.wait_for_function("document.querySelector('#step').value === document.querySelector('#step').max")
    assert page.locator("#rec-txt").get_attribute("href").endswith("record.txt")
    page.wait_for_selector("#log .who")  # the replay's log is drawn after the step changes
    assert "You:" not in page.inner_text("#log")  # a replay names both sides
    # Both hands open: the opponent's open hand is a zone with its own label, apart from guile.
    assert page.locator(".zone.open-hand .zone-label").inner_text() == "open hand:"
    assert page.locator(".zone.open-hand .card").count() > 0
    assert page.locator("#perspective option").all_inner_texts()[1:] == ["Player 1", "Bot (Random)"]
    shot(page, shots, "replay-end")
    assert serious_violations(page) == []
    assert page.errors == []


@pytest.mark.parametrize(("ruleset", "starts"), [("battleline", "first"), ("battleline", "second"),
                                               ("warmachine", "first"), ("warmachine", "second")])
def test_who_moves_first_is_what_the_player_chose(browser: Any, server: LiveServer, ruleset: str, starts: str) -> None:
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    start_game(page, server.base, ruleset, "bot", level="easy", starts=starts)
    assert wait_turn(page) == "me"
    assert (page.get_attribute("#table", "data-ply") == "0") == (starts == "first")
    # The bot is named by its level in words, never by the level id nor "Second player".
    if ruleset == "battleline":
        assert "Bot (Easy)" in page.inner_text(".opp-bar")
    assert "easy" not in page.inner_text("#board") and "player" not in page.inner_text("#board")
    assert page.errors == []


@pytest.mark.parametrize("lang", ["fa", "ja", "cs"])
def test_rules_options_read_in_the_page_language(browser: Any, server: LiveServer, lang: str) -> None:
    from frontlines.web import i18n

    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/?lang={lang}")
    page.click("details.field-details summary")
    for ruleset, words in (("medieval", ["When flags may be claimed", "Battlefield cards", "Face up"]),
                           ("warmachine", ["Burned cards", "Best of three", "Yes"])):
        page.wait_for_selector(f'#ruleset option[value="{ruleset}"]', state="attached")
        page.select_option("#ruleset", ruleset)
        text = page.inner_text("#options")
        assert not re.search(r"[a-z]+_[a-z]+|\b(true|false)\b", text), text  # no identifiers
        for english in words:
            assert i18n.gettext(lang, english) in text and english not in text
    assert page.errors == []


def test_picking_another_card_switches_the_pick(browser: Any, server: LiveServer) -> None:
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    start_game(page, server.base, "battleline-basic", "bot", starts="first")
    assert wait_turn(page) == "me"
    cards = page.locator(".hand .card")
    cards.nth(0).click()
    assert cards.nth(0).get_attribute("aria-pressed") == "true"
    assert page.locator(".hand .card:not([disabled])").count() == cards.count() == 7  # the rest stay pickable
    cards.nth(1).click()
    assert cards.nth(1).get_attribute("aria-pressed") == "true" and cards.nth(0).get_attribute("aria-pressed") is None
    assert page.locator(".slot.selectable").count() > 0  # still one step from a play
    cards.nth(1).click()  # the picked card unpicks
    assert page.locator('.hand .card[aria-pressed="true"]').count() == 0
    assert page.errors == []


def test_a_lost_seat_is_invited_again_before_the_first_move(browser: Any, server: LiveServer) -> None:
    host = new_page(browser, viewport={"width": 1100, "height": 850})
    start_game(host, server.base, "battleline-basic", "friend")
    host.wait_for_selector("#invite:not([hidden])")
    first = new_page(browser)
    first.goto(host.input_value("#invite-link"))
    first.wait_for_selector("#table[data-ply]")
    lost = first.evaluate("new URLSearchParams(location.search).get('t')")
    first.context.close()  # the friend's browser, and its seat link, are gone
    used = host.input_value("#invite-link")  # still the first, already taken, invite
    host.click("#reinvite")
    host.wait_for_function("used => document.querySelector('#invite-link').value !== used", arg=used)
    assert "invite=" in host.input_value("#invite-link")
    again = new_page(browser)
    again.goto(host.input_value("#invite-link"))
    again.wait_for_selector(".hand .card")
    assert again.evaluate("new URLSearchParams(location.search).get('t')") != lost
    host.wait_for_selector("#invite", state="hidden")
    host.wait_for_selector("#reinvite-row", state="hidden")  # the friend is here now
    gid = host.get_attribute("#table", "data-game")
    stale = new_page(browser)
    stale.goto(f"{server.base}/g/{gid}?t={lost}")
    stale.wait_for_selector("#table[data-ply]")
    assert stale.locator(".hand .card").count() == 0  # the old seat link only watches
    # The creator gone too: the friend gets no button to invite "again" (it would take the
    # creator's seat away: only the creator invites again).
    host.context.close()
    again.wait_for_function("document.querySelector('.opp-bar').innerText.includes('offline')")
    assert again.locator("#reinvite-row").is_hidden()
    assert host.errors == [] and again.errors == []


def test_two_browsers_through_an_invite_link_and_reload(browser: Any, server: LiveServer, shots: Path) -> None:
    host = new_page(browser, viewport={"width": 1100, "height": 850})
    start_game(host, server.base, "battleline", "friend")
    host.wait_for_selector("#invite:not([hidden])")
    link = host.input_value("#invite-link")
    assert "?invite=" in link and "?t=" not in link
    guest = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    guest.goto(link)
    guest.wait_for_selector("#table[data-ply]")
    # The ticket is spent: the guest's page now holds a seat token of its own, which the
    # host never saw; the same link opened again only watches.
    guest_token = guest.evaluate("new URLSearchParams(location.search).get('t')")
    assert guest_token and "invite=" not in guest.url
    assert guest_token not in host.evaluate("JSON.stringify(localStorage)")
    late = new_page(browser)
    late.goto(link)
    late.wait_for_selector("#table[data-ply]")
    assert "used" in late.inner_text("#status") and late.locator(".hand .card").count() == 0
    late.context.close()
    guest.fill("#join-name", "Guest")
    guest.click("#join-save")
    host.wait_for_selector("#invite", state="hidden")
    host.wait_for_function("document.querySelector('#board').innerText.includes('Guest')")
    pages = [host, guest]
    for _ in range(6):  # three turns each: card, then draw
        mover = next(p for p in pages if p.get_attribute("#table", "data-turn") == "me") \
            if any(p.get_attribute("#table", "data-turn") == "me" for p in pages) else None
        if mover is None:
            host.wait_for_function("document.querySelector('#table').dataset.turn !== undefined")
            continue
        click_one_move(mover)
        for p in pages:  # both tables follow
            p.wait_for_function(f"document.querySelector('#table').dataset.ply === '{mover.get_attribute('#table', 'data-ply')}'")
    shot(guest, shots, "table-phone-guest")
    # The guest's page is usable on a phone: nothing wider than the screen.
    assert guest.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    ply = host.get_attribute("#table", "data-ply")
    guest.reload()
    guest.wait_for_selector(f'#table[data-ply="{ply}"]')
    assert guest.locator(".hand .card").count() >= 6  # the guest's own hand is back
    host.wait_for_function("!document.querySelector('#status').innerText.includes('reconnecting')")
    mover = host if host.get_attribute("#table", "data-turn") == "me" else guest
    click_one_move(mover)
    shot(host, shots, "table-friend-host")
    assert host.errors == [] and guest.errors == []


def test_persian_page_is_right_to_left(browser: Any, server: LiveServer, shots: Path) -> None:
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    start_game(page, server.base, "battleline", "bot", lang="fa")
    assert page.get_attribute("html", "dir") == "rtl" and page.get_attribute("html", "lang") == "fa"
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    wait_turn(page)
    first = page.locator('.flag-col[data-flag="1"]').bounding_box()
    ninth = page.locator('.flag-col[data-flag="9"]').bounding_box()
    assert first["x"] > ninth["x"]  # flag 1 on the right, as Persian reads
    assert "پرچم" in page.locator('.flag-col[data-flag="1"]').get_attribute("aria-label")
    shot(page, shots, "table-persian-rtl")
    assert page.errors == []


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_accessibility_scan(browser: Any, server: LiveServer, lang: str) -> None:
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/?lang={lang}")
    page.wait_for_selector("#ruleset option", state="attached")
    assert serious_violations(page) == []
    start_game(page, server.base, "battleline", "bot", lang=lang)
    wait_turn(page)
    page.locator(".hand .card.selectable").first.click()  # a card picked: flags offer slots
    assert serious_violations(page) == []
    labels = page.eval_on_selector_all(".hand .card", "els => els.map(e => e.getAttribute('aria-label'))")
    assert labels and all(labels)
    flags = page.eval_on_selector_all(".flag-col", "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(flags) == 9 and all(flags)


def _prefix_until(kind: str, ruleset: str = "battleline") -> tuple[int, list[tuple[int, str]]]:
    """A seed and the (seat, action) list that reach a position where ``kind`` is legal."""
    import random

    from frontlines.games import new_state

    for seed in range(500):
        state, rng, out = new_state(ruleset, seed=seed), random.Random(seed), []
        while not state.is_terminal():
            seat = state.current_player()
            assert seat is not None
            if any(e["kind"] == kind for e in state.view(seat).to_dict()["legal"]):
                return seed, out
            action = rng.choice(state.legal_actions())
            out.append((seat, state.action_to_text(action)))
            state.apply(action)
    raise AssertionError(f"no position with {kind}")


def _game_at(server: LiveServer, kind: str) -> tuple[str, str]:
    """A pass-and-play game (a seed is refused where another person's cards are at stake),
    played up to a position where the mover can play ``kind``; (game id, mover token)."""
    import httpx2 as httpx

    seed, prefix = _prefix_until(kind)
    g = httpx.post(f"{server.base}/api/games", json={"ruleset": "battleline", "opponent": "hotseat", "seed": seed}, timeout=HTTP_TIMEOUT).json()
    tokens = [g["token"], g["token"]]
    for seat, text in prefix:
        r = httpx.post(f"{server.base}/api/games/{g['id']}/action", json={"t": tokens[seat], "text": text}, timeout=HTTP_TIMEOUT)
        assert r.status_code == 200, r.text
    mover = httpx.get(f"{server.base}/api/games/{g['id']}", params={"t": tokens[0]}, timeout=HTTP_TIMEOUT).json()["view"]["to_move"]
    return g["id"], tokens[mover]


def _click_and_wait(page: Any, selector: str) -> None:
    ply = page.get_attribute("#table", "data-ply")
    page.locator(selector).first.click()
    page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'", timeout=TURN_TIMEOUT)


@pytest.mark.parametrize("kind", ["redeploy", "traitor", "deserter", "scout", "environment"])
def test_tactics_cards_step_by_step(browser: Any, server: LiveServer, kind: str, shots: Path) -> None:
    gid, token = _game_at(server, kind)
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/g/{gid}?t={token}")
    assert wait_turn(page) == "me"
    assert page.locator(".deck.tactics").count() == 1
    card = {"redeploy": "RE", "traitor": "TR", "deserter": "DE", "scout": "SC"}.get(kind)
    if card:  # a tactics card reads as a card: its name on its face and in its label, its rule on hover and on focus
        name = {"RE": "Redeploy", "TR": "Traitor", "DE": "Deserter", "SC": "Scout"}[card]
        in_hand = page.locator(f'.hand [data-tok="hand:{card}"]')
        assert in_hand.get_attribute("aria-label") == name and name in (in_hand.locator("svg").text_content() or "")
        page.hover(f'.hand [data-tok="hand:{card}"]')
        assert page.locator("#card-tip").is_visible() and page.inner_text("#card-tip").startswith(f"{name}: ")
        page.mouse.move(0, 0)
        assert page.locator("#card-tip").is_hidden()
        in_hand.focus()
        assert page.locator("#card-tip").is_visible() and in_hand.get_attribute("aria-describedby") == "card-tip"
    if kind == "environment":
        page.locator('.hand [data-tok="hand:FO"]:not([disabled]), .hand [data-tok="hand:MU"]:not([disabled])').first.click()
        _click_and_wait(page, ".slot.selectable")
        assert page.locator(".mark.fog, .mark.mud").count() >= 1
    elif kind == "scout":
        _click_and_wait(page, '.hand [data-tok="hand:SC"]')
        assert "Scout" in page.inner_text("#status")
        while page.locator(".deck.selectable").count():  # up to three draws, one at a time
            _click_and_wait(page, ".deck.selectable")
        while "put back" in page.inner_text("#status"):  # then return cards one at a time
            _click_and_wait(page, ".hand .card.selectable")
        # The turn is over: pass-and-play hands the device over, so read the returns from the game.
        assert any(a.startswith("return:") for a in server.app.state.manager.games[gid].stored.actions)
    else:
        page.locator(f'.hand [data-tok="hand:{card}"]').click()
        prompt = page.inner_text("#status")
        assert {"redeploy": "Redeploy", "traitor": "Traitor", "deserter": "Deserter"}[kind] in prompt
        table_card = page.locator('.flag-col button[data-tok^="table:"]').first
        label = table_card.get_attribute("aria-label")
        assert label
        if kind == "deserter":
            _click_and_wait(page, '.flag-col button[data-tok^="table:"]')
        else:
            table_card.click()
            target = ".slot.selectable" if kind == "traitor" or not page.locator('[data-tok="btn:discard"]').count() \
                else '[data-tok="btn:discard"]'
            _click_and_wait(page, target)
        assert f"{card}:" in page.inner_text("#log")
    shot(page, shots, f"tactics-{kind}")
    assert page.errors == []


def test_war_machine_against_a_bot_by_clicking(browser: Any, server: LiveServer, shots: Path) -> None:
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    start_game(page, server.base, "warmachine", "bot")
    moves = 0
    while wait_turn(page) == "me":
        ply = page.get_attribute("#table", "data-ply")
        if page.locator('[data-tok^="pile:"]').count():
            page.locator('[data-tok^="pile:"]').first.click()
        elif page.locator(".wm-card.selectable").count():
            page.locator(".wm-card.selectable").first.click()
            deploy = page.locator('[data-tok^="deploy:"]')
            (deploy.first if deploy.count() else page.locator('[data-tok="btn:burn"]')).click()
        else:
            page.locator("#controls button:not([disabled])").first.click()
        page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'", timeout=TURN_TIMEOUT)
        moves += 1
        if moves == 6:
            shot(page, shots, "warmachine-midgame")
        assert moves < 200
    assert page.locator("#status").inner_text()
    shot(page, shots, "warmachine-finished")
    assert page.errors == []


def hands_of(server: LiveServer, game_id: str) -> list[list[str]]:
    """Both hands of a live game, read from the server's own state."""
    state = server.app.state.manager.games[game_id].state
    return [list(state.view(seat).to_dict()["hands"][seat]) for seat in (0, 1)]


def handover_shows_no_hand(page: Any, server: LiveServer) -> None:
    """Everything the handover page holds (text, markup, attributes) against both hands: no
    card of either, no hand size, no tracker marks, no log, no moves."""
    game_id = page.get_attribute("#table", "data-game")
    hands = hands_of(server, game_id)
    assert all(hands)
    # The game id and seat token (in links and the address) are random letters that may
    # spell a card code ("-P7iv…"): they are no card, so they are left out of the search.
    token = re.search(r"[?&]t=([^&]+)", page.url)
    html = page.content().replace(game_id, "").replace(token.group(1) if token else game_id, "")
    text = page.inner_text("body")
    names = page.evaluate("""async (codes) => {
        const m = await import("/static/common.js");
        return codes.map((c) => m.cardName(c, "battleline-basic"));
    }""", [c for hand in hands for c in hand])
    for code in (c for hand in hands for c in hand):
        assert re.search(rf"(?<![A-Za-z0-9]){code}(?![0-9])", html) is None, code
    for name in names:
        assert name not in text and name not in html, name
    for mark in ("●", "○"):
        assert mark not in html
    assert page.locator(".card").count() == 0 and page.locator("#log li").count() == 0
    assert page.locator("#moves *").count() == 0
    assert not re.search(r"\d+ cards?", text)
    # the status line names who moves next, and says nothing else (issue 30 item 18)
    assert re.fullmatch(r"Player [12] to move\.", page.inner_text("#status").strip())


def test_pass_and_play_hides_the_hand_between_turns(browser: Any, server: LiveServer) -> None:
    page = new_page(browser, viewport={"width": 1024, "height": 800})
    start_game(page, server.base, "battleline-basic", "hotseat")
    first_mover = None
    handovers = 0
    for _ in range(5):
        if page.locator("#handover:not([hidden])").count():
            assert page.locator("#board").is_hidden()  # the other player's hand stays covered
            handover_shows_no_hand(page, server)
            handovers += 1
            page.click("#handover-ok")
            continue
        assert wait_turn(page) == "me"
        first_mover = first_mover or page.inner_text("#status")
        page.locator("#tracker td").first.wait_for()  # the tracker is drawn for the mover
        click_one_move(page)  # the card
        click_one_move(page)  # the draw: now the other player is to move
    page.wait_for_selector("#handover:not([hidden])")
    assert handovers >= 2 and "Pass the device" in page.inner_text("#handover")
    handover_shows_no_hand(page, server)
    # Home remembers the game; watchers see it live with no hand at all.
    home = page.context.new_page()  # same browser profile: same localStorage
    home.goto(server.base + "/")
    home.wait_for_selector("#my-games li a")
    watch = home.locator('#live-games a:has-text("Watch")').first.get_attribute("href")
    spectator = new_page(browser)
    spectator.goto(server.base + watch)
    spectator.wait_for_selector("#table[data-ply]")
    assert spectator.locator(".hand").count() == 0 and spectator.locator("#resign").is_hidden()
    assert "to move" in spectator.inner_text("#status")


def test_server_restart_mid_game_page_reconnects(browser: Any, tmp_path: Path) -> None:
    """Stop the server under an open table, start a new one on the same database: the page
    reconnects by itself and the game goes on from the same position."""
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    first = LiveServer(url).__enter__()
    port = first.port
    page = new_page(browser, viewport={"width": 1100, "height": 850})
    try:
        start_game(page, first.base, "battleline-basic", "bot")
        for _ in range(2):
            wait_turn(page)
            click_one_move(page)
        wait_turn(page)
        ply = page.get_attribute("#table", "data-ply")
    finally:
        first.__exit__(None, None, None)
    page.wait_for_function("document.querySelector('#status').innerText.includes('reconnecting')")
    with LiveServer(url, port=port):
        page.wait_for_function("!document.querySelector('#status').innerText.includes('reconnecting')", timeout=TURN_TIMEOUT)
        assert page.get_attribute("#table", "data-ply") == ply
        assert wait_turn(page) == "me"
        click_one_move(page)
        assert int(page.get_attribute("#table", "data-ply")) > int(ply)
    assert page.errors == []


@pytest.mark.parametrize(("lang", "flag_word", "formation"), [("ja", "フラッグ", "くさび形"), ("cs", "Vlajka", "Klín")])
def test_japanese_and_czech_tables(browser: Any, server: LiveServer, lang: str, flag_word: str, formation: str, shots: Path) -> None:
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    start_game(page, server.base, "battleline", "bot", lang=lang)
    wait_turn(page)
    assert page.get_attribute("html", "lang") == lang
    assert flag_word in page.locator('.flag-col[data-flag="1"]').get_attribute("aria-label")
    catalog = page.evaluate(f"fetch('/i18n/{lang}.json').then(r => r.json())")
    assert catalog["Wedge"] == formation
    shot(page, shots, f"table-{lang}")
    assert page.errors == []


def test_a_full_game_says_so_in_words(browser: Any, tmp_path: Path) -> None:
    """A cap of the server (here: spectators per game) is shown in the page's language."""
    import httpx2 as httpx

    from frontlines.web.fanout import Limits

    with LiveServer(f"sqlite:///{tmp_path / 'caps.db'}", limits=Limits(spectators_per_game=1)) as s:
        gid = httpx.post(f"{s.base}/api/games", json={"ruleset": "battleline-basic", "opponent": "friend"}, timeout=HTTP_TIMEOUT).json()["id"]
        first = new_page(browser)
        first.goto(f"{s.base}/g/{gid}")
        first.wait_for_selector("#table[data-ply]")
        second = new_page(browser)
        second.goto(f"{s.base}/g/{gid}?lang=cs")
        second.wait_for_function("document.querySelector('#status').innerText.includes('diváků')", timeout=TURN_TIMEOUT)
        assert "Tuto hru už sleduje tolik diváků" in second.inner_text("#status")
        assert first.errors == [] and second.errors == []


def _full_table(server: LiveServer, ruleset: str, plies: int, seed: int, clock: str = "") -> tuple[str, str]:
    """A pass-and-play game (with ``clock``) after at least ``plies`` seeded random moves without
    a claim (so the flags fill up), at a position where the mover puts a card down; (game id,
    token)."""
    import random

    import httpx2 as httpx

    from frontlines.games import new_state

    state, rng, texts = new_state(ruleset, seed=seed), random.Random(seed), []
    while True:
        seat = state.current_player()
        assert seat is not None, "the game ended before the table filled up"
        legal = state.view(seat).to_dict()["legal"]
        if len(texts) >= plies and any(e["kind"] in ("play", "deploy") for e in legal):
            break
        entry = rng.choice([e for e in legal if e["kind"] != "claim"] or legal)
        texts.append(entry["text"])
        state.apply(state.parse_action(entry["text"]))
    g = httpx.post(f"{server.base}/api/games", json={"ruleset": ruleset, "opponent": "hotseat", "seed": seed, "clock": clock},
                   timeout=HTTP_TIMEOUT).json()
    for text in texts:
        r = httpx.post(f"{server.base}/api/games/{g['id']}/action", json={"t": g["token"], "text": text}, timeout=HTTP_TIMEOUT)
        assert r.status_code == 200, r.text
    return g["id"], g["token"]


OUTSIDE_VIEWPORT = """(selector) => [...document.querySelectorAll(selector)].map((e) => {
    const r = e.getBoundingClientRect();
    return [e.className, r.left, r.top, r.right, r.bottom];
}).filter(([, l, t, r, b]) => l < 0 || t < 0 || r > innerWidth || b > innerHeight)"""


def _pick_for_a_move(page: Any) -> None:
    """Pick a card of the hand that goes to the table (a troop; in War Machine any card)."""
    if page.locator(".wm-card").count():
        page.locator(".wm-card.selectable").first.tap()
        page.wait_for_selector('[data-tok="btn:burn"]')
    else:
        page.locator(".hand .card.selectable:not(.named)").first.tap()
        page.wait_for_selector(".slot.selectable")


@pytest.mark.parametrize(("ruleset", "lang", "flags", "plies"), [
    ("battleline", "en", 9, 36), ("battleline", "fa", 9, 36), ("schotten-totten", "ja", 9, 36),
    ("medieval", "cs", 9, 36), ("warmachine", "en", 6, 14), ("warmachine", "fa", 6, 14),
])
def test_the_phone_table_fits_one_screen(browser: Any, server: LiveServer, ruleset: str, lang: str, flags: int,
                                         plies: int) -> None:
    """At 390×844 every flag (War Machine: every position), both sides, both clocks and the
    hand are on screen without scrolling, before and after a card is picked (the table then
    offers where it may go)."""
    gid, token = _full_table(server, ruleset, plies, 7, clock="300+3")
    page = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(f"{server.base}/g/{gid}?t={token}&lang={lang}")
    assert wait_turn(page) == "me"
    for picked in (False, True):
        if picked:
            _pick_for_a_move(page)
        assert page.locator(".flag-col, .wm-pos").count() == flags
        assert page.locator(".hand .card, .hand .wm-card").count() >= (5 if flags == 9 else 1)
        assert page.locator(".flag-col .card, .wm-pos .wm-u").count() >= (12 if flags == 9 else 4)  # a table with cards on it
        assert page.locator(".player-bar .clock").count() == 2
        table = ".flag-col, .flag-col .card, .slot, .wm-pos, .wm-u, .wm-deploy, .hand, .hand .card, .wm-card, .player-bar, .clock"
        assert page.evaluate(OUTSIDE_VIEWPORT, table) == []
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert page.errors == []


def test_war_machine_table_and_tracker(browser: Any, server: LiveServer) -> None:
    """War Machine's own table: six positions with both sides' strengths, each open one with a
    margin and who would win it now; the tracker's unseen cards are exactly the support piles,
    the opponent's hand and the face-down burns."""
    gid, token = _full_table(server, "warmachine", 16, 3)
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/g/{gid}?t={token}")
    assert wait_turn(page) == "me"
    state = server.app.state.manager.games[gid].state
    seat = state.current_player()
    v = state.view(seat).to_dict()
    board = page.inner_text("#board")
    assert "= 0" not in board and "No tracker" not in page.inner_text("#tracker")
    for c in v["front"]:
        pos = page.locator(f'.wm-pos[data-pos="{c["index"]}"]')
        mine, theirs = c["strengths"][seat], c["strengths"][1 - seat]
        if c["status"] == "open" and mine != theirs:
            assert "proj-me" in (pos.get_attribute("class") or "") if mine > theirs else "proj-opp" in (pos.get_attribute("class") or "")
            margin = pos.locator(".wm-margin").inner_text()
            assert margin == (f"+{mine - theirs}" if mine > theirs else f"−{theirs - mine}")
        assert c["name"] in pos.get_attribute("aria-label")
    hidden = v["support"] + v["hand_sizes"][1 - seat] + v["burned_cards"].count("?") + v["leftover"].count("?")
    assert page.locator("#tracker td.unseen").count() == hidden
    assert page.locator("#tracker td.seen").count() == 30 - hidden
    assert f"Not seen: {hidden} cards" in page.inner_text("#tracker")
    assert page.errors == []


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_war_machine_tracker_knows_the_leftover_cards_the_chooser_looked_at(browser: Any, server: LiveServer,
                                                                           lang: str, shots: Path) -> None:
    """A seen choice: the chooser looked at the three leftover cards, took one and gave the
    opponent two. Its tracker marks those two as seen (the view's leftover_seen, which the
    shuffler's view leaves empty) and says the opponent's hand holds them."""
    import httpx2 as httpx

    from frontlines.web.i18n import ngettext

    options = {"leftover_choice_blind": "false", "shuffler": "1"}  # seat 0 chooses
    g = httpx.post(f"{server.base}/api/games", json={"ruleset": "warmachine", "opponent": "hotseat", "seed": 5,
                                                     "options": options}).json()
    state = server.app.state.manager.games[g["id"]].state
    left = state.view(0).to_dict()["leftover"]
    r = httpx.post(f"{server.base}/api/games/{g['id']}/action", json={"t": g["token"], "text": f"take1:{left[0]}"})
    assert r.status_code == 200, r.text
    given = left[1:]  # the shuffler's two cards
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/g/{g['id']}?t={g['token']}&lang={lang}")
    assert wait_turn(page) == "me"
    v = server.app.state.manager.games[g["id"]].state.view(0).to_dict()
    assert v["leftover_seen"] == sorted(left) and v["hands"][1] is None
    assert [page.get_attribute(f'#tracker td[data-code="{c}"]', "class") for c in given] == ["seen", "seen"]
    assert state.view(1).to_dict()["leftover_seen"] == []  # the shuffler saw none of them
    hidden = v["support"] + v["hand_sizes"][1] + v["burned_cards"].count("?")
    assert page.locator("#tracker td.unseen").count() == hidden - 2
    assert page.locator("#tracker td.seen").count() == 30 - hidden + 2
    said = ngettext(lang, "Not seen: {n} card (support piles {piles}, opponent's hand {hand}, face down {down}, "
                          "less {known} you saw among the leftover cards).",
                    "Not seen: {n} cards (support piles {piles}, opponent's hand {hand}, face down {down}, "
                    "less {known} you saw among the leftover cards).", hidden - 2)
    for key, value in {"n": hidden - 2, "piles": v["support"], "hand": 2, "down": 0, "known": 2}.items():
        said = said.replace(f"{{{key}}}", str(value))
    assert said in page.inner_text("#tracker")
    page.screenshot(path=str(shots / f"warmachine-tracker-seen-choice-{lang}.png"))
    assert page.errors == []


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_moves_and_claims_animate_unless_reduced_motion(browser: Any, server: LiveServer, motion: str) -> None:
    """A card played glides to its flag and a claim pulses (~¼ s); with the system's reduced
    motion asked for, nothing animates at all (no Web Animation, no CSS transition)."""
    gid, token = _game_at(server, "claim")
    page = new_page(browser, viewport={"width": 1280, "height": 900}, reduced_motion=motion)
    page.goto(f"{server.base}/g/{gid}?t={token}")
    assert wait_turn(page) == "me"
    started = "Number(document.querySelector('#table').dataset.animations || 0)"
    running = "document.getAnimations().length"
    _click_and_wait(page, ".claim-btn")
    claims = page.evaluate(started)
    assert wait_turn(page) == "me"
    page.locator(".hand .card.selectable:not(.named)").first.click()
    picked = page.evaluate(running)  # the picked card lifts
    _click_and_wait(page, ".slot.selectable")
    moved = page.evaluate(f"[{started}, {running}]")
    if motion == "reduce":
        assert claims == 0 and picked == 0 and moved == [0, 0]
        assert page.evaluate("getComputedStyle(document.querySelector('.card')).transitionDuration") == "0s"
    else:
        assert claims >= 1 and moved[0] >= claims + 1
        assert page.evaluate("getComputedStyle(document.querySelector('.card')).transitionDuration") == "0.12s"
    assert page.errors == []
