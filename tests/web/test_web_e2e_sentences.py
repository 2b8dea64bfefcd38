"""End-to-end tests, in Debian's Chromium, of the sentences players read (issue 30): what the
opponent did on its last turn, proof notes while the game lasts, a counter-example made of cards
in one's own hand, names isolated in Persian, the home page's lists, Persian digits everywhere,
plural forms, Czech cases, card faces in each language and the phone's claim button. The
catalogs' side of the same words is in test_web_words.py and test_web_i18n.py."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from test_web_e2e import HTTP_TIMEOUT, OUTSIDE_VIEWPORT, _game_at, browser, new_page, wait_turn  # noqa: F401
from webhelpers import LiveServer

from frontlines.web.i18n import gettext, ngettext, number, pgettext

pytestmark = [pytest.mark.e2e]

LANGS = ["en", "fa", "ja", "cs"]
ISOLATES = re.compile("[\u2066-\u2069]")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the module: each test makes games of its own."""
    with LiveServer(f"sqlite:///{tmp_path_factory.mktemp('sentences') / 'e2e.db'}") as s:
        yield s


def _walk(ruleset: str, seed: int, until: Callable[[Any, list[str]], bool], options: dict[str, str] | None = None,
          limit: int = 400, claims: bool = False) -> list[str]:
    """Seeded random moves (claims only when nothing else is legal, unless ``claims``) from
    ``ruleset``'s deal ``seed`` until ``until(state, texts)``; the moves' texts (AssertionError
    if it never holds)."""
    from frontlines.games import new_state

    state, rng, texts = new_state(ruleset, seed=seed, options=options or {}), random.Random(seed), []
    while not until(state, texts):
        assert not state.is_terminal() and len(texts) < limit, "no such position in this deal"
        seat = state.current_player()
        legal = state.view(seat).to_dict()["legal"]
        entry = rng.choice(legal if claims else [e for e in legal if e["kind"] != "claim"] or legal)
        texts.append(entry["text"])
        state.apply(state.parse_action(entry["text"]))
    return texts


def _hotseat(server: LiveServer, ruleset: str, seed: int, texts: list[str], names: tuple[str, str] = ("", ""),
             options: dict[str, str] | None = None) -> tuple[str, str]:
    """A pass-and-play game on deal ``seed`` after ``texts``; (game id, token)."""
    import httpx2 as httpx

    g = httpx.post(f"{server.base}/api/games", json={"ruleset": ruleset, "opponent": "hotseat", "seed": seed, "seat": "0",
                                                     "name": names[0], "other_name": names[1], "options": options or {}},
                   timeout=HTTP_TIMEOUT).json()
    for text in texts:
        r = httpx.post(f"{server.base}/api/games/{g['id']}/action", json={"t": g["token"], "text": text}, timeout=HTTP_TIMEOUT)
        assert r.status_code == 200, r.text
    return g["id"], g["token"]


def _resign(server: LiveServer, gid: str, token: str) -> None:
    import httpx2 as httpx

    r = httpx.post(f"{server.base}/api/games/{gid}/action", json={"t": token, "type": "resign"}, timeout=HTTP_TIMEOUT)
    assert r.status_code == 200, r.text


def _move_until_their_turn(page: Any) -> None:
    """Make this player's moves (any that is not a claim, from the list of all moves) until the
    other player is to move, then wait for this player's turn again. A fast bot may answer
    before the page is read again: a ply that moved by more than this player's one move means
    its turn came and went, so this player's turn is over too (without this check the loop
    went on playing for both turns and never saw a bot's turn on its own)."""
    while page.get_attribute("#table", "data-turn") == "me":
        ply = page.get_attribute("#table", "data-ply")
        page.evaluate("""() => { const all = [...document.querySelectorAll('#moves button[data-text]')];
            (all.find((b) => !b.dataset.text.startsWith('claim')) || all[0]).click(); }""")
        page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'")
        if int(page.get_attribute("#table", "data-ply") or 0) > int(ply or 0) + 1:
            break
    wait_turn(page)


# --- item 6: what the opponent did on its last turn ---------------------------------------

@pytest.mark.parametrize(("ruleset", "lang"), [("battleline-basic", "en"), ("battleline", "fa"),
                                               ("schotten-totten", "cs"), ("warmachine", "ja"), ("medieval", "en")])
