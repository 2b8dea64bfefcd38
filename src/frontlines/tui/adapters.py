"""What differs per game on the terminal table, chosen once per screen with :func:`ui_for`.

The game and replay screens are written for every game; each game's adapter gives them its
board widget, its tracker, the words of each step of a move, its keys and what its flags (or
positions) answer when clicked. Rules differences come from the view's ``features``, never
from the ruleset's name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text

from frontlines.core.errors import FrontlinesError
from frontlines.core.game import State
from frontlines.core.reasons import english
from frontlines.games import game_module
from frontlines.tui.cards import card_name, tactics_help
from frontlines.tui.steps import (
    ACTION,
    BUTTON,
    CARD,
    CLAIM,
    DECK,
    END,
    FLAG,
    HAND,
    Move,
    Token,
    battleline_path,
    card_locations,
    moves_with,
    one_step,
    warmachine_path,
)
from frontlines.tui.warmachine import COUNTRY, COUNTRY_NAMES, END_KEYS, end_words, legend, score_lines
from frontlines.tui.widgets import BattleLineBoard, WarMachineBoard, tracker_text
from frontlines.tui.words import claim_explanation, flag_details, plural

_DECK_KEYS = {"t": "troop", "a": "tactics"}
_BUTTON_KEYS = {"p": "pass", "e": "end"}
_GUILE_NAMES = ("RE", "DE", "TR")  # guile cards that take a card off the table


class GameUI:
    """The generic table: no tracker, no claims, every choice listed by number."""

    game: ClassVar[str] = ""
    claims: ClassVar[bool] = False  # "c" claims, "i" explains a flag, flag clicks explain
    place_word: ClassVar[str] = "Position/pile"  # what the digit keys pick
    narrow_tracker: ClassVar[bool] = False  # a tracker of 16 cells (a legend), not 24

    def board(self) -> BattleLineBoard | WarMachineBoard:
        return WarMachineBoard(id="board")

    def moves(self, view: Mapping[str, Any]) -> list[Move]:
        """Every legal entry of the view with the path of choices that builds it."""
        return moves_with(view, one_step)

    @property
    def has_tracker(self) -> bool:
        return False

    def tracker(self, view: Mapping[str, Any], width: int = 23, height: int = 8) -> Text:
        """The tracker pane's text, in ``width`` x ``height`` cells."""
        return Text()

    def key_token(self, key: str, options: Sequence[Token]) -> Token | None:
        """The choice a letter key makes now, if any."""
        return None

    def card_owner(self, head: Token | None, me: int) -> int:
        """Whose table card a ``card`` step picks, once the move began with ``head``."""
        return me

    def option_line(self, token: Token, index: int, prefix: Sequence[Token] = ()) -> tuple[str, str]:
        """Key and label of a choice listed one per line (set-up takes, War Machine ends),
        once the move began with ``prefix``."""
        return str(index), token.value

    def end_text(self, view: Mapping[str, Any], names: Sequence[str]) -> str:
        """What the end of the game shows under the result (a score's breakdown)."""
        return ""

    def question(self, prefix: Sequence[Token], options: Sequence[Token], candidates: Sequence[Move],
                 view: Mapping[str, Any]) -> str:
        """What the current step asks, in words."""
        return "Choose (arrows + Enter, Esc back)."

    def move_note(self, move: Move, view: Mapping[str, Any]) -> str:
        """A line to show once ``move`` is played (a claim's proof)."""
        return ""

    def claim_list(self, view: Mapping[str, Any], provable: Sequence[int]) -> Text:
        """The ``c`` key: each flag that can be claimed now, with its proof."""
        return Text()

    def place_text(self, view: Mapping[str, Any], place: int, viewer: int) -> str | None:
        """Everything about one flag (the ``i`` key, a click), or ``None``."""
        return None

    def claim_refusal(self, view: Mapping[str, Any], place: int) -> str | None:
        """Why flag ``place`` cannot be claimed now, or ``None``."""
        return None

    def place_refusal(self, state: State, view: Mapping[str, Any], prefix: Sequence[Token], place: int) -> str:
        """Why the digit ``place`` is refused at this step of the move, in the game's words."""
        return f"{self.place_word} {place} is not possible here."

    def hand_refusal(self, state: State, view: Mapping[str, Any], code: str) -> str:
        """Why the hand card ``code`` cannot be played now, in the game's words."""
        return f"{card_name(code, view.get('card_names'))} cannot be played now."


