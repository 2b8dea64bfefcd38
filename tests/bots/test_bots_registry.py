"""Bot specs, levels and the selfplay command."""

from __future__ import annotations

import ast
import doctest
import gc
import weakref
from dataclasses import fields
from pathlib import Path

import pytest

import frontlines.bots.registry
import frontlines.commands.options
import frontlines.commands.selfplay
from frontlines.bots import LEVELS, list_bots, make_bot
from frontlines.bots.heuristic import HeuristicBot
from frontlines.bots.ismcts import INTEGER_PARAMS, ISMCTSBot, SearchParams
from frontlines.bots.levels import BOT_OPPONENTS, level_spec
from frontlines.bots.pimc import PimcBot
from frontlines.bots.random_bot import RandomBot
from frontlines.bots.registry import BotSpec, LevelBot, parse_spec
from frontlines.cli import main
from frontlines.core.record import GameRecord, load_jsonl
from frontlines.games import parse_state


def test_specs_build_the_right_bots() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    assert make_bot("heuristic:noise=0.2").noise == 0.2  # type: ignore[attr-defined]
    assert make_bot("heuristic:samples=20").samples == 20  # type: ignore[attr-defined]
    assert make_bot("ismcts:prior_samples=30").params.prior_samples == 30  # type: ignore[attr-defined]
    bot = make_bot("ismcts:time=0.5")
    assert isinstance(bot, ISMCTSBot) and bot.params.time == 0.5
    bot = make_bot("ismcts:iterations=2000,workers=2")
    assert isinstance(bot, ISMCTSBot)
    assert bot.params.iterations == 2000 and bot.params.workers == 2 and bot.params.time is None
    bot = make_bot(" ISMCTS : iterations=5 , exploration=1.2 ")
    assert isinstance(bot, ISMCTSBot) and bot.params.exploration == 1.2


def test_ismcts_integer_options_are_the_int_fields() -> None:
    """``INTEGER_PARAMS`` (what a spec reads as int) names exactly the fields annotated ``int``,
    read from the source: a compiled build keeps no annotation text."""
    source = (Path(frontlines.bots.__file__).parent / "ismcts.py").read_text()
    cls = next(node for node in ast.parse(source).body if isinstance(node, ast.ClassDef) and node.name == "SearchParams")
    kinds = {n.target.id: ast.unparse(n.annotation) for n in cls.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    assert kinds.keys() == {f.name for f in fields(SearchParams)}
    assert {name for name, kind in kinds.items() if kind in ("int", "int | None")} == INTEGER_PARAMS
    assert make_bot("ismcts:late_horizon=2,width=3").params.late_horizon == 2  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="must be int"):
        make_bot("ismcts:width=2.5")