def test_the_status_says_what_the_bot_did_on_its_turn(browser: Any, server: LiveServer, ruleset: str, lang: str) -> None:  # noqa: F811
    """After a bot's turn the status says every move of that turn, in the log's words: the card
    it played and where (Schotten Totten: at which stone; War Machine: which country to which
    position), then its draw (clan cards, piles), not the draw alone."""
    import httpx2 as httpx

    g = httpx.post(f"{server.base}/api/games", json={"ruleset": ruleset, "opponent": "bot:random", "seat": "0", "seed": 4},
                   timeout=HTTP_TIMEOUT).json()
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/g/{g['id']}?t={g['token']}&lang={lang}")
    assert wait_turn(page) == "me"
    plays = 0
    for _ in range(8):  # the bot's turns, until two of them put a card down (one may burn one instead)
        if plays >= 2:
            break
        _move_until_their_turn(page)
        if wait_turn(page) == "over":
            break
        log = server.app.state.manager.games[g["id"]].state.view(0).to_dict()["log_records"]
        turn = []
        while log and log[-1]["seat"] == 1:
            turn.insert(0, log.pop())
        assert turn
        status = ISOLATES.sub("", page.inner_text("#status"))
        # each record of the turn, as the log words it (the log's last entries, without who and notation)
        said = page.evaluate(f"""() => [...document.querySelectorAll('#log li')].slice(-{len(turn)}).map((li) => {{
            const c = li.cloneNode(true); c.querySelectorAll('.who, code').forEach((e) => e.remove());
            return c.textContent.trim(); }})""")
        assert said and all(ISOLATES.sub("", s) in status for s in said), (said, status)
        played = next((e for e in turn if e["kind"] in ("play", "deploy") and e.get("card") != "?"), None)
        if played is not None and played["kind"] == "play" and re.fullmatch(r"[ROYGBP]\d+", played["card"]):
            colour = ["red", "orange", "yellow", "green", "blue", "purple"]["ROYGBP".index(played["card"][0])]
            assert gettext(lang, colour) in status and number(lang, int(played["card"][1:])) in status
            assert number(lang, played["flag"]) in status
            plays += 1
        elif played is not None and played["kind"] == "deploy":
            country = {"USA": "USA", "GER": "Germany", "JPN": "Japan", "ITA": "Italy", "URS": "USSR", "GBR": "Britain"}
            assert gettext(lang, country[played["colour"]]) in status and number(lang, played["position"]) in status
            plays += 1
        assert len(said) >= 2 or ruleset == "warmachine", turn  # a card and a draw, at least
    assert plays >= 1
    assert page.errors == []


@pytest.mark.parametrize(("ruleset", "lang"), [("battleline", "cs"), ("warmachine", "fa")])
def test_a_spectator_reads_the_last_turn_too(browser: Any, server: LiveServer, ruleset: str, lang: str) -> None:  # noqa: F811
    """A watcher's status says what the player who just moved did on that turn (in the log's
    words), then who moves, as a player's does; not only "Bob to move."."""
    texts = _walk(ruleset, 5, lambda s, t: len(t) >= 9 and s.current_player() is not None
                  and s.current_player() != s.view(0).to_dict()["log_records"][-1]["seat"])
    gid, _token = _hotseat(server, ruleset, 5, texts, names=("Ann", "Bob"))
    page = new_page(browser, viewport={"width": 390, "height": 844})
    page.goto(f"{server.base}/g/{gid}?lang={lang}")
    page.wait_for_selector("#log li")
    log = server.app.state.manager.games[gid].state.view(None).to_dict()["log_records"]
    mover = log[-1]["seat"]
    turn = [e for e in log[-4:] if e["seat"] == mover]
    status = ISOLATES.sub("", page.inner_text("#status"))
    said = page.evaluate(f"""() => [...document.querySelectorAll('#log li')].slice(-{len(turn)}).map((li) => {{
        const c = li.cloneNode(true); c.querySelectorAll('.who, code').forEach((e) => e.remove());
        return c.textContent.trim(); }})""")
    head = gettext(lang, "Last turn — {name}: {moves}.").split("{name}")[0]
    assert status.startswith(head + ("Ann", "Bob")[mover]), status
    assert all(ISOLATES.sub("", w) in status for w in said), (said, status)
    assert gettext(lang, "{name} to move.").replace("{name}", ("Ann", "Bob")[1 - mover]) in status
    assert page.errors == []


# --- items 7 and 8: proof notes ---------------------------------------------------------

def _counter_in_hand(state: Any, texts: list[str]) -> bool:
    """A position where the mover's counter-example at some flag names a card of the mover's hand."""
    seat = state.current_player()
    if seat is None or len(texts) < 16:
        return False
    v = state.view(seat).to_dict()
    hand = v["hands"][seat]
    return any(isinstance((f.get("claim") or {}).get("counterexample"), list)
               and set(f["claim"]["counterexample"]) & set(hand) for f in v["flags"])


