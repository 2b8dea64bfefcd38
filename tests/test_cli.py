"""The ``frontlines`` command dispatches to its subcommands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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


# Every command given a user's mistake: status 2 and a short message on stderr, never a
# traceback (an exception escaping main() fails the test).
_BAD_CALLS = [
    ["play", "--load", "{notrec}"],
    ["play", "--replay", "{notrec}"],
    ["play", "--load", "{missing}"],
    ["play", "--rules", "nope"],
    ["play", "--option", "foo=1", "--rules", "battleline"],
    ["selfplay", "--rules", "battleline", "--p0", "random", "--p1", "random", "--option", "claim_timing=never"],
    ["selfplay", "--rules", "battleline", "--p0", "random", "--p1", "random", "--option", "foo=1"],
    ["selfplay", "--rules", "battleline", "--p0", "random", "--p1", "random", "--option", "foo"],
    ["selfplay", "--rules", "battleline", "--p0", "random", "--p1", "random", "--record", "{missing_dir}/x.txt"],
    ["selfplay", "--rules", "nope", "--p0", "random", "--p1", "random"],
    ["selfplay", "--rules", "battleline", "--p0", "nope", "--p1", "random"],
    ["record", "{missing}"],
    ["record", "{notrec}"],
    ["analyse", "{missing}"],
    ["analyse", "{notrec}"],
    ["bench", "--rules", "nope"],
    ["arena", "--rules", "nope"],
    ["arena", "--rules", "battleline", "--bot", "x=nope", "--bot", "r=random"],
    ["bot", "nope"],
    ["rules", "nope"],
    ["prove", "--nope"],
    ["serve", "--port", "nope"],
    ["selfplay", "--games"],
    ["arena", "--workers", "2", "--json"],
    ["fly"],
]


@pytest.mark.parametrize("call", _BAD_CALLS, ids=lambda c: " ".join(c))
def test_user_mistakes_are_one_line_errors(call: list[str], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    notrec = tmp_path / "notes.txt"
    notrec.write_text("not a game record\n", encoding="utf-8")
    places = {"notrec": str(notrec), "missing": str(tmp_path / "none.txt"), "missing_dir": str(tmp_path / "none")}
    args = [a.format(**places) for a in call]
    try:
        code = main(args)
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    said = "frontlines" if call == ["fly"] else f"frontlines {call[0]}"
    assert len(lines) == 1 and lines[0].startswith(said), err  # no usage block before it
    assert len(lines[0]) < 400


def test_selfplay_counts_and_intervals_read_right(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--rules", "battleline-basic", "--p0", "random", "--p1", "random",
                 "--games", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "1 game in" in out and "1 games" not in out
    assert "±" not in out and "95% interval" in out
    assert "0.0%-0.0%" not in out and "100.0%-100.0%" not in out  # one game proves little


def test_run_help_lists_the_subcommands() -> None:
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([str(root / "run"), "--help"], capture_output=True, text=True, check=True)
    assert "set -euo" not in done.stdout
    for name in COMMANDS:
        assert name in done.stdout


def test_arena_help_shows_a_plain_percent(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    assert "95%%" not in capsys.readouterr().out


def test_run_resolves_paths_from_the_callers_directory(tmp_path: Path) -> None:
    """``./run`` changes to the repository for its set-up, but a command's relative paths
    (records to save or load) mean the caller's directory."""
    root = Path(__file__).resolve().parents[1]
    if not (root / ".venv" / "bin" / "frontlines").exists():
        pytest.skip("./run needs its .venv")
    done = subprocess.run([str(root / "run"), "selfplay", "--rules", "battleline-basic", "--p0", "random",
                           "--p1", "random", "--quiet", "--record", "here.txt"],
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "here.txt").is_file() and not (root / "here.txt").exists()


