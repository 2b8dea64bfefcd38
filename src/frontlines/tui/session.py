"""One game in progress as the terminal app holds it (no Textual here).

The session owns the full :class:`State`; humans are shown ``state.view(seat)`` and
bots are handed only ``state.view(bot_seat)``. The referee (:mod:`frontlines.core.referee`)
judges every move, resignation and bot failure; it plays actions with ``State.push`` so
that undo is a plain sequence of ``pop`` calls. People play without a move limit.
"""

from __future__ import annotations

import datetime as _dt
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from frontlines.bots.base import Bot
from frontlines.bots.levels import BOT_OPPONENTS
from frontlines.core.errors import FrontlinesError, IllegalAction
from frontlines.core.game import Action, State, View
from frontlines.core.record import GameRecord, load_records
from frontlines.core.referee import Failure, PlayerError, Referee
from frontlines.games import parse_state

HUMAN = "human"
OPPONENTS = (*BOT_OPPONENTS, HUMAN)


def seat_words(seat: int) -> str:
    """A seat as people see it everywhere in the terminal: ``Player 1 (P1)`` for seat 0. The
    engine numbers seats from 0; people, the status line, the replay and ``--seat p1`` say
    P1 and P2 (docs/tui.md, *Seats*)."""
    return f"Player {seat + 1} (P{seat + 1})"


@dataclass
class GameConfig:
    """What the setup screen (or the command line) decided."""

    ruleset: str = "battleline"
    opponent: str = "medium"
    seat: int = 0  # the (first) human's seat
    seed: int | None = None
    options: dict[str, str] = field(default_factory=dict)
    first: str = "random"  # who moves first: random, me, opponent

    def game_options(self) -> dict[str, str]:
        """The rules options, with ``first`` turned into the ruleset's own option.

        Battle Line-family rulesets name the first player (``first_player``); in War Machine
        the player who does *not* shuffle chooses who starts, so "me" means the opponent
        shuffles. An explicit option given by the user wins.
        """
        options = dict(self.options)
        if self.first not in ("me", "opponent"):
            return options
        from frontlines.games import ruleset

        names = {o.name for o in ruleset(self.ruleset).options}
        me = self.seat if self.first == "me" else 1 - self.seat
        if "first_player" in names:
            options.setdefault("first_player", str(me))
        elif "shuffler" in names:
            options.setdefault("shuffler", str(1 - me))
        return options

    def seat_kinds(self) -> tuple[str, str]:
        """``human`` or a bot spec for seats 0 and 1."""
        if self.opponent == HUMAN:
            return (HUMAN, HUMAN)
        return (HUMAN, self.opponent) if self.seat == 0 else (self.opponent, HUMAN)


def seat_kind(player: str) -> str:
    """How a record's ``Player`` tag is read when its game is resumed: a bot level this
    terminal offers (``easy``; the web app's records say ``bot:easy``) plays as that bot;
    anything else is a person. Nothing else is trusted: a record naming ``cmd:...`` must not
    start a program when it is opened."""
    level = player.strip().removeprefix("bot:")
    return level if level in BOT_OPPONENTS else HUMAN


def resume_config(record: GameRecord, *, opponent: str | None = None, seat: int | None = None,
                  seed: int | None = None) -> GameConfig:
    """Who plays a saved game when it is resumed: the seats the record names (``Player0`` /
    ``Player1``: ``human`` or a bot level, as :meth:`GameSession.record` writes them), unless
    the caller asks otherwise (``opponent``, ``seat``, ``seed``: the command line's explicit
    flags). One bot: the person takes the other seat; two people: pass-and-play; two bots
    (an arena game): the person takes ``seat`` (default P1) against the other seat's bot."""
    kinds = (seat_kind(record.tags.get("Player0", "")), seat_kind(record.tags.get("Player1", "")))
    if kinds == (HUMAN, HUMAN):
        saved_opponent, saved_seat = HUMAN, 0
    elif HUMAN in kinds:
        saved_seat = kinds.index(HUMAN)
        saved_opponent = kinds[1 - saved_seat]
    else:
        saved_seat = 0 if seat is None else seat
        saved_opponent = kinds[1 - saved_seat]
    saved_seed = record.tags.get("Seed", "")
    return GameConfig(ruleset=record.tags.get("Ruleset", "battleline"), opponent=opponent or saved_opponent,
                      seat=saved_seat if seat is None else seat,
                      seed=seed if seed is not None else int(saved_seed) if saved_seed.lstrip("-").isdigit() else None)


