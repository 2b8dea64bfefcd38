"""The classic protocol of a 2015–16 community Battle Line AI engine, both ways.

* :class:`ClassicExternalBot` hosts a bot that speaks it, as one of our :class:`Bot`\\ s.
  It is only asked for card plays: the arena applies the classic engine's rules around it
  (see :func:`automatic_action`): always draw a troop, claim every provable flag for the
  mover, skip a player with no playable flag.
* :class:`ClassicEngine` lets one of our bots play on such an engine
  (``frontlines bot NAME --protocol classic``): it rebuilds a ``battleline-basic`` view from
  the messages and asks the bot for the play.

Message format (one ``\\n``-terminated line each): sides ``north`` (moves first) and
``south``; colours ``color1`` … ``color6`` (our R O Y G B P); a card is ``color3,10``;
flags are 1–9. Details in ``docs/protocol.md``.
"""

from __future__ import annotations

import random
import re
import sys
import time
from collections.abc import Callable, Sequence
from typing import IO, Any

from frontlines.bots.base import Bot, BotError, Clock
from frontlines.bots.process import LineProcess
from frontlines.core.actions import ActionKind
from frontlines.core.errors import FrontlinesError, NotationError
from frontlines.core.game import Action, State, View

COLOURS = "ROYGBP"
CLASSIC_COLOURS = tuple(f"color{i}" for i in range(1, 7))
SIDES = ("north", "south")
REPLY_TIMEOUT = 10.0
# The ruleset the classic engine's rules map onto, and the option that puts claims after the play.
CLASSIC_RULESET = "battleline-basic"
CLASSIC_OPTIONS = {"claim_timing": "after_play"}

_CODE = re.compile(r"^([ROYGBP])(10|[1-9])$")
_CLASSIC_CARD = re.compile(r"^color([1-6]),(10|[1-9])$")


def _troop_plays(view: View, legal: Sequence[Action]) -> dict[tuple[int, str], Action]:
    """``(flag, card) -> action`` of the troop plays among ``legal``: the only moves the
    classic protocol has words for (read from the game's action records, not their text)."""
    out: dict[tuple[int, str], Action] = {}
    for action in legal:
        r = view.describe_action(action)
        if r.kind is ActionKind.PLAY and r.card is not None and r.flag is not None and _CODE.match(r.card):
            out[(r.flag, r.card)] = action
    return out


def _first_of(view: View, legal: Sequence[Action], kind: ActionKind, deck: str | None = None) -> Action | None:
    """The first legal action of ``kind`` (and from ``deck``), if any."""
    for action in legal:
        r = view.describe_action(action)
        if r.kind is kind and (deck is None or r.deck == deck):
            return action
    return None


# --- codec ------------------------------------------------------------------------------
def to_classic_card(code: str) -> str:
    """``Y10`` → ``color3,10``."""
    m = _CODE.match(code.strip().upper())
    if m is None:
        raise NotationError(f"not a troop card for the classic protocol: {code!r}")
    return f"color{COLOURS.index(m.group(1)) + 1},{m.group(2)}"


def from_classic_card(text: str) -> str:
    """``color3,10`` → ``Y10``."""
    m = _CLASSIC_CARD.match(text.strip())
    if m is None:
        raise NotationError(f"not a classic card: {text!r} (expected e.g. color3,10)")
    return f"{COLOURS[int(m.group(1)) - 1]}{m.group(2)}"


def status_lines(
    side: str,
    hand: Sequence[str],
    claimed: Sequence[str],
    north_flags: Sequence[Sequence[str]],
    south_flags: Sequence[Sequence[str]],
    opponent_play: tuple[int, str] | None,
) -> list[str]:
    """The lines a classic host sends at the start of a turn (without ``go play-card``).

    ``hand`` and flag cards are our codes; ``claimed`` holds nine of ``unclaimed``/``north``/``south``.
    """
    lines = [" ".join(["player", side, "hand", *(to_classic_card(c) for c in hand)])]
    lines.append(" ".join(["flag", "claim-status", *claimed]))
    for i in range(9):
        lines.append(" ".join(["flag", str(i + 1), "cards", "north", *(to_classic_card(c) for c in north_flags[i])]))
        lines.append(" ".join(["flag", str(i + 1), "cards", "south", *(to_classic_card(c) for c in south_flags[i])]))
    if opponent_play is not None:
        lines.append(f"opponent play {opponent_play[0]} {to_classic_card(opponent_play[1])}")
    return lines