@pytest.mark.parametrize("lang", LANGS)
def test_a_counter_example_from_my_own_hand_says_proofs_use_table_cards(browser: Any, server: LiveServer,  # noqa: F811
                                                                        lang: str) -> None:
    """A counter-example that names cards this player holds says that a proof counts only the
    cards on the table (docs/rules.md §2.12): the hand counts as unseen. Under the hand on a
    phone, and at the flag on a desktop."""
    from frontlines.games import new_state

    seed = 2
    texts = _walk("battleline-basic", seed, _counter_in_hand)
    state = new_state("battleline-basic", seed=seed)
    for text in texts:
        state.apply(state.parse_action(text))
    seat = state.current_player()
    v = state.view(seat).to_dict()
    held = [c for f in v["flags"] if isinstance((f.get("claim") or {}).get("counterexample"), list)
            for c in f["claim"]["counterexample"] if c in v["hands"][seat]]
    gid, token = _hotseat(server, "battleline-basic", seed, texts)
    words = ngettext(lang, "Proofs use only the cards on the table: {cards} in your hand counts as unseen.",
                     "Proofs use only the cards on the table: {cards} in your hand count as unseen.", len(held))
    for width, where in ((390, ".claim-notes .hand-note"), (1280, ".flag-col .hand-note")):
        page = new_page(browser, viewport={"width": width, "height": 844})
        page.goto(f"{server.base}/g/{gid}?t={token}&lang={lang}")
        assert wait_turn(page) == "me"
        notes = page.locator(where)
        assert notes.count() >= 1 and notes.first.is_visible()
        text = " ".join(notes.all_inner_texts())
        for part in words.split("{cards}"):
            assert part.strip() in text, (part, text)
        card = held[0]
        colour = ["red", "orange", "yellow", "green", "blue", "purple"]["ROYGBP".index(card[0])]
        assert gettext(lang, colour) in text and number(lang, int(card[1:])) in text
        assert page.errors == []
        page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_proof_reason_is_a_sentence_of_its_own(browser: Any, server: LiveServer, lang: str) -> None:  # noqa: F811
    """A counter-example's reason stands between sentences in the "not provable yet" note: it
    starts with a capital (where the script has them) and ends with the language's full stop,
    so the note under it never reads "... (25 > 17) Proofs use ..."."""
    texts = _walk("battleline-basic", 2, _counter_in_hand)
    gid, token = _hotseat(server, "battleline-basic", 2, texts)
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/g/{gid}?t={token}&lang={lang}")
    assert wait_turn(page) == "me"
    notes = page.evaluate("""() => [...document.querySelectorAll('.flag-col .counter')].filter((p) => p.querySelector('.reason'))
        .map((p) => [p.querySelector('.reason').textContent, p.textContent])""")
    assert notes
    stop = "。" if lang == "ja" else "."
    for reason, whole in notes:
        assert reason.endswith(stop), reason
        if lang in ("en", "cs"):
            assert reason[0] == reason[0].upper(), reason
        after = whole[whole.index(reason) + len(reason):]
        assert not after or after.startswith("" if lang == "ja" else " "), whole
    assert page.errors == []


def _played_out_against_a_bot(server: LiveServer, seed: int) -> tuple[str, str, dict[str, Any]]:
    """A Battle Line game against the random bot, this seat's moves seeded random ones (claims
    too), played to its end by the rules; (game id, token, this seat's last view)."""
    import time

    import httpx2 as httpx

    g = httpx.post(f"{server.base}/api/games", json={"ruleset": "battleline", "opponent": "bot:random", "seat": "0",
                                                     "seed": seed}, timeout=HTTP_TIMEOUT).json()
    rng = random.Random(seed)
    while True:
        m = httpx.get(f"{server.base}/api/games/{g['id']}", params={"t": g["token"]}, timeout=HTTP_TIMEOUT).json()
        v = m["view"]
        if v["to_move"] is None:
            return g["id"], g["token"], v
        if v["to_move"] != v["viewer"] or not v["legal"]:
            time.sleep(0.02)
            continue
        e = rng.choice(v["legal"])
        httpx.post(f"{server.base}/api/games/{g['id']}/action", json={"t": g["token"], "text": e["text"], "ply": m["ply"]},
                   timeout=HTTP_TIMEOUT)


def test_no_proof_notes_once_the_game_is_over(browser: Any, server: LiveServer) -> None:  # noqa: F811
    """"Not provable yet" and proof notes are for claims to come: once the game is over (here by
    the rules, with flags still open that the view gives claim data for) they go, from the flags
    and from under the hand (the phone)."""
    for seed in range(20):
        gid, token, v = _played_out_against_a_bot(server, seed)
        if [f for f in v["flags"] if f.get("claim") and not f["claim"]["claimable"]]:
            break
    else:
        raise AssertionError("no game ended with a flag its player could not prove")
    notes = ".claim-notes li, .flag-col .counter, .flag-col .proof"
    for width in (390, 1280):
        page = new_page(browser, viewport={"width": width, "height": 844}, is_mobile=width < 700, has_touch=width < 700)
        page.goto(f"{server.base}/g/{gid}?t={token}")
        assert wait_turn(page) == "over"
        page.wait_for_selector(".flag-col")
        assert page.locator(notes).count() == 0
        assert page.errors == []
        page.context.close()


