"""The classic community protocol, both ways: hosting classic bots, and our bots on a classic host."""

from __future__ import annotations

import io
import json
import random
import sys

import pytest
from protocol_helpers import classic_fake

from frontlines.arena.match import MatchConfig, run_match
from frontlines.bots.classic import (
    ClassicEngine,
    ClassicExternalBot,
    ClassicTable,
    automatic_action,
    build_view,
    from_classic_card,
    parse_play,
    state_notation,
    status_lines,
    to_classic_card,
)
from frontlines.bots.registry import make_bot
from frontlines.core.errors import NotationError
from frontlines.core.game import Action, State, View
from frontlines.games import new_state, parse_state

RULES = "battleline-basic"
OPTS = {"claim_timing": "after_play"}
# Seconds for a classic bot's handshake and replies where a test is not about them: a limit a
# loaded machine never reaches (the default 10 s it could, starting Python).
PATIENT = 300.0
OURS = f"{sys.executable} -m frontlines.cli bot random --seed 3 --protocol classic"


def test_card_codec() -> None:
    assert to_classic_card("R1") == "color1,1"
    assert to_classic_card("Y10") == "color3,10"
    assert to_classic_card("P7") == "color6,7"
    for c in "ROYGBP":
        for v in range(1, 11):
            assert from_classic_card(to_classic_card(f"{c}{v}")) == f"{c}{v}"
    for bad in ("color7,1", "color1,11", "color1, 3", "R7", "color1,0"):
        with pytest.raises(NotationError):
            from_classic_card(bad)
    with pytest.raises(NotationError):
        to_classic_card("AL")


def test_status_lines_and_play() -> None:
    north: list[list[str]] = [[] for _ in range(9)]
    south: list[list[str]] = [[] for _ in range(9)]
    north[0] = ["R1", "R2"]
    lines = status_lines("south", ["B3", "P10"], ["unclaimed"] * 8 + ["north"], north, south, (1, "R2"))
    assert lines[0] == "player south hand color5,3 color6,10"
    assert lines[1] == "flag claim-status " + "unclaimed " * 8 + "north"
    assert lines[2] == "flag 1 cards north color1,1 color1,2" and lines[3] == "flag 1 cards south"
    assert len(lines) == 2 + 18 + 1 and lines[-1] == "opponent play 1 color1,2"
    assert parse_play("play 3 color1,7") == (3, "R7")
    for bad in ("play 0 color1,7", "play 3", "move 3 color1,7", "play 3 color9,7"):
        with pytest.raises(NotationError):
            parse_play(bad)


def play_to_middle(seed: int, plies: int) -> State:
    """A battleline-basic game under classic rules, some way in."""
    state = new_state(RULES, seed=seed, options=OPTS)
    rng = random.Random(seed)
    plays = 0
    while not state.is_terminal():
        p = state.current_player()
        assert p is not None
        view = state.view(p)
        auto = automatic_action(view)
        if auto is None:
            if plays >= plies:
                break
            auto = rng.choice(view.legal_actions())
            plays += 1
        state.apply(auto)
    return state


def table_of(state: State) -> ClassicTable:
    """What a classic host would tell the player to move."""
    p = state.current_player()
    assert p is not None
    data = state.view(p).to_dict()
    t = ClassicTable()
    t.side = "north" if p == 0 else "south"
    t.hand = list(data["hands"][p])
    names = {None: "unclaimed", 0: "north", 1: "south"}
    t.claims = [names[f["claimed_by"]] for f in data["flags"]]
    for f, flag in enumerate(data["flags"]):
        t.cards["north"][f] = list(flag["sides"][0])
        t.cards["south"][f] = list(flag["sides"][1])
    return t


@pytest.mark.parametrize("seed", range(6))
def test_rebuilt_view_matches_the_real_one(seed: int) -> None:
    state = play_to_middle(seed, 10 + 4 * seed)
    if state.is_terminal():
        pytest.skip("game ended early")
    p = state.current_player()
    assert p is not None
    real = state.view(p)
    rebuilt = build_view(table_of(state), random.Random(seed))
    real_plays = {real.action_to_text(a) for a in real.legal_actions()}
    rebuilt_plays = {rebuilt.action_to_text(a) for a in rebuilt.legal_actions()}
    assert rebuilt_plays == real_plays
    a, b = real.to_dict(), rebuilt.to_dict()
    assert a["hands"][p] == b["hands"][p]
    assert [f["sides"] for f in a["flags"]] == [f["sides"] for f in b["flags"]]
    assert [f["claimed_by"] for f in a["flags"]] == [f["claimed_by"] for f in b["flags"]]
    assert a["troop_deck"] == b["troop_deck"] and a["hand_sizes"] == b["hand_sizes"]
    # the rebuilt full state is a valid position our notation round-trips
    text = state_notation(table_of(state), random.Random(seed))
    assert parse_state(text).to_notation().split()[:3] == text.split()[:3]


