"""Every rules citation in the code and the docs names a section of docs/rules.md.

The project cites its own rules reference by section number (``docs/rules.md §2.12``) or
by anchor (``docs/rules.md#2-battle-line``). A citation that names a missing section, or
a rules file outside the repository, fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
SUFFIXES = {".py", ".md", ".json", ".js", ".html", ".toml", ".txt"}
SECTION = re.compile(r"§(\d+(?:\.\d+)*)")
HEADING = re.compile(r"^#{2,4} (\d+(?:\.\d+)*)\.? (.*)$", re.MULTILINE)
ANCHOR = re.compile(r"rules\.md#([\w-]+)|\]\(#([\w-]+)\)")


def slug(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading (GitHub's rule)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def sections() -> tuple[set[str], set[str]]:
    text = RULES.read_text(encoding="utf-8")
    numbers, anchors = set(), set()
    for match in HEADING.finditer(text):
        numbers.add(match.group(1))
        anchors.add(slug(match.group(0).lstrip("#")))
    return numbers, anchors


def cited_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for top in ("src", "tests", "docs", "benchmarks"):
        files += [p for p in (ROOT / top).rglob("*") if p.suffix in SUFFIXES and p.is_file()]
    return [p for p in files if p.exists() and "node_modules" not in p.parts]


def test_rules_reference_has_numbered_sections() -> None:
    numbers, anchors = sections()
    assert {"1", "2", "2.12", "4.2", "5.2", "6", "6.10", "7"} <= numbers
    assert "2-battle-line" in anchors


def test_every_section_cited_exists() -> None:
    numbers, anchors = sections()
    missing = []
    for path in cited_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for line_no, line in enumerate(text.splitlines(), 1):
            where = f"{path.relative_to(ROOT)}:{line_no}"
            missing += [f"{where} §{n}" for n in SECTION.findall(line) if n not in numbers]
            if path == RULES or "rules.md#" in line:
                missing += [f"{where} #{a or b}" for a, b in ANCHOR.findall(line) if (a or b) not in anchors]
    assert not missing, "citations of sections docs/rules.md lacks:\n" + "\n".join(missing)


def test_no_rules_file_outside_the_repository_is_cited() -> None:
    # every mention of a rules file is docs/rules.md (users have no other one)
    outside = re.compile(r"(?<![\w/])(?:[\w./]*/)?rules\.md")
    bad = []
    for path in cited_files():
        for line_no, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for match in outside.finditer(line):
                if match.group(0) not in ("docs/rules.md", "rules.md"):
                    bad.append(f"{path.relative_to(ROOT)}:{line_no}: {match.group(0)}")
    assert not bad, "\n".join(bad)
