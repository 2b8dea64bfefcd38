"""The terminal game driven through Textual's pilot: whole games, tactics, replay, hiding."""

from __future__ import annotations

import argparse
import asyncio
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Input, Select

from frontlines.commands import play as play_command
from frontlines.core.record import GameRecord
from frontlines.games import new_state, parse_state
from frontlines.tui.app import FrontlinesApp, GameScreen, ReplayScreen
from frontlines.tui.screens import PassScreen, SaveScreen, SetupScreen
from frontlines.tui.session import HUMAN, GameConfig, GameSession
from frontlines.tui.widgets import FlagColumn, HandBar, Pane

from .driver import game_screen, play_move, play_to_end, screen_text, settle, until

Scenario = Callable[[Pilot[None], FrontlinesApp], Awaitable[None]]


def run_app(app: FrontlinesApp, scenario: Scenario, size: tuple[int, int] = (80, 24)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await scenario(pilot, app)

    asyncio.run(main())


def session_before(kind: str, *, ruleset: str = "battleline", seed: int = 1, opponent: str = "random",
                   limit: int = 400) -> GameSession:
    """A game (random moves for both seats) stopped where seat 0 may play an action of ``kind``."""
    for attempt in range(60):
        state = new_state(ruleset, seed=seed + attempt, options={"first_player": "0"})
        session = GameSession(state, (HUMAN, opponent), seed=seed)
        rng = random.Random(seed * 1000 + attempt)
        for _ in range(limit):
            if state.is_terminal():
                break
            if state.current_player() == 0:
                kinds = {e["kind"] for e in state.view(0).to_dict()["legal"]}
                if kind in kinds:
                    return session
            session.play(rng.choice(state.legal_actions()))
    raise AssertionError(f"no position with a legal {kind}")


def hand_of(screen: GameScreen) -> list[str]:
    hands = screen.view_dict["hands"]
    return list(hands[screen.viewer] or [])


def side(screen: GameScreen, flag: int, seat: int) -> list[str]:
    return list(screen.view_dict["flags"][flag - 1]["sides"][seat])


def prompt_of(screen: GameScreen) -> str:
    """The prompt pane's text (the question, the choices and the last message)."""
    return screen.query_one("#prompt", Pane).text.plain


async def press_hand(pilot: Pilot[None], screen: GameScreen, code: str) -> None:
    await pilot.press(str(hand_of(screen).index(code) + 1))


# --- whole games ----------------------------------------------------------------------------


def test_whole_battle_line_game_against_random_bot_by_keys(tmp_path: Path, artifacts: Path) -> None:
    app = FrontlinesApp(GameConfig(ruleset="battleline", opponent="random", seat=1, seed=11),
                        setup=False, bot_delay=0, save_dir=tmp_path)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        moves = await play_to_end(pilot, app, random.Random(3))
        screen = game_screen(app)
        outcome = screen.session.state.outcome()
        assert outcome is not None and moves > 10
        assert "Game over" in screen_text(app)
        # the record of the finished game replays to the same final position
        record = screen.session.record()
        assert record.replay(parse_state) == screen.session.state
        (artifacts / "tui").mkdir(parents=True, exist_ok=True)
        app.save_screenshot(str(artifacts / "tui" / "battleline-game-over.svg"))

    run_app(app, scenario)


def test_whole_war_machine_game_against_heuristic_bot(artifacts: Path) -> None:
    app = FrontlinesApp(GameConfig(ruleset="warmachine", opponent="heuristic", seat=0, seed=4),
                        setup=False, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await play_to_end(pilot, app, random.Random(8))
        screen = game_screen(app)
        outcome = screen.session.state.outcome()
        assert outcome is not None and outcome.scores is not None
        text = screen_text(app)
        assert "Game over" in text
        assert f"by {outcome.reason} ({outcome.scores[0]}-{outcome.scores[1]})" in " ".join(text.split())
        (artifacts / "tui").mkdir(parents=True, exist_ok=True)
        app.save_screenshot(str(artifacts / "tui" / "warmachine-game-over.svg"))

    run_app(app, scenario)


def test_war_machine_with_the_mouse() -> None:
    """Set-up choice, card, which end up and the position, all by clicks."""
    app = FrontlinesApp(GameConfig(ruleset="warmachine", opponent="random", seat=0, seed=5, first="me"),
                        setup=False, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        screen = game_screen(app)
        assert [m.text for m in screen.picker.moves][:2] == ["take1", "take2"]
        await pilot.click("#prompt", offset=(3, 0))  # line 0: take 1, move first
        assert screen.session.state.history
        await settle(pilot, app)
        deploy = next(m for m in screen.picker.moves if m.kind == "deploy")
        bar = screen.query_one("#hand", HandBar)
        start, _end = bar._spans[hand_of(screen).index(str(deploy.entry["card"]))]
        before = len(screen.session.state.history)
        await pilot.click(HandBar, offset=(start, 0))
        ends = [t.value for t in screen.listed]
        await pilot.click("#prompt", offset=(3, ends.index(str(deploy.entry["end"]))))
        await pilot.click(f"#pos-{deploy.entry['position']}", offset=(3, 6))
        assert len(screen.session.state.history) == before + 1
        assert screen.session.state.history and screen.session.state.action_to_text(
            screen.session.state.history[-1]) == deploy.text

    run_app(app, scenario)


def test_schotten_totten_plays_with_the_mouse() -> None:
    """Cards and flags clicked instead of keys."""
    app = FrontlinesApp(GameConfig(ruleset="schotten-totten", opponent="random", seat=0, seed=2),
                        setup=False, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        rng = random.Random(5)
        clicked = 0
        while clicked < 6:
            await settle(pilot, app)
            screen = game_screen(app)
            if screen.session.state.is_terminal():
                break
            plays = [m for m in screen.picker.moves if m.kind == "play"]
            if not plays:
                await play_move(pilot, screen, rng.choice(screen.picker.moves))
                continue
            move = rng.choice(plays)
            before = len(screen.session.state.history)
            bar = screen.query_one("#hand", HandBar)
            start, _end = bar._spans[hand_of(screen).index(str(move.entry["card"]))]
            await pilot.click(HandBar, offset=(start, 0))
            await pilot.click(f"#flag-{move.entry['flag']}", offset=(2, 5))
            assert len(screen.session.state.history) == before + 1
            clicked += 1
        assert clicked == 6

    run_app(app, scenario)


# --- tactics walked through step by step ----------------------------------------------------


def test_scout_draws_three_and_returns_two() -> None:
    session = session_before("scout", seed=3)
    app = FrontlinesApp(session=session, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        screen = game_screen(app)
        size = len(hand_of(screen))
        await press_hand(pilot, screen, "SC")
        assert "SC" not in hand_of(screen)
        for _ in range(3):
            assert "Scout: draw" in screen_text(app)
            deck = "t" if screen.view_dict["troop_deck"] else "a"
            await pilot.press(deck)
        assert len(hand_of(screen)) == size - 1 + 3
        for _ in range(2):
            assert "put a card back" in screen_text(app)
            await pilot.press("1")
        kinds = {e["kind"] for e in screen.view_dict["legal"]}
        assert not kinds & {"scout_draw", "scout_return"}  # Scout is over: no normal draw
        assert len(hand_of(screen)) == size
        assert "draw" not in kinds

    run_app(app, scenario)


def test_redeploy_moves_a_card_and_can_discard() -> None:
    session = session_before("redeploy", seed=5)
    app = FrontlinesApp(session=session, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        screen = game_screen(app)
        entries = [e for e in screen.view_dict["legal"] if e["kind"] == "redeploy"]
        moving = next((e for e in entries if e["target"] != "x"), entries[0])
        card, target = moving["card"], str(moving["target"])
        source = next(f["index"] for f in screen.view_dict["flags"] if card in f["sides"][0])
        await press_hand(pilot, screen, "RE")
        assert "Redeploy: at which flag" in screen_text(app)
        await pilot.press(str(source))
        if screen.picker.prefix[-1].kind != "card":
            cards = [t.value for t in screen.picker.options()]
            await pilot.press(str(cards.index(card) + 1))
        assert f"Redeploy {card}" in screen_text(app)
        await pilot.press(target)
        log = screen.session.state.view(0).to_dict()["log"]
        assert f"RE:{card}>{target}" in log
        flags = screen.session.state.view(0).to_dict()["flags"]
        if target != "x":
            assert card in flags[int(target) - 1]["sides"][0]
        assert card not in flags[source - 1]["sides"][0]

    run_app(app, scenario)


def test_deserter_discards_an_opponent_card() -> None:
    session = session_before("deserter", seed=7)
    app = FrontlinesApp(session=session, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        screen = game_screen(app)
        entry = next(e for e in screen.view_dict["legal"] if e["kind"] == "deserter")
        card = entry["card"]
        flag = next(f["index"] for f in screen.view_dict["flags"] if card in f["sides"][1])
        await press_hand(pilot, screen, "DE")
        assert "Deserter" in screen_text(app)
        await pilot.press(str(flag))
        if len(screen.session.state.history) == len(session.movers) and screen.picker.started:
            cards = [t.value for t in screen.picker.options()]
            await pilot.press(str(cards.index(card) + 1))
        data = screen.session.state.view(0).to_dict()
        assert f"DE:{card}" in data["log"]
        assert card not in data["flags"][flag - 1]["sides"][1]
        assert card in data["discards"][1]

    run_app(app, scenario)


def test_traitor_takes_an_opponent_troop() -> None:
    session = session_before("traitor", seed=9)
    app = FrontlinesApp(session=session, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        screen = game_screen(app)
        entry = next(e for e in screen.view_dict["legal"] if e["kind"] == "traitor")
        card, target = entry["card"], str(entry["target"])
        flag = next(f["index"] for f in screen.view_dict["flags"] if card in f["sides"][1])
        await press_hand(pilot, screen, "TR")
        await pilot.press(str(flag))
        if screen.picker.prefix[-1].kind != "card":
            cards = [t.value for t in screen.picker.options()]
            await pilot.press(str(cards.index(card) + 1))
        assert f"Traitor {card}" in screen_text(app)
        await pilot.press(target)
        data = screen.session.state.view(0).to_dict()
        assert f"TR:{card}>{target}" in data["log"]
        assert card in data["flags"][int(target) - 1]["sides"][0]

    run_app(app, scenario)


def test_arrows_and_enter_alone_play_every_kind_of_step() -> None:
    app = FrontlinesApp(GameConfig(ruleset="battleline", opponent="random", seat=0, seed=17), setup=False, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        rng = random.Random(17)
        kinds: set[str] = set()
        for _ in range(8):
            await settle(pilot, app)
            screen = game_screen(app)
            # a move near the cursor's start keeps the number of key presses small
            move = rng.choice(screen.picker.moves[:12])
            kinds.add(move.kind)
            await play_move(pilot, screen, move, arrows=True)
        assert {"play", "draw"} <= kinds

    run_app(app, scenario)


def test_escape_steps_back_and_illegal_flags_are_refused() -> None:
    session = session_before("play", seed=2)
    app = FrontlinesApp(session=session, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        screen = game_screen(app)
        entry = next(e for e in screen.view_dict["legal"] if e["kind"] == "play")
        before = len(screen.session.state.history)
        await press_hand(pilot, screen, entry["card"])
        assert screen.picker.started
        await pilot.press("escape")
        assert not screen.picker.started
        await press_hand(pilot, screen, entry["card"])
        allowed = {e["flag"] for e in screen.view_dict["legal"] if e.get("card") == entry["card"]}
        refused = [f for f in range(1, 10) if f not in allowed]
        if refused:
            await pilot.press(str(refused[0]))
            assert len(screen.session.state.history) == before
            assert "not possible" in screen_text(app)
        await pilot.press(str(entry["flag"]))
        assert len(screen.session.state.history) == before + 1

    run_app(app, scenario)


# --- claims ---------------------------------------------------------------------------------


def test_claims_show_the_proof_or_the_counter_example() -> None:
    app_holder: list[GameSession] = []
    for attempt in range(40):
        state = new_state("battleline-basic", seed=100 + attempt, options={"first_player": "0"})
        session = GameSession(state, (HUMAN, "random"), seed=attempt)
        rng = random.Random(attempt)
        for _ in range(300):
            if state.is_terminal():
                break
            if state.current_player() == 0:
                data = state.view(0).to_dict()
                failing = [f for f in data["flags"] if f["claim"] and not f["claim"]["claimable"]]
                if failing and any(e["kind"] == "claim" for e in data["legal"]):
                    app_holder.append(session)
                    break
            session.play(rng.choice(state.legal_actions()))
        if app_holder:
            break
    assert app_holder, "no position with one provable and one unprovable claim"
    app = FrontlinesApp(session=app_holder[0], bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        screen = game_screen(app)
        data = screen.view_dict
        bad = next(f for f in data["flags"] if f["claim"] and not f["claim"]["claimable"])
        good = next(e for e in data["legal"] if e["kind"] == "claim")
        assert f"{good['flag']}*" in screen_text(app)  # the flag row marks what can be claimed
        await pilot.press("c", str(bad["index"]))
        text = screen_text(app)
        assert "cannot be claimed" in text and "Counter-example" in text
        await pilot.press("i", str(bad["index"]))
        text = screen_text(app)
        assert f"Flag {bad['index']}" in text and "you:" in text and "opponent:" in text
        before = len(screen.session.state.history)
        await pilot.press("c", str(good["flag"]))
        assert len(screen.session.state.history) == before + 1
        assert screen.session.state.view(0).to_dict()["flags"][good["flag"] - 1]["claimed_by"] == 0
        assert f"Flag {good['flag']} claimed" in screen_text(app)

    run_app(app, scenario, size=(100, 30))


# --- undo, resign, save, load, replay -------------------------------------------------------


def test_undo_takes_back_to_the_players_previous_decision(tmp_path: Path) -> None:
    app = FrontlinesApp(GameConfig(ruleset="battleline", opponent="heuristic", seat=0, seed=21,
                                   options={"first_player": "0"}), setup=False, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        rng = random.Random(1)
        await settle(pilot, app)
        screen = game_screen(app)
        start = screen.session.state.to_notation()
        await play_move(pilot, screen, rng.choice(screen.picker.moves))  # play a card
        await settle(pilot, app)
        middle = screen.session.state.to_notation()
        await play_move(pilot, screen, rng.choice(screen.picker.moves))  # draw; the bot answers
        await settle(pilot, app)
        assert screen.session.state.current_player() == 0
        assert "+" in "".join(col.render().plain for col in app.screen.query(FlagColumn).results(FlagColumn))
        await pilot.press("h")  # a hint, thought out in a worker thread
        for _ in range(200):
            if "Hint (heuristic bot)" in screen_text(app):
                break
            await pilot.pause(0.01)
        assert "Hint (heuristic bot)" in screen_text(app)
        await pilot.press("u")
        await settle(pilot, app)
        assert screen.session.state.to_notation() == middle
        assert re.search(r"Took back (1 action|[2-9] actions)\.", screen_text(app)), screen_text(app)  # item 12
        await pilot.press("u")
        await settle(pilot, app)
        assert screen.session.state.to_notation() == start
        assert not screen.session.can_undo()

    run_app(app, scenario)


def test_resign_save_then_replay_and_load(tmp_path: Path) -> None:
    app = FrontlinesApp(GameConfig(ruleset="battleline", opponent="random", seat=0, seed=31),
                        setup=False, bot_delay=0, save_dir=tmp_path)
    saved = tmp_path / "game.txt"

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        rng = random.Random(2)
        for _ in range(5):
            await settle(pilot, app)
            screen = game_screen(app)
            await play_move(pilot, screen, rng.choice(screen.picker.moves))
        await settle(pilot, app)
        await pilot.press("r")
        await pilot.press("y")
        screen = game_screen(app)
        outcome = screen.session.state.outcome()
        assert outcome is not None and outcome.reason == "resignation" and outcome.winner == 1
        await pilot.press("s")
        assert isinstance(app.screen, SaveScreen)
        field = app.screen.query_one("#save-path")
        field.value = str(saved)  # type: ignore[attr-defined]
        await pilot.press("enter")
        assert saved.is_file()

    run_app(app, scenario)
    record = GameRecord.parse(saved.read_text())
    assert record.tags["Termination"] == "resignation"
    final = record.replay(parse_state)
    total = len(record.actions)

    replay = FrontlinesApp(replay=saved, bot_delay=0)

    async def watch(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert f"move 0/{total}" in screen_text(app)
        await pilot.press("right", "right", "right")
        assert f"move 3/{total}" in screen_text(app)
        await pilot.press("left")
        assert f"move 2/{total}" in screen_text(app)
        await pilot.press("end")
        assert f"move {total}/{total}" in screen_text(app)
        assert "resignation" in screen_text(app)
        assert screen.states[-1] == final
        await pilot.press("v")
        assert "P2's hand" in screen_text(app)
        await pilot.press("q")

    run_app(replay, watch)

    # --load continues a record; this one is over, so it opens on the game-over table
    loaded = FrontlinesApp(GameConfig(opponent="random"), load=saved, bot_delay=0)

    async def cont(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await pilot.pause()
        screen = game_screen(app)
        assert screen.session.state == final
        assert "resignation" in screen_text(app)

    run_app(loaded, cont)


def _saved_against(tmp_path: Path, opponent: str, seat: int, plies: int = 6) -> Path:
    """A game against ``opponent`` with the person in ``seat``, saved by the session after a few random actions."""
    session = GameSession.new(GameConfig(ruleset="battleline", opponent=opponent, seat=seat, seed=12))
    rng = random.Random(5)
    for _ in range(plies):
        session.play(rng.choice(session.state.legal_actions()))
    path = session.save(tmp_path / "saved.txt")
    session.close()
    return path


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    play_command.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_a_saved_game_resumes_against_its_own_opponent(tmp_path: Path) -> None:
    """Issue 30 item 23: --load without --opponent plays on against the saved bot in the
    saved seat (not the default medium); explicit flags still win."""
    path = _saved_against(tmp_path, "easy", seat=1)
    app = play_command.make_app(_args("--load", str(path), "--bot-delay", "0"))
    assert isinstance(app, FrontlinesApp)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        screen = game_screen(app)
        assert screen.session.kinds == ("easy", HUMAN) and screen.session.seed == 12
        text = screen_text(app)
        assert "You (P2) vs bot easy (P1)" in text and "Saved game resumed:" in text
        assert screen.message.plain == "Saved game resumed: you (P2) against bot easy (P1)."

    run_app(app, scenario)
    other = play_command.make_app(_args("--load", str(path), "--opponent", "hard", "--seat", "0"))
    assert isinstance(other, FrontlinesApp) and other.config.seat_kinds() == (HUMAN, "hard")
    friends = play_command.make_app(_args("--load", str(_saved_against(tmp_path, HUMAN, seat=0))))
    assert isinstance(friends, FrontlinesApp) and friends.config.seat_kinds() == (HUMAN, HUMAN)


def test_an_unfinished_save_shows_no_hidden_card(tmp_path: Path) -> None:
    """Issue 30 item 24: the file of an unfinished game does not show the bot's hand, the
    decks' order or the moves (they are sealed); it resumes exactly, and its replay shows the
    person's hand and the public view, never the bot's hand. A finished game's file is plain."""
    session = GameSession.new(GameConfig(ruleset="battleline", opponent="easy", seat=0, seed=12))
    rng = random.Random(5)
    for _ in range(9):
        session.play(rng.choice(session.state.legal_actions()))
    text = session.save(tmp_path / "half.txt").read_text(encoding="utf-8")
    readable = set(re.findall(r"[A-Za-z0-9]+", re.sub(r'\[Sealed "[^"]*"\]', "", text)))
    fields = dict(f.split("=", 1) for f in session.state.to_notation().split() if "=" in f)
    hidden = {code for key in ("h1", "td", "xd") for code in fields[key].split(".")}
    assert "Setup" not in text and "Sealed" in text and hidden and not hidden & readable
    assert 'Player1 "easy"' in text and 'Option_claim_timing "before_draw"' in text  # who and which rules: readable
    app = play_command.make_app(_args("--load", str(tmp_path / "half.txt"), "--bot-delay", "0"))
    assert isinstance(app, FrontlinesApp)

    async def resumed(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await pilot.pause()
        again = game_screen(app).session  # the same deal and the same moves (the bot may have moved on since)
        assert again.initial.to_notation() == session.initial.to_notation()
        assert again.state.history[:len(session.state.history)] == session.state.history

    run_app(app, resumed)
    replay = FrontlinesApp(replay=tmp_path / "half.txt", bot_delay=0)

    async def watch(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await pilot.pause()
        seen = []
        for _ in range(4):
            seen.append(screen_text(app).splitlines()[0])
            await pilot.press("v")
        assert any("P1's hand" in line for line in seen) and any("public" in line for line in seen)
        assert not any("P2's hand" in line for line in seen), seen

    run_app(replay, watch)
    session.resign(0)
    finished = session.save(tmp_path / "over.txt").read_text(encoding="utf-8")
    assert "Sealed" not in finished and GameRecord.parse(finished).tags["Setup"] == session.initial.to_notation()
    session.close()


def test_load_an_unfinished_record_and_play_on(tmp_path: Path) -> None:
    state = new_state("battleline", seed=44, options={"first_player": "0"})
    initial = state.clone()
    rng = random.Random(4)
    for _ in range(20):
        state.apply(rng.choice(state.legal_actions()))
    while state.current_player() != 0:
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "half.txt"
    path.write_text(GameRecord.from_state(initial, state, players=("human", "random")).to_text())
    app = FrontlinesApp(GameConfig(opponent="random", seat=0), load=path, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        screen = game_screen(app)
        assert screen.session.state == state
        assert screen.session.can_undo()  # the loaded moves can be taken back too
        rng = random.Random(9)
        for _ in range(4):
            await play_move(pilot, screen, rng.choice(screen.picker.moves))
            await settle(pilot, app)
        assert len(screen.session.state.history) > len(state.history)

    run_app(app, scenario)


# --- pass-and-play --------------------------------------------------------------------------


def test_pass_and_play_starts_with_whoever_moves_first() -> None:
    app = FrontlinesApp(GameConfig(ruleset="battleline", opponent="human", seed=8, options={"first_player": "1"}),
                        setup=False, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await pilot.pause()
        assert "Pass the device to Player 2" in screen_text(app)
        await pilot.press("enter")
        screen = game_screen(app)
        assert screen.viewer == 1 and screen.my_turn()

    run_app(app, scenario)


def test_pass_and_play_hides_each_hand() -> None:
    app = FrontlinesApp(GameConfig(ruleset="battleline", opponent="human", seed=8, options={"first_player": "0"}),
                        setup=False, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await until(pilot, lambda: isinstance(app.screen, PassScreen))
        assert isinstance(app.screen, PassScreen)
        state = game_screen(app).session.state
        hands = [state.view(0).to_dict()["hands"][0], state.view(1).to_dict()["hands"][1]]
        text = screen_text(app)
        assert "Pass the device to Player 1" in text
        assert not any(code in text.split() for code in hands[0] + hands[1])
        await pilot.press("enter")
        screen = game_screen(app)
        assert screen.viewer == 0 and "Hand 1:" in screen_text(app)
        rng = random.Random(1)
        # player 1 plays and draws; then the device must go to player 2
        while state.current_player() == 0:
            await play_move(pilot, screen, rng.choice(screen.picker.moves))
        assert isinstance(app.screen, PassScreen)
        text = screen_text(app)
        assert "Player 2" in text and "Hand" not in text
        await pilot.press("enter")
        assert screen.viewer == 1
        mine = state.view(1).to_dict()["hands"][1]
        assert all(code in screen_text(app) for code in mine)
        await pilot.press("u")  # no undo between two people
        assert "No undo in pass-and-play" in screen_text(app)

    run_app(app, scenario)


# --- layout, setup, responsiveness ----------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (132, 43)])
def test_table_fits_the_terminal(size: tuple[int, int]) -> None:
    session = session_before("play", seed=12, limit=40)
    app = FrontlinesApp(session=session, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        width, height = size
        for index in range(1, 10):
            column = app.screen.query_one(f"#flag-{index}", FlagColumn)
            region = column.region
            assert region.width >= 7 and region.right <= width and region.bottom <= height
        for widget_id in ("#hand", "#prompt", "#tracker", "#log", "#keys", "#status"):
            region = app.screen.query_one(widget_id).region
            assert region.height >= 1 and region.bottom <= height, widget_id
        lines = screen_text(app).splitlines()
        assert len(lines) <= height and all(len(line) <= width for line in lines)
        # ASCII only: no cell width depends on how a terminal treats ambiguous-width glyphs
        assert all(line.isascii() for line in lines)
        flag_row = next(line for line in lines if " 1" in line and " 9" in line and "Hand" not in line)
        assert all(str(i) in flag_row for i in range(1, 10))

    run_app(app, scenario, size=size)


def test_war_machine_front_fits_80x24() -> None:
    app = FrontlinesApp(GameConfig(ruleset="warmachine", opponent="random", seat=0, seed=9, first="me"),
                        setup=False, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        rng = random.Random(2)
        for _ in range(6):
            await settle(pilot, app)
            screen = game_screen(app)
            await play_move(pilot, screen, rng.choice(screen.picker.moves))
        await settle(pilot, app)
        lines = screen_text(app).splitlines()
        assert all(line.isascii() and len(line) <= 80 for line in lines) and len(lines) <= 24
        front = next(line for line in lines if all(f"{i} " in line for i in range(1, 7)) and "GER" in line)
        assert all(country in front for country in ("GER", "ITA", "JPN", "GBR", "USA", "URS"))
        for index in range(1, 7):
            region = app.screen.query_one(f"#pos-{index}").region
            assert region.right <= 80 and region.bottom <= 24
        assert "Hand 1:" in screen_text(app)

    run_app(app, scenario)


def test_setup_screen_starts_a_game() -> None:
    app = FrontlinesApp(GameConfig(ruleset="battleline-basic", opponent="random", seed=5), setup=True, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        text = screen_text(app)
        assert "Opponent" in text and "Seed" in text and "When flags may be claimed" in text
        assert "Any time before drawing" in text and "Player 1 (P1)" in text  # item 25: words, one numbering
        setup.query_one("#ruleset", Select).value = "schotten-totten-tactics"
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert "When stones may be claimed" in text and "It loses the stone" in text and "flag" not in text.lower()
        setup.query_one("#ruleset", Select).value = "medieval"
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert "Battlefield cards" in text and "Face down (no effects)" in text
        # no option name or value shows as an identifier, no seat counts from 0
        assert re.findall(r"\b[a-z]+_[a-z0-9_]+\b|\b(?:true|false)\b|seat [01]\b", text) == [], text
        chooser = next(sel for sel in setup.query("#options Select").results(Select) if sel.name == "battlefields")
        chooser.value = "face_up"
        setup.query_one("#first", Select).value = "me"
        await pilot.click("#start")
        await settle(pilot, app)
        screen = game_screen(app)
        assert screen.session.state.ruleset == "medieval"
        assert screen.view_dict["options"]["battlefields"] == "face_up"
        assert screen.session.kinds.count(HUMAN) == 1
        assert screen.my_turn()  # "First move: me"
        assert all(f["battlefield"]["face_up"] for f in screen.view_dict["flags"])
        first = screen.view_dict["flags"][0]["battlefield"]["name"].removeprefix("Battlefield ")
        assert f"1 {first[:4]}" in screen_text(app)  # the flag row names each battlefield

    run_app(app, scenario)


def test_setup_screen_opens_records(tmp_path: Path) -> None:
    state = new_state("schotten-totten", seed=3)
    initial = state.clone()
    rng = random.Random(3)
    for _ in range(9):
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "st.txt"
    path.write_text(GameRecord.from_state(initial, state, players=("human", "easy")).to_text())
    app = FrontlinesApp(GameConfig(opponent="random"), setup=True, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await pilot.pause()
        app.screen.query_one("#record", Input).value = str(tmp_path / "nothing.txt")
        app.screen.query_one("#replay", Button).press()
        await until(pilot, lambda: "No such file" in screen_text(app))
        app.screen.query_one("#record", Input).value = str(path)
        await pilot.pause()
        app.screen.query_one("#replay", Button).press()
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await until(pilot, lambda: "move 0/9" in screen_text(app))
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen))
        app.screen.query_one("#record", Input).value = str(path)
        await pilot.pause()
        app.screen.query_one("#load", Button).press()
        await settle(pilot, app)
        assert game_screen(app).session.state == state
        assert game_screen(app).session.kinds == (HUMAN, "easy")  # the saved opponent, not the chooser's (item 23)

    run_app(app, scenario)


def test_new_game_and_quit_ask_first() -> None:
    app = FrontlinesApp(GameConfig(ruleset="battleline", opponent="easy", seed=6), setup=False, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        await pilot.press("n")
        assert "Abandon this game" in screen_text(app)
        await pilot.press("n")  # no: back to the table
        assert isinstance(app.screen, GameScreen)
        await pilot.press("n", "y")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert isinstance(app.screen, SetupScreen)
        app.screen.query_one("#start", Button).press()
        await settle(pilot, app)
        assert game_screen(app).session.kinds.count("easy") == 1
        await pilot.press("q")
        assert "Quit this game?" in screen_text(app)
        await pilot.press("y")
        await until(pilot, lambda: not app.is_running)
        assert not app.is_running

    run_app(app, scenario)


def test_the_ui_answers_while_a_bot_thinks() -> None:
    import threading

    from frontlines.bots.base import Bot, Clock
    from frontlines.core.game import Action, View

    release = threading.Event()
    seen: list[View] = []

    class SlowBot(Bot):
        name = "slow"

        def choose(self, view: View, clock: Clock | None = None) -> Action:
            seen.append(view)
            # thinks until the test lets it, which it does however it ends (a cap of 5 s a loaded
            # machine could pass before the test looked; this one only ends a UI that waits on it)
            release.wait(60)
            return view.legal_actions()[0]

    state = new_state("battleline", seed=3, options={"first_player": "1"})
    session = GameSession(state, (HUMAN, "random"), seed=3)
    session.bots[1] = SlowBot()
    app = FrontlinesApp(session=session, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        try:
            await pilot.pause()
            screen = game_screen(app)
            assert screen.thinking
            await pilot.press("question_mark")  # the event loop is free: help opens at once
            assert "Frontlines - keys" in screen_text(app)
            await pilot.press("escape")
        finally:
            release.set()
        await settle(pilot, app)
        assert screen.my_turn()
        # the bot was handed its own view only: the human's hand is hidden from it
        assert seen and all(isinstance(v, View) and v.viewer == 1 for v in seen)
        assert all(v.to_dict()["hands"][0] is None for v in seen)

    run_app(app, scenario)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["battleline", "battleline-basic", "schotten-totten", "schotten-totten-tactics",
                                     "medieval", "warmachine"])
def test_soak_whole_games_in_every_ruleset(ruleset: str) -> None:
    """Long run (FRONTLINES_SLOW=1): whole games by keys in every ruleset, both seats."""
    options = {"battlefields": "mixed", "battlefield_set": "house"} if ruleset == "medieval" else {}
    for seat in (0, 1):
        app = FrontlinesApp(GameConfig(ruleset=ruleset, opponent="heuristic", seat=seat, seed=40 + seat,
                                       options=options), setup=False, bot_delay=0)

        async def scenario(pilot: Pilot[None], app: FrontlinesApp, seat: int = seat) -> None:
            await play_to_end(pilot, app, random.Random(seat))
            assert game_screen(app).session.state.is_terminal()

        run_app(app, scenario)


# --- numbered choices follow the table ------------------------------------------------------


def test_deserter_number_picks_the_card_as_drawn_seed_7() -> None:
    """The reported game: with R5 R3 Y4 R6 at flag 1 (from the flag outward), 1 is R5."""
    state = new_state("battleline", seed=7)
    session = GameSession(state, (HUMAN, HUMAN), seed=7)
    moves = ("R5@1 draw:tactics R3@2 draw:tactics TR:R3>1 draw:tactics R4@3 draw:tactics Y4@1 draw:troop "
             "CC@3 draw:tactics MU@1 draw:troop G3@4 draw:tactics R6@1 draw:troop")
    for text in moves.split():
        session.play_text(text)
    app = FrontlinesApp(session=session, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        screen = game_screen(app)
        assert side(screen, 1, 1 - screen.viewer) == ["R5", "R3", "Y4", "R6"]
        await press_hand(pilot, screen, "DE")
        await pilot.press("1")
        assert "1 R5  2 R3  3 Y4  4 R6" in prompt_of(screen)
        await pilot.press("1")
        assert screen.session.state.view(0).to_dict()["log"][-1] == "DE:R5"

    run_app(app, scenario)


def _position_with_choice(kind: str, seed: int) -> tuple[GameSession, int, list[str]]:
    """A game against a bot where seat 0 may play ``kind`` on two or more cards of one flag:
    the session, the flag and that side's cards from the flag outward."""
    for attempt in range(200):
        session = session_before(kind, seed=seed + 97 * attempt)
        data = session.state.view(0).to_dict()
        owner = 0 if kind == "redeploy" else 1
        for flag in data["flags"]:
            cards = list(flag["sides"][owner])
            takeable = {e["card"] for e in data["legal"] if e["kind"] == kind and e["card"] in cards}
            if len(takeable) >= 2 and takeable == set(cards):
                return session, int(flag["index"]), cards
    raise AssertionError(f"no position where {kind} chooses among cards")


@pytest.mark.parametrize(("kind", "code"), [("redeploy", "RE"), ("deserter", "DE"), ("traitor", "TR")])
def test_guile_numbers_pick_the_nth_card_as_drawn(kind: str, code: str) -> None:
    """For every N, the number N picks the N-th card of the flag as the table draws it."""
    session, flag, cards = _position_with_choice(kind, seed=3)
    app = FrontlinesApp(session=session, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        screen = game_screen(app)
        for n, card in enumerate(cards, 1):
            await press_hand(pilot, screen, code)
            await pilot.press(str(flag))
            assert f"{n} {card}" in prompt_of(screen)
            before = len(screen.session.state.history)
            await pilot.press(str(n))
            if kind == "deserter":  # the move is complete: check it, then take it back
                assert screen.session.state.view(0).to_dict()["log"][before] == f"DE:{card}"
                await pilot.press("u")
                await settle(pilot, app)
            else:
                assert screen.picker.prefix[-1].value == card
                await pilot.press("escape", "escape", "escape")
            assert not screen.picker.started

    run_app(app, scenario)


# --- refusals say why -----------------------------------------------------------------------


def _tactics_limit_position() -> tuple[GameSession, str]:
    """Seat 0 to play, holding a tactics card the tactics limit forbids (tactics played
    whenever possible, so the limit comes soon)."""
    for seed in range(1, 200):
        state = new_state("battleline", seed=seed, options={"first_player": "0"})
        rng = random.Random(seed)
        for _ in range(200):
            if state.is_terminal():
                break
            data = state.view(state.current_player()).to_dict()
            if state.current_player() == 0 and any(e["kind"] == "play" for e in data["legal"]):
                offered = {e.get("card") for e in data["legal"]}
                for code in data["hands"][0]:
                    if code in ("AL", "DA", "CC", "SB", "FO", "MU") and code not in offered:
                        why = state.explain_illegal(state.parse_action(f"{code}@1"))  # type: ignore[attr-defined]
                        if "tactics limit" in why:
                            return GameSession(state, (HUMAN, "random"), seed=seed), code
            tactics = [e for e in data["legal"] if e.get("card", "")[:1].isalpha() and e.get("card", "")[1:].isalpha()]
            entry = rng.choice(tactics or data["legal"])
            state.apply(state.parse_action(entry["text"]))
    raise AssertionError("no position where the tactics limit holds")


def test_a_refused_tactics_card_gives_the_tactics_limit() -> None:
    session, code = _tactics_limit_position()
    limited = [code]
    app = FrontlinesApp(session=session, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        await press_hand(pilot, game_screen(app), limited[0])
        assert "cannot be played now: tactics limit" in prompt_of(game_screen(app))

    run_app(app, scenario, size=(120, 40))


def test_a_refused_flag_names_the_battlefield() -> None:
    """The house battlefields face up: a flag whose battlefield bans the card says so, by name."""
    options = {"first_player": "0", "battlefields": "face_up", "battlefield_set": "house"}
    for seed in range(1, 100):
        state = new_state("medieval", seed=seed, options=options)
        data = state.view(0).to_dict()
        plays = {(e["card"], e["flag"]) for e in data["legal"] if e["kind"] == "play"}
        banned = [(card, f) for card in data["hands"][0] for f in range(1, 10)
                  if (card, f) not in plays and any(c == card for c, _ in plays)]
        if banned:
            card, flag = banned[0]
            session = GameSession(state, (HUMAN, "random"), seed=seed)
            break
    else:
        raise AssertionError("no battlefield that refuses a card")
    app = FrontlinesApp(session=session, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        screen = game_screen(app)
        await press_hand(pilot, screen, card)
        name = screen.view_dict["flags"][flag - 1]["battlefield"]["name"]
        assert f"{flag} {name}" in prompt_of(screen)  # the question names the battlefields that refuse it
        await pilot.press(str(flag))
        text = prompt_of(screen)
        name = screen.view_dict["flags"][flag - 1]["battlefield"]["name"]
        assert f"Flag {flag} is not possible:" in text and name in text

    run_app(app, scenario, size=(120, 40))


def test_quit_can_save_first(data_home: Path) -> None:
    """Issue 30 item 26: the quit dialog's choices one to a line at 80x24, naming the folder
    where saves go: by default the per-user data folder ($XDG_DATA_HOME/frontlines/saves)."""
    app = FrontlinesApp(GameConfig(ruleset="battleline", opponent="easy", seed=6), setup=False, bot_delay=0)
    saves = data_home / "frontlines" / "saves"

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        await pilot.press("q")
        lines = [part.strip() for line in screen_text(app).splitlines() for part in line.split("|")]
        for choice in ("Quit this game?", "s  save it (to continue later), then quit", "y  quit without saving",
                       "n  stay", "Saved games go to"):
            assert choice in lines, (choice, lines)  # each whole on its own line
        assert "(s)" not in screen_text(app)
        await pilot.press("s")
        assert isinstance(app.screen, SaveScreen)
        assert app.screen.query_one("#save-path", Input).value.startswith(str(saves))
        await pilot.press("enter")
        await until(pilot, lambda: not app.is_running)
        assert not app.is_running

    run_app(app, scenario)
    saved = list(saves.glob("frontlines-battleline-*.txt"))
    assert len(saved) == 1 and GameRecord.parse(saved[0].read_text(encoding="utf-8")).tags.get("Setup")


def test_quit_after_the_game_offers_to_save_its_record(tmp_path: Path) -> None:
    """Issue 30 item 26: q on a finished game whose record is not saved asks first; once it
    is saved, q quits at once."""
    asked: list[str] = []

    async def ask(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        await pilot.press("r", "y")
        await pilot.pause()
        await pilot.press("q")
        asked.append(screen_text(app))
        await pilot.press("s")
        assert isinstance(app.screen, SaveScreen)
        await pilot.press("enter")
        await pilot.pause()

    finished = FrontlinesApp(GameConfig(ruleset="battleline", opponent="easy", seed=6), setup=False, bot_delay=0,
                             save_dir=tmp_path)
    run_app(finished, ask)
    assert "The game is over; its record is not saved." in asked[0] and not finished.is_running
    saved = list(tmp_path.glob("frontlines-battleline-*.txt"))
    assert len(saved) == 1 and GameRecord.parse(saved[0].read_text(encoding="utf-8")).tags["Result"] == "0-1"

    async def saved_then_quit(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        await pilot.press("r", "y")
        await pilot.pause()
        await pilot.press("s")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("q")  # saved since it ended: nothing to ask
        await until(pilot, lambda: not app.is_running)
        assert not app.is_running

    run_app(FrontlinesApp(GameConfig(ruleset="battleline", opponent="easy", seed=6), setup=False, bot_delay=0,
                          save_dir=tmp_path / "again"), saved_then_quit)


def test_saves_go_to_the_per_user_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from frontlines.tui.session import default_save_dir, find_record

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_save_dir() == tmp_path / "xdg" / "frontlines" / "saves"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")  # the XDG rules: only an absolute path counts
    assert default_save_dir() == tmp_path / "home" / ".local" / "share" / "frontlines" / "saves"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_save_dir() == tmp_path / "home" / ".local" / "share" / "frontlines" / "saves"
    # a bare name is found in the saves folder; --load takes it too
    path = _saved_against(tmp_path, "easy", seat=0)
    saves = default_save_dir()
    saves.mkdir(parents=True)
    kept = saves / "kept.txt"
    kept.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert find_record("kept.txt") == kept and find_record("saved.txt") == Path("saved.txt")
    app = play_command.make_app(_args("--load", "kept.txt"))
    assert isinstance(app, FrontlinesApp) and app.load_path == kept and app.save_dir == saves
    assert play_command.make_app(_args("--load", "nothing.txt")) == "--load nothing.txt: no such record file"


# --- War Machine reads in words -------------------------------------------------------------


def test_war_machine_names_the_countries_of_each_end() -> None:
    app = FrontlinesApp(GameConfig(ruleset="warmachine", opponent="random", seat=0, seed=4, first="me"),
                        setup=False, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        screen = game_screen(app)
        while not any(m.kind == "deploy" for m in screen.picker.moves):
            await play_move(pilot, screen, screen.picker.moves[0])
            await settle(pilot, app)
        card = next(m for m in screen.picker.moves if m.kind == "deploy").entry["card"]
        text = screen_text(app)
        assert "Countries" in text or "G GER German" in text  # the legend of the hand's letters
        await press_hand(pilot, screen, card)
        prompt = prompt_of(screen)
        names = {"G": "German", "I": "Italian", "J": "Japanese", "B": "British", "U": "American", "R": "Soviet"}
        assert f"Card {card} ({names[card[0]]}/{names[card[1]]}): which end up?" in prompt
        assert f"w {names[card[0]]} war machine, strength 2, draw 1" in prompt
        assert f"i {names[card[1]]} infantry, strength 1, draw 2" in prompt
        lines = screen_text(app).splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)

    run_app(app, scenario)


def test_war_machine_end_breaks_the_score_down_and_shows_the_hands() -> None:
    app = FrontlinesApp(GameConfig(ruleset="warmachine", opponent="random", seat=0, seed=4), setup=False, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await play_to_end(pilot, app, random.Random(8))
        screen = game_screen(app)
        data = screen.session.view(0).to_dict()
        scores = data["scores"]
        text = screen_text(app)
        for seat, name in enumerate(("You", "bot random")):
            score = scores[seat]
            assert (f"{name}: {score['total']} = {score['countries']} for battles "
                    f"({' '.join(score['won']) or 'none'}) + {score['hand']} for the hand") in " ".join(
                prompt_of(screen).split())
        opponent_hand = data["hands"][1]
        assert opponent_hand is not None and " ".join(opponent_hand) in text  # revealed at the end
        assert "won: random" not in text and "won: medium" not in text
        assert "won: bot" in text or "won: you" in text
        await pilot.press("w", "end")  # the replay's last position says the same
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert f"= {scores[0]['countries']} for battles" in replay.query_one("#prompt", Pane).text.plain

    run_app(app, scenario)


def test_an_empty_hand_is_not_called_hidden() -> None:
    from frontlines.tui.widgets import _hand_of

    assert _hand_of({"hands": [[], None]}, 0) == ([], "Hand (empty) ")
    assert _hand_of({"hands": [None, None]}, 0) == ([], "Hand (hidden) ")
    assert _hand_of({"hands": [["GJ"], None]}, 0) == (["GJ"], "Hand ")


# --- Schotten Totten's words ----------------------------------------------------------------


def _no_flags(text: str) -> str:
    """``text`` (a whole screen), checked for Battle Line's words for places and troop cards."""
    assert not re.search(r"\b(flags?|troops?)\b", text, re.IGNORECASE), text
    return text


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_schotten_totten_says_stone_wherever_the_terminal_names_a_place(size: tuple[int, int]) -> None:
    """Table, prompts, claim proofs, refusals, help, log and replay: Schotten Totten's boundary
    stones are stones, never flags, and its troop cards clan cards (docs/rules.md §4.1); the
    sentences fit both sizes."""
    session = session_before("claim", ruleset="schotten-totten", seed=4)
    app = FrontlinesApp(session=session, bot_delay=0)

    async def scenario(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        screen = game_screen(app)
        provable = sorted(int(m.entry["flag"]) for m in screen.picker.moves if m.kind == "claim")
        text = _no_flags(screen_text(app))
        assert "clan deck" in text and "Unseen clan cards" in text
        assert re.search(r"\|(you|bot): draws clan card *$", text, re.MULTILINE), text  # whole, on one line
        assert f"claim stone {provable[0]}" in prompt_of(screen)
        await pilot.press("c")
        await pilot.pause()
        assert "Claim which stone?" in _no_flags(screen_text(app))
        assert f"Stone {provable[0]} can be claimed" in prompt_of(screen)
        empty = next(f for f in range(1, 10) if not side(screen, f, screen.viewer))
        await pilot.press(str(empty))  # nothing of ours there: refused, with the reason
        await pilot.pause()
        assert f"Stone {empty}: your side" in _no_flags(screen_text(app))
        assert f"Stone {empty}: your side is not complete" in prompt_of(screen)
        await pilot.press("i", str(empty))
        await pilot.pause()
        assert f"Stone {empty}; you: -" in _no_flags(screen_text(app))
        await pilot.press("question_mark")
        await pilot.pause()
        assert "claim a stone: provable stones" in _no_flags(screen_text(app))
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("c", str(provable[0]))
        await pilot.pause()
        text = _no_flags(screen_text(app))
        assert f"Stone {provable[0]} claimed" in text and f"claims stone {provable[0]}" in text
        await pilot.press("t")  # draw; then the bot moves, and it is our card play
        await settle(pilot, app)
        full = next(f for f in range(1, 10) if len(side(screen, f, screen.viewer)) == 3
                    and screen.view_dict["flags"][f - 1]["claimed_by"] is None)
        await pilot.press("1", str(full))
        await pilot.pause()
        assert f"Stone {full} is not possible" in _no_flags(screen_text(app))
        assert f"your side of stone {full} is full" in prompt_of(screen)
        replay = ReplayScreen(screen.session.record(), viewer=screen.viewer, standalone=False)
        await app.push_screen(replay)
        back = replay.texts[::-1].index(f"claim:{provable[0]}")
        await pilot.press("end", *["left"] * back)
        await pilot.pause()
        assert f"Last: P{screen.viewer + 1} claims stone {provable[0]}" in _no_flags(screen_text(app))

    run_app(app, scenario, size=size)