class BattleLineUI(GameUI):
    game = "battleline"
    claims = True
    place_word = "Flag"

    def board(self) -> BattleLineBoard | WarMachineBoard:
        return BattleLineBoard(id="board")

    def moves(self, view: Mapping[str, Any]) -> list[Move]:
        where = card_locations(view)
        return in_table_order(moves_with(view, lambda entry: battleline_path(entry, view, where)), view)

    @property
    def has_tracker(self) -> bool:
        return True

    def tracker(self, view: Mapping[str, Any], width: int = 23, height: int = 8) -> Text:
        return tracker_text(view, width, height)

    def key_token(self, key: str, options: Sequence[Token]) -> Token | None:
        wanted = [Token(DECK, _DECK_KEYS[key])] if key in _DECK_KEYS else []
        if key in _BUTTON_KEYS:
            wanted.append(Token(BUTTON, _BUTTON_KEYS[key]))
        if key == "x":  # Redeploy: discard the card
            wanted.append(Token(FLAG, "x"))
        return next((t for t in wanted if t in options), None)

    def card_owner(self, head: Token | None, me: int) -> int:
        # Deserter and Traitor pick one of the opponent's cards; Redeploy one of your own
        return 1 - me if head is not None and head.value in ("DE", "TR") else me

    def question(self, prefix: Sequence[Token], options: Sequence[Token], candidates: Sequence[Move],
                 view: Mapping[str, Any]) -> str:
        kinds = {t.kind for t in options}
        if not prefix:
            move_kinds = {m.kind for m in candidates}
            if "scout_return" in move_kinds:
                return "Scout: put a card back on top of its deck: pick it from your hand (1-9)."
            if "scout_draw" in move_kinds:
                return "Scout: draw a card: t troop deck, a tactics deck."
            parts = []
            if HAND in kinds:
                parts.append("Pick a card from your hand (1-9 or click).")
            if DECK in kinds:
                decks = " or ".join(f"{k} {v}" for k, v in _DECK_KEYS.items() if Token(DECK, v) in options)
                parts.append(f"Draw: {decks}.")
            if Token(BUTTON, "pass") in options:
                parts.append("p: pass (no troop can be played).")
            if Token(BUTTON, "end") in options:
                parts.append("e: end the turn.")
            if CLAIM in kinds:
                flags = " ".join(t.value for t in options if t.kind == CLAIM)
                parts.append(f"c: claim (provable now: {flags}).")
            if ACTION in kinds:
                parts.append("Choose an action (1-9 or arrows + Enter).")
            return " ".join(parts)
        head, last = prefix[0], prefix[-1]
        if head.kind == HAND and head.value in _GUILE_NAMES:
            name = card_name(head.value, view.get("card_names"))  # Schotten Totten: Strategist, Banshee
            picked = [t.value for t in prefix if t.kind == CARD]
            if FLAG in kinds and not picked:
                whose = "your" if head.value == "RE" else "the opponent's"
                what = "troop" if head.value == "TR" else "card"
                return f"{name}: at which flag is {whose} {what}? (1-9, Esc back)"
            if CARD in kinds:
                listed = "  ".join(f"{i} {t.value}" for i, t in enumerate(options, 1) if t.kind == CARD)
                return f"{name}: which card? {listed} (from the flag outward; Esc back)"
            if picked and FLAG in kinds:
                extra = ", x to discard it" if Token(FLAG, "x") in options else ""
                side = "your side of which flag" if head.value == "TR" else "which flag"
                return f"{name} {picked[0]}: move it to {side}? (1-9{extra}, Esc back)"
        if last.kind == HAND and FLAG in kinds:
            code = last.value
            features = view.get("features") or {}
            what = tactics_help(code, str(features.get("family", "")))
            extra = f" - {what}" if what else ""
            barred = [f"{f['index']} {f['battlefield'].get('name', '')}" for f in view.get("flags") or []
                      if (f.get("battlefield") or {}).get("face_up") and f.get("claimed_by") is None
                      and Token(FLAG, str(f["index"])) not in options]
            # a battlefield's rule would otherwise hide behind "i N"
            barred_note = f"; {', '.join(barred)} {plural(len(barred), 'refuses', 'refuse', number=False)} it (i N: why)" if barred else ""
            return (f"Play {card_name(code, view.get('card_names'))}{extra}: to which flag? "
                    f"(1-9, Esc back{barred_note})")
        return super().question(prefix, options, candidates, view)


    def move_note(self, move: Move, view: Mapping[str, Any]) -> str:
        flag = _flag(view, int(move.entry.get("flag") or 0)) if move.kind == "claim" else None
        return claim_explanation(flag, view.get("formation_names")).replace("can be claimed", "claimed") if flag is not None else ""

    def claim_list(self, view: Mapping[str, Any], provable: Sequence[int]) -> Text:
        if not provable:
            return Text("Nothing can be proved yet; press a flag number to see why.", style="yellow")
        out = Text()
        for index in provable:
            flag = _flag(view, index)
            if flag is not None:
                out.append(claim_explanation(flag, view.get("formation_names")) + "\n", style="green")
        return out

    def place_text(self, view: Mapping[str, Any], place: int, viewer: int) -> str | None:
        flag = _flag(view, place)
        if flag is None:
            return None
        text = flag_details(flag, viewer, ["you" if s == viewer else "opponent" for s in (0, 1)])
        return text + "\n" + claim_explanation(flag, view.get("formation_names")) if flag.get("claim") else text

    def place_refusal(self, state: State, view: Mapping[str, Any], prefix: Sequence[Token], place: int) -> str:
        head = prefix[0].value if prefix else ""
        card = next((t.value for t in prefix if t.kind == CARD), None)
        if len(prefix) == 1 and head not in _GUILE_NAMES:
            texts = [f"{head}@{place}"]
        elif card is not None and head in ("RE", "TR"):
            texts = [f"{head}:{card}>{place}"]
        else:  # the flag a guile card takes from: no card there it may take
            whose = "your" if head == "RE" else "the opponent's"
            return f"Flag {place}: no card of {whose} there can be taken now."
        return f"Flag {place} is not possible: {_explain(state, texts, view)}"

    def hand_refusal(self, state: State, view: Mapping[str, Any], code: str) -> str:
        name = card_name(code, view.get("card_names"))
        me = int(view.get("viewer") or 0)
        if code == "SC":
            texts = ["SC"]
        elif code in ("RE", "DE", "TR"):
            owner = me if code == "RE" else 1 - me
            cards = [c for seat, c in card_locations(view) if seat == owner]
            if not cards:
                whose = "you have" if code == "RE" else "the opponent has"
                return f"{name} cannot be played now: {whose} no card at an unclaimed flag."
            texts = [f"RE:{c}>x" if code == "RE" else f"DE:{c}" if code == "DE" else f"TR:{c}>{f}"
                     for c in cards for f in range(1, 10)]
        else:
            texts = [f"{code}@{f}" for f in range(1, 10)]
        return f"{name} cannot be played now: {_explain(state, texts, view)}"

    def claim_refusal(self, view: Mapping[str, Any], place: int) -> str | None:
        flag = _flag(view, place)
        if flag is None:
            return None
        text = claim_explanation(flag, view.get("formation_names"))
        if (flag.get("claim") or {}).get("claimable"):
            text = f"Flag {place} is provable, but claims are not allowed at this point of the turn."
        battlefield = flag.get("battlefield")
        if battlefield and battlefield.get("face_up"):
            text += f"\nBattlefield {battlefield.get('name', '')}: {battlefield.get('text', '')}"
        return text