def test_levels_are_ordered_specs() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard", "expert", "master"]
    easy, medium, hard, expert, master = (make_bot(level) for level in LEVELS)
    assert isinstance(easy, HeuristicBot) and isinstance(medium, HeuristicBot) and isinstance(hard, HeuristicBot)
    assert easy.noise > medium.noise > hard.noise == 0  # fewer careless moves level by level
    assert isinstance(expert, LevelBot) and isinstance(master, LevelBot)
    assert master.spec("battleline-basic") == master.spec("warmachine") == LEVELS["master"][0]
    assert expert.spec("battleline-basic") == expert.spec("schotten-totten") == LEVELS["expert"][0]
    # expert adds the second stage, without the network, only in battleline (docs/bots.md)
    expert_refined = expert.bot_for("battleline")
    assert isinstance(expert_refined, PimcBot) and expert_refined.params.refine == 3 and expert_refined.params.net == 0
    master_refined = master.bot_for("battleline")
    assert isinstance(master_refined, PimcBot) and 0 < expert_refined.params.refine_deals < master_refined.params.refine_deals
    # master adds the second stage where it was measured to pay (docs/bots.md), not in battleline-basic
    for ruleset in ("battleline", "schotten-totten", "medieval"):
        refined = master.bot_for(ruleset)
        assert isinstance(refined, PimcBot) and refined.params.refine == 3 and refined.params.net == 1
        assert refined.params.time is not None and refined.params.time <= 2
    master_bot, expert_bot = master.bot_for("battleline-basic"), expert.bot_for("battleline-basic")
    assert isinstance(master_bot, PimcBot) and master_bot.params.refine == 0
    assert isinstance(expert_bot, PimcBot) and expert_bot.params.refine == 0
    # the search levels: budgets of work (deals), master the same search judged by the
    # learned network (the step docs/bots.md measures); time only a cap of at most 2 s
    assert expert_bot.params.net == 0 and master_bot.params.net == 1
    assert 0 < expert_bot.params.deals <= master_bot.params.deals
    assert expert_bot.params.time is not None and master_bot.params.time is not None and master_bot.params.time <= 2
    assert expert.name == "expert" and master.name == "master"
    names = [name for name, _ in list_bots()]
    assert {"random", "heuristic", "ismcts", "pimc", "cmd", "easy", "expert"} <= set(names)
    assert "(= pimc:time=1; battleline: pimc:refine=3,refine_deals=48,time=2)" in dict(list_bots())["expert"]
    described = dict(list_bots())["master"]
    assert ("(= pimc:net=1,time=2; battleline: pimc:net=1,refine=3,refine_deals=96,time=2; "
            "medieval: pimc:net=1,refine=3,refine_deals=96,time=2; schotten-totten: pimc:net=1,refine=3,refine_deals=96,time=2)") in described


@pytest.mark.parametrize(("ruleset", "refined"), [("schotten-totten", True), ("battleline", True), ("battleline-basic", False)])
def test_a_level_plays_each_ruleset_with_its_own_spec(ruleset: str, refined: bool) -> None:
    from frontlines.games import new_state

    state = new_state(ruleset, seed=5)
    mover = state.current_player()
    assert mover is not None
    master = make_bot("master", seed=2)
    assert isinstance(master, LevelBot) and master.name == "master"
    assert level_spec("master", ruleset) == master.spec(ruleset)
    # without new_game too: the view says the ruleset
    for bot in (master, make_bot("master", seed=2)):
        if bot is master:
            bot.new_game(ruleset, mover, 5)
        action = bot.choose(state.view(mover))
        assert action in state.legal_actions()
        assert bot.info()["params"]["refine"] == (3 if refined else 0)
    master.close()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty"),
        ("alphazero", "unknown bot"),
        ("random:x=1", "no options"),
        ("heuristic:noise=2", "between 0 and 1"),
        ("heuristic:depth=3", "unknown heuristic option"),
        ("heuristic:samples=-1", "between 0"),
        ("heuristic:samples=2.5", "must be int"),
        ("ismcts:time=fast", "must be float"),
        ("ismcts:iterations=1.5", "must be int"),
        ("ismcts:speed=3", "unknown ismcts option"),
        ("ismcts:time", "key=value"),
        ("ismcts:time=1,time=2", "twice"),
        ("ismcts:workers=0", "workers"),
        ("ismcts:time=-1", "positive"),
        ("hard:time=3", "takes no options"),
        ("cmd:", "needs a command"),
    ],
)
def test_bad_specs_are_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


@pytest.mark.parametrize("module", [frontlines.bots.registry, frontlines.commands.options])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


