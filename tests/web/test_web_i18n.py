"""The gettext catalogs: complete for every string the pages use, compiled .mo in step."""

from __future__ import annotations

import re

import pytest

from frontlines.web import i18n


@pytest.mark.parametrize("code", ["fa", "ja", "cs"])
def test_catalog_translates_every_message(code: str) -> None:
    missing = [m for m in i18n.wanted_messages(code) if not i18n.translated(code, m)]
    assert missing == []
    # Placeholders survive translation (every plural form's; a case form's template's).
    for key, text in i18n.catalog_dict(code).items():
        msgid = key.split(i18n.CONTEXT_SEP)[-1]
        for form in [text] if isinstance(text, str) else text:
            assert i18n.placeholders(msgid) == i18n.placeholders(form), (key, form)


# A message that counts something: a number placeholder followed by the noun it counts
# ("hand: {n} cards"), which needs the language's plural forms ("1 card"; Czech 1, 2-4, 5+).
COUNTS = re.compile(r"\{(?:n|count|left|need|capacity|total|known)\}\s+(?!(?:of|to|you|and|or|from|in|at|than)\b)[A-Za-z]")


def test_every_count_goes_through_plural_forms() -> None:
    """No plain message counts: each is a plural message (``tn`` in the scripts), and each
    plural message has its English singular and plural and every language's forms."""
    assert [m for m in i18n.extract_messages() if COUNTS.search(m)] == []
    plurals = i18n.plural_messages()
    assert len(plurals) >= 9 and all(i18n.placeholders(p.singular) == i18n.placeholders(p.plural) for p in plurals)
    assert i18n.Plural("hand: {n} card", "hand: {n} cards") in plurals
    cs = i18n.catalog_dict("cs")
    assert cs["hand: {n} card"] == ["v ruce: {n} karta", "v ruce: {n} karty", "v ruce: {n} karet"]
    assert i18n.ngettext("cs", "{n} move", "{n} moves", 3) == "{n} tahy"
    assert i18n.ngettext("cs", "{n} move", "{n} moves", 11) == "{n} tahů"


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_plural_categories_match_each_catalog(code: str) -> None:
    """The browser picks a plural form by CLDR category (Intl.PluralRules) in the order of
    ``Language.plurals``; the catalog's Plural-Forms header must pick the same form for every
    count (the server's gettext reads the header)."""
    from babel import Locale
    from babel.messages.plurals import get_plural

    plurals = i18n.LANGUAGES[code].plurals
    assert get_plural(code).num_plurals == len(plurals)
    locale = Locale.parse(code)
    if code != i18n.DEFAULT:
        for domain in i18n.DOMAINS:
            with i18n.po_path(code, domain).open("rb") as fh:
                header = fh.read().decode()
            assert f"nplurals={len(plurals)};" in header
    for n in range(0, 1001):
        form = i18n.ngettext(code, "{n} move", "{n} moves", n)
        index = plurals.index(locale.plural_form(n))
        if code == i18n.DEFAULT:
            assert form == ("{n} move" if index == 0 else "{n} moves")
        else:
            assert form == i18n.catalog_dict(code)["{n} move"][index], (code, n)


@pytest.mark.parametrize("domain", i18n.DOMAINS)
@pytest.mark.parametrize("code", ["fa", "ja", "cs"])
def test_compiled_catalogs_are_in_step(code: str, domain: str) -> None:
    assert i18n.mo_path(code, domain).read_bytes() == i18n.compile_po(code, domain), "run: python -m frontlines.web.i18n"


def test_game_terms_players_use() -> None:
    expected = ["Klín", "Čtverec", "Zástup", "Šarvátka", "Zmatek"]
    battle_line = ("Wedge", "Phalanx", "Battalion Order", "Skirmish Line", "Host")
    medieval = ("Wedge", "Square", "Column", "Skirmish", "Rabble")
    assert [i18n.gettext("cs", f) for f in battle_line] == expected
    assert [i18n.gettext("cs", f) for f in medieval] == expected
    assert i18n.gettext("ja", "wedge") == "くさび形" and i18n.gettext("ja", "host") == "烏合の衆"
    assert i18n.gettext("fa", "phalanx") == "سه‌تایی"


def test_language_choice() -> None:
    assert i18n.pick("fa", "ja", "cs") == "fa"
    assert i18n.pick(None, "ja", "cs") == "ja"
    assert i18n.pick("xx", None, "de-DE,cs;q=0.8,en;q=0.5") == "cs"
    assert i18n.pick(None, None, None) == "en"
    assert i18n.LANGUAGES["fa"].direction == "rtl"


def test_every_rules_option_and_choice_has_words() -> None:
    from frontlines.games import all_rulesets

    words = i18n.option_words()
    missing = [key for r in all_rulesets() for o in r.options
               for key in (o.name, f"{o.name}/help", *(f"{o.name}={c}" for c in o.choices)) if key not in words]
    assert missing == []
    # The words are for people: no identifier or bare boolean shows through.
    assert [w for w in words.values() if re.search(r"\b[a-z]+_[a-z0-9_]+\b|\b(true|false)\b", w)] == []