def test_classic_engine_answers_a_legal_play() -> None:
    state = play_to_middle(11, 9)
    p = state.current_player()
    assert p is not None
    t = table_of(state)
    out, err = io.StringIO(), io.StringIO()
    engine = ClassicEngine(make_bot("random", 1), out=out, err=err)
    engine.handle(f"player {t.side} name")
    engine.handle("colors color1 color2 color3 color4 color5 color6")
    north = t.cards["north"]
    south = t.cards["south"]
    for line in status_lines(t.side, t.hand, t.claims, north, south, None):
        engine.handle(line)
    engine.handle("some line we do not know")
    engine.handle("go play-card")
    said = out.getvalue().splitlines()
    assert said[0].startswith(f"player {t.side} ")
    flag, code = parse_play(said[-1])
    legal = {state.action_to_text(a) for a in state.legal_actions()}
    assert f"{code}@{flag}" in legal
    assert err.getvalue() == ""


def classic_match(bots: list[tuple[str, str]], games: int = 2, *, repair: bool = True, records: str | None = None,
                  **external: float) -> dict[str, object]:
    # only the failure a test is about may lose a game: patient limits unless it sets its own
    external = {"reply_timeout": PATIENT, **external}
    config = MatchConfig(RULES, bots, games=games, seed=5, protocol="classic", progress=False, external=external,
                         classic_repair=repair, records=records)
    report = run_match(config)
    return report.data


def test_host_classic_bot_against_our_random() -> None:
    data = classic_match([("random", "random"), ("first", f"cmd:{classic_fake()}")], games=4)
    pair = data["pairs"][0]  # type: ignore[index]
    assert pair["games"] == 4 and pair["errors"] == 0
    assert data["failures"] == []


def test_our_bot_on_the_classic_host_against_the_classic_bot() -> None:
    data = classic_match([("ours", f"cmd:{OURS}"), ("first", f"cmd:{classic_fake()}")], games=2)
    pair = data["pairs"][0]  # type: ignore[index]
    assert pair["games"] == 2 and pair["errors"] == 0, data["failures"]


@pytest.mark.parametrize(("mode", "error", "repair"), [
    ("garbage", "garbage", True), ("illegal", "illegal", False), ("closed", "illegal", False), ("hang", "timeout", True),
])
def test_classic_failures_are_losses(mode: str, error: str, repair: bool) -> None:
    data = classic_match([("random", "random"), ("bad", f"cmd:{classic_fake(mode)}")], games=2, move_timeout=0.5,
                         repair=repair)
    pair = data["pairs"][0]  # type: ignore[index]
    assert pair["errors"] == 2 and pair["a_wins"] == 2
    failures = data["failures"]
    assert isinstance(failures, list) and {f["reason"] for f in failures} == {error}


def test_classic_bots_only_play_battleline_basic() -> None:
    with pytest.raises(ValueError, match="battleline-basic"):
        run_match(MatchConfig("battleline", [("a", "random"), ("b", f"classic:{classic_fake()}")], games=2, progress=False))
    bot = ClassicExternalBot(classic_fake(), reply_timeout=PATIENT)
    from frontlines.bots.base import BotError

    with pytest.raises(BotError):
        bot.new_game("battleline", 0)


def test_classic_engine_survives_a_failing_bot() -> None:
    from frontlines.bots.base import Bot, Clock

    class Broken(Bot):
        def choose(self, view: View, clock: Clock | None = None) -> Action:
            raise RuntimeError("boom")

    out, err = io.StringIO(), io.StringIO()
    engine = ClassicEngine(Broken(), name="broken bot", out=out, err=err)
    for line in ["player south name", "player south hand color2,5 color3,3", "flag claim-status " + "unclaimed " * 9,
                 "flag 1 cards south color1,1 color1,2 color1,3", "go play-card"]:
        engine.handle(line)
    assert out.getvalue().splitlines() == ["player south broken-bot", "play 2 color2,5"]
    assert "boom" in err.getvalue()


def test_classic_bot_outside_classic_rules_still_plays() -> None:
    from frontlines.arena.runner import play_task
    from frontlines.arena.schedule import GameTask

    bot = ClassicExternalBot(classic_fake(), reply_timeout=PATIENT)
    try:
        # plain battleline-basic (claims before the draw): the host applies claims and draws for it
        result = play_task(GameTask(0, 0, RULES, 4, ("first", "random"), ()), (bot, make_bot("random", 2)))
        assert result.error_seat is None, result.detail
    finally:
        bot.close()