def test_one_grammar_reads_every_spec() -> None:
    assert parse_spec(" Heuristic:noise=0.2 ") == BotSpec("Heuristic:noise=0.2", "heuristic", {"noise": "0.2"})
    assert parse_spec("easy") == BotSpec("easy", "easy")
    engine = parse_spec("cmd:python3 bot.py --x=1")
    assert (engine.external, engine.command, engine.protocol, engine.classic) == (True, "python3 bot.py --x=1", "frontlines", False)
    assert parse_spec("cmd:./engine", protocol="classic").classic  # the arena's --protocol for a whole match
    assert parse_spec("cmd:proto=frontlines:./engine", protocol="classic").protocol == "frontlines"
    assert parse_spec("classic:./engine") == BotSpec("classic:./engine", "cmd", command="./engine", protocol="classic")
    with pytest.raises(ValueError, match="classic: needs a command"):
        parse_spec("classic: ")
    assert not parse_spec("cmd").external  # a bot name, not an engine (make_bot says it is unknown)


def test_opponents_are_offered_weakest_first_in_every_interface() -> None:
    from frontlines.tui.session import HUMAN, OPPONENTS

    assert (*BOT_OPPONENTS, HUMAN) == OPPONENTS
    assert set(LEVELS) <= set(BOT_OPPONENTS)
    for name in BOT_OPPONENTS:
        make_bot(name).close()
    pytest.importorskip("fastapi")
    from frontlines.web.play.game import OPPONENTS as WEB

    assert ("friend", "hotseat", *(f"bot:{name}" for name in BOT_OPPONENTS)) == WEB


def test_cmd_spec_goes_to_the_external_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    import frontlines.bots.external as external

    seen: list[tuple[str, str, int | None]] = []

    def fake(command: str, protocol: str = "frontlines", seed: int | None = None) -> RandomBot:
        seen.append((command, protocol, seed))
        return RandomBot(seed)

    monkeypatch.setattr(external, "make_external", fake)
    make_bot("cmd:python3 my bot.py --fast", seed=3)
    make_bot("cmd:proto=classic:./engine", seed=None)
    assert seen == [("python3 my bot.py --fast", "frontlines", 3), ("./engine", "classic", None)]


