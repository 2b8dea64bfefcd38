"""Helpers shared by the protocol tests."""

from __future__ import annotations

import sys
from pathlib import Path

FAKES = Path(__file__).resolve().parents[1] / "fakebots"


def fake(mode: str, *args: str) -> str:
    """Command line of the scripted frontlines-protocol fake bot."""
    return " ".join([sys.executable, str(FAKES / "frontlines_fake.py"), mode, *args])


def classic_fake(mode: str = "ok") -> str:
    return " ".join([sys.executable, str(FAKES / "classic_first.py"), mode])
