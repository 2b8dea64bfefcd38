"""The arena end to end: CLI flags, JSON schema, records, paired deals, workers, gauntlet, SPRT."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from frontlines.arena.match import MatchConfig, run_match
from frontlines.arena.results import PairedDeals, paired_deals, tally
from frontlines.arena.runner import ArenaGame
from frontlines.arena.schedule import pairings, schedule
from frontlines.cli import main
from frontlines.commands.arena import parse_bots
from frontlines.core.record import GameRecord, load_jsonl
from frontlines.games import parse_state

RULES = "battleline-basic"


def test_cli_json_schema_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "result.json"
    records = tmp_path / "games"
    code = main([
        "arena", "--rules", RULES, "--games", "4", "--seed", "3", "--workers", "1",
        "--bot", "a=random", "--bot", "b=random", "--bot", "h=heuristic",
        "--json", str(out), "--records", str(records),
    ])
    assert code == 0
    captured = capsys.readouterr()
    assert "Elo" in captured.out and "Wilson" in captured.out
    assert "12/12" in captured.err  # the progress bar
    data = json.loads(out.read_text())
    assert {p["name"] for p in data["players"]} == {"a", "b", "h"}
    for p in data["players"]:
        assert {"name", "rating", "ci95"} <= set(p)
        assert isinstance(p["rating"], float) and isinstance(p["ci95"], float)
    assert abs(sum(p["rating"] for p in data["players"])) < 0.5  # mean anchored at 0
    assert len(data["pairs"]) == 3
    for pair in data["pairs"]:
        assert {"a", "b", "games", "a_wins", "b_wins", "draws", "errors"} <= set(pair)
        assert pair["games"] == 4 == pair["a_wins"] + pair["b_wins"] + pair["draws"]
        assert pair["errors"] == 0
        paired = pair["paired"]
        assert paired["deals"] == 2 and sum(paired["pentanomial"]) == 2
        points = sum(k / 2 * c for k, c in enumerate(paired["pentanomial"]))
        assert points == pair["a_wins"] + pair["draws"] / 2
        assert paired["a_score"] == pair["a_score"]
    assert "a both" in captured.out  # the table over deals
    rows = data["games"]
    assert [g["game"] for g in rows] == list(range(1, 13))
    for first, second in zip(rows[::2], rows[1::2], strict=True):
        assert first["deal"] == second["deal"] and first["seed"] == second["seed"]
        assert first["players"] == second["players"][::-1]
    for pair in data["pairs"]:
        both = [g for g in rows if set(g["players"]) == {pair["a"], pair["b"]}]
        assert sum(g["winner"] is not None and g["players"][g["winner"]] == pair["a"] for g in both) == pair["a_wins"]
    files = sorted(records.iterdir())
    assert len(files) == 12
    record = GameRecord.parse(files[0].read_text())
    final = record.replay(parse_state)
    assert final.is_terminal() and record.tags["Event"] == "frontlines arena"


def _result(index: int, deal: int, players: tuple[str, str], winner: int | None) -> ArenaGame:
    return ArenaGame(index, deal, 1, players, winner, "breakthrough" if winner is not None else "stall")


def test_paired_deal_counts_and_interval() -> None:
    results = [
        _result(0, 0, ("a", "b"), 0), _result(1, 0, ("b", "a"), 1),  # a wins both
        _result(2, 1, ("a", "b"), 0), _result(3, 1, ("b", "a"), 0),  # one each
        _result(4, 2, ("a", "b"), None), _result(5, 2, ("b", "a"), 0),  # a draw and a loss: 1/2
        _result(6, 3, ("a", "b"), 1), _result(7, 3, ("b", "a"), 0),  # b wins both
        _result(8, 4, ("a", "b"), 0),  # the other game of this deal never finished: left out
    ]
    tallies = tally(["a", "b"], results)
    (paired,) = paired_deals(tallies, results)
    assert paired.pentanomial == [1, 1, 1, 0, 1] and paired.deals == 4
    scores = [1.0, 0.5, 0.25, 0.0]  # a's score per game, deal by deal
    mean = sum(scores) / 4
    half = 1.959963984540054 * math.sqrt(sum((x - mean) ** 2 for x in scores) / 3 / 4)
    got = paired.score_ci95()
    assert got == pytest.approx((mean, max(0.0, mean - half), mean + half))
    assert PairedDeals([0, 0, 3, 0, 0]).score_ci95() == (0.5, 0.5, 0.5)  # every deal split: no spread
    assert PairedDeals().score_ci95() == (0.5, 0.0, 1.0)  # nothing known


def test_paired_deals_share_seeds_and_swap_seats() -> None:
    tasks = list(schedule(["a", "b", "c"], 4, ruleset=RULES, match_seed=1))
    assert len(tasks) == 12
    by_deal: dict[tuple[int, frozenset[str]], list[tuple[str, str]]] = {}
    for t in tasks:
        by_deal.setdefault((t.seed, frozenset(t.players)), []).append(t.players)
    for players in by_deal.values():
        assert len(players) == 2 and players[0] == players[1][::-1]
    # deal k has the same seed for every pairing
    assert len({t.seed for t in tasks if t.pair == 0}) == 1
    assert [t.index for t in tasks] == list(range(12))


def test_gauntlet_and_bot_names() -> None:
    assert pairings(["x", "y", "z"], "y") == [("y", "x"), ("y", "z")]
    with pytest.raises(ValueError):
        pairings(["x"], "nobody")
    assert parse_bots(["a=random", "ismcts:time=0.5", "e=cmd:python bot.py --depth=3"]) == [
        ("a", "random"), ("ismcts:time=0.5", "ismcts:time=0.5"), ("e", "cmd:python bot.py --depth=3"),
    ]
    with pytest.raises(ValueError):
        parse_bots(["a=random", "a=heuristic"])


def test_workers_give_the_same_games_as_one_process(tmp_path: Path) -> None:
    def run(workers: int) -> list[str]:
        path = tmp_path / f"w{workers}.jsonl"
        config = MatchConfig(RULES, [("r1", "random"), ("r2", "random")], games=6, seed=9, workers=workers,
                             progress=False, records=str(path))
        report = run_match(config)
        assert len(report.results) == 6
        records = sorted(load_jsonl(path.read_text()), key=lambda r: int(r.tags["Round"]))
        return [" ".join(r.actions) for r in records]

    assert run(1) == run(2)


def test_gauntlet_run_on_war_machine() -> None:
    config = MatchConfig("warmachine", [("r", "random"), ("s", "random"), ("t", "random")], games=2, gauntlet="t",
                         progress=False)
    report = run_match(config)
    assert [(p["a"], p["b"]) for p in report.data["pairs"]] == [("t", "r"), ("t", "s")]
    assert len(report.results) == 4


def test_sprt_accepts_a_much_stronger_bot(tmp_path: Path) -> None:
    out = tmp_path / "sprt.json"
    code = main(["arena", "--rules", RULES, "--games", "60", "--seed", "1", "--bot", "h=heuristic", "--bot", "r=random",
                 "--sprt", "elo0=0,elo1=100,alpha=0.05,beta=0.05", "--json", str(out), "--quiet"])
    assert code == 0
    data = json.loads(out.read_text())
    assert data["sprt"]["decision"] == "H1"
    assert data["sprt"]["llr"] >= data["sprt"]["upper"]
    assert data["pairs"][0]["games"] < 60


def test_bad_arguments_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--rules", RULES, "--bot", "a=random"]) == 2
    assert main(["arena", "--rules", "nope", "--bot", "a=random", "--bot", "b=random"]) == 2
    assert main(["arena", "--rules", RULES, "--bot", "a=random", "--bot", "b=nosuchbot"]) == 2
    assert main(["arena", "--rules", RULES, "--bot", "a=random", "--bot", "b=random", "--bot", "c=random",
                 "--sprt", "elo0=0,elo1=50"]) == 2
    err = capsys.readouterr().err
    assert "two bots" in err and "unknown bot" in err


def test_time_control_is_recorded() -> None:
    config = MatchConfig(RULES, [("a", "random"), ("b", "random")], games=2, time=30, increment=0.5, progress=False)
    report = run_match(config)
    assert report.results[0].record["tags"]["TimeControl"] == "30+0.5"
    assert all(r.error_seat is None for r in report.results)


def test_anchor_first_bot() -> None:
    config = MatchConfig(RULES, [("a", "random"), ("b", "heuristic")], games=2, anchor="first", progress=False)
    players = {p["name"]: p for p in run_match(config).data["players"]}
    assert players["a"]["rating"] == 0.0 and players["a"]["ci95"] == 0.0