def test_selfplay_prints_results_and_the_record(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--rules", "battleline-basic", "--p0", "heuristic", "--p1", "random", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "1 game in" in out and "[Ruleset \"battleline-basic\"]" in out and "[Player0 \"heuristic\"]" in out
    record = GameRecord.parse(out[out.index("[Game"):])
    assert record.replay(parse_state).is_terminal()


def test_selfplay_many_games_alternates_seats_and_writes_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.jsonl"
    args = ["selfplay", "--rules", "warmachine", "--p0", "heuristic", "--p1", "random", "--seed", "10",
            "--games", "4", "--record", str(path)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "heuristic vs random" in out and "random vs heuristic" in out and "--p0 score" in out
    records = load_jsonl(path.read_text())
    assert len(records) == 4
    assert [r.tags["Player0"] for r in records] == ["heuristic", "random", "heuristic", "random"]
    assert all(r.replay(parse_state).is_terminal() for r in records)


@pytest.mark.parametrize("record", [None, "games.jsonl", "games.txt", "-"])
def test_selfplay_keeps_no_game_once_told(record: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A game's record (about 10 KB) and result are let go once the game is told and its
    record written: a million-game run does not grow by a million records. Every earlier
    game is gone (garbage collected) when the next one starts; --record - still prints
    the records after the summary."""
    worker = frontlines.commands.selfplay.SelfplayWorker
    play = worker.play
    played: list[weakref.ref[frontlines.commands.selfplay.SelfplayGame]] = []

    def watched(self: frontlines.commands.selfplay.SelfplayWorker,
                job: frontlines.commands.selfplay.Job) -> frontlines.commands.selfplay.SelfplayGame:
        gc.collect()
        assert [i for i, game in enumerate(played) if game() is not None] == [], "an earlier game is kept"
        game = play(self, job)
        played.append(weakref.ref(game))
        return game

    monkeypatch.setattr(worker, "play", watched)
    args = ["selfplay", "--rules", "battleline-basic", "--p0", "random", "--p1", "random", "--games", "6", "--quiet"]
    if record is not None:
        args += ["--record", record if record == "-" else str(tmp_path / record)]
    assert main(args) == 0
    assert len(played) == 6
    out = capsys.readouterr().out
    assert "6 games in" in out
    if record == "-":  # the records follow the summary, separated by blank lines as before
        texts = out[out.index("[Game"):]
        assert texts.count("[Game") == 6 and out.index("--p0 score") < out.index("[Game")
        assert GameRecord.parse(texts.split("\n\n[Game")[0]).replay(parse_state).is_terminal()
    elif record is not None:
        written = (tmp_path / record).read_text()
        assert written.count("Ruleset") == 6


@pytest.mark.parametrize(("extra", "kept"), [([], False), (["--games", "1"], True), (["--games", "1", "--quiet"], False),
                                              (["--record", "-"], True)])
def test_selfplay_builds_records_only_to_write_or_print_them(extra: list[str], kept: bool, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A worker builds a game's record (a tenth of a quick game's time, and its bytes sent
    back from the worker) only when it is written (--record) or printed (one game, not
    --quiet); a run of many games without --record builds none."""
    worker = frontlines.commands.selfplay.SelfplayWorker
    play = worker.play
    records: list[object] = []

    def watched(self: frontlines.commands.selfplay.SelfplayWorker,
                job: frontlines.commands.selfplay.Job) -> frontlines.commands.selfplay.SelfplayGame:
        game = play(self, job)
        records.append(game.record)
        return game

    monkeypatch.setattr(worker, "play", watched)
    assert main(["selfplay", "--rules", "battleline-basic", "--p0", "random", "--p1", "random", "--games", "3", *extra]) == 0
    assert records and all((record is not None) == kept for record in records), records
    out = capsys.readouterr().out
    assert ("[Game" in out) == (kept and "--quiet" not in extra)


def test_selfplay_rejects_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--rules", "chess", "--p0", "random", "--p1", "random"]) == 2
    assert main(["selfplay", "--rules", "battleline", "--p0", "nobot", "--p1", "random"]) == 2
    err = capsys.readouterr().err
    assert "chess" in err and "nobot" in err


@pytest.mark.parametrize("command", [
    ["selfplay", "--p0", "random", "--p1", "random"],
    ["arena", "--bot", "a=random", "--bot", "b=random", "--games", "2"],
])
def test_commands_read_rules_options_alike(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, "--rules", "battleline", "--option", "tactics"]) == 2
    assert "--option wants NAME=VALUE, not 'tactics'" in capsys.readouterr().err


def _play_out(levels: tuple[str, str], seed: int, decisions: int, uncapped: bool) -> list[str]:
    """The first ``decisions`` actions of a Battle Line game between two levels, seeded."""
    from dataclasses import replace

    from frontlines.games import new_state

    bots = [make_bot(level, seed=seed + seat) for seat, level in enumerate(levels)]
    for seat, bot in enumerate(bots):
        if isinstance(bot, LevelBot):
            bot = bot.bot_for("battleline")
        if uncapped and isinstance(bot, (ISMCTSBot, PimcBot)):
            # The level's time cap is a safety a loaded test machine could reach; without it the
            # iteration budget alone decides, which is what the level promises.
            bot.params = replace(bot.params, time=None)
        bot.new_game("battleline", seat, seed)
    state = new_state("battleline", seed=seed)
    moves: list[str] = []
    while not state.is_terminal() and len(moves) < decisions:
        p = state.current_player()
        assert p is not None
        action = bots[p].choose(state.view(p))
        moves.append(state.action_to_text(action))
        state.apply(action)
    return moves


@pytest.mark.parametrize(("levels", "decisions"), [(("easy", "medium"), 400), (("hard", "expert"), 12), (("master", "easy"), 4)])
def test_same_seed_and_level_play_the_same_moves(levels: tuple[str, str], decisions: int) -> None:
    first = _play_out(levels, 17, decisions, uncapped=True)
    assert first == _play_out(levels, 17, decisions, uncapped=True)
    assert len(first) == decisions or decisions == 400
