"""The rules summaries (/rules/<ruleset>): every ruleset in every language, in its own words
(stones in Schotten Totten), its tactics cards and options, the options of a game marked, the way
to its lesson."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from webhelpers import make_client

from frontlines.web import i18n, rules_summary


@pytest.fixture
def api(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as c:
        yield c


def text_of(page: str) -> str:
    """The page's main text, tags out, entities read."""
    main = page[page.index("<main"):page.index("</main>")]
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main)))


@pytest.mark.parametrize("lang", ["en", "fa", "ja", "cs"])
@pytest.mark.parametrize("ruleset", rules_summary.rulesets())
def test_every_ruleset_has_its_rules_in_every_language(api: TestClient, ruleset: str, lang: str) -> None:
    page = api.get(f"/rules/{ruleset}?lang={lang}")
    assert page.status_code == 200
    text = text_of(page.text)
    summary = rules_summary.summary(ruleset)
    said = [m for s in summary.sections for m in (s.heading, *s.paragraphs, *s.items)]
    said += [m for c in summary.cards for m in (c.name, c.text)] + [m for b in summary.battlefields for m in (b.name, b.text)]
    said += [m for o in summary.options for m in (o.label, *(c.words for c in o.choices))]
    for message in said:
        assert i18n.gettext(lang, message) in text, message
    assert f'href="/learn/{rules_summary.TUTORIAL_OF[ruleset]}"' in page.text
    if lang != "en":  # no English sentence left over
        assert not re.search(r"\b(the|your|cards?|when)\b", text.split("Frontlines")[-1]), text


def test_each_ruleset_in_its_own_words() -> None:
    """Schotten Totten speaks of stones and clan cards, its tactical variant of its own cards;
    Battle Line without tactics has no tactics; Medieval lists its battlefields; War Machine its
    turn and battles."""
    st = rules_summary.summary("schotten-totten-tactics")
    words = " ".join(m for s in st.sections for m in (s.heading, *s.paragraphs, *s.items))
    words += " ".join(c.text for c in st.cards) + " ".join(o.label for o in st.options)
    assert not re.search(r"\b(flags?|troops?)\b", words, re.I), words
    assert [c.name for c in st.cards][:3] == ["Joker", "Spy", "Shield-Bearer"] and len(st.cards) == 9  # two Jokers, one rule
    assert [c.name for c in rules_summary.summary("medieval").cards][:2] == ["King of England", "King of France"]
    assert rules_summary.summary("battleline-basic").cards == ()
    assert {s.heading for s in rules_summary.summary("battleline-basic").sections} == {"Aim and turn",
                                                                                      "Formations, strongest first", "Claims"}
    assert len(rules_summary.summary("medieval").battlefields) == 9
    wm = rules_summary.summary("warmachine")
    assert [s.heading for s in wm.sections] == ["Aim and turn", "The turn", "Battles and the score"] and wm.cards == ()


def test_a_games_options_are_marked(api: TestClient) -> None:
    """The table links with its game's options: those choices are marked, the others' usual
    one; a name or choice the ruleset does not have is left out."""
    text = text_of(api.get("/rules/schotten-totten?claim_timing=before_draw&first_player=9&nonsense=1&lang=cs").text)
    chosen, usual_words = i18n.gettext("cs", "chosen"), i18n.gettext("cs", "usual")
    before_draw, after_play = i18n.gettext("cs", "Any time before drawing"), i18n.gettext("cs", "Only after playing a card")
    assert f"✔ {before_draw} — {chosen}" in text  # claim_timing as the game plays it
    assert f"{after_play} ({usual_words})" in text and f"✔ {after_play}" not in text
    assert f"✔ {i18n.gettext('cs', 'Random')} ({usual_words}) — {chosen}" in text  # first_player=9: its usual one
    assert "nonsense" not in text
    usual = rules_summary.summary("schotten-totten")
    timing = next(o for o in usual.options if o.label == "When stones may be claimed")
    assert [c.words for c in timing.choices if c.chosen] == ["Only after playing a card"]  # Schotten Totten's usual


def test_the_routes(api: TestClient) -> None:
    assert api.get("/rules/chess").status_code == 404
    listing = api.get("/rules?lang=ja")
    assert listing.status_code == 200
    assert all(f'href="/rules/{name}"' in listing.text for name in rules_summary.rulesets())
    assert 'href="/rules"' in api.get("/").text
    for ruleset, key in rules_summary.TUTORIAL_OF.items():
        r = api.get(f"/learn/for/{ruleset}?lang=fa", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/learn/{key}?lang=fa"
    assert api.get("/learn/for/chess", follow_redirects=False).status_code == 404
    from frontlines.games import all_rulesets

    assert sorted(rules_summary.rulesets()) == sorted(r.name for r in all_rulesets())