# --- item 9: names isolated from the sentence around them --------------------------------

def test_a_latin_name_in_persian_keeps_the_numbers_where_the_sentence_puts_them(browser: Any,  # noqa: F811
                                                                              server: LiveServer) -> None:
    """Persian log, status and bars: a Latin-script name is isolated (U+2068..U+2069), so the
    card's value after "Bob:" stays on the Persian side of the name (to its left), not glued to
    the Latin name on its right."""
    texts = _walk("battleline-basic", 3, lambda s, t: len(t) >= 4)
    gid, token = _hotseat(server, "battleline-basic", 3, texts, names=("Ann", "Bob"))
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/g/{gid}?t={token}&lang=fa")
    assert wait_turn(page) == "me"
    # Bob's card play in the log: where the name is, and where the card's value is
    found = page.evaluate("""() => {
        const li = [...document.querySelectorAll('#log li')].find((e) => e.querySelector('.who')
            && e.querySelector('.who').textContent.includes('Bob') && /[۰-۹]/.test(e.textContent));
        const text = (el, re) => { const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let n = walk.nextNode(); n; n = walk.nextNode()) { const i = n.data.search(re);
                if (i >= 0) { const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1); return r.getBoundingClientRect(); } } };
        const name = text(li.querySelector('.who'), /B/), digit = text(li, /[۰-۹]/);
        return { name: [name.left, name.right], digit: [digit.left, digit.right], who: li.querySelector('.who').textContent };
    }""")
    assert found["who"].startswith("\u2068Bob\u2069"), found
    assert found["digit"][1] <= found["name"][0], found  # the value left of the name, as Persian reads
    assert "\u2068Ann\u2069" in page.inner_text("#status") and "\u2068Bob\u2069" in page.inner_text("#status")
    assert "\u2068Bob\u2069" in page.inner_text(".opp-bar")
    assert page.errors == []


# --- item 10: the home page's lists ---------------------------------------------------------

def test_home_lists_name_both_players_and_the_result_in_words(browser: Any, server: LiveServer) -> None:  # noqa: F811
    """My games and the finished games list both players, a bot by its level in words (never
    the level's id), a person left unnamed as "You" in their own list; a finished game says who
    won and how, not "0-1"."""
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/?lang=cs")
    page.wait_for_selector('#ruleset option[value="battleline-basic"]', state="attached")
    page.select_option("#ruleset", "battleline-basic")
    page.select_option("#level", "easy")
    page.select_option("#seat", "first")  # seat 0: named first in the lists
    page.fill("#name", "Ann")
    page.click("#start")
    page.wait_for_selector("#table[data-ply]")
    page.once("dialog", lambda d: d.accept())
    page.click("#resign")
    page.wait_for_selector('#table[data-turn="over"]')
    gid = page.url.split("/g/")[1].split("?")[0]
    page.goto(f"{server.base}/?lang=cs")
    # the page's script fills the name typed last (Ann) once the rulesets are in: clear it after that
    page.wait_for_selector('#ruleset option[value="battleline-basic"]', state="attached")
    page.fill("#name", "")
    page.select_option("#level", "easy")
    page.select_option("#seat", "first")
    page.click("#start")  # an unnamed player against the same bot, still going
    page.wait_for_selector("#table[data-ply]")
    page.goto(f"{server.base}/?lang=cs")
    page.wait_for_function("document.querySelectorAll('#my-games li').length === 2")
    page.wait_for_selector("#done-games li a")
    bot = gettext("cs", "Bot ({level})").replace("{level}", gettext("cs", "Easy"))
    mine = [ISOLATES.sub("", t) for t in page.locator("#my-games li").all_inner_texts()]
    assert f"{gettext('cs', 'You')} – {bot}" in mine[0]
    lost = gettext("cs", "You lost ({reason})").replace("{reason}", gettext("cs", "resignation"))
    assert f"Ann – {bot}" in mine[1] and lost in mine[1]
    done = ISOLATES.sub("", page.locator(f'#done-games li:has(a[href="/replay/{gid}"])').inner_text())
    won = gettext("cs", "{name} won ({reason})").replace("{name}", bot).replace("{reason}", gettext("cs", "resignation"))
    assert f"Ann – {bot}" in done and won in done
    for text in [*mine, done]:
        assert not re.search(r"\beasy\b|\d-\d", text), text
    assert page.errors == []


# --- item 11: Persian digits everywhere a Persian reader looks ---------------------------------

