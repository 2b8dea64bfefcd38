"""A test run leaves the checkout as it was: pictures go to a temporary folder."""

from __future__ import annotations

import os
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def test_pictures_go_to_a_temporary_folder(artifacts: Path) -> None:
    """The suite's artifacts folder (screenshots, screen captures) is outside the checkout
    unless a run asks for the checkout's artifacts/ with FRONTLINES_ARTIFACTS=1."""
    if os.environ.get("FRONTLINES_ARTIFACTS") == "1":
        assert artifacts == ROOT / "artifacts"
    else:
        assert not artifacts.resolve().is_relative_to(ROOT)


def test_no_test_writes_into_the_checkouts_artifacts() -> None:
    """Tests get their folder from the artifacts fixture (tests/conftest.py), never by naming
    the checkout's artifacts/ (four tracked screenshots were rewritten by every run)."""
    named = re.compile(r"""["']artifacts["']""")
    offenders = [str(path.relative_to(ROOT)) for path in TESTS.rglob("*.py")
                 if path != TESTS / "conftest.py" and path != Path(__file__).resolve()
                 and named.search(path.read_text(encoding="utf-8"))]
    assert offenders == []
