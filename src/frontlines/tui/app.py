"""``frontlines play``: the Textual application, the game screen and the replay viewer.

The app holds the full game state in a :class:`GameSession`; the table is always drawn
from ``state.view(seat).to_dict()`` of the human whose turn it is (or who sits at the
keyboard), so the screen never shows more than that player may know. Bots think in a
worker thread and are handed only their own view.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen

from frontlines.bots.base import Bot
from frontlines.core.actions import ActionRecord
from frontlines.core.errors import FrontlinesError
from frontlines.core.game import Action, View
from frontlines.core.record import GameRecord
from frontlines.tui.adapters import GameUI, ui_for
from frontlines.tui.render import Marks
from frontlines.tui.screens import ConfirmScreen, HelpScreen, PassScreen, QuitScreen, SaveScreen, SetupScreen
from frontlines.tui.session import (
    HUMAN,
    GameConfig,
    GameSession,
    default_save_dir,
    load_record,
    make_bot,
    replay_states,
    resume_config,
    seat_kind,
    shown_path,
)
from frontlines.tui.steps import ACTION, BUTTON, CARD, CLAIM, DECK, FLAG, HAND, Move, Picker, Token
from frontlines.tui.warmachine import END
from frontlines.tui.widgets import BattleLineBoard, FlagColumn, HandBar, Pane, WarMachineBoard
from frontlines.tui.words import describe_action, outcome_text, own_words, plural

_SCREEN_CSS = """
#status { height: 1; background: $boost; }
#bottom { height: 1fr; min-height: 4; }
#prompt { width: 1fr; height: 1fr; padding: 0 1; }
#tracker { width: 24; height: 1fr; border-left: ascii $primary; }
#tracker.hidden { display: none; }
#tracker.narrow { width: 16; }
#log { width: 22; height: 1fr; border-left: ascii $primary; }  /* "you: draws clan card" fits */
#keys { height: 1; background: $boost; }
"""


def _log_entries(view: Mapping[str, Any]) -> list[tuple[int | None, ActionRecord]]:
    """The view's public log as (seat, record) pairs; the seat is ``None`` where it is unknown."""
    out: list[tuple[int | None, ActionRecord]] = []
    for entry in view.get("log_records") or []:
        seat = entry.get("seat")
        out.append((int(seat) if seat is not None else None, ActionRecord.from_dict(entry)))
    return out


def _log_lines(view: Mapping[str, Any], names: Sequence[str], height: int) -> Text:
    """The last ``height`` public actions, each with who made it where the view says."""
    lines: list[str] = []
    for seat, record in _log_entries(view):
        who = names[seat] + ": " if seat is not None and 0 <= seat < len(names) else ""
        lines.append(f"{who}{describe_action(record, view.get('card_names'))}")
    shown = lines[-max(1, height - 1):]
    out = Text("Log\n", style="bold underline")
    out.append("\n".join(shown))
    return out


def _board(screen: Screen[None]) -> BattleLineBoard | WarMachineBoard:
    board = screen.query_one("#board")
    assert isinstance(board, BattleLineBoard | WarMachineBoard)
    return board


def _inner(pane: Pane) -> tuple[int, int]:
    """Width and height of a pane's text (the defaults before its first layout)."""
    region = pane.content_region
    return (region.width or 23, region.height or 8)


def _short_names(session: GameSession) -> list[str]:
    """Names for the narrow log column."""
    if session.pass_and_play:
        return ["P1", "P2"]
    return ["you" if kind == "human" else "bot" for kind in session.kinds]


def speak_ruleset(screen: Screen[None], view: Mapping[str, Any]) -> Callable[[str], str] | None:
    """Make every pane of ``screen`` say what ``view``'s ruleset says (Schotten Totten's
    stones for flags); returns the rewording for the screens it opens (help)."""
    words = own_words(view)
    for pane in screen.query(Pane):
        pane.words = words
    return words


def table_layout(ui: GameUI) -> ComposeResult:
    """The table both the game and the replay screens show: status, board, prompt/tracker/log, keys."""
    yield Pane(id="status")
    yield ui.board()
    with Horizontal(id="bottom"):
        yield Pane(id="prompt")
        yield Pane(id="tracker", classes=" ".join([*([] if ui.has_tracker else ["hidden"]),
                                                   *(["narrow"] if ui.narrow_tracker else [])]))
        yield Pane(id="log")
    yield Pane(id="keys")