def test_readme_commands_run_through_run() -> None:
    """After the quick start only ``./run`` is at hand (``frontlines`` is on PATH only in an
    activated .venv): every command the README's Commands section shows goes through it."""
    root = Path(__file__).resolve().parents[1]
    text = (root / "README.md").read_text(encoding="utf-8")
    section = text.split("## Commands", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    lines = [line for line in block.splitlines() if line.strip() and not line.startswith(" ")]
    assert lines
    for line in lines:
        command = line.split("#", 1)[0].split("|")[-1].split()
        assert command[0] == "./run", line
        assert command[1] in COMMANDS, line


def test_run_says_what_it_does_on_first_use(tmp_path: Path) -> None:
    """The first ``./run`` installs for a minute or two: it says so on stderr before it
    starts, and says nothing once .venv is set up. A stand-in Python records the set-up
    steps instead of making a real environment."""
    root = Path(__file__).resolve().parents[1]
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "run").write_bytes((root / "run").read_bytes())
    (checkout / "run").chmod(0o755)
    (checkout / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    fake = tmp_path / "python"
    log = tmp_path / "calls.txt"
    # `-m venv DIR` makes DIR/bin/python (this same stand-in) and DIR/bin/frontlines.
    fake.write_text(f"""#!/bin/sh
echo "$@" >> {log}
if [ "$1 $2" = "-m venv" ]; then
  mkdir -p "$3/bin"; cp "$0" "$3/bin/python"
  printf '#!/bin/sh\\necho "frontlines $*"\\n' > "$3/bin/frontlines"; chmod +x "$3/bin/frontlines"
fi
""", encoding="utf-8")
    fake.chmod(0o755)
    env = {**os.environ, "PYTHON": str(fake)}
    first = subprocess.run([str(checkout / "run"), "rules"], cwd=tmp_path, env=env,
                           capture_output=True, text=True, check=True, timeout=60)
    assert "installing" in first.stderr and ".venv/" in first.stderr, first.stderr
    assert first.stdout == "frontlines rules\n"
    assert "pip install" in log.read_text(encoding="utf-8")
    again = subprocess.run([str(checkout / "run"), "rules"], cwd=tmp_path, env=env,
                           capture_output=True, text=True, check=True, timeout=60)
    assert again.stderr == "" and again.stdout == "frontlines rules\n"


# Every command that prints, its output read by a reader that has already gone (`| head`).
_PRINTING_CALLS = [
    ["--help"],
    ["rules"],
    ["rules", "--json"],
    ["rules", "--help"],
    ["selfplay", "--rules", "battleline-basic", "--p0", "random", "--p1", "random", "--games", "2"],
    ["record", "{record}"],
    ["record", "{record}", "--to", "json"],
    ["prove"],
    ["bench", "--only", "games", "--rules", "battleline-basic", "--games", "1", "--runs", "1"],
    ["arena", "--rules", "battleline-basic", "--games", "2", "--bot", "a=random", "--bot", "b=random"],
    ["bot", "random"],
]


@pytest.mark.parametrize("call", _PRINTING_CALLS, ids=lambda c: " ".join(c))
def test_a_reader_that_went_away_ends_a_command_quietly(call: list[str], tmp_path: Path) -> None:
    """`./run rules | head` ended with "[Errno 32] Broken pipe": a command whose reader has
    gone stops without a word on stderr, with the status a shell gives a program SIGPIPE ended
    (an arena's progress on stderr is no error)."""
    record = tmp_path / "game.txt"
    assert main(["selfplay", "--rules", "battleline-basic", "--p0", "random", "--p1", "random",
                 "--quiet", "--record", str(record)]) == 0
    args = [a.format(record=record) for a in call]
    read_end, write_end = os.pipe()
    os.close(read_end)  # gone before the command writes its first byte: every write fails
    stdin = b'{"claimant":["R8","R9","R10"],"opponent":["B7"]}\n' * 3 + b"hello\n"
    try:
        done = subprocess.run([sys.executable, "-m", "frontlines", *args], stdout=write_end,
                              stderr=subprocess.PIPE, input=stdin, timeout=120, check=False)
    finally:
        os.close(write_end)
    err = done.stderr.decode()
    assert "Broken pipe" not in err and "Traceback" not in err and "Exception" not in err, err
    # prove and bot: the reader is their peer and has nothing left to ask; argparse's help
    # ignores a failed write itself
    assert done.returncode == (0 if call[0] in ("prove", "bot") or "--help" in call else 141)
