"""The tutorials ("Learn to play"): their texts are msgids of the ``learn`` catalog."""

from __future__ import annotations


def tutorial_messages() -> list[str]:
    """Every text the tutorials show (none yet)."""
    return []