class GameScreen(Screen[None]):
    """The table during a game, driven by keys and the mouse."""

    DEFAULT_CSS = _SCREEN_CSS

    def __init__(self, session: GameSession, *, bot_delay: float = 0.4, save_dir: Path | None = None) -> None:
        super().__init__()
        self.session = session
        self.bot_delay = bot_delay
        self.save_dir = save_dir or default_save_dir()
        self.saved_at: tuple[int, bool] | None = None  # (actions, over) when the record was last saved
        humans = session.humans
        self.viewer: int = humans[0] if humans else 0
        mover = session.to_move()
        if session.pass_and_play and mover is not None:
            self.viewer = mover  # the device starts with whoever moves first
        self.picker = Picker([])
        self.claim_mode = False
        self.info_mode = False  # "i": the next flag number explains that flag
        self.listed: list[Token] = []  # choices written one per line at the top of the prompt
        self.cursor = 0
        self.message: Text = Text()
        self.view_dict: dict[str, Any] = {}
        # True while a bot's worker thread runs; only one runs at a time, even after an
        # undo made its answer stale, because a bot object need not be thread-safe.
        self.thinking = False
        self.generation = 0  # bumped by undo/new game: a late bot answer is then ignored
        self.hint_bot: Bot | None = None
        self.hinting = False
        self._position: tuple[int, int | None] | None = None
        self.ui = ui_for(session.state.game)
        self.words: Callable[[str], str] | None = None

    # --- layout ---------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield from table_layout(self.ui)

    def on_mount(self) -> None:
        self.words = speak_ruleset(self, self.session.view(self.viewer).to_dict())
        if self.session.pass_and_play and not self.session.state.is_terminal():
            self._hand_over()
        self.refresh_table()
        self.schedule_bot()

    def on_resize(self) -> None:
        if self.view_dict:
            self.refresh_table()  # the log shows as many lines as fit

    # --- state to screen ------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return [self.session.name(0), self.session.name(1)]

    def my_turn(self) -> bool:
        return self.session.human_to_move() and self.session.to_move() == self.viewer

    def refresh_table(self) -> None:
        session = self.session
        view = session.view(self.viewer)
        data = view.to_dict()
        self.view_dict = data
        position = (len(session.state.history), session.to_move())
        if position != self._position:
            self._position = position
            self.picker.reset(self.ui.moves(data) if self.my_turn() else [])
            self.claim_mode = False
            self.cursor = 0
        self._draw(view, data)

    def _options(self) -> list[Token]:
        if self.claim_mode:  # any flag may be tried; only the provable ones are marked
            return [t for t in self.picker.options() if t.kind == CLAIM]
        return self.picker.options()

    def _cursor_token(self) -> Token | None:
        options = self._options()
        if not options or self.claim_mode:
            return None
        return options[self.cursor % len(options)]

    def _marks(self) -> tuple[Marks, set[str], str | None, int | None]:
        data = self.view_dict
        marks = Marks()
        for move in self.picker.moves:
            if move.kind == "claim" and move.entry.get("flag") is not None:
                marks.claimable.add(int(move.entry["flag"]))
        options = self._options()
        me = self.viewer
        marks.recent = self._recent_cards()
        owner = self.ui.card_owner(self.picker.head(), me)
        hand_offered: set[str] = set()
        for token in options:
            if token.kind == HAND:
                hand_offered.add(token.value)
            elif token.kind in (FLAG, CLAIM) and token.value.isdigit():
                marks.flags.add(int(token.value))
            elif token.kind == CARD:
                marks.cards.add((owner, token.value))
        hand_chosen = None
        for token in self.picker.prefix:
            if token.kind == HAND:
                hand_chosen = token.value
            elif token.kind == CARD:
                marks.chosen.add((owner, token.value))
        cursor = self._cursor_token()
        hand_cursor = None
        if cursor is not None:
            if cursor.kind == HAND:
                hands = data.get("hands") or [None, None]
                hand = hands[me] or []
                hand_cursor = hand.index(cursor.value) if cursor.value in hand else None
            elif cursor.kind in (FLAG, CLAIM) and cursor.value.isdigit():
                marks.cursor_flag = int(cursor.value)
            elif cursor.kind == CARD:
                marks.cursor_card = (owner, cursor.value)
        return marks, hand_offered, hand_chosen, hand_cursor

    def _recent_cards(self) -> set[tuple[int, str]]:
        """Cards the other side placed since this player's last action (marked ``R7+``)."""
        recent: set[tuple[int, str]] = set()
        for mover, record in reversed(_log_entries(self.view_dict)):
            if mover is None or mover == self.viewer:
                break
            if record.placed is not None:
                recent.add((mover, record.placed))
        return recent

    def _draw(self, view: View, data: Mapping[str, Any]) -> None:
        names = self.names
        marks, offered, chosen, hand_cursor = self._marks()
        _board(self).show(data, self.viewer, marks, names, offered, chosen, hand_cursor)
        self.query_one("#status", Pane).show(self._status_text(data))
        self.query_one("#prompt", Pane).show(self._prompt_text(data))
        tracker = self.query_one("#tracker", Pane)
        tracker.show(self.ui.tracker(data, *_inner(tracker)))
        # a long explanation (claim proofs, counter-examples) borrows the tracker's room
        long_end = self.session.state.is_terminal() and bool(self.ui.end_text(data, self.names))
        tracker.set_class(not self.ui.has_tracker or len(self.message.plain) > 90 or long_end, "hidden")
        log = self.query_one("#log", Pane)
        log.show(_log_lines(data, _short_names(self.session), max(3, log.size.height)))
        self.query_one("#keys", Pane).show(self._keys_text())

    def _status_text(self, data: Mapping[str, Any]) -> Text:
        session = self.session
        state = session.state
        names = self.names
        out = Text(f" {state.ruleset} ", style="bold reverse")
        opponent = 1 - self.viewer
        out.append(f" {names[self.viewer]} (P{self.viewer + 1}) vs {names[opponent]} (P{opponent + 1})  ")
        if state.is_terminal():
            out.append("Game over (see below)", style="bold")
        elif self.my_turn():
            out.append(f"{names[self.viewer]}: your move", style="bold")
        else:
            mover = session.to_move()
            if mover is not None:
                out.append(f"{names[mover]} is thinking..." if session.bot_to_move() is not None
                           else f"{names[mover]} to move")
        if session.seed is not None:
            out.append(f"  seed {session.seed}", style="dim")
        return out

    def _step_question(self) -> str:
        """What the current step asks, in words."""
        if self.claim_mode:
            return "Claim which flag? Press 1-9 (Esc: cancel)."
        picker = self.picker
        return self.ui.question(picker.prefix, picker.options(), picker.candidates(), self.view_dict)

    def _prompt_text(self, data: Mapping[str, Any]) -> Text:
        out = Text()
        state = self.session.state
        if state.is_terminal():
            out.append(outcome_text(data.get("outcome"), self.names) + "\n", style="bold")
            breakdown = self.ui.end_text(data, self.names)
            if breakdown:
                out.append(breakdown + "\n")
            out.append("s save record   w watch the replay   n new game   q quit\n")
            if self.session.can_undo():
                out.append("u take back your last move\n")
        elif self.my_turn():
            options = self._options()
            self.listed = []
            if not self.claim_mode and options and options[0].kind in (ACTION, END):
                # listed first, one per line, so that a click on line y picks option y
                self.listed = options[:9]
                for i, token in enumerate(self.listed, 1):
                    mark = ">" if i - 1 == self.cursor % len(options) else " "
                    key, label = self.ui.option_line(token, i, self.picker.prefix)
                    out.append(f"{mark}{key} {label}\n")
            out.append(self._step_question() + "\n", style="bold")
            cursor = self._cursor_token()
            if cursor is not None and cursor.kind in (DECK, BUTTON, CLAIM):
                what = {DECK: f"draw from the {cursor.value} deck", BUTTON: cursor.value,
                        CLAIM: f"claim flag {cursor.value}"}[cursor.kind]
                out.append(f"Enter: {what}\n", style="dim")
        else:
            mover = self.session.to_move()
            if mover is not None:
                out.append(f"Waiting for {self.names[mover]}...\n", style="dim")
        if self.message.plain:
            out.append_text(self.message)
        return out

    def _keys_text(self) -> Text:
        parts = ["?help"]
        if self.my_turn():
            parts.insert(0, "h hint")
            parts.insert(0, "arrows+Enter")
            if self.ui.claims:
                parts.insert(0, "c claim")
        if self.session.can_undo():
            parts.append("u undo")
        if not self.session.state.is_terminal():
            parts.append("r resign")
        parts += ["s save", "q quit"]
        return Text(" " + "  ".join(parts), style="dim")

    # --- moves ----------------------------------------------------------------------
    def say(self, text: str, style: str = "") -> None:
        self.message = Text(text, style=style)

    def choose(self, token: Token) -> None:
        """Take one step of the move being built; play it when complete."""
        try:
            move = self.picker.choose(token)
        except ValueError:
            self.say(f"Not possible now: {token.value}", "yellow")
            self.refresh_table()
            return
        self.cursor = 0
        self.message = Text()
        if move is not None:
            self.submit(move)
        else:
            self.refresh_table()

    def submit(self, move: Move) -> None:
        note = self.ui.move_note(move, self.view_dict)
        try:
            self.session.play_text(move.text)
        except FrontlinesError as exc:
            self.say(f"The engine refused {move.text}: {exc}", "red")
            self.picker.reset()
            self.refresh_table()
            return
        self.message = Text(note, style="green") if note else Text()
        self.after_move()

    def after_move(self) -> None:
        session = self.session
        if session.pass_and_play and not session.state.is_terminal():
            mover = session.to_move()
            if mover is not None and mover != self.viewer:
                self.viewer = mover
                self._position = None
                self._hand_over()
        self.refresh_table()
        self.schedule_bot()

    def _hand_over(self) -> None:
        self.message = Text()
        self.app.push_screen(PassScreen(self.session.name(self.viewer)), callback=lambda _r: self.refresh_table())

    def _claim_list(self) -> Text:
        """Each flag the player can claim now, with its proof in words."""
        provable = [int(t.value) for t in self.picker.options() if t.kind == CLAIM]
        return self.ui.claim_list(self.view_dict, provable)

    def show_flag(self, flag: int) -> None:
        text = self.ui.place_text(self.view_dict, flag, self.viewer)
        if text is not None:
            self.say(text)
        self.refresh_table()

    def try_claim(self, flag: int) -> None:
        token = Token(CLAIM, str(flag))
        self.claim_mode = False
        if token in self.picker.options():
            self.choose(token)
            return
        text = self.ui.claim_refusal(self.view_dict, flag)
        if text is not None:
            self.say(text, "yellow")
        self.refresh_table()

    # --- bots -----------------------------------------------------------------------
    def schedule_bot(self) -> None:
        seat = self.session.bot_to_move()
        if seat is None or self.thinking:
            return
        bot = self.session.bots[seat]
        view = self.session.view(seat)
        self.thinking = True
        generation = self.generation
        self.run_worker(lambda: self._think(bot, view, seat, generation), thread=True,
                        exit_on_error=False, group="bot", name=f"bot-{seat}")

    def _think(self, bot: Bot, view: View, seat: int, generation: int) -> None:
        """Runs in a worker thread: only the bot's own view crosses over."""
        try:
            action: Action = bot.choose(view)
        except Exception as exc:  # a bot crash must not kill the app
            self._post(self._bot_failed, generation, seat, exc)
            return
        self._post(self._bot_done, generation, seat, action)

    def _post(self, callback: Any, *args: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the app may already have shut down
            self.app.call_from_thread(callback, *args)

    def _bot_done(self, generation: int, seat: int, action: Action) -> None:
        self.thinking = False
        if generation != self.generation or self.session.to_move() != seat:
            self.schedule_bot()
            return
        try:
            self.session.play(action)
        except FrontlinesError as exc:
            self._bot_failed(generation, seat, exc)
            return
        self.refresh_table()
        if self.session.bot_to_move() is not None and self.bot_delay > 0:
            self.set_timer(self.bot_delay, self.schedule_bot)
        else:
            self.after_move()

    def _bot_failed(self, generation: int, seat: int, exc: BaseException) -> None:
        self.thinking = False
        if generation != self.generation:
            self.schedule_bot()
            return
        self.session.forfeit(seat, exc)
        self.say(f"The bot failed and forfeits: {exc}", "red")
        self.refresh_table()

    # --- hints ----------------------------------------------------------------------
    def action_hint(self) -> None:
        """Ask the heuristic bot, from this player's own view, what it would play."""
        if not self.my_turn() or self.hinting:
            return
        if self.hint_bot is None:
            self.hint_bot = make_bot("heuristic", self.session.seed)
            self.hint_bot.new_game(self.session.state.ruleset, self.viewer, self.session.seed)
        bot, view, position = self.hint_bot, self.session.view(self.viewer), self._position
        self.hinting = True
        self.say("Thinking about a hint...", "dim")
        self.refresh_table()
        self.run_worker(lambda: self._think_hint(bot, view, position), thread=True, exit_on_error=False,
                        group="hint", name="hint")

    def _think_hint(self, bot: Bot, view: View, position: object) -> None:
        try:
            record: ActionRecord | None = view.describe_action(bot.choose(view))
        except Exception:  # a hint is a nicety; never let it break the game
            record = None
        self._post(self._hint_done, position, record)

    def _hint_done(self, position: object, record: ActionRecord | None) -> None:
        self.hinting = False
        if position != self._position:
            return  # the game moved on meanwhile
        if record is None:
            self.say("No hint available.", "yellow")
        else:
            self.say(f"Hint (heuristic bot): {describe_action(record, self.view_dict.get('card_names'))} "
                     f"({record.text})", "cyan")
        self.refresh_table()

    # --- input ----------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        key = event.key
        handled = self._handle_key(key, event.character)
        if handled:
            event.stop()
            event.prevent_default()

    def _handle_key(self, key: str, character: str | None) -> bool:
        if key in ("question_mark",) or character == "?":
            self.app.push_screen(HelpScreen(self.words))
            return True
        if key == "q":
            self.action_quit_game()
            return True
        if key == "s":
            self.action_save()
            return True
        if key == "u":
            self.action_undo()
            return True
        if key == "n":
            self.action_new_game()
            return True
        terminal = self.session.state.is_terminal()
        if terminal:
            if key == "w":
                self.app.push_screen(ReplayScreen(self.session.record(), viewer=self.viewer, standalone=False))
                return True
            return False
        if key == "r":
            self.action_resign()
            return True
        if not self.my_turn():
            return False
        if key == "h":
            self.action_hint()
            return True
        return self._turn_key(key, character)

    def _turn_key(self, key: str, character: str | None) -> bool:
        options = self._options()
        kinds = {t.kind for t in options}
        if key == "escape":
            if self.claim_mode or self.info_mode:
                self.claim_mode = self.info_mode = False
            elif not self.picker.back():
                self.message = Text()
            self.cursor = 0
            self.refresh_table()
            return True
        if key == "i" and self.ui.claims:
            self.info_mode = not self.info_mode
            self.claim_mode = False
            self.say("Which flag? Press 1-9." if self.info_mode else "")
            self.refresh_table()
            return True
        if self.info_mode and character is not None and character.isdigit() and character != "0":
            self.info_mode = False
            self.show_flag(int(character))
            return True
        if key == "c" and self.ui.claims and not self.picker.started:
            self.claim_mode = not self.claim_mode
            self.message = self._claim_list() if self.claim_mode else Text()
            self.refresh_table()
            return True
        if key in ("left", "right", "up", "down") and options and not self.claim_mode:
            step = 1 if key in ("right", "down") else -1
            self.cursor = (self.cursor + step) % len(options)
            self.refresh_table()
            return True
        if key == "enter":
            token = self._cursor_token()
            if token is not None:
                self.choose(token)
            return True
        lettered = self.ui.key_token(key, options)
        if lettered is not None:
            self.choose(lettered)
            return True
        if character is not None and character.isdigit() and character != "0":
            self._digit(int(character), options, kinds)
            return True
        return False

    def _digit(self, n: int, options: list[Token], kinds: set[str]) -> None:
        if self.claim_mode:
            self.try_claim(n)
        elif FLAG in kinds:
            token = Token(FLAG, str(n))
            if token in options:
                self.choose(token)
            else:
                self.say(self.ui.place_refusal(self.session.state, self.view_dict, self.picker.prefix, n), "yellow")
                self.refresh_table()
        elif CARD in kinds or ACTION in kinds or DECK in kinds or END in kinds:
            listed = [t for t in options if t.kind in (CARD, ACTION, DECK, END)]
            if n <= len(listed):
                self.choose(listed[n - 1])
        elif HAND in kinds:
            hands = self.view_dict.get("hands") or [None, None]
            hand = hands[self.viewer] or []
            if n > len(hand):
                return
            token = Token(HAND, hand[n - 1])
            if token in options:
                self.choose(token)
            else:
                self.say(self.ui.hand_refusal(self.session.state, self.view_dict, hand[n - 1]), "yellow")
                self.refresh_table()

    @on(HandBar.Clicked)
    def hand_clicked(self, event: HandBar.Clicked) -> None:
        if not self.my_turn():
            return
        hands = self.view_dict.get("hands") or [None, None]
        hand = hands[self.viewer] or []
        if event.position >= len(hand):
            return
        token = Token(HAND, hand[event.position])
        if self.picker.started and token not in self.picker.options():
            self.picker.reset()  # clicking another card starts over with that card
        self.claim_mode = False
        if token in self.picker.options():
            self.choose(token)
        else:
            self.say(self.ui.hand_refusal(self.session.state, self.view_dict, token.value), "yellow")
            self.refresh_table()

    def on_click(self, event: events.Click) -> None:
        """A click on a listed choice in the prompt picks it (War Machine ends, set-up)."""
        widget = event.widget
        if widget is None or widget.id != "prompt" or not self.my_turn():
            return
        row = event.screen_y - widget.content_region.y
        if 0 <= row < len(self.listed):
            self.choose(self.listed[row])

    @on(FlagColumn.Clicked)
    def flag_clicked(self, event: FlagColumn.Clicked) -> None:
        if not self.my_turn():
            return
        options = self.picker.options()
        flag_token = Token(FLAG, str(event.flag))
        if event.what == "card" and event.code is not None:
            if flag_token in options:
                self.picker.choose(flag_token)
                options = self.picker.options()
            card_token = Token(CARD, event.code)
            if card_token in options:
                self.choose(card_token)
                return
        if flag_token in options:
            self.choose(flag_token)
            return
        if not self.picker.started and self.ui.claims:
            if Token(CLAIM, str(event.flag)) in options:
                self.try_claim(event.flag)
            else:
                self.show_flag(event.flag)

    # --- actions --------------------------------------------------------------------
    def action_undo(self) -> None:
        if not self.session.can_undo():
            self.say("Nothing to undo." if not self.session.pass_and_play else "No undo in pass-and-play.", "yellow")
            self.refresh_table()
            return
        self.generation += 1  # a bot still thinking is answered into the void
        popped = self.session.undo()
        self._position = None
        self.say(f"Took back {plural(popped, 'action', 'actions')}.")
        self.refresh_table()
        self.schedule_bot()

    def action_resign(self) -> None:
        def done(yes: bool | None) -> None:
            if yes and not self.session.state.is_terminal():
                self.generation += 1
                self.session.resign(self.viewer)
                self._position = None
                self.refresh_table()

        self.app.push_screen(ConfirmScreen(f"{self.names[self.viewer]}: resign this game?"), callback=done)

    def action_save(self, then_quit: bool = False) -> None:
        """Ask for a file name and save the record there (and quit once saved, if asked)."""
        def done(path: Path | None) -> None:
            if path is None:
                return
            try:
                self.session.save(path)
            except OSError as exc:
                self.say(f"Could not save: {exc}", "red")
            else:
                self.saved_at = self._progress()
                self.say(f"Saved to {shown_path(path)}", "green")
                if then_quit:
                    self.generation += 1
                    self.app.exit(message=f"Saved to {path}")
                    return
            self.refresh_table()

        self.app.push_screen(SaveScreen(self.save_dir / self.session.default_filename()), callback=done)

    def action_new_game(self) -> None:
        def done(yes: bool | None) -> None:
            if yes:
                self.generation += 1
                app = self.app
                if isinstance(app, FrontlinesApp):
                    app.back_to_setup()

        if self.session.state.is_terminal():
            done(True)
        else:
            self.app.push_screen(ConfirmScreen("Abandon this game and start a new one?"), callback=done)

    def action_quit_game(self) -> None:
        def done(answer: str | None) -> None:
            if answer == "quit":
                self.generation += 1
                self.app.exit()
            elif answer == "save":
                self.action_save(then_quit=True)

        over = self.session.state.is_terminal()
        if over and self.saved_at == self._progress():
            self.generation += 1
            self.app.exit()
        else:
            self.app.push_screen(QuitScreen(game_over=over, save_dir=self.save_dir), callback=done)

    def _progress(self) -> tuple[int, bool]:
        """How far the game has gone: what a saved record is compared with."""
        return (len(self.session.state.history), self.session.state.is_terminal())

    def on_unmount(self) -> None:
        self.generation += 1


class ReplayScreen(Screen[None]):
    """Steps through a record with left/right; ``v`` changes whose hand is shown."""

    DEFAULT_CSS = _SCREEN_CSS

    def __init__(self, record: GameRecord, *, viewer: int | None = 0, standalone: bool = True) -> None:
        super().__init__()
        self.record = record
        self.states, self.texts = replay_states(record)
        self.index = 0
        self.viewer = viewer
        self.standalone = standalone
        self.ui = ui_for(self.states[0].game)
        self.players = (record.tags.get("Player0") or "P1", record.tags.get("Player1") or "P2")
        # A finished game shows every hand; an unfinished one only the hands of the people
        # who play it (a saved game against a bot must not show the bot's cards here either)
        self.shown: list[int | None] = [0, 1, None]
        if not self.states[-1].is_terminal():
            self.shown = [seat for seat in (0, 1) if seat_kind(self.players[seat]) == HUMAN] + [None]
        if self.viewer not in self.shown:
            self.viewer = self.shown[0]
        self.words: Callable[[str], str] | None = None

    def compose(self) -> ComposeResult:
        yield from table_layout(self.ui)

    def on_mount(self) -> None:
        self.words = speak_ruleset(self, self.states[0].view(None).to_dict())
        self.show()

    def show(self) -> None:
        state = self.states[self.index]
        view = state.view(self.viewer)
        data = view.to_dict()
        me = 0 if self.viewer is None else self.viewer
        names = [f"P1 {self.players[0]}", f"P2 {self.players[1]}"]
        marks = Marks()
        last = self.record_of(self.index)
        if last is not None:
            mover = self.states[self.index - 1].current_player()
            if mover is not None and last.placed is not None:
                marks.recent.add((mover, last.placed))  # the card the last action placed: R7+
        _board(self).show(data, me, marks, names, set(), None, None)
        total = len(self.states) - 1
        status = Text(" REPLAY ", style="bold reverse")
        seat = "everyone (public)" if self.viewer is None else f"P{self.viewer + 1}'s hand"
        status.append(f" {state.ruleset}  move {self.index}/{total}  showing {seat}")
        self.query_one("#status", Pane).show(status)
        prompt = Text()
        names_of = data.get("card_names")
        if last is not None:
            mover = self.states[self.index - 1].current_player()
            who = f"P{mover + 1} " if mover is not None else ""
            prompt.append(f"Last: {who}{describe_action(last, names_of)} ({self.texts[self.index]})\n", style="bold")
        following = self.record_of(self.index + 1)
        if following is not None:
            prompt.append(f"Next: {describe_action(following, names_of)}\n")
        if state.is_terminal():
            prompt.append(outcome_text(data.get("outcome"), names) + "\n", style="bold")
            breakdown = self.ui.end_text(data, names)
            if breakdown:
                prompt.append(breakdown + "\n")
        self.query_one("#prompt", Pane).show(prompt)
        tracker = self.query_one("#tracker", Pane)
        tracker.show(self.ui.tracker(data, *_inner(tracker)))
        log = Text("Moves\n", style="bold underline")
        height = max(3, self.query_one("#log", Pane).size.height) - 1
        start = max(1, self.index - height + 1)
        log.append("\n".join(f"{i} {self.texts[i]}" for i in range(start, self.index + 1)))
        self.query_one("#log", Pane).show(log)
        self.query_one("#keys", Pane).show(Text(" left/right step  Home/End  v seat  q back  ? help", style="dim"))

    def record_of(self, index: int) -> ActionRecord | None:
        """The action that led to position ``index``, described by the position before it."""
        if not 0 < index < len(self.states):
            return None
        before = self.states[index - 1]
        return before.describe_action(before.parse_action(self.texts[index]))

    def on_key(self, event: events.Key) -> None:
        key = event.key
        last = len(self.states) - 1
        if key in ("right", "l", "space"):
            self.index = min(last, self.index + 1)
        elif key in ("left", "h", "backspace"):
            self.index = max(0, self.index - 1)
        elif key == "home":
            self.index = 0
        elif key == "end":
            self.index = last
        elif key == "v":
            self.viewer = self.shown[(self.shown.index(self.viewer) + 1) % len(self.shown)]
        elif key in ("q", "escape"):
            event.stop()
            if self.standalone:
                self.app.exit()
            else:
                self.dismiss(None)
            return
        elif event.character == "?":
            self.app.push_screen(HelpScreen(self.words))
        else:
            return
        event.stop()
        self.show()


class FrontlinesApp(App[None]):
    """The whole terminal game."""

    TITLE = "Frontlines"

    def __init__(self, config: GameConfig | None = None, *, load: Path | None = None, replay: Path | None = None,
                 setup: bool = True, bot_delay: float = 0.4, save_dir: Path | None = None,
                 kinds: tuple[str, str] | None = None, session: GameSession | None = None) -> None:
        super().__init__()
        self.initial_session = session
        self.config = config or GameConfig()
        self.load_path = load
        self.replay_path = replay
        self.want_setup = setup
        self.bot_delay = bot_delay
        self.save_dir = save_dir or default_save_dir()
        self.kinds = kinds
        self.session: GameSession | None = None

    def on_mount(self) -> None:
        if self.initial_session is not None:
            self.start_session(self.initial_session)
        elif self.replay_path is not None:
            self.push_screen(ReplayScreen(load_record(self.replay_path), standalone=True))
        elif self.load_path is not None:
            # the config is the record's own seats (commands/play.py: resume_config) unless a flag said otherwise
            record = load_record(self.load_path)
            self.start_session(GameSession.from_record(record, self.kinds or self.config.seat_kinds(),
                                                       seed=self.config.seed), resumed=True)
        elif self.want_setup:
            self.back_to_setup()
        else:
            self.start_game(self.config)

    def back_to_setup(self) -> None:
        # Deferred: a screen callback that pushes from a screen being popped is never run,
        # so transitions happen from the app's own queue once the stack is settled.
        self.call_later(self._back_to_setup)

    async def _back_to_setup(self) -> None:
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        if self.session is not None:
            self.session.close()
            self.session = None
        await self.push_screen(SetupScreen(self.config, save_dir=self.save_dir), callback=self._setup_done)

    def _setup_done(self, result: GameConfig | tuple[str, Path] | None) -> None:
        self.call_later(self._open, result)

    async def _open(self, result: GameConfig | tuple[str, Path] | None) -> None:
        if result is None:
            self.exit()
        elif isinstance(result, GameConfig):
            self.config = result
            self.start_game(result)
        else:
            what, path = result
            try:
                record = load_record(path)
                if what == "replay":
                    await self.push_screen(ReplayScreen(record, standalone=False),
                                           callback=lambda _r: self.back_to_setup())
                else:  # the seats it was saved with (the choosers above are for new games)
                    saved = resume_config(record)
                    self.start_session(GameSession.from_record(record, saved.seat_kinds(), seed=saved.seed),
                                       resumed=True)
            except (FrontlinesError, OSError) as exc:
                self.notify(f"Cannot open {path}: {exc}", severity="error")
                self.back_to_setup()

    def start_game(self, config: GameConfig) -> None:
        self.start_session(GameSession.new(config))

    def start_session(self, session: GameSession, *, resumed: bool = False) -> None:
        self.session = session
        screen = GameScreen(session, bot_delay=self.bot_delay, save_dir=self.save_dir)
        if resumed and not session.state.is_terminal():
            screen.say(f"Saved game resumed: {session.seats_text()}.", "green")
        self.push_screen(screen)

    @property
    def game_screen(self) -> GameScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        return None

    def on_unmount(self) -> None:
        if self.session is not None:
            self.session.close()