def parse_play(line: str) -> tuple[int, str]:
    """``play 3 color1,7`` → ``(3, "R7")``; :class:`NotationError` otherwise."""
    words = line.split()
    if len(words) != 3 or words[0] != "play" or words[1] not in {str(i) for i in range(1, 10)}:
        raise NotationError(f"expected 'play <flag> <card>', got {line[:80]!r}")
    return int(words[1]), from_classic_card(words[2])


# --- the classic engine's rules inside our games --------------------------------------
def automatic_action(view: View) -> Action | None:
    """The action the classic engine takes by itself in this decision, or ``None``.

    Only card plays (and the skip of a player who cannot play, which still shows that
    player the table) are decisions for a bot; provable claims are made for the mover,
    the draw is always from the troop deck, and a turn with nothing to draw just ends.
    """
    legal = view.legal_actions()
    for kind, deck in ((ActionKind.CLAIM, None), (ActionKind.DRAW, "troop"), (ActionKind.END, None)):
        action = _first_of(view, legal, kind, deck)
        if action is not None:
            return action
    # Anything else (tactics draws, which battleline-basic never offers) is left to the bot.
    return None


def classic_game_options(ruleset: str, given: dict[str, str] | None = None) -> dict[str, str]:
    """Ruleset options that make our engine behave like the classic one."""
    if ruleset != CLASSIC_RULESET:
        raise ValueError(f"classic-protocol bots play only {CLASSIC_RULESET} (troops only), not {ruleset}")
    from frontlines.games import ruleset as find_ruleset

    names = {o.name for o in find_ruleset(ruleset).options}
    options = dict(given or {})
    for key, value in CLASSIC_OPTIONS.items():
        if key in names:
            options[key] = value
    return options


def _table(view: View) -> tuple[list[str], list[str], list[list[list[str]]], int]:
    """(hand, claim owners per flag as player index text, sides[flag][player], viewer)."""
    data = view.to_dict()
    viewer = data["viewer"]
    if viewer not in (0, 1):
        raise BotError("protocol", "a classic bot needs a player's view")
    hands = data.get("hands") or [None, None]
    hand = [str(c) for c in (hands[viewer] or [])]
    claims: list[str] = []
    sides: list[list[list[str]]] = []
    for flag in data["flags"]:
        owner = flag.get("claimed_by")
        claims.append("" if owner is None else str(owner))
        sides.append([[str(c) for c in flag["sides"][0]], [str(c) for c in flag["sides"][1]]])
    return hand, claims, sides, int(viewer)


def repaired_play(flag: int, code: str, hand: Sequence[str], plays: dict[tuple[int, str], Action]) -> tuple[int, str]:
    """The play the original classic engine makes of an invalid ``play flag card``.

    It does not forfeit the bot: a flag that is claimed or full on the bot's side becomes
    the first open flag, a card the bot does not hold becomes the first card of its hand
    (as the hand was sent). Every troop in hand fits every open flag, so the result is legal.
    """
    open_flags = sorted({f for f, _ in plays})
    if flag not in open_flags:
        flag = open_flags[0]
    if code not in hand:
        code = hand[0]
    if (flag, code) not in plays:  # not reachable under the classic rules; a guard, not a repair
        raise BotError("illegal", f"cannot repair the play of {code} to flag {flag}")
    return flag, code


