"""Game reviews (bots/analysis.py) and ``frontlines analyse``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from frontlines.bots import make_bot
from frontlines.bots.analysis import BLUNDER, MISTAKE, MoveReview, PimcParams, _verdict, review_record, summarise
from frontlines.bots.endgame import exact
from frontlines.bots.heuristic import policy_for
from frontlines.cli import main
from frontlines.core.record import GameRecord
from frontlines.games import new_state, parse_state

QUICK = PimcParams(deals=2, width=2, replies=2)


def _heuristic_game_until_its_endgame_blunder() -> GameRecord:
    """Heuristic self-play of battleline-basic (seed 176) up to and including a losing move
    it makes in a won endgame (both decks empty: tests/bots/test_endgame.py finds it)."""
    start = new_state("battleline-basic", seed=176)
    state = start.clone()
    bots = [make_bot("heuristic", seed=1), make_bot("heuristic", seed=1)]
    for seat, bot in enumerate(bots):
        bot.new_game("battleline-basic", seat, 176)
    policy_rng = random.Random(176)
    policy = policy_for("battleline-basic")
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        view = state.view(player)
        legal = view.legal_actions()
        if exact(view) and len(legal) > 1 and policy.forced(view, legal) is None:
            state.apply(bots[player].choose(view))
            break
        state.apply(policy.choose(view, policy_rng))
    return GameRecord.from_state(start, state, players=("heuristic", "heuristic"))


def test_an_exact_endgame_blunder_is_marked() -> None:
    record = _heuristic_game_until_its_endgame_blunder()
    reviews = review_record(record, parse_state, QUICK)
    last = reviews[-1]
    assert last.index == len(record.actions) - 1 and last.move == record.actions[-1]
    assert last.exact and last.before == 1.0 and last.after < 1.0 and last.best != last.move
    assert last.verdict == "blunder" and last.error == 0.0
    # every decision with a choice is reviewed, in order, from the mover's side
    assert [r.index for r in reviews] == sorted(r.index for r in reviews)
    for r in reviews:
        assert 0.0 <= r.after <= r.before <= 1.0 and r.loss == pytest.approx(r.before - r.after, abs=1e-9)
        assert r.loss == 0.0 or r.best != r.move
    summary = summarise(reviews)
    assert summary.blunders[last.player] >= 1 and sum(summary.decisions) == len(reviews)


def test_a_review_is_the_same_every_time() -> None:
    record = _heuristic_game_until_its_endgame_blunder()
    record.actions = record.actions[:12]
    assert review_record(record, parse_state, QUICK) == review_record(record, parse_state, QUICK)


def test_verdicts_need_a_loss_beyond_the_noise() -> None:
    assert _verdict(MISTAKE - 0.01, 0.0) == ""
    assert _verdict(MISTAKE, 0.0) == "mistake"
    assert _verdict(MISTAKE + 0.01, 0.05) == ""  # within twice its standard error
    assert _verdict(BLUNDER, 0.01) == "blunder"


def test_the_command_prints_a_table_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _heuristic_game_until_its_endgame_blunder()
    path = tmp_path / "game.txt"
    path.write_text(record.to_text(), encoding="utf-8")
    assert main(["analyse", str(path), "--deals", "2", "--width", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "blunder" in out and "(exact)" in out and "seat 0:" in out and "seat 1:" in out
    assert main(["analyse", str(path), "--deals", "2", "--width", "2", "--quiet", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == 1 and data["params"]["deals"] == 2
    assert data["moves"][-1]["verdict"] == "blunder" and data["moves"][-1]["exact"] is True
    assert set(data["moves"][0]) == set(MoveReview.__dataclass_fields__)
    assert data["summary"]["blunders"][data["moves"][-1]["player"]] >= 1


@pytest.mark.parametrize("args", [["--game", "3"], ["--deals", "-1"]])
def test_the_command_refuses_bad_arguments_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    record = _heuristic_game_until_its_endgame_blunder()
    path = tmp_path / "game.txt"
    path.write_text(record.to_text(), encoding="utf-8")
    assert main(["analyse", str(path), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("frontlines analyse:")
