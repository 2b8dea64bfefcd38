"""The grammar of the catalogs' words (issue 30): Czech cases of card names, Persian's one word
for a claim and its digits. The browser side of the same words is in test_web_e2e_sentences.py."""

from __future__ import annotations

import re

from frontlines.web import i18n

# A card's name in a sentence: {card} (a card), {cards} (a list of cards), {tactic} (a tactics
# card's name), each with the case the sentence needs ({card:accusative}).
CARD_PLACEHOLDER = re.compile(r"\{(card|cards|tactic)(?::(\w+))?\}")

# Every Czech sentence that names a card, with the case each card placeholder takes there, as
# read by a Czech speaker: the object of a verb or of "pro" is accusative ("Vyberte vlajku pro
# červenou 4", "odhodit Zvěda"); a card before a colon or as the subject stays nominative
# ("Zvěd: vyberte ...", "červená 7 k vlajce 3"); "zahrát kartu {tactic}" names it in apposition.
CZECH_CASES: dict[str, dict[str, str]] = {
    "Pick a flag for {card}.": {"card": "accusative"},
    "Pick a stone for {card}.": {"card": "accusative"},
    "put {card} back on its deck": {"card": "accusative"},
    "{tactic}: discard {card}": {"tactic": "nominative", "card": "accusative"},
    "{tactic}: move {card} to flag {flag}": {"tactic": "nominative", "card": "accusative"},
    "{tactic}: move {card} to stone {flag}": {"tactic": "nominative", "card": "accusative"},
    "{tactic}: take {card} to flag {flag}": {"tactic": "nominative", "card": "accusative"},
    "{tactic}: take {card} to stone {flag}": {"tactic": "nominative", "card": "accusative"},
    "{card} cannot be played now: {why}": {"card": "accusative"},
    "Where {card} cannot go, and why": {"card": "accusative"},
    "{card} is not in your hand": {"card": "accusative"},
    "the battlefield {battlefield} at flag {flag} refuses {card} ({rule})": {"card": "accusative"},
    "{card} cannot be sent anywhere now, nor burned: {burn}": {"card": "accusative"},
    "burn {card}": {"card": "accusative"},
    "take the leftover card {cards}": {"cards": "accusative"},
    "no flag can take {card} now": {"card": "accusative"},
    "no stone can take {card} now": {"card": "accusative"},
    "{card} to flag {flag}": {"card": "nominative"},
    "{card} to stone {flag}": {"card": "nominative"},
    "{card} (last move)": {"card": "nominative"},
    "{card} is not one of your cards at an unclaimed flag": {"card": "nominative"},
    "{card} is not one of your cards at an unclaimed stone": {"card": "nominative"},
    "{card} is not one of your opponent's cards at an unclaimed flag": {"card": "nominative"},
    "{card} is not one of your opponent's cards at an unclaimed stone": {"card": "nominative"},
    "{card} moves a card to another flag": {"card": "nominative"},
    "{card} moves a card to another stone": {"card": "nominative"},
    "there is no card at an unclaimed flag that {card} could take": {"card": "nominative"},
    "there is no card at an unclaimed stone that {card} could take": {"card": "nominative"},
    "{cards} would make a higher sum ({a} > {b})": {"cards": "nominative"},
    "{cards} would make a stronger {formation} ({a} > {b})": {"cards": "nominative"},
    "{cards} would make {theirs}, beating your {mine}": {"cards": "nominative"},
    "Proofs use only the cards on the table: {cards} in your hand counts as unseen.": {"cards": "nominative"},
    "play {tactic}": {"tactic": "nominative"},
    "{tactic}: pick a deck to draw from.": {"tactic": "nominative"},
    "{tactic}: pick a card from your hand to put back.": {"tactic": "nominative"},
    "{tactic}: pick one of your cards on the table.": {"tactic": "nominative"},
    "{tactic}: pick an opponent's card to discard.": {"tactic": "nominative"},
    "{tactic}: pick an opponent's troop to take.": {"tactic": "nominative"},
    "{tactic}: pick an opponent's clan card to take.": {"tactic": "nominative"},
    "{tactic}: pick a flag to move it to, or discard it.": {"tactic": "nominative"},
    "{tactic}: pick a stone to move it to, or discard it.": {"tactic": "nominative"},
    "{tactic}: pick the flag to put it at.": {"tactic": "nominative"},
    "{tactic}: pick the stone to put it at.": {"tactic": "nominative"},
}