# Every text a person reads or hears on the page, but the notation: moves are written
# "R7@3" / "draw:troop" in <code> (the log's and the move list's), the same in every language,
# because that is what the terminal, the game records and the bots' protocol read and write
# (docs/notation.md); a Persian reader sees it as a code, apart from the sentences.
LATIN_DIGITS = """() => {
    const bad = [];
    const outside = (el) => !el.closest('code, script, style');
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (outside(n.parentElement) && /[0-9]/.test(n.data)) bad.push(n.data.trim().slice(0, 100));
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [data-tip], [data-refusal], [placeholder]')) {
        if (!outside(el)) continue;
        for (const a of ['aria-label', 'title', 'data-tip', 'data-refusal', 'placeholder']) {
            const v = el.getAttribute(a);
            if (v && /[0-9]/.test(v)) bad.push(`${a}: ${v.slice(0, 100)}`);
        }
    }
    return bad;
}"""


def test_persian_pages_show_no_latin_digit(browser: Any, server: LiveServer) -> None:  # noqa: F811
    """Every number a Persian reader sees is in Persian digits: the home page and its lists (a
    finished game's result), the tables of every game (card faces, decks, tracker, positions),
    a replay, the lessons (War Machine's positions, "جبههٔ ۴" not "P4"). Only the notation in
    <code> stays Latin (see LATIN_DIGITS)."""
    pages: list[str] = []
    for ruleset, plies, options in (("battleline", 30, None), ("schotten-totten-tactics", 30, None),
                                    ("medieval", 30, {"battlefields": "face_up", "battlefield_set": "house"}),
                                    ("warmachine", 16, None)):
        texts = _walk(ruleset, 7, lambda s, t, n=plies: len(t) >= n and s.current_player() is not None, options)
        gid, token = _hotseat(server, ruleset, 7, texts, options=options)
        pages.append(f"/g/{gid}?t={token}")
    finished, token = _hotseat(server, "battleline", 8, _walk("battleline", 8, lambda s, t: len(t) >= 20))
    _resign(server, finished, token)
    pages += [f"/replay/{finished}", "/learn", "/learn/warmachine?step=2", "/learn/warmachine?step=5", "/learn/battleline?step=7",
              "/rules/battleline", "/rules/medieval", "/rules/warmachine"]
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/?lang=fa")
    page.wait_for_selector("#done-games li a")
    page.click(".field-details summary")
    for ruleset in ("battleline", "warmachine"):
        page.select_option("#ruleset", ruleset)
        assert page.evaluate(LATIN_DIGITS) == [], ruleset
    for path in pages:
        page.goto(f"{server.base}{path}{'&' if '?' in path else '?'}lang=fa")
        if path.startswith("/g/"):
            assert wait_turn(page) == "me"
        elif path.startswith("/replay/"):
            page.wait_for_selector("#step-label:not(:empty)")
            page.click("#last")
            page.wait_for_function("document.querySelector('#step').value === document.querySelector('#step').max")
            page.wait_for_selector(".flag-col")
        elif "step=" in path:
            page.wait_for_selector("#learn-say p")
        assert page.evaluate(LATIN_DIGITS) == [], path
        assert path == "/learn" or re.search("[۰-۹]", page.inner_text("main")), path
    assert page.errors == []


# --- item 12: plural forms in the browser ---------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_counts_take_the_languages_plural_forms(browser: Any, server: LiveServer, lang: str) -> None:  # noqa: F811
    """The scripts' count messages pick the form the catalog's plural rule picks (Czech: 1 karta,
    2-4 karty, 5+ karet; English: 1 card, 2 cards), in the page's digits."""
    page = new_page(browser)
    page.goto(f"{server.base}/?lang={lang}")
    page.wait_for_selector("#ruleset option", state="attached")
    counts = [0, 1, 2, 3, 4, 5, 11, 21, 22, 25, 101]
    said = page.evaluate("""(counts) => import('/static/common.js').then((m) => counts.map((n) =>
        [m.tn('hand: {n} card', 'hand: {n} cards', n), m.tn('{n} move', '{n} moves', n)]))""", counts)
    for n, (hand, moves) in zip(counts, said, strict=True):
        assert hand == ngettext(lang, "hand: {n} card", "hand: {n} cards", n).replace("{n}", number(lang, n))
        assert moves == ngettext(lang, "{n} move", "{n} moves", n).replace("{n}", number(lang, n))
    if lang == "en":
        assert said[1] == ["hand: 1 card", "1 move"] and said[2] == ["hand: 2 cards", "2 moves"]
    if lang == "cs":
        assert [said[i][0] for i in (1, 3, 5)] == ["v ruce: 1 karta", "v ruce: 3 karty", "v ruce: 5 karet"]
        # a counter-example of one card or of two: the verb agrees ("by dala" / "by daly")
        words = "{cards} would make a higher sum ({a} > {b})"
        reasons = page.evaluate("""(words) => import('/static/reasons.js').then((m) => ['R6', 'R6 B7'].map((cards) =>
            m.reasonWords({ code: 'higher_sum', params: { cards, a: 15, b: 12 }, words })))""", words)
        assert reasons == ["červená 6 by dala vyšší součet (15 > 12)", "červená 6, modrá 7 by daly vyšší součet (15 > 12)"]
    assert page.errors == []


