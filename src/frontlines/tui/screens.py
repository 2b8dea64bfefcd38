"""The small screens around the table: setup, pass-the-device, save, help, confirm."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static

from frontlines.tui.session import OPPONENTS, GameConfig, find_record, seat_words, shown_path
from frontlines.tui.words import in_place_words

HELP_TEXT = """\
[b]Frontlines - keys[/b]   (up/down/PgDn scroll, Esc closes)

[b]Battle Line family, your turn[/b]
  1-9        pick a card in your hand, then a flag (1-9)
  x          (Redeploy) discard the card instead of moving it
  t / a      draw a troop / tactics card (also Scout's draws)
  c then 1-9 claim a flag: provable flags are listed with their proof;
             a flag that cannot be proved shows the counter-example
  p / e      pass (no troop can be played) / end the turn
  i then 1-9 everything about a flag (cards, formations, battlefield)
  Tactics are asked step by step: Redeploy = flag of your card, the
  card, the new flag or x; Deserter = flag, card; Traitor = flag,
  card, your flag; Scout = 3 draws (t/a), then put cards back (1-9).

[b]War Machine, your turn[/b]
  1-9        pick a card; then w war machine up, i infantry up or
             b burn it; then the front position 1-6
  1-6        draw from that support pile;  p skip when nothing is legal
  1 / 2      at set-up: take 1 leftover card (move first) or 2

[b]Everywhere[/b]
  left/right + Enter   walk the choices    Esc   step back
  mouse      click a card in your hand, a flag, a card on the table
  h hint (what the heuristic bot would play, from your view only)
  u undo (against bots)   r resign   s save the record   n new game
  w watch the replay (game over)   ?  help   q quit

[b]Reading the table[/b]
  Cards show their colour letter: R red, O orange, Y yellow,
  G green, B blue, P purple; tactics by code (AL, SC, ...).
  Flag row: 3F = Fog, 3M = Mud, 3 Marsh = a battlefield face up
  (its rule: i then 3; "3b" where its name does not fit),
  3* = you can claim it now, 3:you / 3:opp = claimed.
  >R7< / >3< = a choice you can make now; \\[R7] / \\[3] = picked or
  under the cursor; R7+ = just placed by the other side.
  Under each side: its formation and sum (Wedge 24); in a narrow
  column the name, with its sum on the row beside it. Short forms
  where even that does not fit: Battn battalion, Skirm skirmish,
  Phlnx phalanx; Schotten Totten 3Kind three of a kind, C.Run
  colour run, Colr colour.
  War Machine: a hand card GJ = German war machine (2) / Japanese
  infantry (1); on the front GER machine / JPN infantry = the end
  that is up; 2pt, pile 4 = winning there scores 2, 4 support
  cards are left on its pile.

[b]Replay[/b]  left/right step, Home/End, v change seat, q back
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark,enter", "dismiss", "close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 76; max-height: 22; border: ascii $accent; background: $panel;
                                  scrollbar-size-vertical: 0; }  /* scrollbar glyphs are ambiguous-width */
    """

    def __init__(self, words: Callable[[str], str] | None = None) -> None:
        super().__init__()
        self.words = words  # the ruleset's own words (Schotten Totten's stones), if not Battle Line's

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(HELP_TEXT if self.words is None else self.words(HELP_TEXT))

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


class PassScreen(Screen[None]):
    """Covers the whole table while the device changes hands (pass-and-play)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "ready", "ready")]
    DEFAULT_CSS = """
    PassScreen { align: center middle; }
    PassScreen > Static { width: 60; border: ascii $accent; padding: 1 2; text-align: center; }
    """

    def __init__(self, player_name: str) -> None:
        super().__init__()
        self.player_name = player_name

    def compose(self) -> ComposeResult:
        yield Static(f"Pass the device to [b]{self.player_name}[/b].\n\n"
                     f"{self.player_name}: press Enter when the other player cannot see the screen.",
                     id="pass-text")

    def action_ready(self) -> None:
        self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("y", "answer(True)", "yes"), Binding("n,escape", "answer(False)", "no")]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Static { width: 50; border: ascii $warning; padding: 1 2; background: $panel; }
    """

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        yield Static(f"{self.question}\n\n[b]y[/b] yes   [b]n[/b] no")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class QuitScreen(ModalScreen[str | None]):
    """Quit: ``quit``, ``save`` (save the record first, then quit) or ``None`` (stay). Asked
    while a game runs, and after it ends while its record is not saved."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("y", "answer('quit')", "quit"),
                                             Binding("s", "answer('save')", "save and quit"),
                                             Binding("n,escape", "answer('')", "stay")]
    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Static { width: 64; max-width: 100%; border: ascii $warning; padding: 1 2; background: $panel; }
    """

    def __init__(self, *, game_over: bool = False, save_dir: Path | None = None) -> None:
        super().__init__()
        self.game_over = game_over
        self.save_dir = save_dir

    def compose(self) -> ComposeResult:
        if self.game_over:
            lines = ["The game is over; its record is not saved.", "",
                     "[b]s[/b]  save the record, then quit"]
        else:
            lines = ["Quit this game?", "", "[b]s[/b]  save it (to continue later), then quit"]
        lines += ["[b]y[/b]  quit without saving", "[b]n[/b]  stay"]
        if self.save_dir is not None:
            lines += ["", "Saved games go to", f"  {escape(shown_path(self.save_dir))}"]
        yield Static("\n".join(lines))

    def action_answer(self, value: str) -> None:
        self.dismiss(value or None)


class SaveScreen(ModalScreen[Path | None]):
    """Asks for the file name of the record."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]
    DEFAULT_CSS = """
    SaveScreen { align: center middle; }
    SaveScreen > Vertical { width: 70; height: auto; border: ascii $accent; padding: 0 1; background: $panel; }
    """

    def __init__(self, default: Path) -> None:
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Save the game record to (Enter saves, Esc cancels):")
            yield Input(str(self.default), id="save-path")

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.dismiss(Path(text).expanduser() if text else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class SetupScreen(Screen[GameConfig | tuple[str, Path] | None]):
    """Choose ruleset, opponent, seat and seed; or load / replay a record.

    Dismisses with a :class:`GameConfig` (new game), ``("load"|"replay", path)`` or None (quit).
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "quit_app", "quit"), Binding("ctrl+s", "start", "start")]
    DEFAULT_CSS = """
    SetupScreen { align: center top; }
    SetupScreen > VerticalScroll { width: 80; max-width: 100%; height: 1fr;
                                   scrollbar-size-vertical: 0; }  /* ambiguous-width glyphs; Tab scrolls */
    SetupScreen .row { height: 1; }
    SetupScreen .row Label { width: 12; padding: 0 0 0 1; }
    SetupScreen .row Select, SetupScreen .row Input { width: 1fr; }
    SetupScreen #options { height: auto; margin: 1 0 0 0; }
    SetupScreen .row.option { height: auto; }
    SetupScreen .option Label { width: 40; }
    SetupScreen #buttons { height: 1; margin: 1 0 0 13; }
    SetupScreen #record-row { margin: 0; }
    SetupScreen #record-buttons { margin: 0 0 0 13; }
    SetupScreen Button { min-width: 12; margin: 0 2 0 0; }
    SetupScreen #setup-error { color: $error; height: auto; }
    SetupScreen #saves-folder { margin: 0 0 0 14; color: $text-muted; }
    SetupScreen Select .arrow { display: none; }  /* the arrows are ambiguous-width glyphs */
    """

    def __init__(self, config: GameConfig | None = None, *, save_dir: Path | None = None) -> None:
        super().__init__()
        self.config = config or GameConfig()
        self.save_dir = save_dir
        self._options_for: str | None = None  # the ruleset whose options are shown

    def compose(self) -> ComposeResult:
        from frontlines.games import all_rulesets

        rulesets = [(f"{r.title} ({r.name})", r.name) for r in all_rulesets()]
        names = [value for _label, value in rulesets]
        ruleset = self.config.ruleset if self.config.ruleset in names else (names[0] if names else Select.BLANK)
        # "heuristic" stays accepted (``--opponent heuristic``) but is not offered: it is "hard"
        shown = [o for o in OPPONENTS if o != "heuristic" or self.config.opponent == o]
        opponents = [(("a person at this keyboard (pass-and-play)" if o == "human" else f"bot: {o}"), o) for o in shown]
        with VerticalScroll():
            yield Static("[b]Frontlines[/b] - new game\nTab moves, Enter opens a list or presses a button, "
                         "Ctrl+S starts, Esc quits.")
            with Horizontal(classes="row"):
                yield Label("Game")
                yield Select(rulesets, value=ruleset, allow_blank=False, id="ruleset", compact=True)
            with Horizontal(classes="row"):
                yield Label("Opponent")
                yield Select(opponents, value=self.config.opponent, allow_blank=False, id="opponent", compact=True)
            with Horizontal(classes="row"):
                yield Label("You play")
                yield Select([(seat_words(0), 0), (seat_words(1), 1)], value=self.config.seat,
                             allow_blank=False, id="seat", compact=True)
            with Horizontal(classes="row"):
                yield Label("First move")
                yield Select([("drawn at random", "random"), ("me", "me"), ("my opponent", "opponent")],
                             value=self.config.first, allow_blank=False, id="first", compact=True)
            with Horizontal(classes="row"):
                yield Label("Seed")
                yield Input("" if self.config.seed is None else str(self.config.seed),
                            placeholder="empty = random deal", id="seed", compact=True)
            yield Vertical(id="options")
            with Horizontal(id="buttons"):
                yield Button("Play", variant="primary", id="start", compact=True)
                yield Button("Quit", id="quit", compact=True)
            with Horizontal(classes="row", id="record-row"):
                yield Label("Record")
                yield Input(placeholder="a saved game: its file name, or any path", id="record", compact=True)
            with Horizontal(id="record-buttons", classes="row"):
                yield Button("Continue it", id="load", compact=True)
                yield Button("Replay it", id="replay", compact=True)
            if self.save_dir is not None:
                yield Static(f"Saved games are in {escape(shown_path(self.save_dir))}", id="saves-folder")
            yield Static(id="setup-error")

    async def on_mount(self) -> None:
        await self._show_options()

    @on(Select.Changed, "#ruleset")
    async def ruleset_changed(self) -> None:
        await self._show_options()

    async def _show_options(self) -> None:
        """One chooser per rules option of the selected ruleset, set to its default."""
        from frontlines.games import ruleset as find_ruleset

        name = self.query_one("#ruleset", Select).value
        if not isinstance(name, str) or name == self._options_for:
            return
        self._options_for = name
        box = self.query_one("#options", Vertical)
        await box.remove_children()
        rows: list[Widget] = [Static("Rules options", classes="row")]
        spec_of = find_ruleset(name)
        place = spec_of.place_name

        def words(text: str) -> str:  # the option's words, with Schotten Totten's stones for flags
            return escape(in_place_words(text, place))

        for spec in spec_of.options:
            if spec.name in ("first_player", "shuffler"):
                continue  # asked above as "First move"
            value = self.config.options.get(spec.name, spec.default)
            # the core's words for the option and each choice (the web app shows the same ones)
            choices = [(words(spec.choice_words(c)), c) for c in spec.choices]
            rows.append(Horizontal(Label(words(spec.title())),
                                   Select(choices, value=value if value in spec.choices else spec.default,
                                          allow_blank=False, compact=True, name=spec.name,
                                          tooltip=words(spec.explanation()) or None),
                                   classes="row option"))
        await box.mount_all(rows)

    def _options(self) -> dict[str, str]:
        return {str(select.name): str(select.value) for select in self.query("#options Select").results(Select)
                if select.name}

    def _config(self) -> GameConfig | None:
        seed_text = self.query_one("#seed", Input).value.strip()
        seed: int | None = None
        if seed_text:
            try:
                seed = int(seed_text)
            except ValueError:
                self.query_one("#setup-error", Static).update("The seed must be a whole number.")
                return None
        ruleset = self.query_one("#ruleset", Select).value
        opponent = self.query_one("#opponent", Select).value
        seat = self.query_one("#seat", Select).value
        first = self.query_one("#first", Select).value
        return GameConfig(ruleset=str(ruleset), opponent=str(opponent),
                          seat=int(seat) if isinstance(seat, int) else 0, seed=seed,
                          options=self._options(), first=str(first))

    def action_start(self) -> None:
        config = self._config()
        if config is not None:
            self.dismiss(config)

    def action_quit_app(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "quit":
            self.dismiss(None)
        elif event.button.id in ("load", "replay"):
            text = self.query_one("#record", Input).value.strip()
            path = find_record(text, self.save_dir) if text else None
            if path is None or not path.is_file():
                self.query_one("#setup-error", Static).update(f"No such file: {escape(text) or '(empty)'}")
                return
            self.dismiss((event.button.id, path))

    @on(Input.Submitted, "#seed")
    def seed_entered(self) -> None:
        self.action_start()
