"""Languages of the web app: gettext catalogs read with Babel.

Catalogs live in ``locale/<lang>/LC_MESSAGES/<domain>.po`` (the source, edited by
translators) with the compiled ``<domain>.mo`` beside it; the ``messages`` domain holds the
pages' words, the ``learn`` domain the refusal reasons and the tutorials (``learn.py``), and
a language's catalog is the two together. Templates call ``_()``; the
browser scripts get the same catalog as JSON from ``/i18n/<lang>.json`` so one catalog
serves both sides. ``python -m frontlines.web.i18n`` recompiles every ``.mo`` after the
``.po`` files change (a test checks they are in step).
"""

from __future__ import annotations

import functools
import io
import json
import re
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "messages"
LEARN = "learn"  # refusal reasons and tutorials: their own file, so the two grow apart
DOMAINS = (DOMAIN, LEARN)


@dataclass(frozen=True)
class Language:
    code: str
    name: str  # in its own language, for the switcher
    direction: str  # "ltr" or "rtl"
    # The CLDR plural categories of whole numbers, in the order of the catalog's plural forms
    # (its Plural-Forms header): the browser picks a form with Intl.PluralRules by category.
    plurals: tuple[str, ...]
    digits: str = "0123456789"  # the digits its readers read


LANGUAGES: dict[str, Language] = {
    "en": Language("en", "English", "ltr", ("one", "other")),
    "fa": Language("fa", "فارسی", "rtl", ("one", "other"), "۰۱۲۳۴۵۶۷۸۹"),
    "ja": Language("ja", "日本語", "ltr", ("other",)),
    "cs": Language("cs", "Čeština", "ltr", ("one", "few", "other")),
}
DEFAULT = "en"


def po_path(code: str, domain: str = DOMAIN) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{domain}.po"


def mo_path(code: str, domain: str = DOMAIN) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{domain}.mo"


@functools.cache
def translations(code: str) -> NullTranslations:
    """The catalog of ``code``; English (the msgids themselves) when there is none."""
    if code == DEFAULT or code not in LANGUAGES:
        return NullTranslations()
    found: Translations | None = None
    for domain in DOMAINS:
        mo = mo_path(code, domain)
        # A source checkout without compiled catalogs still works: compile in memory.
        data = mo.read_bytes() if mo.exists() else compile_po(code, domain)
        part = Translations(io.BytesIO(data), domain=domain)
        if found is None:
            found = part
        else:
            found.merge(part)
    assert found is not None
    return found


def compile_po(code: str, domain: str = DOMAIN) -> bytes:
    with po_path(code, domain).open("rb") as fh:
        catalog = read_po(fh, locale=code)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    return buf.getvalue()


CONTEXT_SEP = "\x04"  # gettext's separator of a message's context and its msgid


@functools.cache
def catalog_dict(code: str) -> dict[str, str | list[str]]:
    """Translations for the browser (untranslated entries left out): msgid -> translation; a
    plural message's singular msgid -> its forms, in the order of :attr:`Language.plurals`;
    a message with a context (a case form, a card letter) under ``context\x04msgid``."""
    if code == DEFAULT or code not in LANGUAGES:
        return {}
    out: dict[str, str | list[str]] = {}
    for domain in DOMAINS:
        with po_path(code, domain).open("rb") as fh:
            catalog = read_po(fh, locale=code)
        for message in catalog:
            if not message.id:
                continue
            key = str(message.id[0] if isinstance(message.id, tuple) else message.id)
            if message.context:
                key = f"{message.context}{CONTEXT_SEP}{key}"
            if isinstance(message.string, tuple):
                if all(message.string):
                    out[key] = list(message.string)
            elif message.string:
                out[key] = message.string
    return out


def gettext(code: str, message: str) -> str:
    return translations(code).gettext(message)


def ngettext(code: str, singular: str, plural: str, n: int) -> str:
    return translations(code).ngettext(singular, plural, n)


def pgettext(code: str, context: str, message: str) -> str:
    """``message`` in ``context`` (a case form, a card letter); the plain translation, else the
    message itself, where the catalog has none in that context."""
    found = catalog_dict(code).get(f"{context}{CONTEXT_SEP}{message}")
    return found if isinstance(found, str) else gettext(code, message)


def counted(code: str, singular: str, plural: str, n: int) -> str:
    """A count message in ``code`` with its ``{n}`` filled in the page's digits: templates
    call it as ``_n("{n} game", "{n} games", count)``."""
    return ngettext(code, singular, plural, n).replace("{n}", number(code, n))


