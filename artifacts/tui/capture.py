"""Text captures of the terminal game for issue 30 (items 12, 23-26), made on purpose:

    .venv/bin/python artifacts/tui/capture.py          # writes artifacts/tui/i30-*.txt

Each capture is the screen as plain text (tests/tui/driver.py screen_text), at 80x24 and,
where the layout changes with room, at 120x40. Saves go to a temporary folder. The tests
never write here (tests/test_suite_hygiene.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # the checkout, for tests.tui.driver

from tests.tui.driver import game_screen, screen_text, settle  # noqa: E402

from frontlines.tui.app import FrontlinesApp  # noqa: E402
from frontlines.tui.session import GameConfig, GameSession  # noqa: E402

Scene = Callable[[Pilot[None], FrontlinesApp], Awaitable[None]]


def played(ruleset: str, moves: int, seed: int, opponent: str = "random") -> GameSession:
    """A game after ``moves`` random actions, stopped where the person (P1) is to move."""
    session = GameSession.new(GameConfig(ruleset=ruleset, opponent=opponent, seed=seed))
    rng = random.Random(seed)
    for _ in range(moves):
        session.play(rng.choice(session.state.legal_actions()))
    while not session.state.is_terminal() and session.to_move() != 0:
        session.play(rng.choice(session.state.legal_actions()))
    return session


async def nothing(pilot: Pilot[None], app: FrontlinesApp) -> None:
    await settle(pilot, app)


def keys(*pressed: str) -> Scene:
    async def scene(pilot: Pilot[None], app: FrontlinesApp) -> None:
        await settle(pilot, app)
        for key in pressed:
            await pilot.press(key)
            await pilot.pause()

    return scene


async def setup_screen(pilot: Pilot[None], app: FrontlinesApp) -> None:
    for _ in range(4):
        await pilot.pause()


async def undo_twice(pilot: Pilot[None], app: FrontlinesApp) -> None:
    """Two moves against the bot, then u: 'Took back N actions.'"""
    rng = random.Random(3)
    from tests.tui.driver import play_move

    for _ in range(2):
        await settle(pilot, app)
        screen = game_screen(app)
        await play_move(pilot, screen, rng.choice(screen.picker.moves))
    await settle(pilot, app)
    await pilot.press("u")
    await settle(pilot, app)


def capture(name: str, app: FrontlinesApp, scene: Scene, size: tuple[int, int]) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await scene(pilot, app)
            text = screen_text(app)
        path = HERE / f"i30-{name}-{size[0]}x{size[1]}.txt"
        path.write_text(text, encoding="utf-8")
        print(path.relative_to(HERE.parents[1]))

    asyncio.run(main())


def main() -> None:
    # a home of its own, so that the screens name the saves folder as a user reads it
    # (~/.local/share/frontlines/saves) and nothing lands in the real one
    home = Path(tempfile.mkdtemp(prefix="frontlines-captures-"))
    os.environ["HOME"] = str(home)
    os.environ.pop("XDG_DATA_HOME", None)
    saves = home / ".local" / "share" / "frontlines" / "saves"
    saves.mkdir(parents=True)
    # 26: the quit dialog, during the game and after it
    capture("quit-dialog", FrontlinesApp(GameConfig(ruleset="battleline", opponent="easy", seed=6), setup=False,
                                         bot_delay=0), keys("q"), (80, 24))
    capture("quit-after-game", FrontlinesApp(GameConfig(ruleset="battleline", opponent="easy", seed=6), setup=False,
                                             bot_delay=0), keys("r", "y", "q"), (80, 24))
    # 25: the setup screen in words, seats as P1/P2
    for ruleset in ("battleline", "warmachine", "schotten-totten-tactics"):
        for size in ((80, 24), (120, 40)) if ruleset == "battleline" else ((80, 24),):
            capture(f"setup-{ruleset}", FrontlinesApp(GameConfig(ruleset=ruleset), setup=True, bot_delay=0),
                    setup_screen, size)
    # 26: formation names on two rows (Schotten Totten's Colour over 15), War Machine's forces in words
    for size in ((80, 24), (120, 40)):
        capture("schotten-totten-colour", FrontlinesApp(session=played("schotten-totten", 60, 6), bot_delay=0),
                nothing, size)
        capture("warmachine-front", FrontlinesApp(session=played("warmachine", 14, 4), bot_delay=0), nothing, size)
    # 12: counts with plural forms
    capture("undo", FrontlinesApp(GameConfig(ruleset="battleline", opponent="heuristic", seed=21,
                                             options={"first_player": "0"}), setup=False, bot_delay=0),
            undo_twice, (80, 24))
    # 23/24: a save of an unfinished game against easy (sealed), resumed against easy
    session = played("battleline", 9, 12, opponent="easy")
    saved = session.save(saves / "unfinished.txt")
    (HERE / "i30-unfinished-save.txt").write_text(saved.read_text(encoding="utf-8"), encoding="utf-8")
    print("artifacts/tui/i30-unfinished-save.txt")
    from frontlines.commands import play as play_command

    parser = argparse.ArgumentParser()
    play_command.add_arguments(parser)
    app = play_command.make_app(parser.parse_args(["--load", str(saved), "--bot-delay", "0"]))
    assert isinstance(app, FrontlinesApp), app
    capture("resumed", app, nothing, (80, 24))


if __name__ == "__main__":
    main()