def test_each_czech_sentence_puts_its_card_in_the_right_case() -> None:
    """Every Czech translation that names a card says in which case ({card:accusative}), and
    that case is the one the sentence governs (CZECH_CASES, read once by a person); a new
    sentence with a card in it fails here until it is read too."""
    cs = i18n.catalog_dict("cs")
    found: dict[str, dict[str, str]] = {}
    for key, text in cs.items():
        if i18n.CONTEXT_SEP in key:
            continue
        for form in [text] if isinstance(text, str) else text:
            for m in CARD_PLACEHOLDER.finditer(form):
                found.setdefault(key, {})[m.group(1)] = m.group(2) or "nominative"
    assert found == CZECH_CASES
    # "Vyberte vlajku pro červená 4" was the mistake: the accusative is asked for
    assert cs["Pick a flag for {card}."] == "Vyberte vlajku pro {card:accusative}."


def test_every_card_word_has_each_case_a_czech_sentence_asks_for() -> None:
    """Each case a Czech sentence puts a card in has a form of every card word: the colours
    (adjectives: červená -> červenou), every ruleset's tactics cards (Zvěd -> Zvěda, Mlha ->
    Mlhu), War Machine's card and a hidden card."""
    assert i18n.cases_used("cs") == ["accusative"]
    words = i18n.card_words()
    assert {"red", "purple", "Scout", "Strategist", "King of England", "Hidden card"} <= set(words)
    for word in words:
        assert i18n.translated("cs", i18n.InContext("accusative", word)), word
    accusative = {w: i18n.pgettext("cs", "accusative", w) for w in words}
    assert [accusative[c] for c in ("red", "orange", "yellow", "green", "blue", "purple")] == [
        "červenou", "oranžovou", "žlutou", "zelenou", "modrou", "fialovou"]
    assert accusative["Scout"] == "Zvěda" and accusative["Fog"] == "Mlhu" and accusative["Mud"] == "Bláto"
    assert accusative["war machine {a} / infantry {b}"] == "válečný stroj {a} / pěchotu {b}"
    # A language without cases reads the nominative: there is no form in its catalog.
    assert i18n.cases_used("fa") == i18n.cases_used("ja") == []
    assert i18n.pgettext("fa", "accusative", "red") == i18n.gettext("fa", "red")


def test_persian_says_claim_with_one_word() -> None:
    """Persian says تصاحب for a claim everywhere (never ادعا as well): every message that speaks
    of claiming has it, and the phone's claim button says it too."""
    fa = i18n.catalog_dict("fa")
    texts = {key: " ".join([text] if isinstance(text, str) else text) for key, text in fa.items()}
    assert [key for key, text in texts.items() if "ادعا" in text] == []
    claims = [key for key in texts if re.search(r"\bclaim", key.split(i18n.CONTEXT_SEP)[-1], re.I)]
    assert len(claims) > 20
    assert [key for key in claims if "تصاحب" not in texts[key]] == []
    assert fa["Claim"] == "تصاحب"


def test_persian_translations_write_persian_digits() -> None:
    """A Persian reader reads Persian digits: no translation writes a Latin digit (positions are
    "جبههٔ ۴", not "P4"), nor glues a Latin letter to a number put in ("P{position}" read
    "P۴" in War Machine's refusals, beside the board's "جبههٔ ۴"); the pages put numbers in
    with Persian digits too (i18n.number, and common.js num for the scripts)."""
    fa = i18n.catalog_dict("fa")
    texts = {key: " ".join([text] if isinstance(text, str) else text) for key, text in fa.items()}
    assert [(key, text) for key, text in texts.items() if re.search(r"[0-9]|[A-Za-z]\{\w+(:\w+)?\}", text)] == []
    assert i18n.number("fa", 1204) == "۱۲۰۴" and i18n.number("cs", 12) == "12"


def test_czech_leaves_a_persons_name_in_the_nominative() -> None:
    """A name cannot be declined (a typed one, nor "Hráč 2", "Bot (Snadný)" as the page writes
    them), so no Czech sentence puts one where a case is asked for, as after "hráči" ("Předejte
    zařízení hráči Hráč 2." read "to player Player 2")."""
    declined = re.compile(r"\b(hráči|hráče|hráčem|hráčovi|soupeři|soupeře|soupeřem)\s+\{name\}")
    wrong = {key: text for key, text in i18n.catalog_dict("cs").items()
             for form in ([text] if isinstance(text, str) else text) if declined.search(form)}
    assert wrong == {}
    assert i18n.gettext("cs", "Pass the device to {name}.") == "Předejte zařízení: teď hraje {name}."