def number(code: str, n: int) -> str:
    """A whole number in the digits of ``code``'s readers (Persian digits on the Persian page)."""
    return str(n).translate(str.maketrans("0123456789", LANGUAGES.get(code, LANGUAGES[DEFAULT]).digits))


def pick(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The page language: ``?lang=``, then the cookie, then Accept-Language, then English."""
    for candidate in (query, cookie):
        if candidate in LANGUAGES:
            return candidate
    if accept:
        weighted: list[tuple[float, str]] = []
        for part in accept.split(","):
            bits = part.strip().split(";q=")
            tag = bits[0].strip().lower().split("-")[0]
            try:
                q = float(bits[1]) if len(bits) > 1 else 1.0
            except ValueError:
                q = 0.0
            if tag in LANGUAGES:
                weighted.append((q, tag))
        if weighted:
            return max(weighted)[1]
    return DEFAULT


# Messages the pages build at run time (game terms, engine words); the extractor cannot see them.
DYNAMIC: tuple[str, ...] = (
    # colours, tactics cards (Battle Line and Schotten Totten names)
    "red", "orange", "yellow", "green", "blue", "purple",
    "Alexander", "Darius", "Companion Cavalry", "Shield Bearers", "Fog", "Mud", "Scout", "Redeploy",
    "Deserter", "Traitor", "Joker", "Spy", "Shield-Bearer", "Blind-Man's Bluff", "Mud Fight", "Headhunter",
    "Strategist", "Banshee",
    # formations as the engine names them
    "wedge", "phalanx", "battalion", "skirmish", "host", "fog sum",
    # formations as the views name them, per ruleset (Battle Line, Schotten Totten, Medieval)
    "Host", "Skirmish Line", "Battalion Order", "Phalanx", "Wedge", "Sum", "Run", "Colour",
    "Three of a Kind", "Colour Run", "Rabble", "Skirmish", "Column", "Square",
    "King of England", "King of France", "King's Guard", "Spies",
    # how games end
    "breakthrough", "envelopment", "stall", "resignation", "time", "forfeit", "score", "tie-break",
    # opponents
    "random", "easy", "medium", "hard", "expert", "master", "heuristic",
    # War Machine countries and ends
    "USA", "Germany", "Japan", "Italy", "USSR", "Britain", "war machine", "infantry",
    # the rating graph's text for screen readers (account_pages.py)
    "Rating in {ruleset}, game by game", "From {first} to {last}",
    # error pages (app.py)
    "There is no such page.", "There is no such game.", "That request is too large.",
    "Too many new games; please wait a little.", "That request cannot be answered.",
    # what each tactics card does (CARD_RULES in common.js)
    "Leader: any colour and any value, chosen when the flag is decided. One leader per player.",
    "Any colour and any value from 1 to 9, chosen when the stone is decided. One joker per player.",
    "Any colour, value 8.",
    "Any colour, value 7.",
    "Any colour, value 1, 2 or 3.",
    "Put on a flag: formations do not count there, only the sum of the cards.",
    "Put on a flag: each side needs four cards there instead of three.",
    "Draw three cards from the decks, then put two cards of your hand back on top.",
    "Draw three cards from the decks, then put two cards of your hand back under them.",
    "Move one of your cards at an undecided flag to another undecided flag, or discard it.",
    "Discard one of the opponent's cards at an undecided flag.",
    "Take one of the opponent's troops at an undecided flag and play it on your side.",
    # ruleset titles
    "Battle Line", "Battle Line (basic, no tactics)", "Schotten Totten", "Schotten Totten (tactical variant)",
    "Battle Line: Medieval", "War Machine",
)

_JS_CALL = re.compile(r"""\bt\(\s*"((?:[^"\\]|\\.)*)"|\bt\(\s*'((?:[^'\\]|\\.)*)'""")
_TEMPLATE_CALL = re.compile(r"""\b_\(\s*"((?:[^"\\]|\\.)*)"\s*\)|\b_\(\s*'((?:[^'\\]|\\.)*)'\s*\)""")


def _words_js(name: str) -> Any:
    """The JSON object ``name`` of ``static/words.js`` (written ``export const NAME = {...};``,
    its closing brace alone on its line)."""
    text = (Path(__file__).parent / "static" / "words.js").read_text(encoding="utf-8")
    m = re.search(rf"\b{name} = (\{{.*?\n\}});", text, re.S)
    if m is None:
        raise ValueError(f"static/words.js has no {name} object")
    return json.loads(m.group(1))