# --- item 13: Czech cases on the table --------------------------------------------------------------

def test_czech_prompt_puts_the_card_in_the_accusative(browser: Any, server: LiveServer) -> None:  # noqa: F811
    """"Vyberte vlajku pro červenou 4": a picked card is named in the accusative."""
    import httpx2 as httpx

    g = httpx.post(f"{server.base}/api/games", json={"ruleset": "battleline-basic", "opponent": "bot:random", "seat": "0",
                                                     "seed": 11}, timeout=HTTP_TIMEOUT).json()
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/g/{g['id']}?t={g['token']}&lang=cs")
    assert wait_turn(page) == "me"
    for card in page.locator(".hand .card.selectable").all()[:3]:
        code = card.get_attribute("data-code") or ""
        card.click()
        colour = ["red", "orange", "yellow", "green", "blue", "purple"]["ROYGBP".index(code[0])]
        accusative = pgettext("cs", "accusative", colour)
        assert accusative.endswith("ou") and accusative != gettext("cs", colour)
        assert f"Vyberte vlajku pro {accusative} {int(code[1:])}." in page.inner_text("#status")
        card.click()  # put it down again
    assert page.errors == []


def test_czech_proofs_decline_formations_and_agree_with_them(browser: Any, server: LiveServer) -> None:  # noqa: F811
    """A proof names formations in the form its Czech sentence asks for, with "your" and "their"
    agreeing with the formation's gender: "vaše šarvátka", "vaši barvu", "soupeřova postupka",
    "by dala šarvátku", never "váš šarvátka"; masculine ones stay "váš klín"."""
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/?lang=cs")
    page.wait_for_selector("#ruleset option", state="attached")
    formation = lambda name, total: {"code": "a_formation", "params": {"formation": name, "sum": total},  # noqa: E731
                                     "words": "a {formation} ({sum})"}
    reasons = [
        {"code": "beats", "params": {"mine": formation("skirmish", 17), "theirs": formation("wedge", 12)},
         "words": "both complete: your {mine} beats {theirs}"},
        {"code": "beaten", "params": {"theirs": formation("skirmish", 17), "mine": formation("phalanx", 12)},
         "words": "both complete: their {theirs} beats your {mine}"},
        {"code": "unbeatable", "params": {"mine": formation("skirmish", 17)}, "words": "no unseen troop cards can beat your {mine}"},
        {"code": "unbeatable", "params": {"mine": formation("wedge", 27)}, "words": "no unseen troop cards can beat your {mine}"},
        {"code": "never_completed", "params": {"mine": formation("skirmish", 17)},
         "words": "their side can never be completed: your {mine} wins"},
        {"code": "beating", "params": {"cards": "R5 R6", "theirs": formation("skirmish", 17), "mine": formation("host", 12)},
         "words": "{cards} would make {theirs}, beating your {mine}"},
        {"code": "stronger", "params": {"cards": "R5", "formation": "skirmish", "a": 19, "b": 17},
         "words": "{cards} would make a stronger {formation} ({a} > {b})"},
    ]
    said = page.evaluate("""(reasons) => import('/static/reasons.js').then((m) => {
        const out = reasons.map((r) => m.reasonWords(r, 'battleline'));
        m.setFormationNames(['Sum', 'Run', 'Colour', 'Three of a Kind', 'Colour Run']);  // Schotten Totten's
        out.push(m.reasonWords(reasons[2], 'battleline'), m.reasonWords(reasons[1], 'battleline'));
        m.setFormationNames(null);
        return out; })""", reasons)
    assert said == [
        "obě strany úplné: vaše šarvátka (17) poráží klín (12)",
        "obě strany úplné: soupeřova šarvátka (17) poráží váš čtverec (12)",
        "žádné neviděné jednotky neporazí vaši šarvátku (17)",
        "žádné neviděné jednotky neporazí váš klín (27)",
        "soupeřova strana už nemůže být dokončena: vaše šarvátka (17) vyhrává",
        "červená 5, červená 6 by daly šarvátku (17), což poráží váš zmatek (12)",
        "červená 5 by dala silnější šarvátku (19 > 17)",
        "žádné neviděné jednotky neporazí vaši postupku (17)",
        "obě strany úplné: soupeřova postupka (17) poráží vaši trojici (12)",
    ]
    assert page.errors == []


