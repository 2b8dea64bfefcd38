"""The gettext catalogs: complete for every string the pages use, compiled .mo in step."""

from __future__ import annotations

import re

import pytest

from frontlines.web import i18n


@pytest.mark.parametrize("code", ["fa", "ja", "cs"])
def test_catalog_translates_every_message(code: str) -> None:
    catalog = i18n.catalog_dict(code)
    missing = [m for m in i18n.extract_messages() if m not in catalog]
    assert missing == []
    # Placeholders survive translation.
    for msgid, text in catalog.items():
        assert set(re.findall(r"\{\w+\}", msgid)) == set(re.findall(r"\{\w+\}", text)), msgid


@pytest.mark.parametrize("code", ["fa", "ja", "cs"])
def test_compiled_catalogs_are_in_step(code: str) -> None:
    assert i18n.mo_path(code).read_bytes() == i18n.compile_po(code), "run: python -m frontlines.web.i18n"


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