def option_words() -> dict[str, str]:
    """The words for each rules option (key: its name), each choice (``option=choice``) and
    the option's help for players (``option/help``), from the core's option specs
    (``OptionSpec.label``, ``words``, ``about``), which /api/rulesets hands the pages."""
    from frontlines.games import all_rulesets

    words: dict[str, str] = {}
    for r in all_rulesets():
        for o in r.options:
            words[o.name] = o.title()
            words.update({f"{o.name}={c}": o.choice_words(c) for c in o.choices})
            words[f"{o.name}/help"] = o.explanation()
    return words


def card_rules() -> dict[str, str]:
    """``static/words.js``'s CARD_RULES: what each tactics card does, by its English name."""
    words: dict[str, str] = _words_js("CARD_RULES")
    return words


def place_words() -> dict[str, dict[str, str]]:
    """``static/words.js``'s PLACE_WORDS: per place name ("stone"), the words that replace
    each message speaking of flags."""
    words: dict[str, dict[str, str]] = _words_js("PLACE_WORDS")
    return words


def server_messages() -> list[str]:
    """What the server hands the pages in English: every ruleset's title and every
    battlefield's name and text, in a stable order (options' words: :func:`option_words`)."""
    from frontlines.games import all_rulesets

    found: dict[str, None] = {}
    for r in all_rulesets():
        found[r.title] = None
    data = resources.files("frontlines.games.battleline").joinpath("battlefields")
    for entry in sorted(data.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            for card in json.loads(entry.read_text("utf-8"))["battlefields"]:
                found[card["name"]] = None
                found[card["text"]] = None
    return [m for m in found if m]


# Scripts and templates whose words belong to the ``learn`` domain (refusals and tutorials),
# and the home page's way in.
LEARN_SCRIPTS = ("refusals.js", "learn.js")
LEARN_TEMPLATES = ("learn.html", "rules.html")
LEARN_WORDS = ("New here? Learn to play, step by step",)


class Plural(NamedTuple):
    """A message that counts: its English singular and plural (msgid and msgid_plural); each
    language's catalog gives one form per plural category of :attr:`Language.plurals`."""

    singular: str
    plural: str


class InContext(NamedTuple):
    """A message in a context (gettext's msgctxt): a card word in a grammatical case
    (``InContext("accusative", "red")``), a colour's letter on the card faces."""

    context: str
    message: str


Message = str | Plural | InContext

_JS_PLURAL = re.compile(r'\btn\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*"((?:[^"\\]|\\.)*)"')
# The same in the templates: _n("{n} game", "{n} games", count).
_TEMPLATE_PLURAL = re.compile(r'\b_n\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*"((?:[^"\\]|\\.)*)"')
_JS_CONTEXT = re.compile(r'\btc\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*"((?:[^"\\]|\\.)*)"')
# A placeholder of a translation, with the grammatical case it puts its word in: {card},
# {card:accusative}. The pages decline a card's name (common.js Word) where a template says so.
PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")
CASES = ("nominative", "genitive", "dative", "accusative", "locative", "instrumental")


def placeholders(text: str) -> set[str]:
    """The parameters a message or translation names ({card:accusative} names ``card``)."""
    return {m.group(1) for m in PLACEHOLDER.finditer(text)}


def _unescape(s: str) -> str:
    return s.replace('\\"', '"')


def _scripts() -> list[Path]:
    return sorted((Path(__file__).parent / "static").glob("*.js"))


def plural_messages() -> list[Plural]:
    """Every count message of the scripts (``tn("1 card", "{n} cards", ...)``) and templates
    (``_n("{n} game", "{n} games", count)``), and the same
    in the words of a ruleset that says them otherwise (PLACE_WORDS), in a stable order."""
    found: dict[Plural, None] = {}
    for path in _scripts():
        for m in _JS_PLURAL.finditer(path.read_text(encoding="utf-8")):
            found[Plural(_unescape(m.group(1)), _unescape(m.group(2)))] = None
    for path in sorted((Path(__file__).parent / "templates").glob("*.html")):
        for m in _TEMPLATE_PLURAL.finditer(path.read_text(encoding="utf-8")):
            found[Plural(_unescape(m.group(1)), _unescape(m.group(2)))] = None
    for words in place_words().values():
        for one, other in list(found):
            if one in words or other in words:
                found[Plural(words.get(one, one), words.get(other, other))] = None
    return list(found)


def card_words() -> list[str]:
    """The English words a card's name is made of, which a template may put in a case: the
    colours and every ruleset's tactics cards (War Machine's card is a template of its own)."""
    from frontlines.games.battleline.rules import CARD_NAMES

    words: dict[str, None] = dict.fromkeys(("red", "orange", "yellow", "green", "blue", "purple"))
    for names in CARD_NAMES.values():
        words.update(dict.fromkeys(names))
    words["war machine {a} / infantry {b}"] = None
    words["Hidden card"] = None
    return list(words)


# The placeholders that hold a card's name, and those that hold a formation's (a proof's
# {mine} and {theirs} are phrases around a formation's name: "{formation} ({sum})").
CARD_PLACEHOLDERS = ("card", "cards", "tactic")
FORMATION_PLACEHOLDERS = ("formation", "mine", "theirs", "what")


def formation_words() -> list[str]:
    """The English words a proof names a formation by, which a template may put in a form of
    its own: every ruleset's formation names, and the engine's rank words and Fog's sum where a
    view names none."""
    from frontlines.games.battleline.formations import FOG_NAME, RANK_NAMES
    from frontlines.games.battleline.rules import FORMATION_NAMES

    words: dict[str, None] = {}
    for names in FORMATION_NAMES.values():
        words.update(dict.fromkeys(names))
    words.update(dict.fromkeys(RANK_NAMES[rank] for rank in sorted(RANK_NAMES)))
    words[FOG_NAME] = None
    return list(words)


def cases_used(code: str, held: tuple[str, ...] = CARD_PLACEHOLDERS) -> list[str]:
    """The forms ``code``'s translations ask of the words in the placeholders ``held``:
    grammatical cases ({card:accusative}), and for formations also forms with a possessive
    that agrees with them ({mine:your_accusative}: Czech "vaši šarvátku")."""
    if code == DEFAULT or code not in LANGUAGES:
        return []
    used: set[str] = set()
    for text in catalog_dict(code).values():
        for form in [text] if isinstance(text, str) else text:
            used.update(m.group(2) for m in PLACEHOLDER.finditer(form) if m.group(2) and m.group(1) in held)
    return [c for c in CASES if c in used] + sorted(used - set(CASES))


def context_messages(code: str = DEFAULT) -> list[InContext]:
    """The messages in a context: what the scripts ask for (``tc("colour letter", "R")``),
    each card word in every case ``code``'s templates use (Czech declines its card names:
    "Vyberte vlajku pro červenou 4"), and each formation word in every form they ask of it."""
    found: dict[InContext, None] = {}
    for path in _scripts():
        for m in _JS_CONTEXT.finditer(path.read_text(encoding="utf-8")):
            found[InContext(_unescape(m.group(1)), _unescape(m.group(2)))] = None
    for held, words in ((CARD_PLACEHOLDERS, card_words()), (FORMATION_PLACEHOLDERS, formation_words())):
        for case in cases_used(code, held):
            for word in words:
                found[InContext(case, word)] = None
    return list(found)


def learn_messages() -> list[str]:
    """The ``learn`` domain's msgids: every game's refusal reasons, the tutorials' texts and
    the words of :data:`LEARN_SCRIPTS`, in a stable order (a reason whose words the pages
    pick by a count is a plural message instead, :func:`learn_plurals`)."""
    from frontlines.games import game_module
    from frontlines.web.learn import tutorial_messages
    from frontlines.web.rules_texts import messages as rules_messages

    counted = {form for p in plural_messages() for form in p}
    found: dict[str, None] = {}
    for game in ("battleline", "warmachine"):
        for words in game_module(game).reason_words.values():
            if words not in counted:
                found[words] = None
    for message in (*tutorial_messages(), *rules_messages(), *LEARN_WORDS):
        found[message] = None
    for name in LEARN_TEMPLATES:
        for m in _TEMPLATE_CALL.finditer((Path(__file__).parent / "templates" / name).read_text(encoding="utf-8")):
            found[m.group(1) or m.group(2)] = None
    here = Path(__file__).parent / "static"
    for name in LEARN_SCRIPTS:
        for m in _JS_CALL.finditer((here / name).read_text(encoding="utf-8")):
            found[(m.group(1) or m.group(2)).replace('\\"', '"')] = None
    return [m for m in found if m]


def learn_plurals() -> list[Plural]:
    """The count messages of the ``learn`` domain: refusal reasons the engine words by a count
    (``one_unseen_left`` and ``too_few_unseen``), which the pages word by the page's own rule."""
    from frontlines.games import game_module

    reasons = {words for game in ("battleline", "warmachine") for words in game_module(game).reason_words.values()}
    reasons |= {words[r] for words in place_words().values() for r in reasons if r in words}
    return [p for p in plural_messages() if p.singular in reasons or p.plural in reasons]


def extract_messages() -> list[str]:
    """Every msgid the templates and scripts use, plus :data:`DYNAMIC`, the option words,
    the server's own strings and :func:`learn_messages`, in a stable order (count messages are
    :func:`plural_messages`, messages in a context :func:`context_messages`)."""
    found: dict[str, None] = {}
    here = Path(__file__).parent
    for path in sorted((here / "templates").glob("*.html")):
        for m in _TEMPLATE_CALL.finditer(path.read_text(encoding="utf-8")):
            found[m.group(1) or m.group(2)] = None
    for path in _scripts():
        for m in _JS_CALL.finditer(path.read_text(encoding="utf-8")):
            found[(m.group(1) or m.group(2)).replace('\\"', '"')] = None
    counted = {form for p in plural_messages() for form in p}
    places = [w for words in place_words().values() for w in words.values() if w not in counted]
    from frontlines.web.levels import messages as level_messages

    for message in (*DYNAMIC, *option_words().values(), *places, *level_messages(), *server_messages(),
                    *learn_messages()):
        found[message] = None
    return [m for m in found if m]


def wanted_messages(code: str) -> list[Message]:
    """Everything ``code``'s catalogs must translate."""
    return [*extract_messages(), *plural_messages(), *context_messages(code)]


def translated(code: str, message: Message) -> bool:
    """Whether ``code``'s catalogs translate ``message`` (every plural form, for a count)."""
    catalog = catalog_dict(code)
    if isinstance(message, InContext):
        return isinstance(catalog.get(f"{message.context}{CONTEXT_SEP}{message.message}"), str)
    if isinstance(message, Plural):
        forms = catalog.get(message.singular)
        return isinstance(forms, list) and len(forms) == len(LANGUAGES[code].plurals)
    return isinstance(catalog.get(message), str)


def _held(catalogs: list[Catalog], message: Message) -> bool:
    """Whether one of ``catalogs`` has an entry for ``message`` (translated or not)."""
    for c in catalogs:
        if isinstance(message, InContext):
            if c.get(message.message, context=message.context) is not None:
                return True
        elif (message.singular if isinstance(message, Plural) else message) in c:
            return True
    return False


def update_catalogs() -> dict[str, list[Message]]:
    """Add messages the code uses but a catalog lacks (untranslated); returns them per language."""
    from babel.messages.pofile import write_po

    added: dict[str, list[Message]] = {}
    learn = set(learn_messages()) | set(learn_plurals())
    for code in LANGUAGES:
        if code == DEFAULT:
            continue
        catalogs = {}
        for domain in DOMAINS:
            path = po_path(code, domain)
            if path.exists():
                with path.open("rb") as fh:
                    catalogs[domain] = read_po(fh, locale=code)
            else:
                catalogs[domain] = Catalog(locale=code, project="Frontlines")

        new = [m for m in wanted_messages(code) if not _held(list(catalogs.values()), m)]
        changed: set[str] = set()
        for message in new:
            domain = LEARN if message in learn else DOMAIN
            changed.add(domain)
            if isinstance(message, InContext):
                catalogs[domain].add(message.message, "", context=message.context)
            elif isinstance(message, Plural):
                catalogs[domain].add(tuple(message), ("",) * len(LANGUAGES[code].plurals))
            else:
                catalogs[domain].add(message, "")
        for domain, catalog in catalogs.items():
            if domain in changed:
                with po_path(code, domain).open("wb") as fh:
                    write_po(fh, catalog, width=0, sort_output=False)
        added[code] = new
    return added


def main(argv: list[str] | None = None) -> int:
    """``update``: add new msgids to every ``.po``; then compile every ``.po`` to ``.mo``."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["update"]:
        for code, new in update_catalogs().items():
            print(f"{code}: {len(new)} new message(s) to translate", file=sys.stderr)
    for code in LANGUAGES:
        for domain in DOMAINS:
            if code == DEFAULT or not po_path(code, domain).exists():
                continue
            mo_path(code, domain).write_bytes(compile_po(code, domain))
            print(f"compiled {mo_path(code, domain)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