def test_host_sends_the_classic_messages() -> None:
    from frontlines.arena.runner import play_task
    from frontlines.arena.schedule import GameTask

    transcripts: list[list[str]] = []
    bots = [ClassicExternalBot(classic_fake(), reply_timeout=PATIENT), ClassicExternalBot(classic_fake(), reply_timeout=PATIENT)]
    for bot in bots:
        original = bot.close

        def close(bot: ClassicExternalBot = bot, original=original) -> None:  # type: ignore[no-untyped-def]
            if bot._proc is not None:
                transcripts.append(list(bot._proc.transcript))
            original()

        bot.close = close  # type: ignore[method-assign]
    result = play_task(GameTask(0, 0, RULES, 8, ("a", "b"), ()), (bots[0], bots[1]), classic_rules=True)
    assert result.error_seat is None and result.reason in ("breakthrough", "envelopment", "stall")
    sides = set()
    for lines in transcripts:
        first = lines[0]
        assert first in ("> player north name", "> player south name")
        side = first.split()[2]
        sides.add(side)
        assert lines[1] == f"< player {side} first-card"
        assert lines[2] == "> colors color1 color2 color3 color4 color5 color6"
        turns = [i for i, line in enumerate(lines) if line.startswith(f"> player {side} hand")]
        assert turns and turns[0] == 3
        for t in turns:
            assert lines[t + 1].startswith("> flag claim-status ")
            assert [line.split()[1:4] for line in lines[t + 2 : t + 20]] == [
                ["flag", str(i // 2 + 1), "cards"] for i in range(18)
            ]
            has_opp = lines[t + 20].startswith("> opponent play ")
            assert has_opp or (side == "north" and t == turns[0])
        assert all(not line.startswith("<") or line.startswith(("< play ", "< player ")) for line in lines)
    assert sides == {"north", "south"}


def test_repaired_play_is_the_original_engines() -> None:
    from frontlines.bots.classic import repaired_play

    for plies in range(16, 60):  # far enough in that a flag is closed to the mover
        state = play_to_middle(11, plies)
        p = state.current_player()
        assert p is not None
        view = state.view(p)
        plays = classic_plays(view)
        open_flags = sorted({f for f, _ in plays})
        if plays and len(open_flags) < 9:
            break
    hand = view.to_dict()["hands"][p]
    closed = next(f for f in range(1, 10) if f not in open_flags)
    first, second = open_flags[0], open_flags[-1]
    assert repaired_play(closed, hand[-1], hand, plays) == (first, hand[-1])  # flag repaired only
    assert repaired_play(second, "R11", hand, plays) == (second, hand[0])  # card repaired only
    assert repaired_play(closed, "R11", hand, plays) == (first, hand[0])  # both
    assert repaired_play(second, hand[1], hand, plays) == (second, hand[1])  # a valid play is kept


def classic_plays(view: View) -> dict[tuple[int, str], Action]:
    from frontlines.bots.classic import _troop_plays

    return _troop_plays(view, view.legal_actions())


def played_games(mode: str, tmp_path: object) -> tuple[dict[str, object], list[dict[str, object]]]:
    from pathlib import Path

    records = Path(str(tmp_path)) / f"{mode}.jsonl"
    data = classic_match([("random", "random"), ("bad", f"cmd:{classic_fake(mode)}")], games=2, records=str(records))
    return data, [json.loads(line) for line in records.read_text().splitlines()]


def plays_of(record: dict[str, object], seat: int) -> int:
    """How many cards ``seat`` played in a saved game (replayed from its setup)."""
    tags, actions = record["tags"], record["actions"]
    assert isinstance(tags, dict) and isinstance(actions, list)
    state = parse_state(tags["Setup"])
    count = 0
    for text in actions:
        count += state.current_player() == seat and "@" in text
        state.apply(state.parse_action(text))
    return count


@pytest.mark.parametrize("mode", ["illegal", "closed"])
def test_classic_invalid_plays_are_repaired_and_counted(mode: str, tmp_path: object) -> None:
    data, records = played_games(mode, tmp_path)
    pair = data["pairs"][0]  # type: ignore[index]
    assert pair["errors"] == 0 and data["failures"] == []
    # The fake plays its first card to the first open flag when it is valid; the repairs
    # turn its invalid plays into exactly that, so the games are those of the valid fake.
    _, valid = played_games("ok", tmp_path)
    assert [r["actions"] for r in records] == [r["actions"] for r in valid]
    rows = data["games"]
    assert isinstance(rows, list)
    total = 0
    for row, record in zip(rows, records, strict=True):
        seat = row["players"].index("bad")
        assert row["repairs"][1 - seat] == 0 and row["repairs"][seat] > 0
        if mode == "illegal":  # every play names a card it does not hold: every one repaired
            assert row["repairs"][seat] == plays_of(record, seat)
        assert record["tags"]["Repairs"] == "-".join(str(n) for n in row["repairs"])  # type: ignore[index]
        total += row["repairs"][seat]
    assert pair["repairs"] == total