def _explain(state: State, texts: Sequence[str], view: Mapping[str, Any] | None = None) -> str:
    """The game's reason why none of the action ``texts`` is legal, in the game module's
    English words (``State.why_not``'s reason codes; cards by their names in ``view``'s
    ruleset): the one reason they share, or the distinct reasons (a few) when they differ."""
    words = game_module(state.game).reason_words
    names = (view or {}).get("card_names")

    def show(name: str, value: int | str) -> str:
        return card_name(str(value), names) if name == "card" else str(value)

    reasons: dict[str, None] = {}
    for text in texts:
        try:
            action = state.parse_action(text)
        except FrontlinesError:
            continue
        reason = state.why_not(action)
        if reason is not None:
            reasons.setdefault(english(reason, words, show), None)
    if not reasons:
        return "no such move in this game."
    found = list(reasons)
    return _sentence(found[0] if len(found) == 1 else "; ".join(found[:3]))


def _sentence(text: str) -> str:
    """``text`` ending in exactly one full stop."""
    text = text.strip().rstrip(".")
    return text + "." if text else text


_TAKES = ("redeploy", "deserter", "traitor")  # moves that pick a card off the table


def in_table_order(moves: list[Move], view: Mapping[str, Any]) -> list[Move]:
    """``moves`` with the Redeploy, Deserter and Traitor entries sorted by where their card
    lies on its flag (from the flag outward, as the table draws them), so that the number a
    player presses to pick a card is its place on the table, not its place in the engine's
    list (which is sorted by code). Every other move keeps its place."""
    depth: dict[tuple[int, str], int] = {}
    for flag in view.get("flags") or []:
        for seat, side in enumerate(flag.get("sides") or []):
            depth.update({(seat, code): i for i, code in enumerate(side)})
    me = int(view.get("viewer") or 0)
    first = {kind: next(i for i, m in enumerate(moves) if m.kind == kind) for kind in {m.kind for m in moves}}

    def place(move: Move) -> tuple[int, int]:
        owner = me if move.kind == "redeploy" else 1 - me
        return first[move.kind], depth.get((owner, str(move.entry.get("card", ""))), 0)

    slots = [i for i, m in enumerate(moves) if m.kind in _TAKES]
    ordered = list(moves)
    for slot, move in zip(slots, sorted((moves[i] for i in slots), key=place), strict=True):
        ordered[slot] = move
    return ordered