# Every Czech sentence of a proof that names a formation, with the form each formation
# placeholder takes, as read by a Czech speaker: "your"/"their" agree with the formation's
# gender (váš klín, vaše šarvátka; soupeřův zástup, soupeřova postupka), an object is in the
# accusative (vaši šarvátku), a formation before a colon or in brackets stays nominative.
FORMATION_PLACEHOLDER = re.compile(r"\{(formation|mine|theirs|what)(?::(\w+))?\}")
CZECH_FORMATION_FORMS: dict[str, dict[str, str]] = {
    "both complete: your {mine} beats {theirs}": {"mine": "your_nominative", "theirs": "accusative"},
    "both complete: their {theirs} beats your {mine}": {"theirs": "their_nominative", "mine": "your_accusative"},
    "their side can never be completed: your {mine} wins": {"mine": "your_nominative"},
    "no unseen troop cards can beat your {mine}": {"mine": "your_accusative"},
    "no unseen clan cards can beat your {mine}": {"mine": "your_accusative"},
    "{cards} would make {theirs}, beating your {mine}": {"theirs": "accusative", "mine": "your_accusative"},
    "{cards} would make a stronger {formation} ({a} > {b})": {"formation": "accusative"},
    "tie at {what}: you completed first": {"what": "nominative"},
    "tie at {what}: you completed second": {"what": "nominative"},
    "{formation} ({sum})": {"formation": "nominative"},
    "a {formation} ({sum})": {"formation": "nominative"},
    "{formation} {sum}": {"formation": "nominative"},
    "{formation}, sum {sum}": {"formation": "nominative"},
    "tactics limit: tactics cards played, you {mine} and your opponent {theirs}; you may never lead by two": {
        "mine": "nominative", "theirs": "nominative"},  # counts, not formations
    "If it ended now: you {total} (countries {countries}, hand {hand}); {name} {theirs} from countries, their hand unseen.": {
        "theirs": "nominative"},  # War Machine's points
}


def test_each_czech_proof_puts_its_formation_in_the_right_form() -> None:
    """Every Czech sentence with a formation in it says which form it takes, and that form is
    the one the sentence governs (CZECH_FORMATION_FORMS, read once by a person); no Czech
    sentence writes a possessive of its own before one ("váš {mine}" read "váš šarvátka")."""
    cs = i18n.catalog_dict("cs")
    found: dict[str, dict[str, str]] = {}
    for key, text in cs.items():
        if i18n.CONTEXT_SEP in key:
            continue
        for form in [text] if isinstance(text, str) else text:
            assert not re.search(r"\b(váš|vaše|vaši|soupeřův|soupeřova)\s+\{(mine|theirs|formation|what)", form), form
            for m in FORMATION_PLACEHOLDER.finditer(form):
                found.setdefault(key, {})[m.group(1)] = m.group(2) or "nominative"
    assert found == CZECH_FORMATION_FORMS


def test_every_formation_word_has_each_form_a_czech_proof_asks_for() -> None:
    """Each form a Czech proof asks of a formation exists for every formation word, every
    ruleset's names and the engine's: feminine ones take "vaše"/"vaši"/"soupeřova" and their
    own accusative (šarvátku, barvu, trojici, barevnou postupku), masculine ones "váš"."""
    forms = i18n.cases_used("cs", i18n.FORMATION_PLACEHOLDERS)
    assert forms == ["accusative", "their_nominative", "your_accusative", "your_nominative"]
    words = i18n.formation_words()
    assert {"Wedge", "Skirmish Line", "Colour Run", "Three of a Kind", "Rabble", "wedge", "fog sum"} <= set(words)
    for form in forms:
        for word in words:
            assert i18n.translated("cs", i18n.InContext(form, word)), (form, word)
    said = {w: [i18n.pgettext("cs", f, w) for f in forms] for w in ("Wedge", "Skirmish Line", "Colour Run", "Three of a Kind")}
    assert said == {
        "Wedge": ["klín", "soupeřův klín", "váš klín", "váš klín"],
        "Skirmish Line": ["šarvátku", "soupeřova šarvátka", "vaši šarvátku", "vaše šarvátka"],
        "Colour Run": ["barevnou postupku", "soupeřova barevná postupka", "vaši barevnou postupku", "vaše barevná postupka"],
        "Three of a Kind": ["trojici", "soupeřova trojice", "vaši trojici", "vaše trojice"],
    }
    # the card words are asked for in the accusative alone: formations' forms are theirs only
    assert i18n.cases_used("cs") == ["accusative"]