def make_bot(spec: str, seed: int | None) -> Bot:
    from frontlines.bots.registry import make_bot as _make

    bot: Bot = _make(spec, seed)
    return bot


def _player_name(kind: str) -> str:
    return "human" if kind == HUMAN else kind


class GameSession:
    """The state, who sits where, the bots, undo and records."""

    def __init__(self, state: State, kinds: tuple[str, str], *, seed: int | None = None,
                 initial: State | None = None) -> None:
        self.referee = Referee(state, undo=True, max_actions=None, initial=initial)
        self.state = state
        self.initial = self.referee.initial
        self.kinds = kinds
        self.seed = seed
        self.bots: dict[int, Bot] = {}
        for seat, kind in enumerate(kinds):
            if kind != HUMAN:
                bot = make_bot(kind, None if seed is None else seed * 2 + seat + 1)
                bot.new_game(state.ruleset, seat, seed)
                self.bots[seat] = bot
        # Seat of each pushed action, so undo knows whose decisions it is taking back.
        self.movers: list[int] = []

    # --- construction -----------------------------------------------------------------
    @classmethod
    def new(cls, config: GameConfig) -> GameSession:
        from frontlines.games import new_state

        state = new_state(config.ruleset, seed=config.seed, options=config.game_options() or None)
        return cls(state, config.seat_kinds(), seed=config.seed)

    @classmethod
    def from_record(cls, record: GameRecord, kinds: tuple[str, str], seed: int | None = None) -> GameSession:
        """Continue a saved game: replay its actions with ``push`` so undo still works."""
        record = record.opened()
        initial = record.initial_state(parse_state)
        session = cls(initial.clone(), kinds, seed=seed, initial=initial)
        for text in record.actions:
            session.play_text(text)
        record.terminate(session.state)
        return session

    # --- questions --------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return [s for s, k in enumerate(self.kinds) if k == HUMAN]

    @property
    def pass_and_play(self) -> bool:
        return len(self.humans) == 2

    def to_move(self) -> int | None:
        return self.referee.to_move()

    def human_to_move(self) -> bool:
        mover = self.to_move()
        return mover is not None and self.kinds[mover] == HUMAN

    def bot_to_move(self) -> int | None:
        mover = self.to_move()
        return mover if mover is not None and self.kinds[mover] != HUMAN else None

    def view(self, seat: int | None) -> View:
        return self.state.view(seat)

    def name(self, seat: int) -> str:
        kind = self.kinds[seat]
        if kind != HUMAN:
            return f"bot {kind}"
        if self.pass_and_play:
            return f"Player {seat + 1}"
        return "You"

    def seats_text(self) -> str:
        """Who plays whom: ``you (P1) against bot easy (P2)``; ``pass-and-play``."""
        if self.pass_and_play:
            return "pass-and-play, Player 1 (P1) and Player 2 (P2)"
        me = self.humans[0] if self.humans else 0
        return f"you (P{me + 1}) against {self.name(1 - me)} (P{2 - me})"

    # --- moves ------------------------------------------------------------------------
    def play(self, action: Action) -> None:
        """Apply a move of whoever is to act (raises ``IllegalAction``)."""
        mover = self.to_move()
        if mover is None:
            raise IllegalAction("the game is over")
        self.referee.move(mover, action)
        self.movers.append(mover)

    def play_text(self, text: str) -> None:
        self.play(self.state.parse_action(text))

    def can_undo(self) -> bool:
        """Undo is for games against bots; a resignation is final."""
        if self.pass_and_play:
            return False
        outcome = self.state.outcome()
        if outcome is not None and outcome.reason in ("resignation", "time", "forfeit"):
            return False
        return any(m >= 0 and self.kinds[m] == HUMAN for m in self.movers)

    def undo(self) -> int:
        """Take back moves until a human decision of this game is undone.

        Returns how many actions were popped (0 when there is nothing to undo).
        """
        if not self.can_undo():
            return 0
        popped = 0
        while self.movers:
            mover = self.movers.pop()
            self.state.pop()
            popped += 1
            if mover >= 0 and self.kinds[mover] == HUMAN:
                break
        return popped

    def resign(self, seat: int) -> None:
        self.referee.resign(seat)

    def forfeit(self, seat: int, error: BaseException) -> None:
        """The bot at ``seat`` failed: its action was refused (``FrontlinesError``) or it raised."""
        if isinstance(error, PlayerError):
            self.referee.fail(seat, error.reason, error.detail)
        elif isinstance(error, FrontlinesError):
            self.referee.fail(seat, Failure.ILLEGAL, str(error))
        else:
            self.referee.fail(seat, Failure.CRASH, f"{type(error).__name__}: {error}")

    # --- records ----------------------------------------------------------------------
    def record(self) -> GameRecord:
        """The game's record: who sits where (``human`` or the bot level, what resuming reads),
        the seed and every rules option in tags; an unfinished game's deal and moves sealed
        (:meth:`GameRecord.sealed`), so the file shows no hidden card until the game is over."""
        players = (_player_name(self.kinds[0]), _player_name(self.kinds[1]))
        extra = {"Date": _dt.date.today().isoformat(), "Event": "frontlines play"}
        if self.seed is not None:
            extra["Seed"] = str(self.seed)
        options = self.state.view(None).to_dict().get("options") or {}
        extra.update({f"Option_{name}": str(value) for name, value in sorted(options.items())})
        record = self.referee.record(players, extra)
        return record if self.state.is_terminal() else record.sealed()

    def save(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.record().to_text(), encoding="utf-8")
        return path

    def default_filename(self) -> str:
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        return f"frontlines-{self.state.ruleset}-{stamp}.txt"

    def close(self) -> None:
        for bot in self.bots.values():
            bot.close()