@pytest.mark.parametrize("domain", i18n.DOMAINS)
@pytest.mark.parametrize("code", ["fa", "ja", "cs"])
def test_no_catalog_entry_is_left_untranslated(code: str, domain: str) -> None:
    from babel.messages.pofile import read_po

    with i18n.po_path(code, domain).open("rb") as fh:
        catalog = read_po(fh, locale=code)
    assert [m.id for m in catalog if m.id and not m.string] == []


def test_what_the_server_sends_goes_through_the_catalogs() -> None:
    """Ruleset titles, battlefield names and texts, option words, bot levels: every one is a
    msgid, so test_catalog_translates_every_message holds each to a translation."""
    from frontlines.bots.levels import BOT_OPPONENTS, LEVELS

    wanted = set(i18n.extract_messages())
    server = i18n.server_messages()
    assert "Battle Line: Medieval" in server and "Marsh" in server and "Battlefield IX" in server
    assert set(server) <= wanted and set(i18n.option_words().values()) <= wanted
    from frontlines.web.levels import LEVEL_WORDS, bot_levels

    assert set(LEVEL_WORDS) >= set(LEVELS) and {w for words in LEVEL_WORDS.values() for w in words} <= wanted
    assert [level["id"] for level in bot_levels()] == list(BOT_OPPONENTS)


def test_bot_levels_come_from_the_bots_levels() -> None:
    """Every level a person may play against (bots/levels.py) has a name and a line in words,
    and the pages' scripts keep no list of their own to forget one in."""
    from frontlines.bots.levels import BOT_OPPONENTS
    from frontlines.web.levels import LEVEL_WORDS

    assert [level for level in BOT_OPPONENTS if level not in LEVEL_WORDS] == []
    assert [level for level in LEVEL_WORDS if level not in BOT_OPPONENTS] == []
    static = i18n.LOCALE_DIR.parent / "static"
    for script in static.glob("*.js"):
        assert not re.search(r"\b(easy|medium|expert|master)\b\s*:", script.read_text(encoding="utf-8")), script.name


def test_the_pages_get_the_levels_from_the_server(sqlite_url: str) -> None:
    """The home page offers every level of bots/levels.py (not an alias), named in the page's
    language, and every page carries the list for its scripts (bot names in status and log)."""
    import json

    from webhelpers import make_client

    from frontlines.bots.levels import BOT_OPPONENTS

    with make_client(sqlite_url) as client:
        page = client.get("/?lang=cs").text
        table = client.get("/learn?lang=cs").text
    select = page[page.index('<select id="level"'):]
    offered = re.findall(r'<option value="([a-z]+)"[^>]*>([^<]+)</option>', select[:select.index("</select>")])
    assert [level for level, _ in offered] == [level for level in BOT_OPPONENTS if level != "heuristic"]
    assert dict(offered)["easy"] == i18n.gettext("cs", "Easy") == "Snadný"
    for text in (page, table):
        found = re.search(r'<script type="application/json" id="bot-levels">(.*?)</script>', text, re.S)
        assert found is not None
        listed = json.loads(found.group(1))
        assert [level["id"] for level in listed] == list(BOT_OPPONENTS)


@pytest.mark.parametrize("code", ["fa", "ja", "cs"])
def test_every_refusal_reason_has_words_in_every_language(code: str) -> None:
    """Each game's reason codes (the engine's refusals) are msgids of the learn catalog, and
    each is translated there, keeping its parameters."""
    from frontlines.games import game_module

    catalog = i18n.catalog_dict(code)
    counted = {form: p for p in i18n.learn_plurals() for form in p}  # worded by a count
    for game in ("battleline", "warmachine"):
        for words in game_module(game).reason_words.values():
            if words in counted:
                assert i18n.translated(code, counted[words]), words
                continue
            assert words in i18n.learn_messages()
            assert isinstance(catalog.get(words), str), words
            assert i18n.placeholders(words) == i18n.placeholders(str(catalog[words])), words
    assert i18n.gettext(code, "your side of flag {flag} is full") != "your side of flag {flag} is full"


