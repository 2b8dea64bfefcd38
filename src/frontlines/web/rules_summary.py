"""The rules summary pages (``/rules/<ruleset>``): each ruleset's rules in a page's worth of
sentences, in the page's language, for a player who wants them from the table.

The sentences are msgids of the ``learn`` catalog (rules_texts.py; most are the tutorials' own,
so the summary and the lesson say the same thing in the same words). The ruleset's own parts come from
what the engine says of it: its tactics cards by their names (the rules of CARD_RULES in
static/words.js), Medieval's battlefield set, and its rules options with their words (the
core's OptionSpec words, i18n.option_words), each choice marked as the default or as the one a
given game plays. Schotten Totten's pages say "stone" wherever Battle Line says "flag" (PLACE_WORDS). The rules are those
of docs/rules.md (§2 Battle Line, §4 Schotten Totten, §5 Medieval, §6 War Machine).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from frontlines.web import i18n
from frontlines.web import rules_texts as texts

# the ruleset -> its lesson (/learn/<key>)
TUTORIAL_OF = texts.TUTORIAL_OF


@dataclass(frozen=True)
class Section:
    """A heading, its paragraphs, and a list under them (formations, cards)."""

    heading: str
    paragraphs: tuple[str, ...] = ()
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class Term:
    """A name and what it does (a tactics card, a battlefield)."""

    name: str
    text: str


@dataclass(frozen=True)
class Choice:
    words: str
    default: bool
    chosen: bool  # the choice of the game the page was opened from (the default without one)


@dataclass(frozen=True)
class Option:
    label: str
    help: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class Summary:
    ruleset: str
    title: str
    tutorial: str  # the key of the matching tutorial (/learn/<key>)
    sections: tuple[Section, ...]
    cards: tuple[Term, ...] = ()
    battlefields: tuple[Term, ...] = ()
    options: tuple[Option, ...] = field(default_factory=tuple)


def _placed(message: str, place: str) -> str:
    """``message`` in the ruleset's own words (Schotten Totten's stones and clan cards)."""
    return i18n.place_words().get(place, {}).get(message, message)


@functools.cache
def _ruleset_facts(ruleset: str) -> dict[str, Any]:
    """What the engine says of a ruleset: its view's card names, place name, tactics, options."""
    from frontlines.games import all_rulesets, new_state

    spec = next(r for r in all_rulesets() if r.name == ruleset)
    view = new_state(ruleset, seed=1).view(None).to_dict()
    return {"title": spec.title, "game": spec.game, "options": spec.options, "view": view}


def rulesets() -> list[str]:
    return list(TUTORIAL_OF)


def summary(ruleset: str, chosen: Mapping[str, str] | None = None) -> Summary:
    """The summary of ``ruleset``; ``chosen``: the options of the game it is read for (unknown
    names and choices are left out)."""
    if ruleset not in TUTORIAL_OF:
        raise KeyError(ruleset)
    facts = _ruleset_facts(ruleset)
    view: dict[str, Any] = facts["view"]
    place = view.get("place_name") or "flag"
    chosen = chosen or {}
    sections: list[Section]
    cards: list[Term] = []
    battlefields: list[Term] = []
    if facts["game"] == "warmachine":
        sections = [Section(texts.AIM, texts.WM_AIM), Section(texts.TURN, texts.WM_TURN), Section(texts.BATTLES, texts.WM_BATTLES)]
    elif ruleset.startswith("schotten"):
        tactical = bool(view.get("has_tactics"))
        sections = [Section(texts.AIM, texts.ST_AIM + ((texts.ST_TACTICAL_HAND,) if tactical else ())),
                    Section(texts.COMBINATIONS, items=texts.ST_COMBINATIONS),
                    Section(texts.CLAIMS, (*texts.ST_CLAIMS, texts.PROOF_TABLE_ONLY))]
        if tactical:
            sections.append(Section(texts.TACTIC_CARDS, texts.ST_TACTICS))
    else:
        medieval = ruleset == "medieval"
        sections = [Section(texts.AIM, texts.BL_AIM),
                    Section(texts.FORMATIONS, texts.MEDIEVAL_NAMES) if medieval else Section(texts.FORMATIONS, items=texts.BL_FORMATIONS),
                    Section(texts.CLAIMS, (*texts.BL_CLAIMS, texts.PROOF_TABLE_ONLY))]
        if view.get("has_tactics"):
            sections.append(Section(texts.TACTICS, texts.BL_TACTICS))
        if medieval:
            sections.append(Section(texts.BATTLEFIELDS, texts.MEDIEVAL_BATTLEFIELDS))
            from frontlines.games.battleline.medieval import load_set

            battlefields = [Term(b.name, b.text) for b in load_set("house").cards]
    if view.get("has_tactics"):
        rules = i18n.card_rules()
        # each card once (Battle Line's two leaders share a rule; Schotten Totten has two Jokers)
        for name in dict.fromkeys(view.get("card_names") or ()):
            cards.append(Term(name, _placed(rules[name], place)))
    words = i18n.option_words()
    options = []
    for o in facts["options"]:
        pick = chosen.get(o.name) if chosen.get(o.name) in o.choices else o.default
        options.append(Option(
            label=_placed(words[o.name], place), help=_placed(words.get(f"{o.name}/help", ""), place),
            choices=tuple(Choice(_placed(words[f"{o.name}={c}"], place), c == o.default, c == pick) for c in o.choices)))
    return Summary(ruleset=ruleset, title=facts["title"], tutorial=TUTORIAL_OF[ruleset],
                   sections=tuple(Section(s.heading, tuple(_placed(p, place) for p in s.paragraphs),
                                          tuple(_placed(i, place) for i in s.items)) for s in sections),
                   cards=tuple(cards), battlefields=tuple(battlefields), options=tuple(options))