def default_save_dir() -> Path:
    """Where the terminal saves games unless ``--save-dir`` says otherwise: a per-user data
    folder, ``$XDG_DATA_HOME/frontlines/saves`` (``~/.local/share/frontlines/saves`` when
    that is unset, as the XDG base directory rules say; ``%APPDATA%`` on Windows,
    ``~/Library/Application Support`` on macOS). Created when the first game is saved."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    if xdg and Path(xdg).is_absolute():  # a relative value is to be ignored (XDG rules)
        base = Path(xdg)
    elif sys.platform == "win32" and os.environ.get("APPDATA"):
        base = Path(os.environ["APPDATA"])
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path.home() / ".local" / "share"
    return base / "frontlines" / "saves"


def shown_path(path: Path) -> str:
    """``path`` as a person reads it: the home folder as ``~``."""
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except (ValueError, RuntimeError):  # not under home, or no home known
        return str(path)


def find_record(name: str | Path, save_dir: Path | None = None) -> Path:
    """A record's path as the user typed it; a bare name that is not a file here is looked
    for in the saves folder (``frontlines play --load frontlines-battleline-....txt``)."""
    path = Path(name).expanduser()
    if path.is_file() or path.is_absolute() or len(path.parts) > 1:
        return path
    saved = (save_dir or default_save_dir()) / path
    return saved if saved.is_file() else path


def load_record(path: Path) -> GameRecord:
    """A record from a text or JSON file, or the first of a JSON-lines file."""
    records = load_records(path.read_text(encoding="utf-8"))
    if not records:
        from frontlines.core.errors import NotationError

        raise NotationError(f"{path}: no record in the file")
    return records[0]


def replay_states(record: GameRecord) -> tuple[list[State], list[str]]:
    """Every position of a record and the action text leading to each (first is empty)."""
    return record.positions(parse_state), ["", *record.opened().actions]
