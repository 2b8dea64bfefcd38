"""Drive the terminal app with Textual's pilot: keys (and clicks) for any legal move."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable

from textual.pilot import Pilot

from frontlines.tui.app import FrontlinesApp, GameScreen
from frontlines.tui.screens import PassScreen
from frontlines.tui.steps import ACTION, BUTTON, CARD, CLAIM, DECK, FLAG, HAND, Move, Token
from frontlines.tui.warmachine import END, END_KEYS

_DECK = {"troop": "t", "tactics": "a"}
_BUTTON = {"pass": "p", "end": "e", "skip": "p"}
_END = {v: k for k, v in END_KEYS.items()}


async def until(pilot: Pilot[None], ready: Callable[[], bool], timeout: float = 60.0) -> None:
    """Pause until ``ready()`` holds: a screen pushed or a file read from a button may take more than one
    pause on a loaded machine, so a test waits for what it means to see, not for a count of pauses."""
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError("the screen did not show what was awaited in time")
        await pilot.pause()
        await asyncio.sleep(0.005)


def game_screen(app: FrontlinesApp) -> GameScreen:
    screen = app.game_screen
    assert screen is not None
    return screen


async def settle(pilot: Pilot[None], app: FrontlinesApp, timeout: float = 60.0) -> None:
    """Wait until a human must act (passing the device when asked) or the game is over."""
    deadline = time.monotonic() + timeout
    while True:
        await pilot.pause()
        if isinstance(app.screen, PassScreen):
            await pilot.press("enter")
            continue
        if app.game_screen is None and time.monotonic() < deadline:
            await asyncio.sleep(0.005)  # a new game's screen is pushed from the app's queue
            continue
        screen = game_screen(app)
        if screen.session.state.is_terminal() or (screen.my_turn() and app.screen is screen):
            return
        if time.monotonic() > deadline:
            raise AssertionError("the bot did not answer in time")
        await asyncio.sleep(0.005)


def key_for(screen: GameScreen, token: Token, arrows: bool = False) -> list[str]:
    options = screen.picker.options()
    if arrows:
        pass
    elif token.kind == HAND:
        hand = (screen.view_dict.get("hands") or [None, None])[screen.viewer] or []
        position = hand.index(token.value) + 1
        if position <= 9:
            return [str(position)]
    elif token.kind == FLAG:
        return [token.value]
    elif token.kind == CLAIM:
        return ["c", token.value]
    elif token.kind == DECK:
        return [_DECK[token.value]]
    elif token.kind == BUTTON:
        return [_BUTTON[token.value]]
    elif token.kind == END:
        return [_END[token.value]]
    elif token.kind in (CARD, ACTION):
        listed = [t for t in options if t.kind == token.kind]
        position = listed.index(token) + 1
        if position <= 9:
            return [str(position)]
    # fall back on the cursor: move to the option, then Enter
    steps = (options.index(token) - screen.cursor) % len(options)
    return ["right"] * steps + ["enter"]


async def play_move(pilot: Pilot[None], screen: GameScreen, move: Move, arrows: bool = False) -> None:
    """Press the keys that build ``move`` one step at a time (only arrows and Enter if asked)."""
    history = len(screen.session.state.history)
    while len(screen.session.state.history) == history:
        prefix = screen.picker.prefix
        assert tuple(prefix) == move.path[: len(prefix)], (prefix, move)
        token = move.path[len(prefix)]
        await pilot.press(*key_for(screen, token, arrows))


async def play_to_end(pilot: Pilot[None], app: FrontlinesApp, rng: random.Random, max_moves: int = 3000) -> int:
    """Play random legal moves for every human seat until the game ends; returns the moves made."""
    made = 0
    while made < max_moves:
        await settle(pilot, app)
        screen = game_screen(app)
        if screen.session.state.is_terminal():
            return made
        move = rng.choice(screen.picker.moves)
        await play_move(pilot, screen, move)
        made += 1
    raise AssertionError("the game did not end")


def screen_text(app: FrontlinesApp) -> str:
    """The current screen as plain text, one line per terminal row."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()
