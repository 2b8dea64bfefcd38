"""The ``frontlines`` command dispatches to its subcommands."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from frontlines.cli import COMMANDS, main


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert name in out


def test_unknown_command_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as info:
        main(["fly"])
    assert info.value.code == 2


def test_every_subcommand_has_help() -> None:
    for name in COMMANDS:
        with pytest.raises(SystemExit) as info:
            main([name, "--help"])
        assert info.value.code == 0, name


def test_rules_json_lists_rulesets_and_options() -> None:
    done = subprocess.run([sys.executable, "-m", "frontlines", "rules", "--json"], capture_output=True, text=True, check=True)
    data = json.loads(done.stdout)
    names = {r["name"] for r in data}
    assert {"battleline", "battleline-basic", "schotten-totten", "warmachine"} <= names
    battleline = next(r for r in data if r["name"] == "battleline")
    assert any(o["name"] == "claim_timing" and o["default"] == "before_draw" for o in battleline["options"])


def test_serve_redacts_seat_tokens_in_access_log() -> None:
    import logging

    from frontlines.web.logs import RedactSecrets

    record = logging.LogRecord("uvicorn.access", logging.INFO, "x", 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", "/ws/abc?t=SECRETtoken&lang=fa", "1.1", 101), None)
    assert RedactSecrets().filter(record)
    assert "SECRET" not in record.getMessage()
    assert "t=***&lang=fa" in record.getMessage()