def test_schotten_totten_says_stone_wherever_battle_line_says_flag() -> None:
    """Every message that speaks of flags has Schotten Totten's words (PLACE_WORDS["stone"],
    picked by the view's place_name), translated in every language, and those words speak of
    stones only. The home page's rules options are worded so too (by the ruleset's place_name,
    which /api/rulesets gives). Left out: what only Battle Line and Medieval show (their
    tutorials, leaders, battlefields)."""
    from frontlines.games import new_state
    from frontlines.web.learn import TUTORIALS

    assert new_state("schotten-totten-tactics", seed=1).view(0).to_dict()["place_name"] == "stone"
    assert new_state("medieval", seed=1).view(0).to_dict()["place_name"] == "flag"
    stone = i18n.place_words()["stone"]
    flag = re.compile(r"\bflags?\b(?!\})", re.I)  # the word, not a {flag} placeholder
    from frontlines.web.rules_texts import battle_line_messages

    battle_line_only = {m for tut in TUTORIALS.values() if not tut.ruleset.startswith("schotten")
                        for s in tut.steps for m in (*s.say, *s.done)} | set(battle_line_messages())
    battle_line_only |= {
        "Leader: any colour and any value, chosen when the flag is decided. One leader per player.",
        "the battlefield {battlefield} at flag {flag} refuses {card} ({rule})",
        "Flags without a battlefield name have theirs face down: no rule changes there. They are turned over "
        "when the game ends.",
    }
    speaks_of_flags = [m for m in i18n.extract_messages() if flag.search(m)]
    assert [m for m in speaks_of_flags if m not in stone and m not in battle_line_only] == []
    assert [w for w in stone.values() if flag.search(w)] == []
    assert [k for k, w in stone.items() if (flag.search(k) and "stone" not in w.lower()) or w == k] == []
    for key, words in stone.items():
        assert set(re.findall(r"\{\w+\}", key)) == set(re.findall(r"\{\w+\}", words)), key
    cs = i18n.catalog_dict("cs")
    assert cs[stone["Claim flag {n}"]] == "Nárokovat kámen {n}"


def test_schotten_totten_says_clan_card_wherever_battle_line_says_troop() -> None:
    """Schotten Totten calls its troop cards clan cards (docs/rules.md §4.1): every message
    that speaks of troops has its words in PLACE_WORDS["stone"] (the words of the ruleset whose
    places are stones), translated in every language. Left out: what only Battle Line and
    Medieval show (their tutorials, battlefields)."""
    from frontlines.web.learn import TUTORIALS

    stone = i18n.place_words()["stone"]
    troop = re.compile(r"\btroops?\b", re.I)
    from frontlines.web.rules_texts import battle_line_messages

    battle_line_only = {m for tut in TUTORIALS.values() if not tut.ruleset.startswith("schotten")
                        for s in tut.steps for m in (*s.say, *s.done)} | set(battle_line_messages())
    battle_line_only |= {m for m in i18n.server_messages() if m.startswith("House rule")}  # Medieval's Marsh
    speaks_of_troops = [m for m in i18n.extract_messages() if troop.search(m)]
    assert [m for m in speaks_of_troops if m not in stone and m not in battle_line_only] == []
    assert [w for w in stone.values() if troop.search(w)] == []
    schotten = {m for tut in TUTORIALS.values() if tut.ruleset.startswith("schotten") for s in tut.steps
                for m in (*s.say, *s.done)}
    assert [m for m in schotten if troop.search(m)] == [] and any("clan cards" in m for m in schotten)
    plural = {form: p.singular for p in i18n.plural_messages() for form in p}
    for lang, clan in (("fa", "قبیله"), ("ja", "クラン"), ("cs", "klan")):
        catalog = i18n.catalog_dict(lang)
        said = {w: " ".join(catalog[plural.get(w, w)]) if w in plural else str(catalog[w]) for w in stone.values()}
        assert [w for w, text in said.items() if "clan" in w and clan not in text] == [], lang


def test_the_scripts_name_tactics_cards_as_the_ruleset_does() -> None:
    """Prompts and the log name a tactics card by the view's own names (Schotten Totten's
    Strategist, Medieval's Spies): no message of the scripts spells a Battle Line card's name."""
    names = re.compile(r"\b(Alexander|Darius|Companion Cavalry|Shield Bearers|Fog|Mud|Scout|Redeploy|Deserter|Traitor)\b")
    static = i18n.LOCALE_DIR.parent / "static"
    spelled = [(script.name, m.group(1) or m.group(2)) for script in sorted(static.glob("*.js"))
               for m in re.finditer(r"""\bt\(\s*"((?:[^"\\]|\\.)*)"|\bt\(\s*'((?:[^'\\]|\\.)*)'""", script.read_text("utf-8"))
               if names.search(m.group(1) or m.group(2))]
    assert spelled == []


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_japanese_puts_no_space_after_its_full_stops(domain: str) -> None:
    """Japanese sentences follow each other with nothing between them: no translation has an
    ASCII space after 。, 、, ？, ！ or ： (sentences put together by the scripts are held to the
    same in test_web_e2e_table.py)."""
    from babel.messages.pofile import read_po

    with i18n.po_path("ja", domain).open("rb") as fh:
        catalog = read_po(fh, locale="ja")
    assert [m.string for m in catalog if isinstance(m.string, str) and re.search(r"[。、？！：] ", m.string)] == []
    # nor between a name put in and its particle: "{name}は", as "{name}の" (the War Machine
    # score line read "ボット（ランダム） は国で 3")
    assert [m.string for m in catalog if isinstance(m.string, str) and re.search(r"\} [\u3041-\u309f]", m.string)] == []