# --- item 19: card faces in each language ---------------------------------------------------------------

TACTICS = ["AL", "DA", "CC", "SB", "FO", "MU", "SC", "RE", "DE", "TR"]


@pytest.mark.parametrize("lang", LANGS)
def test_card_faces_speak_the_pages_language(browser: Any, server: LiveServer, lang: str) -> None:  # noqa: F811
    """A troop card's face shows its colour by colour, shape and the colour's letter in the
    page's language (Czech Č for červená, Japanese 赤, Persian ق); a tactics card its short name
    as its ruleset calls it (Schotten Totten's own cards too), never a letter code; on the table
    as well as when drawn alone."""
    from frontlines.games import new_state

    letters = [pgettext(lang, "colour letter", c) for c in "ROYGBP"]
    if lang != "en":
        assert letters != list("ROYGBP")
    for ruleset in ("battleline", "schotten-totten-tactics"):
        texts = _walk(ruleset, 9, lambda s, t: len(t) >= 40 and s.current_player() is not None)
        state = new_state(ruleset, seed=9)
        for text in texts:
            state.apply(state.parse_action(text))
        gid, token = _hotseat(server, ruleset, 9, texts)
        page = new_page(browser, viewport={"width": 1280, "height": 900})
        page.goto(f"{server.base}/g/{gid}?t={token}&lang={lang}")
        assert wait_turn(page) == "me"
        faces = page.evaluate("""() => [...document.querySelectorAll('[data-code]')].filter((e) => e.querySelector('svg'))
            .map((e) => [e.dataset.code, [...e.querySelectorAll('svg text')].map((t) => t.textContent)])""")
        names = state.view(0).to_dict()["card_names"]
        tactics = [(code, words) for code, words in faces if code in TACTICS]
        troops = [(code, words) for code, words in faces if re.fullmatch(r"[ROYGBP]\d+", code)]
        assert tactics and troops, faces
        for code, words in troops:
            assert words[-1] == letters["ROYGBP".index(code[0])] and number(lang, int(code[1:])) in words
        for code, words in tactics:
            assert code not in words and gettext(lang, names[TACTICS.index(code)]).split()[0] in " ".join(words), (code, words)
        english = set("ROYGBP") - set(letters)  # Czech writes O for oranžová too
        assert not [w for _, words in faces for w in words if w in TACTICS or w in english]
        assert page.errors == []
        page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_tactics_card_says_its_name_once(browser: Any, server: LiveServer, lang: str) -> None:  # noqa: F811
    """A tactics card's face says its whole name once: in its band when the name is short enough
    ("Fog", "Dareios"), else a short form in the band and the whole name under the mark; a card
    in the hand has no caption under its face saying it a third time."""
    from frontlines.games.battleline.rules import CARD_NAMES

    page = new_page(browser, viewport={"width": 390, "height": 844})
    page.goto(f"{server.base}/learn/battleline?step=12&lang={lang}")
    page.wait_for_selector('.hand .card[data-code="DA"]')
    captions = page.evaluate("""() => [...document.querySelectorAll('.hand .card')].map((b) => {
        const c = b.cloneNode(true); c.querySelectorAll('svg').forEach((e) => e.remove()); return c.textContent.trim(); })""")
    assert captions and all(c == "" for c in captions), captions
    sets = [list(names) for names in CARD_NAMES.values()]
    faces = page.evaluate("""(sets) => import('/static/common.js').then((m) => sets.map((names) => {
        m.setCardNames(names);
        return m.TACTICS.map((code) => { const d = document.createElement('div'); d.innerHTML = m.cardSvg(code);
            return [...d.querySelectorAll('text')].map((e) => e.textContent); });
    }))""", sets)
    for names, cards in zip(sets, faces, strict=True):
        for name, texts in zip(names, cards, strict=True):
            whole = gettext(lang, name)
            band, rest = texts[0], texts[2:]  # the band, the mark, the lines under it
            said = [band] + ([" ".join(rest)] if rest else [])
            assert said.count(whole) == 1, (name, texts)
    assert page.errors == []