def _flag(view: Mapping[str, Any], index: int) -> Mapping[str, Any] | None:
    """The view's entry for flag ``index`` (1-9), if there is one."""
    flags = view.get("flags") or []
    return flags[index - 1] if 1 <= index <= len(flags) else None


class WarMachineUI(GameUI):
    game = "warmachine"
    narrow_tracker = True

    def moves(self, view: Mapping[str, Any]) -> list[Move]:
        return moves_with(view, warmachine_path)

    def key_token(self, key: str, options: Sequence[Token]) -> Token | None:
        wanted = [Token(BUTTON, "skip")] if key == "p" else []
        if key in END_KEYS:
            wanted.append(Token(END, END_KEYS[key]))
        return next((t for t in wanted if t in options), None)

    @property
    def has_tracker(self) -> bool:
        return True

    def tracker(self, view: Mapping[str, Any], width: int = 23, height: int = 8) -> Text:
        return legend(height)  # the hand's letters and the table's country codes

    def option_line(self, token: Token, index: int, prefix: Sequence[Token] = ()) -> tuple[str, str]:
        if token.kind == END:
            keys = {v: k for k, v in END_KEYS.items()}
            card = prefix[-1].value if prefix and prefix[-1].kind == HAND else ""
            return keys.get(token.value, str(index)), end_words(card, token.value)
        return super().option_line(token, index, prefix)

    def end_text(self, view: Mapping[str, Any], names: Sequence[str]) -> str:
        return score_lines(view, names)

    def place_refusal(self, state: State, view: Mapping[str, Any], prefix: Sequence[Token], place: int) -> str:
        if len(prefix) == 2 and prefix[0].kind == HAND and prefix[1].kind == END and prefix[1].value != "burn":
            mark = "^" if prefix[1].value == "war_machine" else "v"
            return f"Position {place} is not possible: {_explain(state, [f'{prefix[0].value}{mark}{place}'], view)}"
        if not prefix:  # a support pile to draw from
            return f"Pile {place} is not possible: {_explain(state, [f'draw:{place}'], view)}"
        return super().place_refusal(state, view, prefix, place)

    def hand_refusal(self, state: State, view: Mapping[str, Any], code: str) -> str:
        texts = [f"{code}{mark}{p}" for mark in "^v" for p in range(1, 7)] + [f"burn:{code}"]
        return f"{code} cannot be played now: {_explain(state, texts, view)}"

    def question(self, prefix: Sequence[Token], options: Sequence[Token], candidates: Sequence[Move],
                 view: Mapping[str, Any]) -> str:
        kinds = {t.kind for t in options}
        if not prefix:
            if ACTION in kinds:
                return "Set-up: take the leftover cards (1 = take 1 and move first, 2 = take 2, move second)."
            parts = []
            if HAND in kinds:
                parts.append("Pick a card to send or burn (1-9 or click).")
            if FLAG in kinds:
                left = view.get("draws_left") or 1
                parts.append(f"Draw from which support pile? (1-6; {left} to draw)")
            if Token(BUTTON, "skip") in options:
                parts.append("p: skip (nothing can be done).")
            return " ".join(parts)
        if prefix[-1].kind == HAND:
            card = prefix[-1].value
            ends = "/".join(COUNTRY_NAMES.get(COUNTRY.get(letter, ""), letter) for letter in card)
            return f"Card {card} ({ends}): which end up?"
        if prefix[-1].kind == END:
            words = end_words(prefix[0].value, prefix[-1].value).split(" (")[0]
            return f"Send {prefix[0].value} ({words}) to which position? (1-6)"
        return super().question(prefix, options, candidates, view)


_ADAPTERS: dict[str, type[GameUI]] = {ui.game: ui for ui in (BattleLineUI, WarMachineUI)}


def ui_for(game: str) -> GameUI:
    """The adapter of ``game`` (the generic one for a game without its own)."""
    return _ADAPTERS.get(game, GameUI)()


def moves_from_view(view: Mapping[str, Any]) -> list[Move]:
    """Every legal entry of ``view`` with its path, by the adapter of the view's game."""
    return ui_for(str(view.get("game", ""))).moves(view)
