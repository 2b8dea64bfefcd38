"""``frontlines prove``: the JSON-lines contract, through a real subprocess and in-process."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest

from frontlines.cli import main
from frontlines.commands.prove import answer, serve


def run_filter(lines: list[str]) -> list[dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", "frontlines.cli", "prove"],
        input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60, check=True,
    )
    return [json.loads(line) for line in proc.stdout.splitlines()]


def req(**fields: Any) -> str:
    return json.dumps(fields)


def test_subprocess_answers_in_order_and_survives_bad_lines() -> None:
    lines = [
        req(claimant=["R8", "R9", "R10"], opponent=["B3"], visible=["G7", "SC"]),
        "",
        "this is not json",
        req(claimant=["R5", "R6", "R7"], opponent=["B8"]),
        "   ",
        req(rules="schotten-totten", claimant=["R5", "R6", "R10"], opponent=[]),
        req(claimant=["R5", "R6", "R7"], opponent=["B8"], visible=["R5"]),
        "[1, 2]",
        req(claimant=["R5", "R6", "R7"], opponent=["B8", "FO"]),
        req(claimant=["R5", "R6", "R7"], opponent=["B8"], fog=1),
        req(claimant=["R5", "R6", "R7", "R8"], opponent=[]),
        req(claimant=["R5", "R6", "R7"], opponent=["X8"]),
        req(rules="chess", claimant=["R5", "R6", "R7"], opponent=[]),
        req(claimant=["R5", "R6", "R7"], opponent="B1"),
        req(claimant=["R5", "R6", "R7"], opponent=[7]),
        req(claimant=["R5", "R6", "R7"]),
        req(claimant=["R5", "R6"], opponent=[]),
        req(rules="schotten-totten", claimant=["R7", "R8", "R9"], opponent=["B1"]),
    ]
    out = run_filter(lines)
    assert len(out) == 16  # one per non-blank line
    assert out[0] == {"claimable": True, "counterexample": None, "reason": "no unseen troop cards can beat your wedge (27)"}
    assert "bad JSON" in out[1]["error"]
    assert out[2] == {"claimable": False, "counterexample": ["B9", "B10"], "reason": "B9 B10 would make a stronger wedge (27 > 18)"}
    assert "Schotten Totten" in out[3]["error"]
    assert "more than once" in out[4]["error"]
    assert "JSON object" in out[5]["error"]
    assert "FO" in out[6]["error"]
    assert "fog" in out[7]["error"]
    assert "holds 3" in out[8]["error"]
    assert "X8" in out[9]["error"]
    assert "chess" in out[10]["error"]
    assert "opponent" in out[11]["error"]
    assert "opponent" in out[12]["error"]
    assert "missing 'opponent'" in out[13]["error"]
    assert out[14] == {"claimable": False, "counterexample": None, "reason": "your side is not complete (2 of 3 cards)"}
    assert out[15]["claimable"] is True


def test_subprocess_flushes_each_line() -> None:
    """A caller can send one request and read its answer before sending the next."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "frontlines.cli", "prove"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for _ in range(3):
            proc.stdin.write(req(claimant=["R8", "R9", "R10"], opponent=[]) + "\n")
            proc.stdin.flush()
            assert json.loads(proc.stdout.readline())["claimable"] is True
        proc.stdin.write("{\n")
        proc.stdin.flush()
        assert "error" in json.loads(proc.stdout.readline())
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0


def test_main_with_patched_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(req(claimant=["B1", "B2", "B3"], opponent=["B4"]) + "\n\n"))
    assert main(["prove"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    reply = json.loads(out[0])
    assert reply["claimable"] is False and reply["counterexample"] is not None


def test_defaults() -> None:
    # rules battleline, no fog, no mud, nothing else visible, claimant completed first
    tie = answer(req(claimant=["B2", "B8", "B10"], opponent=["G2", "G8", "G10"]))
    assert tie == {"claimable": True, "counterexample": None, "reason": "tie at battalion 20: you completed first"}
    second = answer(req(claimant=["B2", "B8", "B10"], opponent=["G2", "G8", "G10"], claimant_completed_first=False))
    assert second["claimable"] is False and second["reason"] == "tie at battalion 20: you completed second"


def test_mud_fog_and_visible() -> None:
    r = answer(req(claimant=["R1", "R2", "R3", "R4"], opponent=[], mud=True))
    assert r["claimable"] is False and len(r["counterexample"]) == 4
    r = answer(req(claimant=["R10", "B10", "G10"], opponent=["Y10"], fog=True))
    assert r["claimable"] is True  # O10 P10 at best: a tie
    r = answer(req(claimant=["R5", "R6", "R7"], opponent=["B8", "B9"], visible=["B7", "B10"]))
    assert r["claimable"] is True
    r = answer(req(claimant=["R5", "R6", "R7"], opponent=["B8", "B9"], visible=["B7"]))
    assert r == {"claimable": False, "counterexample": ["B10"], "reason": "B10 would make a stronger wedge (27 > 18)"}


def test_codes_are_case_insensitive_and_tactics_may_be_visible() -> None:
    r = answer(req(claimant=["al", "r9", "r10"], opponent=["cc"], visible=["SC", "FO", "TR", "MU"]))
    assert r["claimable"] is True


def test_stall_extension() -> None:
    r = answer(req(claimant=["R1", "B2", "G4"], opponent=["B10"], opponent_final=True))
    assert r["claimable"] is True
    assert "error" in answer(req(claimant=["R1", "B2", "G4"], opponent=["B10"], opponent_final="yes"))


def test_serve_skips_blank_lines_only() -> None:
    out = io.StringIO()
    serve(io.StringIO("\n \n{}\n\t\n"), out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(replies) == 1 and "missing 'claimant'" in replies[0]["error"]


def test_undecodable_bytes_get_an_error_line() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "frontlines.cli", "prove"],
        input=b'{"claimant": ["R\xff"], "opponent": []}\n' + req(claimant=["R8", "R9", "R10"], opponent=[]).encode() + b"\n",
        capture_output=True, timeout=60, check=True,
    )
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert "error" in out[0] and out[1]["claimable"] is True


def test_docs_example_session_is_current() -> None:
    """The example session in docs/proofs.md is exactly what the filter answers."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "proofs.md").read_text()
    session = doc.split("$ frontlines prove\n", 1)[1].split("```", 1)[0].splitlines()
    requests, answers = session[0::2], session[1::2]
    assert len(requests) == len(answers) >= 5
    assert run_filter(requests) == [json.loads(a) for a in answers]