# --- item 22: the phone's claim button -----------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_phone_claim_button_says_claim_and_fits(browser: Any, server: LiveServer, lang: str) -> None:  # noqa: F811
    """On a phone the claim button under a flag says "Claim" in words (Persian تصاحب, the word
    of every Persian claim) under its tick, inside its column, and the table still fits."""
    gid, token = _game_at(server, "claim")
    page = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(f"{server.base}/g/{gid}?t={token}&lang={lang}")
    assert wait_turn(page) == "me"
    button = page.locator(".claim-btn").first
    word = button.locator(".claim-word")
    assert word.is_visible() and word.inner_text() == gettext(lang, "Claim")
    fits = button.evaluate("""(b) => { const w = b.querySelector('.claim-word'), col = b.closest('.flag-col').getBoundingClientRect(),
        r = b.getBoundingClientRect(); return w.scrollWidth <= w.clientWidth + 1 && b.scrollWidth <= b.clientWidth + 1
        && r.left >= col.left - 1 && r.right <= col.right + 1; }""")
    assert fits
    table = ".flag-col, .flag-col .card, .claim-btn, .hand, .hand .card, .player-bar"
    assert page.evaluate(OUTSIDE_VIEWPORT, table) == []
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert page.errors == []



# --- War Machine: burns and taken cards by name, the final score as one sentence -----------------

@pytest.mark.parametrize("lang", LANGS)
def test_war_machine_burns_and_leftover_cards_are_named(browser: Any, server: LiveServer, lang: str) -> None:  # noqa: F811
    """A burn this player may see (its own, or any under burn_visibility = face_up) names the
    card, in the case the sentence needs (Czech "spálit válečný stroj Německo / pěchotu USA");
    a face-down burn stays "burn a card". Leftover cards taken are named, never by their codes.
    The list of all moves names each card a burn would burn."""
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    g = _hotseat(server, "warmachine", 4, _walk("warmachine", 4, lambda s, t: any(
        e["kind"] == "burn" for e in s.view(s.current_player()).to_dict()["legal"])))
    page.goto(f"{server.base}/g/{g[0]}?t={g[1]}&lang={lang}")
    assert wait_turn(page) == "me"
    said = page.evaluate("""() => import('/static/common.js').then((m) => [
        m.describeAction({ kind: 'burn', card: 'GU' }), m.describeAction({ kind: 'burn', card: '?' }),
        m.describeAction({ kind: 'take', count: 2, cards: ['GU', 'JB'] }), m.describeAction({ kind: 'take', count: 1, cards: ['?'] })])""")
    card = pgettext(lang, "accusative", "war machine {a} / infantry {b}") if lang == "cs" else gettext(
        lang, "war machine {a} / infantry {b}")
    gu = card.format(a=gettext(lang, "Germany"), b=gettext(lang, "USA"))
    assert said[0] == gettext(lang, "burn {card}").replace("{card}", gu).replace("{card:accusative}", gu)
    assert said[1] == gettext(lang, "burn a card")
    assert gu in said[2] and "GU" not in said[2] and "JB" not in said[2]
    assert said[3] == gettext(lang, "take one leftover card")
    if lang == "en":
        assert said[0] == "burn war machine Germany / infantry USA"
        assert said[2] == "take the leftover cards war machine Germany / infantry USA, war machine Japan / infantry Britain"
    if lang == "cs":
        assert said[0] == "spálit válečný stroj Německo / pěchotu USA"
    # every burn in the list of all moves says which card it burns
    burns = page.evaluate("""() => [...document.querySelectorAll('#moves button[data-text^="burn:"]')].map((b) =>
        [b.dataset.text, b.firstChild.textContent.trim()])""")
    assert burns, "no burn among the moves"
    for text, words in burns:
        code = text.split(":")[1]
        assert words != gettext(lang, "burn a card"), words
        assert gettext(lang, {"U": "USA", "G": "Germany", "J": "Japan", "I": "Italy", "R": "USSR", "B": "Britain"}[code[1]]) in words
    assert page.errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_war_machine_final_score_is_one_sentence_in_each_language(browser: Any, server: LiveServer,  # noqa: F811
                                                                  lang: str) -> None:
    """The score at the end, "Player 1: 7 (countries 5, hand 2)", is one message of the catalog:
    Japanese writes its own colon, brackets and comma (：（、）), Persian its comma and digits."""
    texts = _walk("warmachine", 6, lambda s, t: s.is_terminal(), claims=True)
    gid, token = _hotseat(server, "warmachine", 6, texts, names=("Ann", "Bob"))
    page = new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/g/{gid}?t={token}&lang={lang}")
    assert wait_turn(page) == "over"
    score = page.inner_text(".wm-score")
    template = gettext(lang, "{name}: {total} (countries {countries}, hand {hand})")
    pattern = re.escape(template).replace(r"\{name\}", ".+").replace(r"\{total\}", r"\S+").replace(
        r"\{countries\}", r"\S+").replace(r"\{hand\}", r"\S+")
    parts = score.split(" · ")
    assert len(parts) == 2 and all(re.fullmatch(pattern, p) for p in parts), score
    if lang == "ja":
        assert not re.search(r"[:,()]", score), score
    if lang == "fa":
        assert not re.search(r"[0-9]", score) and "،" in score, score
    assert page.errors == []