# --- host side --------------------------------------------------------------------------
class ClassicExternalBot(Bot):
    """A bot speaking the classic protocol, run as a subprocess (host side)."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        reply_timeout: float = REPLY_TIMEOUT,
        handshake_timeout: float | None = None,
        move_timeout: float | None = None,
        cwd: str | None = None,
        repair: bool = True,
        **_ignored: Any,
    ) -> None:
        self.command = command
        # Repair invalid plays as the original engine does (docs/protocol.md, "Repairs").
        self.repair = repair
        self.repairs = 0  # plays repaired in the current game
        self.reply_timeout = move_timeout if move_timeout is not None else reply_timeout
        self.handshake_timeout = handshake_timeout if handshake_timeout is not None else reply_timeout
        self.cwd = cwd
        self.name = "classic"
        self._proc: LineProcess | None = None
        self._side: str | None = None
        self._seen: list[set[str]] = [set() for _ in range(9)]  # opponent cards at my last turn
        self._last_play: tuple[int, str] | None = None

    def new_game(self, ruleset: str, seat: int, seed: int | None = None) -> None:
        if ruleset != CLASSIC_RULESET:
            raise BotError("protocol", f"classic bots play only {CLASSIC_RULESET}, not {ruleset}")
        # A classic engine ends a game by ending the bot process, so every game starts a new one.
        self.close()
        try:
            self._proc = LineProcess(self.command, cwd=self.cwd)
        except BotError:
            self._proc = None
            raise
        self._side = None
        self._seen = [set() for _ in range(9)]
        self._last_play = None
        self.repairs = 0

    def _handshake(self, proc: LineProcess, side: str) -> None:
        proc.send(f"player {side} name")
        line = proc.read(time.monotonic() + self.handshake_timeout, f"player {side} <name>")
        words = line.split()
        if len(words) != 3 or words[:2] != ["player", side]:
            raise BotError("garbage", f"expected 'player {side} <name>', got {line[:80]!r}")
        self.name = words[2]
        proc.send("colors " + " ".join(CLASSIC_COLOURS))

    def choose(self, view: View, clock: Clock | None = None) -> Action:
        try:
            return self._choose(view, clock)
        except BotError:
            self.close()
            raise

    def _choose(self, view: View, clock: Clock | None) -> Action:
        if self._proc is None:
            raise BotError("crash", "classic bot used before new_game")
        proc = self._proc
        legal = view.legal_actions()
        plays = _troop_plays(view, legal)
        skip = _first_of(view, legal, ActionKind.PASS)
        if not plays and skip is None:
            # Not a card play (a host without the classic rules asks about claims or draws):
            # decide as the classic engine would, without bothering the bot.
            auto = automatic_action(view)
            if auto is None:
                raise BotError("protocol", "a classic bot can only play troop cards")
            return auto
        hand, claims, sides, me = _table(view)
        if self._side is None:
            # North moves first: on the first turn we are asked, the table tells which we are.
            on_table = sum(len(s[0]) + len(s[1]) for s in sides)
            self._side = "north" if on_table == 0 else "south"
            self._handshake(proc, self._side)
        side = self._side
        north = me if side == "north" else 1 - me
        them = 1 - me
        # The opponent's last play: the card that appeared on their side since our last turn.
        for i in range(9):
            new = [c for c in sides[i][them] if c not in self._seen[i]]
            if new:
                self._last_play = (i + 1, new[-1])
            self._seen[i] = set(sides[i][them])
        owner_word = {"": "unclaimed", str(north): "north", str(1 - north): "south"}
        lines = status_lines(
            side,
            hand,
            [owner_word[c] for c in claims],
            [s[north] for s in sides],
            [s[1 - north] for s in sides],
            self._last_play,
        )
        for line in lines:
            proc.send(line)
        if not plays:
            # No playable flag: the classic engine skips this player after showing the table.
            if skip is not None:
                return skip
            raise BotError("protocol", "classic bot asked to act with neither a play nor a pass legal")
        proc.send("go play-card")
        limit = self.reply_timeout
        if clock is not None and clock.time_left is not None:
            limit = min(limit, clock.time_left + 0.25)
        line = proc.read(time.monotonic() + limit, "play <flag> <card>")
        try:
            flag, code = parse_play(line)
        except NotationError as exc:
            raise BotError("garbage", str(exc)) from None
        if (flag, code) not in plays:
            if not self.repair:
                raise BotError("illegal", f"illegal play {line.strip()!r} ({code} to flag {flag})")
            flag, code = repaired_play(flag, code, hand, plays)
            self.repairs += 1
        return plays[(flag, code)]

    def game_over(self, result: str, reason: str) -> None:
        """No message announces the end of a game in this protocol: the host ends the process."""
        self.close()

    def close(self) -> None:
        if self._proc is not None:
            self._proc.close(None, wait=0.3)
            self._proc = None


# --- engine side ------------------------------------------------------------------------
ViewBuilder = Callable[["ClassicTable", random.Random], View]


class ClassicTable:
    """What a classic bot knows at the start of a turn, gathered from the messages."""

    def __init__(self) -> None:
        self.side: str = "north"
        self.hand: list[str] = []
        self.claims: list[str] = ["unclaimed"] * 9
        self.cards: dict[str, list[list[str]]] = {"north": [[] for _ in range(9)], "south": [[] for _ in range(9)]}
        self.opponent_play: tuple[int, str] | None = None

    def unseen(self) -> list[str]:
        """Troop codes neither in our hand nor on the table (the opponent's hand and the deck)."""
        known = set(self.hand)
        for s in SIDES:
            for flag in self.cards[s]:
                known.update(flag)
        return [f"{c}{v}" for c in COLOURS for v in range(1, 11) if f"{c}{v}" not in known]


class ClassicEngine:
    """Our bot on a classic engine: read the messages, answer the plays."""

    def __init__(
        self,
        bot: Bot,
        *,
        name: str | None = None,
        seed: int | None = None,
        out: IO[str] | None = None,
        err: IO[str] | None = None,
        builder: ViewBuilder | None = None,
    ) -> None:
        self.bot = bot
        self.name = re.sub(r"\s+", "-", name or bot.name or "frontlines") or "frontlines"
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.table = ClassicTable()
        self.rng = random.Random(seed)
        self.seed = seed
        self.builder = builder or build_view
        self.started = False

    def say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def warn(self, text: str) -> None:
        self.err.write(f"frontlines bot (classic): {text}\n")
        self.err.flush()

    def handle(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        t = self.table
        try:
            if words[0] == "player" and len(words) == 3 and words[2] == "name" and words[1] in SIDES:
                # The name request opens a game: forget anything from an earlier one.
                t = self.table = ClassicTable()
                t.side = words[1]
                self.say(f"player {t.side} {self.name}")
                seat = 0 if t.side == "north" else 1
                self.bot.new_game(CLASSIC_RULESET, seat, self.seed)
                self.started = True
            elif words[0] == "player" and len(words) >= 3 and words[2] == "hand" and words[1] == t.side:
                t.hand = [from_classic_card(c) for c in words[3:]]
            elif words[:2] == ["flag", "claim-status"] and len(words) == 11:
                t.claims = words[2:]
            elif words[0] == "flag" and len(words) >= 4 and words[2] == "cards" and words[3] in SIDES:
                t.cards[words[3]][int(words[1]) - 1] = [from_classic_card(c) for c in words[4:]]
            elif words[:2] == ["opponent", "play"] and len(words) == 4:
                t.opponent_play = (int(words[2]), from_classic_card(words[3]))
            elif words[:2] == ["go", "play-card"]:
                try:
                    reply = self.play()
                except Exception as exc:
                    # Whatever went wrong, a legal reply keeps us in the game.
                    self.warn(f"could not choose ({type(exc).__name__}: {exc}); playing a simple card")
                    reply = self.simple_play()
                self.say(reply)
            # colors, and anything else: nothing we need.
        except (ValueError, IndexError, FrontlinesError) as exc:
            self.warn(f"ignored line {line.strip()[:80]!r}: {exc}")

    def play(self) -> str:
        if not self.started:
            self.bot.new_game(CLASSIC_RULESET, 0 if self.table.side == "north" else 1, self.seed)
            self.started = True
        view = self.builder(self.table, self.rng)
        action = self.bot.choose(view, Clock(REPLY_TIMEOUT * 0.8, 0.0))
        plays = _troop_plays(view, view.legal_actions())
        chosen = next((where for where, a in plays.items() if a == action), None)
        if chosen is None:
            # Our rules offered something the classic engine has no word for; fall back to a legal play.
            self.warn(f"bot chose {view.action_to_text(action)!r}; playing the first legal card instead")
            if not plays:
                raise FrontlinesError("no legal card play in the rebuilt position")
            chosen = next(iter(plays))
        flag, code = chosen
        return f"play {flag} {to_classic_card(code)}"

    def simple_play(self) -> str:
        """The first card of the hand to the first unclaimed flag with space on our side."""
        t = self.table
        for f in range(9):
            if t.claims[f] == "unclaimed" and len(t.cards[t.side][f]) < 3 and t.hand:
                return f"play {f + 1} {to_classic_card(t.hand[0])}"
        return "play 1 color1,1"  # nothing is playable: the host should not have asked

    def serve(self, stream: IO[str] | None = None) -> int:
        source = stream or sys.stdin
        try:
            for line in source:
                self.handle(line)
        finally:
            self.bot.close()
        return 0


def build_view(table: ClassicTable, rng: random.Random) -> View:
    """A ``battleline-basic`` view consistent with ``table`` (our side to play a card)."""
    state = build_state(table, rng)
    me = 0 if table.side == "north" else 1
    return state.view(me)


def state_notation(table: ClassicTable, rng: random.Random) -> str:
    """Full-state notation of a ``battleline-basic`` position consistent with ``table``.

    We are seat 0 as north, seat 1 as south, to play a card. What the messages do not say
    is filled in: the unseen troops are split at random between the opponent's hand (7, or
    all that is left once the deck is empty) and the deck; completion times (the tie-break
    "who completed first") are unknown, so the opponent's complete sides count as earlier
    than ours, except the side their last play completed, which is the latest.
    """
    me = 0 if table.side == "north" else 1
    seat_of = {"north": 0, "south": 1}
    unseen = table.unseen()
    rng.shuffle(unseen)
    on_table = sum(len(f) for s in SIDES for f in table.cards[s])
    rest = len(unseen)
    their_hand = min(7, rest) if len(table.hand) >= 7 else rest
    hand_them, deck = unseen[:their_hand], unseen[their_hand:]
    # completion order: opponent's full sides, then ours, then the one the opponent just completed
    them = SIDES[1 - me]
    last = table.opponent_play
    order: list[tuple[int, int]] = []
    for f in range(9):
        if len(table.cards[them][f]) >= 3 and not (last and last[0] == f + 1 and last[1] in table.cards[them][f]):
            order.append((f, 1 - me))
    order += [(f, me) for f in range(9) if len(table.cards[SIDES[me]][f]) >= 3]
    if last and len(table.cards[them][last[0] - 1]) >= 3 and last[1] in table.cards[them][last[0] - 1]:
        order.append((last[0] - 1, 1 - me))
    done = {key: i + 1 for i, key in enumerate(order)}
    tokens = ["battleline", f"ruleset={CLASSIC_RULESET}"]
    tokens.append("opts=" + ",".join(f"{k}:{v}" for k, v in CLASSIC_OPTIONS.items()))
    tokens += [f"to={me}", "phase=play", f"n={len(order) + on_table + 1}"]
    for f in range(9):
        claim = table.claims[f]
        parts = ["-" if claim not in seat_of else str(seat_of[claim])]
        for seat in (0, 1):
            cards = table.cards[SIDES[seat]][f]
            mark = done.get((f, seat))
            parts.append(".".join(cards) + (f":{mark}" if mark is not None else ""))
        parts.append("")
        text = "/".join(parts)
        if text != "-///":
            tokens.append(f"f{f + 1}={text}")
    hands = {me: table.hand, 1 - me: hand_them}
    tokens += [f"h0={'.'.join(hands[0])}", f"h1={'.'.join(hands[1])}", f"td={'.'.join(deck)}"]
    return " ".join(tokens)


def build_state(table: ClassicTable, rng: random.Random) -> State:
    """A full ``battleline-basic`` state consistent with ``table``; the unseen cards dealt at random."""
    from frontlines.games import parse_state

    return parse_state(state_notation(table, rng))


def serve_classic(bot: Bot, name: str | None = None, seed: int | None = None) -> int:
    return ClassicEngine(bot, name=name, seed=seed).serve()


__all__ = [
    "CLASSIC_OPTIONS",
    "CLASSIC_RULESET",
    "ClassicEngine",
    "ClassicExternalBot",
    "ClassicTable",
    "automatic_action",
    "build_view",
    "classic_game_options",
    "from_classic_card",
    "parse_play",
    "repaired_play",
    "serve_classic",
    "status_lines",
    "to_classic_card",
]
